//! What happens to every request before and after the API proper: it is recorded, waits
//! the configured latency, and may meet an injected fault ([`super::faults`]).
//!
//! Choices:
//! - The log entry is made when the request has arrived (so the log is in arrival order)
//!   and its `status` filled in when the answer leaves; `0` means no answer was sent (a
//!   `drop`, `drop-after` or `hang`, or one still in progress).
//! - Request bodies above [`BODY_LIMIT`] (1 MiB; the spec shows no limit) answer 413.
//! - `path` is the path as sent, with the query string if there was one.

use super::RecordedRequest;
use super::conn::Conn;
use super::errors::{text, with_type};
use super::faults::{FaultKind, nginx_page};
use super::shared::Shared;
use axum::body::{Body, to_bytes};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use std::time::Duration;

pub const BODY_LIMIT: usize = 1 << 20;

pub async fn handle(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    let conn = request
        .extensions()
        .get::<ConnectInfo<Conn>>()
        .map(|c| c.0.clone());
    // The connection is not idle while this is answered (see `conn::IDLE_CLOSE`).
    let _answering = conn.as_ref().map(Conn::answering);
    let method = request.method().to_string();
    let (request, index) = match arrive(&shared, request).await {
        Ok(arrived) => arrived,
        Err(refused) => return refused,
    };
    shared.pause(shared.latency()).await;
    let response = match shared.draw_fault(&method, request.uri().path()) {
        None => Some(next.run(request).await),
        Some((kind, slow)) => with_fault(&shared, kind, slow, request, next).await,
    };
    match (response, conn) {
        (Some(response), _) => {
            shared.set_status(index, response.status().as_u16());
            response
        }
        (None, Some(conn)) => {
            conn.kill();
            // Never written: the killed stream fails hyper's first write.
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
        // Served without connection info (not through `Sandbox::start`): the nearest
        // thing to a dropped connection is a bare 502, which is recorded as such.
        (None, None) => {
            shared.set_status(index, 502);
            StatusCode::BAD_GATEWAY.into_response()
        }
    }
}

/// Reads the body and logs the request; a body over the limit is answered at once.
async fn arrive(shared: &Shared, request: Request) -> Result<(Request, usize), Response> {
    let (parts, body) = request.into_parts();
    let body = to_bytes(body, BODY_LIMIT).await;
    let header = |name: HeaderName| header_text(&parts.headers, name);
    let index = shared.record(RecordedRequest {
        method: parts.method.to_string(),
        path: parts
            .uri
            .path_and_query()
            .map_or_else(|| parts.uri.path().to_owned(), |p| p.as_str().to_owned()),
        body: body
            .as_ref()
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .unwrap_or_default(),
        authorization: header(header::AUTHORIZATION),
        content_type: header(header::CONTENT_TYPE),
        accept: header(header::ACCEPT),
        status: 0,
    });
    match body {
        Ok(body) => Ok((Request::from_parts(parts, Body::from(body)), index)),
        Err(_) => {
            shared.set_status(index, 413);
            Err(text(StatusCode::PAYLOAD_TOO_LARGE, "Payload Too Large"))
        }
    }
}

fn header_text(headers: &HeaderMap, name: HeaderName) -> Option<String> {
    headers
        .get(name)
        .map(|v: &HeaderValue| String::from_utf8_lossy(v.as_bytes()).into_owned())
}

/// The answer under a fault; `None` for no answer at all (the connection is killed).
async fn with_fault(
    shared: &Shared,
    kind: FaultKind,
    slow: Duration,
    request: Request,
    next: Next,
) -> Option<Response> {
    match kind {
        FaultKind::Html500 => Some(html(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Internal Server Error",
        )),
        FaultKind::BadGateway502 => Some(html(StatusCode::BAD_GATEWAY, "Bad Gateway")),
        FaultKind::Unavailable503 => {
            let mut r = html(
                StatusCode::SERVICE_UNAVAILABLE,
                "Service Temporarily Unavailable",
            );
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
            Some(r)
        }
        FaultKind::Truncated => Some(truncate(next.run(request).await).await),
        // The request is processed; only its answer is lost or mangled on the way back.
        FaultKind::WrongShape => {
            next.run(request).await;
            Some(with_type(
                StatusCode::OK,
                r#"{"unexpected":true}"#,
                "application/json",
            ))
        }
        FaultKind::Empty => {
            next.run(request).await;
            Some(with_type(StatusCode::OK, "", "application/json"))
        }
        FaultKind::DropAfter => {
            next.run(request).await;
            None
        }
        FaultKind::Slow => {
            shared.pause(slow).await;
            Some(next.run(request).await)
        }
        FaultKind::Drop => None,
        FaultKind::Hang => {
            shared.until_shutdown().await;
            None
        }
    }
}

fn html(status: StatusCode, reason: &str) -> Response {
    with_type(status, nginx_page(status.as_u16(), reason), "text/html")
}

/// The real answer with its body cut in half, as a complete (short) message.
async fn truncate(response: Response) -> Response {
    let (mut parts, body) = response.into_parts();
    let bytes = to_bytes(body, usize::MAX).await.unwrap_or_default();
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(bytes.slice(..bytes.len() / 2)))
}
