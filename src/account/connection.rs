//! The account's connection state, for people and machines: online, throttled until a
//! time, or unreachable since a time, with the time of the last answer. The header, the
//! status line, `watch`'s lines, the `api_unreachable` alert and the metrics all read it.
//!
//! - Any HTTP answer (even an error) means the server is there: online.
//! - A 429 of the account's budget means throttled until its `Retry-After` (a minute when
//!   it names none).
//! - Requests that got no answer at all (the connection refused or lost, a timeout),
//!   [`UNREACHABLE_AFTER_FAILURES`] in a row over [`UNREACHABLE_AFTER_SILENCE`] with no
//!   answer between them, make the account unreachable, since the first of them; one answer ends it. (One lost
//!   connection, or one endpoint that fails while the others answer, is not an outage.)

use crate::api::{ApiError, Loaded};
use chrono::{DateTime, Utc};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Link {
    /// Nothing was asked yet.
    #[default]
    Unknown,
    Online,
    Throttled {
        until: DateTime<Utc>,
    },
    /// No answer since `since` (the first failure after the last answer).
    Unreachable {
        since: DateTime<Utc>,
    },
}

/// Failures without an answer in a row that make the account unreachable, over at least
/// [`UNREACHABLE_AFTER_SILENCE`] (a burst of failures of one endpoint is not an outage).
pub const UNREACHABLE_AFTER_FAILURES: u32 = 3;
pub const UNREACHABLE_AFTER_SILENCE: chrono::Duration = chrono::Duration::seconds(10);

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Connection {
    /// Failures without any answer since the last answer, and when the first came.
    silent: u32,
    silent_since: Option<DateTime<Utc>>,
    pub link: Link,
    /// When the server last answered anything.
    pub last_answer: Option<DateTime<Utc>>,
    /// When it last answered with success.
    pub last_success: Option<DateTime<Utc>>,
}

impl Connection {
    /// Takes an answer in; whether the state changed (online, throttled, unreachable).
    pub fn observe(&mut self, loaded: &Loaded, now: DateTime<Utc>) -> bool {
        let before = self.link;
        match loaded.error() {
            None => {
                self.last_answer = Some(now);
                self.last_success = Some(now);
                self.link = Link::Online;
                self.silent = 0;
                self.silent_since = None;
            }
            Some(e) if e.status().is_some() => {
                self.last_answer = Some(now);
                self.silent = 0;
                self.silent_since = None;
                self.link = match e {
                    // The server's word within the budget's bound (an hour).
                    ApiError::RateLimited { retry_after } => Link::Throttled {
                        until: now
                            + chrono::Duration::seconds(
                                retry_after
                                    .unwrap_or(60)
                                    .min(crate::api::gate::PAUSE_CAP.as_secs())
                                    as i64,
                            ),
                    },
                    _ => Link::Online,
                };
            }
            // A refusal before sending (read-only, a bad configuration) says nothing.
            Some(ApiError::ReadOnly | ApiError::Config(_)) => {}
            Some(_) => {
                self.silent += 1;
                let since = *self.silent_since.get_or_insert(now);
                if self.silent >= UNREACHABLE_AFTER_FAILURES
                    && now - since >= UNREACHABLE_AFTER_SILENCE
                    && !matches!(self.link, Link::Unreachable { .. })
                {
                    self.link = Link::Unreachable { since };
                }
            }
        }
        before != self.link
    }

    /// Whether the throttle named by the server is over; true when that changed it.
    pub fn tick(&mut self, now: DateTime<Utc>) -> bool {
        match self.link {
            Link::Throttled { until } if until <= now => {
                self.link = Link::Online;
                true
            }
            _ => false,
        }
    }

    pub fn unreachable_since(&self) -> Option<DateTime<Utc>> {
        match self.link {
            Link::Unreachable { since } => Some(since),
            _ => None,
        }
    }

    /// Whether the API answers (for the `proxydash_api_up` gauge): online or throttled.
    pub fn is_up(&self) -> bool {
        matches!(self.link, Link::Online | Link::Throttled { .. })
    }

    /// One line for people: `online`, `throttled until 14:05:00`, `unreachable since
    /// 14:03:10 (last answer 4 min ago)`, in `offset`.
    pub fn describe(&self, now: DateTime<Utc>, offset: chrono::FixedOffset) -> String {
        // `watch` speaks UTC and says so; the dashboard shows the local time, as its clock.
        let zone = if offset.local_minus_utc() == 0 {
            " UTC"
        } else {
            ""
        };
        let at =
            |t: DateTime<Utc>| format!("{}{zone}", t.with_timezone(&offset).format("%H:%M:%S"));
        match self.link {
            Link::Unknown => "connecting".into(),
            Link::Online => "online".into(),
            Link::Throttled { until } => format!("throttled until {}", at(until)),
            Link::Unreachable { since } => {
                let last = match self.last_answer {
                    Some(t) => format!("last answer {} ago", crate::text::ago(now - t)),
                    None => "no answer yet".into(),
                };
                format!("unreachable since {} ({last})", at(since))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Request;
    use chrono::TimeZone;

    fn t(s: i64) -> DateTime<Utc> {
        Utc.timestamp_opt(1_800_000_000 + s, 0).unwrap()
    }

    #[test]
    fn no_answer_makes_it_unreachable_from_the_first_failure_and_one_answer_ends_it() {
        let refused = Request::Credit.failed(ApiError::Connect {
            url: "http://127.0.0.1:1".into(),
            cause: "refused".into(),
        });
        let mut c = Connection::default();
        assert!(
            !c.observe(&refused, t(0)),
            "one lost connection is not an outage"
        );
        assert!(!c.observe(&refused, t(5)));
        assert!(!c.observe(&refused, t(9)), "three failures in 9 s");
        assert!(c.observe(&refused, t(10)));
        assert!(!c.observe(&refused, t(11)));
        assert_eq!(c.unreachable_since(), Some(t(0)));
        assert!(!c.is_up());
        let off = chrono::FixedOffset::east_opt(0).unwrap();
        assert!(
            c.describe(t(10), off).starts_with("unreachable since"),
            "{}",
            c.describe(t(10), off)
        );
        let answered = Request::Credit.failed(ApiError::Unauthenticated);
        assert!(c.observe(&answered, t(20)));
        assert_eq!(c.link, Link::Online);
        assert_eq!(c.last_answer, Some(t(20)));
        assert_eq!(c.last_success, None);
    }

    #[test]
    fn a_429_throttles_until_its_retry_after() {
        let mut c = Connection::default();
        let limited = Request::Services.failed(ApiError::RateLimited {
            retry_after: Some(30),
        });
        c.observe(&limited, t(0));
        assert_eq!(c.link, Link::Throttled { until: t(30) });
        assert!(c.is_up());
        assert!(!c.tick(t(29)));
        assert!(c.tick(t(30)));
        assert_eq!(c.link, Link::Online);
    }
}
