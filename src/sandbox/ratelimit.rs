//! The general rate limit of the API, off unless configured (`--rate-limit N`): N requests
//! a minute per credential, over every endpoint, the way the common web framework's
//! throttle answers, since the spec's 429 wording ("Too Many Attempts.") is its own.
//!
//! Choices (spec section 8 says general rate limits are "not shown"):
//! - A fixed window per credential (the `Authorization` header as sent), opened by its
//!   first request and lasting 60 s; requests of an unauthenticated caller are refused by
//!   authentication before they reach this count.
//! - Every answer carries `X-RateLimit-Limit` and `X-RateLimit-Remaining`; a refusal is 429
//!   with `{"message":"Too Many Attempts."}`, `Retry-After` (seconds to the window's end,
//!   at least 1) and `X-RateLimit-Reset` (its Unix time). A refused request does not count.
//! - `--rate-limit-headers off` sends none of these headers (the body stays), to try a
//!   client's learning without them.
//! - The IP-list refresh throttle of spec section 7 is separate and unchanged: a refresh
//!   counts here like any request, and its own 429 comes from the route.
//! - Off by default, a limit of the IP-list route alone
//!   ([`super::SandboxConfig::ip_list_rate_limit`], for tests of a per-route throttle):
//!   the IP-list downloads count in a window of their own (and in the account's), and
//!   their answers carry the route's figure and count.
//! - The window is timed on tokio's clock, as the client's budget is
//!   ([`crate::scheduler::now`]): a test on a paused clock sees the window end when the
//!   budget does, without waiting for it in real time.

use super::errors::with_type;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::Instant;

/// The window of the common framework's throttle.
pub const WINDOW: Duration = Duration::from_secs(60);

/// The configured limit and the count of each credential's window.
#[derive(Debug, Default)]
pub struct Limiter {
    per_minute: Option<u32>,
    window: Duration,
    headers: bool,
    windows: Mutex<HashMap<String, (Instant, u32)>>,
    /// The IP-list route's own limit a window, when it has one.
    ip_list: Option<u32>,
    /// The wall time when it was made and tokio's instant then: `X-RateLimit-Reset` is on
    /// tokio's clock as the windows are (a paused test clock included).
    started: Option<(i64, Instant)>,
}

impl Limiter {
    pub fn new(per_minute: Option<u32>, headers: bool, window: Duration) -> Self {
        Self {
            per_minute,
            window,
            headers,
            windows: Mutex::default(),
            ip_list: None,
            started: Some((chrono::Utc::now().timestamp(), Instant::now())),
        }
    }

    /// The same limiter with the IP-list route limited to `limit` a window of its own.
    pub fn with_ip_list(mut self, limit: Option<u32>) -> Self {
        self.ip_list = limit;
        self
    }

    /// Counts a request of `key`: `Ok(remaining)`, or `Err(seconds until the window ends)`.
    fn hit(&self, key: &str, limit: u32, now: Instant) -> Result<u32, Duration> {
        let mut windows = self.windows.lock().unwrap_or_else(|p| p.into_inner());
        // Forget windows long over, so a stream of new credentials cannot grow the map.
        if windows.len() > 10_000 {
            windows.retain(|_, (start, _)| now.duration_since(*start) < self.window);
        }
        let window = windows.entry(key.to_owned()).or_insert((now, 0));
        if now.duration_since(window.0) >= self.window {
            *window = (now, 0);
        }
        if window.1 >= limit {
            return Err(self.window.saturating_sub(now.duration_since(window.0)));
        }
        window.1 += 1;
        Ok(limit - window.1)
    }
}

pub async fn limit(State(limiter): State<Arc<Limiter>>, request: Request, next: Next) -> Response {
    let route = limiter
        .ip_list
        .filter(|_| request.uri().path().starts_with("/api/iplist/"));
    if limiter.per_minute.is_none() && route.is_none() {
        return next.run(request).await;
    }
    let key = request
        .headers()
        .get(header::AUTHORIZATION)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        .unwrap_or_default();
    let now = Instant::now();
    // The route's own count first (its figure is what its answers show), then the
    // account's.
    let counted = match route {
        Some(n) => limiter
            .hit(&format!("{key} iplist"), n, now)
            .map(|left| (n, left))
            .map_err(|wait| (n, wait)),
        None => Ok((0, u32::MAX)),
    };
    let counted = counted.and_then(|(n, left)| match limiter.per_minute {
        Some(limit) => match limiter.hit(&key, limit, now) {
            Ok(account_left) if route.is_none() => Ok((limit, account_left)),
            Ok(_) => Ok((n, left)),
            Err(wait) => Err((limit, wait)),
        },
        None => Ok((n, left)),
    });
    let (mut response, limit, remaining, retry) = match counted {
        Ok((limit, remaining)) => (next.run(request).await, limit, remaining, None),
        Err((limit, wait)) => (
            with_type(
                StatusCode::TOO_MANY_REQUESTS,
                br#"{"message":"Too Many Attempts."}"#.to_vec(),
                "application/json",
            ),
            limit,
            0,
            Some(wait.as_secs_f64().ceil().max(1.0) as u64),
        ),
    };
    if limiter.headers {
        let h = response.headers_mut();
        h.insert("x-ratelimit-limit", HeaderValue::from(limit));
        h.insert("x-ratelimit-remaining", HeaderValue::from(remaining));
        if let Some(secs) = retry {
            h.insert(header::RETRY_AFTER, HeaderValue::from(secs));
            let (wall, at) = limiter.started.unwrap_or((0, Instant::now()));
            let reset = wall + at.elapsed().as_secs() as i64 + secs as i64;
            h.insert("x-ratelimit-reset", HeaderValue::from(reset));
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_window_per_credential() {
        let l = Limiter::new(Some(2), true, WINDOW);
        let t0 = Instant::now();
        assert_eq!(l.hit("a", 2, t0), Ok(1));
        assert_eq!(l.hit("a", 2, t0), Ok(0));
        assert_eq!(
            l.hit("a", 2, t0 + Duration::from_secs(20)),
            Err(Duration::from_secs(40))
        );
        assert_eq!(l.hit("b", 2, t0), Ok(1), "another token has its own window");
        assert_eq!(l.hit("a", 2, t0 + WINDOW), Ok(1), "a new window");
    }
}
