//! Sending one request: the attempts, the backoff between GET attempts, reading the body
//! within the limits of [`super::limits`], mapping failures to [`ApiError`], and the redirect policy.
//! The rules are in the module docs of [`super`].

use super::decode::{parse_retry_after, status_error};
use super::{ApiClient, ApiError, RETRY_AFTER_CAP, Request, error, limits};
use reqwest::header::RETRY_AFTER;
use reqwest::{Method, Url};
use std::time::{Duration, Instant};

impl ApiClient {
    /// Sends `request` and returns the body of a 2xx answer; GETs are retried as the module
    /// docs say, writes never.
    pub(super) async fn send(
        &self,
        request: &Request,
        body: Option<Vec<u8>>,
    ) -> Result<bytes::Bytes, ApiError> {
        if self.read_only && request.is_write() {
            tracing::info!(method = request.method(), path = %request.path(), "refused: read-only");
            return Err(ApiError::ReadOnly);
        }
        let method = match request.method() {
            "POST" => Method::POST,
            "PUT" => Method::PUT,
            _ => Method::GET,
        };
        let url = self.url(request);
        let attempts = if request.is_write() {
            1
        } else {
            self.retries + 1
        };
        let mut attempt = 0;
        loop {
            attempt += 1;
            let started = Instant::now();
            let token = self.token(attempt, request.route()).await?;
            let started = if token.is_some() {
                Instant::now()
            } else {
                started
            };
            let mut builder = self.http.request(method.clone(), url.clone());
            if let Some(body) = &body {
                builder = builder.body(body.clone());
            }
            let mut signal = None;
            let result = self.exchange(builder, request, &url, &mut signal).await;
            if let (Some(gate), Some(token)) = (&self.gate, token) {
                if let (Some(s), Err(ApiError::Throttled { .. })) = (&mut signal, &result) {
                    s.throttled = false;
                }
                match (&signal, &result) {
                    (None, Err(ApiError::Connect { .. })) => gate.unsent(token),
                    _ => gate.observe(token, signal.as_ref()),
                }
            }
            log_exchange(request, attempt, started.elapsed(), &result);
            match result {
                Err(e) if attempt < attempts && retryable(&e) => {
                    match self.backoff_for(attempt, &e) {
                        Some(wait) => tokio::time::sleep(wait).await,
                        None => return Err(e),
                    }
                }
                other => return other,
            }
        }
    }

    /// The token for `attempt`: the one the fetcher took for a first attempt, else one
    /// waited for. `None` without a gate. A gate that refuses (the account is paused for
    /// longer than its caller waits) is answered as the server's own 429 would be, with
    /// the time: nothing is sent.
    async fn token(
        &self,
        attempt: u32,
        route: super::gate::Route,
    ) -> Result<Option<super::gate::Token>, ApiError> {
        let Some(gate) = self.gate.as_ref() else {
            return Ok(None);
        };
        let prepaid = if attempt == 1 {
            super::gate::PREPAID.try_with(|t| t.take()).ok().flatten()
        } else {
            None
        };
        match prepaid {
            Some(token) => Ok(Some(token)),
            None => gate.take(route).await.map(Some).map_err(|refused| {
                let wait = refused.wait.as_secs_f64().ceil() as u64;
                match refused.saved {
                    true => ApiError::SavedPause {
                        wait,
                        route: refused.route.map(|r| r.to_string()),
                    },
                    false => ApiError::RateLimited {
                        retry_after: Some(wait),
                    },
                }
            }),
        }
    }

    /// How long to wait before the next attempt; `None`: do not retry (the server asked
    /// for a longer pause than [`RETRY_AFTER_CAP`]).
    fn backoff_for(&self, attempt: u32, error: &ApiError) -> Option<Duration> {
        if let ApiError::Http {
            retry_after: Some(secs),
            ..
        } = error
        {
            let asked = Duration::from_secs(*secs);
            return (asked <= RETRY_AFTER_CAP).then_some(asked);
        }
        let base = self.backoff.saturating_mul(1 << (attempt - 1).min(6));
        let jitter = base.mul_f64(fastrand::f64() * 0.5);
        Some((base + jitter).min(RETRY_AFTER_CAP))
    }

