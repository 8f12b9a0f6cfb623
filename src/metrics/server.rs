//! The tiny HTTP server behind `--metrics-listen`: `GET /metrics` answers the exposition
//! of the [`Board`]; every other path is 404. It runs on the watch's runtime (axum), binds
//! the address given, and stops when told.

use super::{Board, CONTENT_TYPE, scrape};
use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use std::net::SocketAddr;
use tokio::net::TcpListener;

/// Whether the address is reachable from elsewhere than this machine (then the caller
/// warns: the metrics name the services of an account).
pub fn is_exposed(addr: &SocketAddr) -> bool {
    !addr.ip().is_loopback()
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
    let app = Router::new().route(
        "/metrics",
        get(move || {
            let board = board.clone();
            async move { ([(header::CONTENT_TYPE, CONTENT_TYPE)], scrape(&board)).into_response() }
        }),
    );
    let task = tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app)
            .with_graceful_shutdown(stop)
            .await
        {
            tracing::warn!("metrics server: {e}");
        }
    });
    Ok((bound, task))
}
