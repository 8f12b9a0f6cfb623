//! The tiny HTTP server behind `--metrics-listen`: `GET /metrics` answers the exposition
//! of the [`Board`]; any other path is 404, any other method 405. It runs on the watch's
//! runtime, binds the address given, and stops when told.
//!
//! Clients of this port are not trusted (it may be bound beyond loopback, and it has no
//! authentication), and one local process must not be able to blind it: 300 connections
//! that each sent half a request and then a header line a second once kept one scrape in
//! three from being answered within Prometheus' 10 s. So:
//! - **The request head within [`HEAD_DEADLINE`] (2 s)**, at most [`MAX_HEAD`] of it (a
//!   larger one is answered 431), and the whole connection within [`DEADLINE`] (5 s).
//!   One request per connection. A scrape sends its head at once and takes milliseconds.
//! - **At most [`connection_cap`] connections held** (64, fewer under a low descriptor
//!   limit: the soft `RLIMIT_NOFILE` less [`RESERVE`] kept for the API, the history and the
//!   log), and **at most [`PER_PEER`] (8) from one address**.
//! - **Room for a complete request before a slow one**: connections are always accepted
//!   (the kernel's queue never fills with scrapes waiting behind idle clients); when one
//!   would pass a cap, the oldest connection still sending its head (of that address, or
//!   of any) is dropped to make room. A connection whose head is complete is never
//!   dropped for another; only when every held one is being answered is the new one
//!   closed at once. A head already waiting when the connection is accepted counts as
//!   complete from the start.
//! - An accept that fails (descriptors exhausted by something else) is retried after
//!   [`ACCEPT_PAUSE`] rather than in a tight loop.
//! - The exposition is negotiated ([`format`]): OpenMetrics when asked for, the
//!   Prometheus text format otherwise.
//! - The answer is written by hand (`HTTP/1.1`, `Connection: close`), so the slim build
//!   without the sandbox serves metrics too; the head is read with `httparse`.

use super::{Board, format, scrape};
use std::collections::VecDeque;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::task::AbortHandle;

/// The longest a client may take to send its request head.
pub const HEAD_DEADLINE: Duration = Duration::from_secs(2);
/// The longest one connection may take, its answer included.
pub const DEADLINE: Duration = Duration::from_secs(5);
/// The most connections held at once.
pub const MAX_CONNECTIONS: usize = 64;
/// The most connections held from one address.
pub const PER_PEER: usize = 8;
/// The largest request head read; a larger one is answered 431.
pub const MAX_HEAD: usize = 16 << 10;
/// Descriptors never taken by the metrics server, whatever the limit.
pub const RESERVE: u64 = 256;
/// The pause after a failed accept.
pub const ACCEPT_PAUSE: Duration = Duration::from_millis(100);

/// Whether the address is reachable from elsewhere than this machine (then the caller
/// warns: the metrics name the services of an account, and the port has no
/// authentication).
pub fn is_exposed(addr: &SocketAddr) -> bool {
    !addr.ip().is_loopback()
}

/// How many connections are held at once: [`MAX_CONNECTIONS`], or fewer when the soft
/// descriptor limit less [`RESERVE`] is lower (at least 1).
pub fn connection_cap() -> usize {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct passed and nothing else.
    let soft: u64 = match unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } {
        0 => limit.rlim_cur,
        _ => 1024,
    };
    cap_for(soft)
}

fn cap_for(soft_limit: u64) -> usize {
    let spare = soft_limit.saturating_sub(RESERVE) / 2;
    (spare.min(MAX_CONNECTIONS as u64) as usize).max(1)
}

/// One connection held.
struct Held {
    id: u64,
    peer: IpAddr,
    /// Still sending its head: may be dropped to make room.
    reading: bool,
    task: AbortHandle,
}

/// The connections held, oldest first, and the caps they are held to.
struct Table {
    held: VecDeque<Held>,
    cap: usize,
    per_peer: usize,
}

impl Table {
    /// Makes room for one more connection from `peer`; false when there is none (every
    /// connection in the way is being answered).
    fn make_room(&mut self, peer: IpAddr) -> bool {
        let of_peer = self.held.iter().filter(|h| h.peer == peer).count();
        if of_peer >= self.per_peer && !self.drop_oldest(|h| h.peer == peer && h.reading) {
            return false;
        }
        self.held.len() < self.cap || self.drop_oldest(|h| h.reading)
    }

    fn drop_oldest(&mut self, which: impl Fn(&Held) -> bool) -> bool {
        let Some(i) = self.held.iter().position(which) else {
            return false;
        };
        if let Some(h) = self.held.remove(i) {
            h.task.abort();
        }
        true
    }

    fn head_read(&mut self, id: u64) {
        if let Some(h) = self.held.iter_mut().find(|h| h.id == id) {
            h.reading = false;
        }
    }

    fn closed(&mut self, id: u64) {
        self.held.retain(|h| h.id != id);
    }
}

/// What a connection's task tells the accepting loop.
enum Told {
    HeadRead(u64),
    Closed(u64),
}

