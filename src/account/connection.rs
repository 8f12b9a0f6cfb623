//! The account's connection state, for people and machines: online, throttled until a
//! time, or unreachable since a time, with the time of the last answer. The header, the
//! status line, `watch`'s lines, the `api_unreachable` alert and the metrics all read it.
//!
//! - A success, or an answer the spec documents (its 400s, 401, 422s and 429s: the
//!   server's word about the request, such as a service's permanent `ClientID not
//!   found`), means the API works: online.
//! - Answers that are none of those (a 500, an undocumented status, a 200 whose body is
//!   not the endpoint's shape), [`FAILING_AFTER_ANSWERS`] in a row over
//!   [`UNREACHABLE_AFTER_SILENCE`] with nothing of use between them, make the account
//!   **failing** since the first of them: the server is there but nothing works (an API
//!   answering 500 to everything is not "up"). One answer of use ends it.
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
    /// Answers, but none of use (no success, no documented answer) since `since`.
    Failing {
        since: DateTime<Utc>,
    },
    /// The credentials are rejected since `since`.
    Unauthorized {
        since: DateTime<Utc>,
    },
}

/// Failures without an answer in a row that make the account unreachable, over at least
/// [`UNREACHABLE_AFTER_SILENCE`] (a burst of failures of one endpoint is not an outage).
pub const UNREACHABLE_AFTER_FAILURES: u32 = 3;
pub const UNREACHABLE_AFTER_SILENCE: chrono::Duration = chrono::Duration::seconds(10);
/// Answers of no use in a row that make the account failing (over at least
/// [`UNREACHABLE_AFTER_SILENCE`]).
pub const FAILING_AFTER_ANSWERS: u32 = 3;

/// Whether an error says the account's credentials are rejected (spec section 5).
pub fn rejects_credentials(e: &ApiError) -> bool {
    matches!(
        e,
        ApiError::Unauthenticated
            | ApiError::InvalidAuthorizationHeader
            | ApiError::InvalidCredentialsFormat
    )
}

