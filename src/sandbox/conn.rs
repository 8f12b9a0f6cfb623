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

use axum::extract::connect_info::Connected;
use axum::serve::{IncomingStream, Listener};
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

pub struct KillableListener {
    inner: TcpListener,
}

impl KillableListener {
    pub fn new(inner: TcpListener) -> Self {
        Self { inner }
    }
}

/// The connection a request came on, with its kill switch.
#[derive(Clone, Debug)]
pub struct Conn {
    killed: Arc<AtomicBool>,
}

impl Conn {
    /// Ends the connection without a response; the handler's answer is never written.
    pub fn kill(&self) {
        self.killed.store(true, Ordering::SeqCst);
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
                    let killed = Arc::new(AtomicBool::new(false));
                    let conn = Conn {
                        killed: killed.clone(),
                    };
                    return (
                        KillableStream {
                            inner: stream,
                            killed,
                        },
                        conn,
                    );
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
        Ok(Conn {
            killed: Arc::new(AtomicBool::new(false)),
        })
    }
}

pub struct KillableStream {
    inner: TcpStream,
    killed: Arc<AtomicBool>,
}

impl KillableStream {
    /// `Some(error)` once the switch is thrown; arms the reset for when hyper drops us.
    fn check(&self) -> Option<io::Error> {
        if !self.killed.load(Ordering::SeqCst) {
            return None;
        }
        let _ = self.inner.set_zero_linger();
        Some(io::Error::new(
            io::ErrorKind::ConnectionReset,
            "connection dropped by an injected fault",
        ))
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
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
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
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        if let Some(e) = self.check() {
            return Poll::Ready(Err(e));
        }
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
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
