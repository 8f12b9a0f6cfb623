//! The request to the target, over the stream [`super::connect`] made ready: one HTTP/1.1
//! `GET` with hyper's client connection, the answer's status checked and its body read up
//! to [`MAX_BODY`].

use super::connect::{Ready, Target, basic_auth};
use super::{DeadReason, ProxyTarget, Verdict};
use bytes::Bytes;
use http::header::{ACCEPT, HOST, PROXY_AUTHORIZATION, USER_AGENT};
use http_body_util::{BodyExt as _, Empty};
use std::pin::pin;

/// The most of a target's answer that is read.
pub const MAX_BODY: usize = 64 * 1024;

const AGENT: &str = concat!("proxydash/", env!("CARGO_PKG_VERSION"), " probe");

/// `GET` of the target over `ready`; the answer's body (up to [`MAX_BODY`]).
pub async fn get(ready: Ready, proxy: &ProxyTarget, target: &Target) -> Result<String, Verdict> {
    let mut request = http::Request::get(path_of(&target.url))
        .header(HOST, target.authority())
        .header(USER_AGENT, AGENT)
        .header(ACCEPT, "*/*");
    match ready {
        Ready::ToProxy(io) => {
            // An HTTP proxy is sent the whole URL, with the credentials beside it.
            request = request.uri(target.url.as_str());
            if let Some(auth) = basic_auth(proxy) {
                request = request.header(PROXY_AUTHORIZATION, auth);
            }
            exchange(io, request).await
        }
        Ready::Plain(io) => exchange(io, request).await,
        Ready::Tls(io) => exchange(io, request).await,
    }
}

/// The origin form of `url`: its path and query.
fn path_of(url: &reqwest::Url) -> String {
    match url.query() {
        Some(q) => format!("{}?{q}", url.path()),
        None => url.path().to_owned(),
    }
}

async fn exchange<T>(io: T, request: http::request::Builder) -> Result<String, Verdict>
where
    T: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let bad = |why: String| Verdict::Dead(DeadReason::BadAnswer, why);
    let request = request
        .body(Empty::<Bytes>::new())
        .map_err(|e| bad(e.to_string()))?;
    let (mut sender, connection) = hyper::client::conn::http1::handshake(io)
        .await
        .map_err(|e| Verdict::of_error(&e))?;
    let answer = async move {
        let response = sender
            .send_request(request)
            .await
            .map_err(|e| Verdict::of_error(&e))?;
        let status = response.status();
        if status == http::StatusCode::PROXY_AUTHENTICATION_REQUIRED {
            return Err(Verdict::Dead(DeadReason::AuthFailed, "HTTP 407".into()));
        }
        if !status.is_success() {
            return Err(bad(format!("HTTP {} from the target", status.as_u16())));
        }
        let mut body = response.into_body();
        let mut read = Vec::new();
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|e| Verdict::of_error(&e))?;
            if let Ok(chunk) = frame.into_data() {
                let room = MAX_BODY.saturating_sub(read.len());
                read.extend_from_slice(&chunk[..chunk.len().min(room)]);
                if read.len() >= MAX_BODY {
                    break;
                }
            }
        }
        Ok(String::from_utf8_lossy(&read).into_owned())
    };
    // The connection is driven here, inside the check's own task (not spawned), so it
    // ends with the check: when the answer is read, or the check's deadline passes.
    let mut answer = pin!(answer);
    let mut connection = pin!(connection);
    let mut open = true;
    loop {
        tokio::select! {
            read = &mut answer => return read,
            closed = &mut connection, if open => {
                open = false;
                // An error of the connection is the cause of the answer's own; a clean
                // close leaves what was received to be read.
                closed.map_err(|e| Verdict::of_error(&e))?;
            }
        }
    }
}
