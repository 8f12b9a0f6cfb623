//! The tiny HTTP server behind `--metrics-listen`: `GET /metrics` answers the exposition
//! of the [`Board`]; any other path is 404, any other method 405. It runs on the watch's
//! runtime, binds the address given, and stops when told.
//!
//! Choices (clients of this port are not trusted: it may be bound beyond loopback, and it
//! has no authentication):
//! - hyper's HTTP/1 server directly (hyper is already here for the probe), so the slim
//!   build without the sandbox (and axum) serves metrics too.
//! - One request per connection (no keep-alive), and the whole connection within
//!   [`DEADLINE`] (5 s): a client that sends half a request head, or none, or reads the
//!   answer slowly, is dropped then. A scrape takes milliseconds.
//! - At most [`connection_cap`] connections at once (64, fewer under a low descriptor
//!   limit: the soft `RLIMIT_NOFILE` less [`RESERVE`] kept for the API, the history and
//!   the log). Beyond it nothing more is accepted: the others wait in the kernel's queue,
//!   holding no descriptor of ours, so a flood of idle clients delays scrapes by a
//!   deadline at most and never starves the watcher's own requests of descriptors.
//! - An accept that fails (descriptors exhausted by something else) is retried after
//!   [`ACCEPT_PAUSE`] rather than in a tight loop.

use super::{Board, CONTENT_TYPE, scrape};
use bytes::Bytes;
use http_body_util::Full;
use hyper::{Method, Request, Response, StatusCode, header};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// The longest one connection may take, request head included.
pub const DEADLINE: Duration = Duration::from_secs(5);
/// The most connections served at once.
pub const MAX_CONNECTIONS: usize = 64;
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

/// How many connections are served at once: [`MAX_CONNECTIONS`], or fewer when the soft
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

/// Binds `addr` (port 0 picks one) and serves until `stop` resolves; returns the bound
/// address and the server's task.
pub async fn serve(
    addr: SocketAddr,
    board: Board,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<(SocketAddr, tokio::task::JoinHandle<()>)> {
    let listener = TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    let slots = Arc::new(Semaphore::new(connection_cap()));
    let task = tokio::spawn(async move {
        tokio::pin!(stop);
        let mut told = false;
        loop {
            let permit = tokio::select! {
                () = &mut stop => break,
                p = slots.clone().acquire_owned() => match p {
                    Ok(p) => p,
                    Err(_) => break,
                },
            };
            let accepted = tokio::select! {
                () = &mut stop => break,
                a = listener.accept() => a,
            };
            let stream = match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    if !std::mem::replace(&mut told, true) {
                        tracing::warn!("metrics server: cannot accept a connection: {e}");
                    }
                    tokio::time::sleep(ACCEPT_PAUSE).await;
                    continue;
                }
            };
            let board = board.clone();
            tokio::spawn(async move {
                let _slot = permit;
                let service = hyper::service::service_fn(move |request: Request<_>| {
                    let answer = answer(request.method(), request.uri().path(), &board);
                    async move { Ok::<_, Infallible>(answer) }
                });
                let connection = hyper::server::conn::http1::Builder::new()
                    .keep_alive(false)
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service);
                // A client too slow (or silent) is dropped with its connection.
                let _ = tokio::time::timeout(DEADLINE, connection).await;
            });
        }
    });
    Ok((bound, task))
}

fn answer(method: &Method, path: &str, board: &Board) -> Response<Full<Bytes>> {
    let (status, content_type, body) = match (method, path) {
        (&Method::GET, "/metrics") => (StatusCode::OK, CONTENT_TYPE, scrape(board)),
        (_, "/metrics") => (
            StatusCode::METHOD_NOT_ALLOWED,
            "text/plain",
            "GET only\n".into(),
        ),
        _ => (StatusCode::NOT_FOUND, "text/plain", "not found\n".into()),
    };
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    if let Ok(value) = header::HeaderValue::from_str(content_type) {
        response.headers_mut().insert(header::CONTENT_TYPE, value);
    }
    response
}

#[cfg(test)]
#[path = "server_tests.rs"]
mod tests;