/// Binds `addr` (port 0 picks one) and serves until `stop` resolves; returns the bound
/// address and the server's task.
pub async fn serve(
    addr: SocketAddr,
    board: Board,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<(SocketAddr, tokio::task::JoinHandle<()>)> {
    let listener = TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    let table = Table {
        held: VecDeque::new(),
        cap: connection_cap(),
        per_peer: PER_PEER,
    };
    let task = tokio::spawn(accept_loop(listener, board, table, stop));
    Ok((bound, task))
}

async fn accept_loop(
    listener: TcpListener,
    board: Board,
    mut table: Table,
    stop: impl std::future::Future<Output = ()>,
) {
    tokio::pin!(stop);
    let (tell, mut told) = mpsc::unbounded_channel();
    let (mut next, mut warned) = (0u64, false);
    loop {
        let accepted = tokio::select! {
            () = &mut stop => break,
            Some(t) = told.recv() => {
                match t {
                    Told::HeadRead(id) => table.head_read(id),
                    Told::Closed(id) => table.closed(id),
                }
                continue;
            }
            a = listener.accept() => a,
        };
        let (stream, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                if !std::mem::replace(&mut warned, true) {
                    tracing::warn!("metrics server: cannot accept a connection: {e}");
                }
                tokio::time::sleep(ACCEPT_PAUSE).await;
                continue;
            }
        };
        let complete = head_waiting(&stream);
        if !table.make_room(peer.ip()) {
            continue;
        }
        next += 1;
        let id = next;
        let task = tokio::spawn(connection(id, stream, board.clone(), tell.clone()));
        table.held.push_back(Held {
            id,
            peer: peer.ip(),
            reading: !complete,
            task: task.abort_handle(),
        });
    }
    for h in table.held {
        h.task.abort();
    }
}

/// Whether the client's whole request head is already waiting (a scrape sends it at
/// once, so it is there by the time a busy loop accepts the connection): looked at with
/// `MSG_PEEK`, so the connection's task reads it as usual.
fn head_waiting(stream: &TcpStream) -> bool {
    use std::os::fd::AsRawFd;
    let mut buf = vec![0u8; MAX_HEAD];
    // SAFETY: recv writes at most `buf.len()` bytes into `buf`, which outlives the call;
    // MSG_DONTWAIT keeps it from blocking, MSG_PEEK from taking anything.
    let got = unsafe {
        libc::recv(
            stream.as_raw_fd(),
            buf.as_mut_ptr().cast(),
            buf.len(),
            libc::MSG_PEEK | libc::MSG_DONTWAIT,
        )
    };
    usize::try_from(got).is_ok_and(|n| head_end(&buf[..n]).is_some())
}

/// One connection: its head within [`HEAD_DEADLINE`], then the answer, all within
/// [`DEADLINE`]; the loop is told when the head is in and when it is over.
async fn connection(
    id: u64,
    mut stream: TcpStream,
    board: Board,
    tell: mpsc::UnboundedSender<Told>,
) {
    let _ = tokio::time::timeout(DEADLINE, async {
        let Ok(Some(head)) = tokio::time::timeout(HEAD_DEADLINE, read_head(&mut stream)).await
        else {
            return;
        };
        let _ = tell.send(Told::HeadRead(id));
        let answer = match head {
            Ok(head) => answer(&head, &board),
            Err(status) => response(status, "text/plain", status_text(status)),
        };
        if stream.write_all(&answer).await.is_ok() {
            let _ = stream.shutdown().await;
            // Whatever else the client sent (the rest of a refused head) is read and
            // dropped, so the close does not reset the connection before the answer is
            // read.
            let mut sink = [0u8; 4096];
            for _ in 0..256 {
                if !matches!(stream.read(&mut sink).await, Ok(n) if n > 0) {
                    break;
                }
            }
        }
    })
    .await;
    let _ = tell.send(Told::Closed(id));
}

/// Reads until the head is complete: `Some(Ok(head))`, `Some(Err(431))` when it passes
/// [`MAX_HEAD`], `None` when the client closed first.
async fn read_head(stream: &mut TcpStream) -> Option<Result<Vec<u8>, u16>> {
    let (mut head, mut chunk) = (Vec::new(), [0u8; 2048]);
    loop {
        if let Some(end) = head_end(&head) {
            head.truncate(end);
            return Some(Ok(head));
        }
        if head.len() > MAX_HEAD {
            return Some(Err(431));
        }
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => return None,
            Ok(n) => head.extend_from_slice(&chunk[..n]),
        }
    }
}

/// Where the head ends (past its blank line), if it does.
fn head_end(bytes: &[u8]) -> Option<usize> {
    bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| i + 4)
}

fn answer(head: &[u8], board: &Board) -> Vec<u8> {
    let mut headers = [httparse::EMPTY_HEADER; 64];
    let mut request = httparse::Request::new(&mut headers);
    match request.parse(head) {
        Ok(httparse::Status::Complete(_)) => {}
        Err(httparse::Error::TooManyHeaders) => {
            return response(431, "text/plain", status_text(431));
        }
        _ => return response(400, "text/plain", status_text(400)),
    }
    let path = request.path.unwrap_or("");
    let path = path.split_once('?').map_or(path, |(p, _)| p);
    match (request.method, path) {
        (Some("GET"), "/metrics") => {
            let accept = request
                .headers
                .iter()
                .find(|h| h.name.eq_ignore_ascii_case("accept"))
                .and_then(|h| std::str::from_utf8(h.value).ok());
            let body = scrape(board);
            if format::wants_openmetrics(accept) {
                response(200, format::OPENMETRICS, &body)
            } else {
                response(200, format::TEXT, &format::to_text(&body))
            }
        }
        (_, "/metrics") => response(405, "text/plain", "GET only\n"),
        _ => response(404, "text/plain", "not found\n"),
    }
}

fn status_text(status: u16) -> &'static str {
    match status {
        400 => "bad request\n",
        431 => "request header fields too large\n",
        _ => "\n",
    }
}

fn response(status: u16, content_type: &str, body: &str) -> Vec<u8> {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        431 => "Request Header Fields Too Large",
        _ => "Error",
    };
    let mut out = format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(body.as_bytes());
    out
}

#[cfg(test)]
#[path = "server_tests.rs"]
mod tests;