/// Whether an error is an answer the spec documents (the server's word about the
/// request), as opposed to a server that does not work (a 500, an undocumented status, a
/// body of the wrong shape) or no answer at all.
pub fn is_documented(e: &ApiError) -> bool {
    matches!(
        e,
        ApiError::Unauthenticated
            | ApiError::InvalidAuthorizationHeader
            | ApiError::InvalidCredentialsFormat
            | ApiError::ClientIdNotFound { .. }
            | ApiError::Unprocessable { .. }
            | ApiError::Throttled { .. }
            | ApiError::RateLimited { .. }
    )
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Connection {
    /// Failures without any answer since the last answer, and when the first came.
    silent: u32,
    silent_since: Option<DateTime<Utc>>,
    /// Answers of no use since the last one of use, and when the first came.
    useless: u32,
    useless_since: Option<DateTime<Utc>>,
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
                self.useless = 0;
                self.useless_since = None;
            }
            Some(e) if rejects_credentials(e) => {
                self.last_answer = Some(now);
                self.silent = 0;
                self.silent_since = None;
                self.useless = 0;
                self.useless_since = None;
                if !matches!(self.link, Link::Unauthorized { .. }) {
                    self.link = Link::Unauthorized { since: now };
                }
            }
            Some(e) if e.status().is_some() && !is_documented(e) => {
                self.last_answer = Some(now);
                self.silent = 0;
                self.silent_since = None;
                self.useless += 1;
                let since = *self.useless_since.get_or_insert(now);
                let failing = self.useless >= FAILING_AFTER_ANSWERS
                    && now - since >= UNREACHABLE_AFTER_SILENCE;
                if failing && !matches!(self.link, Link::Failing { .. }) {
                    self.link = Link::Failing { since };
                } else if matches!(self.link, Link::Unreachable { .. } | Link::Unknown) {
                    // The server is there again, though not of use yet.
                    self.link = Link::Online;
                }
            }
            Some(e) if e.status().is_some() => {
                self.last_answer = Some(now);
                self.silent = 0;
                self.silent_since = None;
                self.useless = 0;
                self.useless_since = None;
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

    /// Whether the API works (for the `proxydash_api_up` gauge): online or throttled;
    /// not unreachable, failing or unauthorized.
    pub fn is_up(&self) -> bool {
        matches!(self.link, Link::Online | Link::Throttled { .. })
    }

    /// Since when the API has answered nothing of use, while it is failing.
    pub fn failing_since(&self) -> Option<DateTime<Utc>> {
        match self.link {
            Link::Failing { since } => Some(since),
            _ => None,
        }
    }

    /// Since when requests have got no answer at all (the first of them after the last
    /// answer, each after the client's own retries), while they do: before the account is
    /// called unreachable too (that waits for three over ten seconds), so the ten-second
    /// check runs from the first failure (`r` during an outage is asked again ten seconds
    /// later, not after a whole retry).
    pub fn no_answer_since(&self) -> Option<DateTime<Utc>> {
        self.silent_since
    }

    /// Since when the credentials are rejected, while they are.
    pub fn unauthorized_since(&self) -> Option<DateTime<Utc>> {
        match self.link {
            Link::Unauthorized { since } => Some(since),
            _ => None,
        }
    }

    /// Since when the API is down (unreachable, failing or unauthorized), and the state's
    /// name (the `state` label of `proxydash_api_down_seconds`).
    pub fn down(&self) -> Option<(&'static str, DateTime<Utc>)> {
        match self.link {
            Link::Unreachable { since } => Some(("unreachable", since)),
            Link::Failing { since } => Some(("failing", since)),
            Link::Unauthorized { since } => Some(("unauthorized", since)),
            _ => None,
        }
    }

    /// `last success 4 min ago`, or `no success yet`.
    fn last_success_words(&self, now: DateTime<Utc>) -> String {
        match self.last_success {
            Some(t) => format!("last success {} ago", crate::text::ago(now - t)),
            None => "no success yet".into(),
        }
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
            Link::Failing { since } => format!(
                "failing since {} (it answers, but only errors; {})",
                at(since),
                self.last_success_words(now)
            ),
            Link::Unauthorized { since } => format!(
                "rejecting the credentials since {} (check the token; asked again every few minutes; {})",
                at(since),
                self.last_success_words(now)
            ),
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
        let answered = Request::NetworkErrors(6).failed(ApiError::ClientIdNotFound {
            message: "Unprocessable Entity. ClientID not found".into(),
        });
        assert!(c.observe(&answered, t(20)));
        assert_eq!(c.link, Link::Online);
        assert_eq!(c.last_answer, Some(t(20)));
        assert_eq!(c.last_success, None);
    }

    /// A server that answers 500 to everything is failing, not online; a documented
    /// answer (a service's permanent `ClientID not found`) is of use, and ends it.
    #[test]
    fn answers_of_no_use_make_it_failing_and_a_documented_one_ends_it() {
        let broken = Request::Credit.failed(ApiError::Http {
            status: 500,
            excerpt: "Server Error".into(),
            retry_after: None,
        });
        let mut c = Connection::default();
        c.observe(&broken, t(0));
        c.observe(&broken, t(5));
        assert!(c.is_up(), "three in 10 s first");
        assert!(c.observe(&broken, t(10)));
        assert_eq!(c.link, Link::Failing { since: t(0) });
        assert!(!c.is_up());
        assert_eq!(c.down(), Some(("failing", t(0))));
        let off = chrono::FixedOffset::east_opt(0).unwrap();
        let said = c.describe(t(20), off);
        assert!(said.starts_with("failing since"), "{said}");
        let documented = Request::NetworkErrors(6).failed(ApiError::ClientIdNotFound {
            message: "Unprocessable Entity. ClientID not found".into(),
        });
        assert!(c.observe(&documented, t(30)));
        assert_eq!(c.link, Link::Online);
        // Documented answers alone never make it failing.
        for s in 0..10 {
            c.observe(&documented, t(40 + s * 10));
        }
        assert_eq!(c.link, Link::Online);
    }

    /// A 401 (or the API's credential errors) is the account's state at once, not a
    /// healthy answer: the API is not up; a success ends it.
    #[test]
    fn rejected_credentials_make_it_unauthorized_and_a_success_ends_it() {
        let mut c = Connection::default();
        let rejected = Request::Credit.failed(ApiError::Unauthenticated);
        assert!(c.observe(&rejected, t(0)));
        assert_eq!(c.link, Link::Unauthorized { since: t(0) });
        assert!(!c.is_up());
        assert_eq!(c.down(), Some(("unauthorized", t(0))));
        assert!(!c.observe(&rejected, t(60)), "since the first");
        let format = Request::Services.failed(ApiError::InvalidCredentialsFormat);
        assert!(!c.observe(&format, t(61)));
        assert_eq!(c.unauthorized_since(), Some(t(0)));
        let off = chrono::FixedOffset::east_opt(0).unwrap();
        assert!(c.describe(t(70), off).contains("check the token"));
        let ok = crate::api::Loaded::Credit(Ok(crate::api::Credit { credit: 5.0 }));
        assert!(c.observe(&ok, t(80)));
        assert_eq!(c.link, Link::Online);
        assert!(c.is_up());
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
