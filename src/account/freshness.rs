//! The freshness rules: how old each kind of data may grow before the engine asks for it
//! again. This table is the engine's contract (the README's freshness table says the same
//! in words; `tests/architecture.rs` checks that every kind is named there).
//!
//! | kind | due again |
//! |---|---|
//! | services list, credit, invoices | every `refresh` |
//! | network lists of every service not Terminated/Cancelled/Fraud | every `refresh` |
//! | rate of every ppr service | every `refresh` |
//! | ppr statistics | every `refresh` while shown, else every [`SLOW`] |
//! | service detail | when looked at, then every `refresh` while shown |
//! | one invoice | when looked at, then every `refresh` while shown |
//! | products, product details, clients | every [`SLOW`], and on `R` |
//!
//! A failure that says nothing about the datum (no answer, a 5xx, a timeout) is asked
//! again at the next `refresh` (no sooner than [`RETRY_FLOOR`], no later than [`RETRY`]),
//! whatever its kind's cadence, then twice as late after each failure in a row, up to
//! [`RETRY_MAX`]; a failure the server gave about it
//! (400, 404, 422: its client is gone) counts as an answer and waits its cadence.
//!
//! With `refresh` off (`--refresh 0`), nothing is asked again by itself: every datum is
//! read once, then on `r`/`R`.

use crate::api::ServiceStatus;
use std::time::Duration;

/// Whether a service of this status is watched (its proxies exist).
pub fn is_swept(status: &ServiceStatus) -> bool {
    !status.has_ended()
}

/// How often the rarely-changing data (the catalogue, clients) and the statistics of
/// services nobody looks at are read again.
pub const SLOW: Duration = Duration::from_secs(3600);

/// How soon a datum whose request failed without an answer is asked again, at the latest.
pub const RETRY: Duration = Duration::from_secs(30);

/// …and at the soonest, whatever `refresh` says: a failing endpoint is not hammered.
pub const RETRY_FLOOR: Duration = Duration::from_secs(5);

/// The longest wait before asking again a datum whose reads keep failing (the wait
/// doubles after each failure in a row, from [`RETRY`]).
pub const RETRY_MAX: Duration = Duration::from_secs(300);

pub use crate::api::Kind;

/// The freshness table's cadences (the kinds themselves are the API's, beside the requests).
impl Kind {
    /// How old a datum of this kind may grow (`shown`: an observer has it on screen);
    /// `None`: never asked again by itself (see the module docs).
    pub fn cadence(self, refresh: Option<Duration>, shown: bool) -> Option<Duration> {
        match self {
            Kind::Services | Kind::Credit | Kind::Invoices | Kind::Network | Kind::Rate => refresh,
            Kind::Stats if shown => refresh,
            Kind::Stats => refresh.map(|r| r.max(SLOW)),
            // Details are kept fresh only while someone looks at them.
            Kind::ServiceDetail | Kind::Invoice => refresh.filter(|_| shown),
            Kind::Products | Kind::ProductDetail | Kind::Clients => refresh.map(|r| r.max(SLOW)),
        }
    }

    /// Whether this kind is part of what is watched (the oldest-datum metric and the
    /// benchmark's bound count these; details are read for a person).
    pub fn is_watched(self) -> bool {
        matches!(
            self,
            Kind::Services | Kind::Credit | Kind::Invoices | Kind::Network | Kind::Rate
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Request;

    #[test]
    fn the_table_reads_as_the_readme_says() {
        let r = Some(Duration::from_secs(30));
        for kind in [
            Kind::Services,
            Kind::Credit,
            Kind::Invoices,
            Kind::Network,
            Kind::Rate,
        ] {
            assert_eq!(kind.cadence(r, false), r, "{kind:?}");
        }
        assert_eq!(Kind::Stats.cadence(r, true), r);
        assert_eq!(Kind::Stats.cadence(r, false), Some(SLOW));
        assert_eq!(Kind::ServiceDetail.cadence(r, false), None);
        assert_eq!(Kind::ServiceDetail.cadence(r, true), r);
        assert_eq!(Kind::Products.cadence(r, true), Some(SLOW));
        assert_eq!(Kind::Rate.cadence(None, true), None);
        assert_eq!(Kind::of(&Request::NetworkInactive(3)), Some(Kind::Network));
    }
}