    async fn exchange(
        &self,
        builder: reqwest::RequestBuilder,
        request: &Request,
        url: &Url,
        signal: &mut Option<super::gate::Signal>,
    ) -> Result<bytes::Bytes, ApiError> {
        let mut response = builder
            .send()
            .await
            .map_err(|e| self.transport_error(e, url))?;
        let status = response.status();
        *signal = Some(super::gate::headers::signal(
            status.as_u16(),
            response.headers(),
            false,
        ));
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| parse_retry_after(v, chrono::Utc::now()));
        // A redirect still here was refused by the redirect policy (another origin).
        let location = status
            .is_redirection()
            .then(|| response.headers().get(reqwest::header::LOCATION))
            .flatten()
            .and_then(|v| v.to_str().ok())
            .map(|to| {
                url.join(to)
                    .map(|to| display_url(&to))
                    .unwrap_or_else(|_| error::excerpt(to, 120))
            });
        // Read at most the endpoint's limit (an endless or enormous answer is an error, not
        // a process that runs out of memory), and of an error answer only its first
        // kilobytes: the message needs no more, and the rest is dropped unread.
        let limit = if status.is_success() {
            limits::max_body(request)
        } else {
            limits::ERROR_BODY_CAP
        };
        let announced = response.content_length();
        if status.is_success() && announced.is_some_and(|n| n > limit as u64) {
            return Err(too_large(request, limit));
        }
        // Sized once when the length is announced, so a large list is not copied while
        // the buffer doubles.
        let mut body =
            bytes::BytesMut::with_capacity(announced.map_or(0, |n| n.min(limit as u64) as usize));
        loop {
            match response.chunk().await {
                Ok(Some(chunk)) if body.len() + chunk.len() > limit => {
                    if status.is_success() {
                        return Err(too_large(request, limit));
                    }
                    let room = limit - body.len();
                    body.extend_from_slice(&chunk[..room]);
                    break;
                }
                Ok(Some(chunk)) => body.extend_from_slice(&chunk),
                Ok(None) => break,
                Err(e) => return Err(self.transport_error(e, url)),
            }
        }
        // Dropping the response here closes a connection whose answer was not read to
        // its end.
        drop(response);
        let bytes = body.freeze();
        if status.is_success() {
            return Ok(bytes);
        }
        Err(
            match (status_error(status, &bytes, retry_after), location) {
                (
                    ApiError::Http {
                        status,
                        retry_after,
                        ..
                    },
                    Some(to),
                ) => ApiError::Http {
                    status,
                    excerpt: format!(
                        "redirected to {to}, not followed: the token goes to {} only",
                        display_origin(url)
                    ),
                    retry_after,
                },
                (e, _) => e,
            },
        )
    }

    fn transport_error(&self, e: reqwest::Error, url: &Url) -> ApiError {
        let shown = display_url(url);
        if e.is_timeout() {
            ApiError::Timeout {
                url: shown,
                secs: self.request_timeout.as_secs().max(1),
            }
        } else if e.is_connect() {
            ApiError::Connect {
                url: shown,
                cause: root_cause(&e),
            }
        } else {
            ApiError::Transport {
                url: shown,
                cause: root_cause(&e),
            }
        }
    }
}

fn too_large(request: &Request, limit: usize) -> ApiError {
    ApiError::Decode {
        endpoint: request.label(),
        detail: format!("the answer is larger than {}", limits::size(limit)),
    }
}

/// Whether a failed GET is worth another attempt (see the module docs).
pub(super) fn retryable(e: &ApiError) -> bool {
    e.is_transient()
        && !matches!(
            e,
            ApiError::Throttled { .. } | ApiError::RateLimited { .. } | ApiError::Timeout { .. }
        )
}

/// One line per attempt: method, path, status (or what failed) and duration. Never headers
/// or bodies: they carry the token and passwords.
pub(super) fn log_exchange(
    request: &Request,
    attempt: u32,
    took: Duration,
    result: &Result<bytes::Bytes, ApiError>,
) {
    let ms = took.as_millis() as u64;
    let (method, path) = (request.method(), request.path());
    match result {
        Ok(body) => tracing::info!(
            method,
            path,
            status = 200,
            ms,
            bytes = body.len(),
            attempt,
            "request"
        ),
        Err(e) => {
            // The error carries the server's words: sanitized, like everything the log says.
            let error = crate::text::sanitize(&e.to_string()).into_owned();
            tracing::warn!(method, path, status = e.status().unwrap_or(0), ms, attempt, error = %error, "request failed")
        }
    }
}

/// The innermost cause of a reqwest error ("connection refused", "connection reset by
/// peer"), which is what a user can act on.
pub(super) fn root_cause(e: &reqwest::Error) -> String {
    let mut cause: &dyn std::error::Error = e;
    while let Some(next) = cause.source() {
        cause = next;
    }
    let text = cause.to_string();
    // io errors print "Connection refused (os error 111)"; the OS number helps nobody.
    let text = match text.find(" (os error") {
        Some(i) => text[..i].to_owned(),
        None => text,
    };
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => "unknown error".into(),
    }
}

/// The URL without user info or query, safe for messages.
pub(super) fn display_url(url: &Url) -> String {
    let mut shown = url.clone();
    let _ = shown.set_username("");
    let _ = shown.set_password(None);
    shown.set_query(None);
    shown.to_string()
}

/// `scheme://host:port` of a URL, for messages.
pub(super) fn display_origin(url: &Url) -> String {
    url.origin().ascii_serialization()
}

pub(super) fn same_origin_redirects() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let first = attempt.previous().first().cloned();
        let same_origin = first.is_some_and(|f| {
            f.scheme() == attempt.url().scheme()
                && f.host_str() == attempt.url().host_str()
                && f.port_or_known_default() == attempt.url().port_or_known_default()
        });
        if attempt.previous().len() > 5 {
            attempt.error("too many redirects")
        } else if same_origin {
            attempt.follow()
        } else {
            attempt.stop()
        }
    })
}
