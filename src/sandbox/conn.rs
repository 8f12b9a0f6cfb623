//! A TCP listener whose connections a handler can kill: how `drop`, `drop-after` and
//! `hang` faults end a connection without an HTTP response.
//!
//! Axum offers no way for a handler to close its connection. So every accepted stream is
//! wrapped with a kill switch, and the switch is handed to the request as its connection
//! info ([`Conn`], via `ConnectInfo`). After the switch is thrown, the next read or write
//! on the stream fails and the socket is closed with a reset (`SO_LINGER` 0): hyper gives
//! up before a single byte of the response is written, and the client sees a connection
//! error (reset, or "connection closed before message completed"), exactly as when a
//! server process dies mid-request. (Over HTTP/2 the whole connection goes, with every
//! request multiplexed on it, as it would when a server dies; clients of this API speak
//! HTTP/1.1 to a plain-http sandbox.)
//!
//! The same wrapper closes a keep-alive connection left idle (no request being answered,
//! no byte either way) for [`IDLE_CLOSE`], as live servers do: axum's server keeps one
//! open for as long as the client does, so a client that never lets go (a script, a pool
//! without a timeout) would hold a descriptor of the sandbox forever. The limit is longer
//! than [`crate::api::POOL_IDLE_TIMEOUT`], so the dashboard's own client always lets go
//! first: a server that closes first races the client's next request, and a write lost in
//! that race could not be sent again. Closing is an end of file handed to hyper while it
//! waits for the next request, after which it closes the socket as for a client that left.

use axum::extract::connect_info::Connected;
use axum::serve::{IncomingStream, Listener};
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::{Instant, Sleep};

/// How long a connection may sit idle before the sandbox closes it (nginx's default is
/// 75 s; this is longer than the dashboard's pool keeps one, see the module docs).
pub const IDLE_CLOSE: Duration = Duration::from_secs(120);

const _: () = assert!(IDLE_CLOSE.as_secs() > crate::api::POOL_IDLE_TIMEOUT.as_secs());

pub struct KillableListener {
    inner: TcpListener,
}

impl KillableListener {
    pub fn new(inner: TcpListener) -> Self {
        Self { inner }
    }
}

/// The connection a request came on, with its kill switch.
#[derive(Clone, Debug, Default)]
pub struct Conn {
    state: Arc<ConnState>,
}

#[derive(Debug, Default)]
struct ConnState {
    killed: AtomicBool,
    /// Requests being answered on this connection: while there are some it is not idle,
    /// however long a handler takes (`slow`, `hang`, latency).
    answering: AtomicUsize,
}

impl Conn {
    /// Ends the connection without a response; the handler's answer is never written.
    pub fn kill(&self) {
        self.state.killed.store(true, Ordering::SeqCst);
    }

    /// Marks a request as being answered until the guard is dropped.
    pub fn answering(&self) -> Answering {
        self.state.answering.fetch_add(1, Ordering::SeqCst);
        Answering(self.state.clone())
    }

    fn killed(&self) -> bool {
        self.state.killed.load(Ordering::SeqCst)
    }

    fn busy(&self) -> bool {
        self.state.answering.load(Ordering::SeqCst) > 0
    }
}

/// A request being answered (see [`Conn::answering`]).
pub struct Answering(Arc<ConnState>);

impl Drop for Answering {
    fn drop(&mut self) {
        self.0.answering.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Connected<IncomingStream<'_, KillableListener>> for Conn {
    fn connect_info(stream: IncomingStream<'_, KillableListener>) -> Self {
        stream.remote_addr().clone()
    }
}

impl Listener for KillableListener {
    type Io = KillableStream;
    type Addr = Conn;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            match self.inner.accept().await {
                Ok((stream, _remote)) => {
                    // Small JSON answers: do not let Nagle hold them back (latency tests).
                    let _ = stream.set_nodelay(true);
                    let conn = Conn::default();
                    return (KillableStream::new(stream, conn.clone()), conn);
                }
                // Out of file descriptors and the like: wait instead of spinning; the
                // listener itself stays usable.
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    }

    /// Only there to satisfy the trait (the address type is the kill switch); the
    /// sandbox reads its address from the `TcpListener` before wrapping it.
    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.inner.local_addr()?;
        Ok(Conn::default())
    }
}

pub struct KillableStream {
    inner: TcpStream,
    conn: Conn,
    /// The last byte read or written.
    last_io: Instant,
    /// Wakes the reader when the connection may have been idle for [`IDLE_CLOSE`]; moved
    /// on only then (not at every byte), to where the last byte says.
    idle: Pin<Box<Sleep>>,
    /// Closed for being idle: every read from now on is the end of the stream.
    closed: bool,
}

impl KillableStream {
    fn new(inner: TcpStream, conn: Conn) -> Self {
        let now = Instant::now();
        Self {
            inner,
            conn,
            last_io: now,
            idle: Box::pin(tokio::time::sleep_until(now + IDLE_CLOSE)),
            closed: false,
        }
    }

    /// `Some(error)` once the switch is thrown; arms the reset for when hyper drops us.
    fn check(&self) -> Option<io::Error> {
        if !self.conn.killed() {
            return None;
        }
        let _ = self.inner.set_zero_linger();
        Some(io::Error::new(
            io::ErrorKind::ConnectionReset,
            "connection dropped by an injected fault",
        ))
    }

    /// Whether the connection has been idle for [`IDLE_CLOSE`]; if not, the timer is set
    /// to wake the reader when it may have been.
    fn idle_for_too_long(&mut self, cx: &mut Context<'_>) -> bool {
        loop {
            let due = self.last_io + IDLE_CLOSE;
            if self.idle.deadline() != due {
                self.idle.as_mut().reset(due);
            }
            if self.idle.as_mut().poll(cx).is_pending() {
                return false;
            }
            if !self.conn.busy() {
                return true;
            }
            // A handler is still at work: the idle time starts with its answer.
            self.last_io = Instant::now();
        }
    }

    /// Notes traffic when `result` moved bytes.
    fn saw<T>(&mut self, result: Poll<io::Result<T>>, moved: bool) -> Poll<io::Result<T>> {
        if moved && matches!(result, Poll::Ready(Ok(_))) {
            self.last_io = Instant::now();
        }
        result
    }
}

impl AsyncRead for KillableStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if let Some(e) = self.check() {
            return Poll::Ready(Err(e));
        }
        let this = self.get_mut();
        if this.closed {
            return Poll::Ready(Ok(()));
        }
        let before = buf.filled().len();
        let result = Pin::new(&mut this.inner).poll_read(cx, buf);
        if result.is_pending() && this.idle_for_too_long(cx) {
            // Nothing read: hyper takes it for the client's leaving and closes.
            this.closed = true;
            return Poll::Ready(Ok(()));
        }
        let moved = buf.filled().len() > before;
        this.saw(result, moved)
    }
}

impl AsyncWrite for KillableStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if let Some(e) = self.check() {
            return Poll::Ready(Err(e));
        }
        let this = self.get_mut();
        let result = Pin::new(&mut this.inner).poll_write(cx, buf);
        let moved = matches!(result, Poll::Ready(Ok(n)) if n > 0);
        this.saw(result, moved)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        if let Some(e) = self.check() {
            return Poll::Ready(Err(e));
        }
        let this = self.get_mut();
        let result = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        let moved = matches!(result, Poll::Ready(Ok(n)) if n > 0);
        this.saw(result, moved)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if let Some(e) = self.check() {
            return Poll::Ready(Err(e));
        }
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}
