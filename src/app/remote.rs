//! `Remote<T>`: the state of one remote resource, as the view needs it.
//!
//! A refresh in flight (`Loading`) and a failed refresh (`Failed`) both keep the last good
//! value with the time it arrived, so data already on screen stays there: the view says
//! "loading", "updated 14:03:05" or "stale since 14:03:05" from this value alone. Times are
//! absolute, so labels never need a timer to age.

use crate::api::ApiError;
use chrono::{DateTime, Utc};

/// A value and the time it arrived.
pub type Stamped<T> = (T, DateTime<Utc>);

#[derive(Clone, Debug, PartialEq, Default)]
pub enum Remote<T> {
    /// Never asked for.
    #[default]
    NotRequested,
    /// A request is in flight; `last_good` is what is still shown meanwhile.
    Loading { last_good: Option<Stamped<T>> },
    /// The last request succeeded at `at`.
    Ready { value: T, at: DateTime<Utc> },
    /// The last request failed at `at`; `last_good` is shown, marked stale.
    Failed {
        /// Boxed: an error is rare and large, and a dashboard holds one `Remote` per
        /// service and endpoint.
        error: Box<ApiError>,
        at: DateTime<Utc>,
        last_good: Option<Stamped<T>>,
    },
}

/// What a view says about a resource's freshness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Freshness {
    NotRequested,
    /// Loading with nothing to show yet.
    Loading,
    /// Loading, showing what arrived at this time.
    Refreshing(DateTime<Utc>),
    Updated(DateTime<Utc>),
    /// The last refresh failed; the value shown arrived at this time.
    Stale(DateTime<Utc>),
    /// The last request failed and there is nothing to show.
    Failed,
}

impl<T> Remote<T> {
    /// The value to show, if any: the current one or the last good one.
    pub fn value(&self) -> Option<&T> {
        self.stamped().map(|(v, _)| v)
    }

    /// The value to show and when it arrived.
    pub fn stamped(&self) -> Option<(&T, DateTime<Utc>)> {
        match self {
            Remote::Ready { value, at } => Some((value, *at)),
            Remote::Loading { last_good } | Remote::Failed { last_good, .. } => {
                last_good.as_ref().map(|(v, at)| (v, *at))
            }
            Remote::NotRequested => None,
        }
    }

    /// When the server last answered, with a value or an error (a refresh in flight keeps
    /// the last good value's time: the failure it follows is not kept).
    pub fn answered_at(&self) -> Option<DateTime<Utc>> {
        match self {
            Remote::Failed { at, .. } => Some(*at),
            _ => self.stamped().map(|(_, at)| at),
        }
    }

    pub fn error(&self) -> Option<&ApiError> {
        match self {
            Remote::Failed { error, .. } => Some(error.as_ref()),
            _ => None,
        }
    }

    pub fn is_loading(&self) -> bool {
        matches!(self, Remote::Loading { .. })
    }

    pub fn is_ready(&self) -> bool {
        matches!(self, Remote::Ready { .. })
    }

    pub fn freshness(&self) -> Freshness {
        match self {
            Remote::NotRequested => Freshness::NotRequested,
            Remote::Loading { last_good: None } => Freshness::Loading,
            Remote::Loading {
                last_good: Some((_, at)),
            } => Freshness::Refreshing(*at),
            Remote::Ready { at, .. } => Freshness::Updated(*at),
            Remote::Failed {
                last_good: Some((_, at)),
                ..
            } => Freshness::Stale(*at),
            Remote::Failed {
                last_good: None, ..
            } => Freshness::Failed,
        }
    }

    /// Takes the value shown now out, leaving `NotRequested`.
    fn take_last_good(&mut self) -> Option<Stamped<T>> {
        match std::mem::take(self) {
            Remote::Ready { value, at } => Some((value, at)),
            Remote::Loading { last_good } | Remote::Failed { last_good, .. } => last_good,
            Remote::NotRequested => None,
        }
    }

    /// A request was sent: keep showing what there is.
    pub fn begin(&mut self) {
        let last_good = self.take_last_good();
        *self = Remote::Loading { last_good };
    }

    /// A result arrived at `at`.
    pub fn finish(&mut self, result: Result<T, ApiError>, at: DateTime<Utc>) {
        match result {
            Ok(value) => *self = Remote::Ready { value, at },
            Err(error) => {
                let last_good = self.take_last_good();
                *self = Remote::Failed {
                    error: Box::new(error),
                    at,
                    last_good,
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn t(s: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 1, 2, 14, 3, s).unwrap()
    }

    #[test]
    fn a_failed_refresh_keeps_the_last_good_value() {
        let mut r: Remote<u32> = Remote::default();
        assert_eq!(r.freshness(), Freshness::NotRequested);
        r.begin();
        assert_eq!(r.freshness(), Freshness::Loading);
        r.finish(Ok(7), t(5));
        assert_eq!(r.freshness(), Freshness::Updated(t(5)));
        r.begin();
        assert_eq!(r.value(), Some(&7));
        assert_eq!(r.freshness(), Freshness::Refreshing(t(5)));
        r.finish(Err(ApiError::Unauthenticated), t(9));
        assert_eq!(r.value(), Some(&7));
        assert_eq!(r.freshness(), Freshness::Stale(t(5)));
        assert_eq!(r.error(), Some(&ApiError::Unauthenticated));
        r.finish(Ok(8), t(10));
        assert_eq!(r.value(), Some(&8));
        assert!(r.error().is_none());
    }

    #[test]
    fn a_first_failure_has_nothing_to_show() {
        let mut r: Remote<u32> = Remote::default();
        r.begin();
        r.finish(Err(ApiError::Unauthenticated), t(1));
        assert_eq!(r.value(), None);
        assert_eq!(r.freshness(), Freshness::Failed);
    }
}
