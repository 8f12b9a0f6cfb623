//! What an answer's status and headers say about the budget.
//!
//! Choices (the spec does not describe these headers):
//! - `X-RateLimit-Limit` and `X-RateLimit-Remaining` are whole numbers; anything else (a
//!   negative, a fraction, text, a number beyond `u32`) is ignored, as if not sent.
//! - `X-RateLimit-Reset` is a Unix time when it is above 10⁹ (the common framework sends
//!   one), otherwise seconds from now; a time in the past means now.
//! - `Retry-After` is read as the client reads it elsewhere (seconds or an HTTP date).
//! - A 429 counts as the account's throttle unless it is the `update_list` throttle of
//!   spec section 7 (its message names "Next update possible"), which is a per-service
//!   countdown and leaves the budget alone.

use super::Signal;
use crate::api::parse_retry_after;
use reqwest::header::{HeaderMap, RETRY_AFTER};

/// The budget's reading of an answer.
pub fn signal(status: u16, headers: &HeaderMap, ip_list_throttle: bool) -> Signal {
    let number = |name: &str| -> Option<u64> {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
    };
    let small = |name: &str| number(name).and_then(|n| u32::try_from(n).ok());
    let now = chrono::Utc::now();
    let reset_in = number("x-ratelimit-reset").map(|n| {
        if n > 1_000_000_000 {
            u64::try_from(i64::try_from(n).unwrap_or(i64::MAX) - now.timestamp()).unwrap_or(0)
        } else {
            n
        }
    });
    Signal {
        throttled: status == 429 && !ip_list_throttle,
        limit: small("x-ratelimit-limit"),
        remaining: small("x-ratelimit-remaining"),
        reset_in,
        retry_after: headers
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| parse_retry_after(v, now)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    fn map(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn the_common_throttle_headers_are_read() {
        let reset = chrono::Utc::now().timestamp() + 30;
        let h = map(&[
            ("x-ratelimit-limit", "60"),
            ("x-ratelimit-remaining", "0"),
            ("x-ratelimit-reset", &reset.to_string()),
            ("retry-after", "23"),
        ]);
        let s = signal(429, &h, false);
        assert!(s.throttled);
        assert_eq!(
            (s.limit, s.remaining, s.retry_after),
            (Some(60), Some(0), Some(23))
        );
        assert!(matches!(s.reset_in, Some(29..=30)), "{:?}", s.reset_in);
    }

    #[test]
    fn junk_is_ignored_and_the_ip_list_throttle_is_not_the_accounts() {
        let h = map(&[
            ("x-ratelimit-limit", "-1"),
            ("x-ratelimit-remaining", "99999999999"),
            ("x-ratelimit-reset", "soon"),
        ]);
        assert_eq!(signal(200, &h, false), Signal::default());
        assert!(!signal(429, &h, true).throttled);
    }
}
