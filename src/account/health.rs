//! The health of each kind of data: an endpoint that keeps failing while the others
//! answer (`/api/billing` down alone) is its own state, said by the dashboard's pane, the
//! `datum_failing` alert and `proxydash_datum_failing_seconds`, within a few refreshes
//! instead of when its data has grown an hour old.
//!
//! - A kind's reads fail when they get no answer, or an answer of no use (a 5xx, an
//!   undocumented status, a body that does not read). A success, or the server's word
//!   about the datum (a 422, `ClientID not found`), ends it. A 429 (the budget's pause)
//!   and rejected credentials (the account's own state) say nothing of the kind.
//! - A kind is **failing** after [`FAILING_AFTER`] failures in a row spanning at least
//!   [`FAILING_SPAN`], since the first of them.
//! - Failures without any answer are the connection's business (`unreachable`): when the
//!   API answers again they are forgotten, so a kind read last during an outage does not
//!   look failing until it is read again.

use super::connection::{is_documented, rejects_credentials};
use crate::alerts::snapshot::DatumHealth;
use crate::api::{ApiError, Kind, Loaded};
use chrono::{DateTime, Utc};
use std::collections::BTreeMap;

/// Failures in a row that make a kind failing…
pub const FAILING_AFTER: u32 = 3;
/// …over at least this long.
pub const FAILING_SPAN: chrono::Duration = chrono::Duration::seconds(60);

#[derive(Clone, Debug, Default, PartialEq)]
struct State {
    failures: u32,
    since: Option<DateTime<Utc>>,
    /// One of the failures was an answer (not only lost connections).
    answered: bool,
    /// The last failure, in the status line's words.
    error: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Health {
    kinds: BTreeMap<Kind, State>,
}

impl Health {
    /// Takes an answer in.
    pub fn observe(&mut self, loaded: &Loaded, now: DateTime<Utc>) {
        let Some(kind) = Kind::of(&loaded.request()) else {
            return;
        };
        let state = self.kinds.entry(kind).or_default();
        match loaded.error() {
            None => *state = State::default(),
            Some(ApiError::RateLimited { .. } | ApiError::ReadOnly | ApiError::Config(_)) => {}
            Some(e) if rejects_credentials(e) => {}
            Some(e) if e.status().is_some() && is_documented(e) => *state = State::default(),
            Some(e) => {
                state.failures = state.failures.saturating_add(1);
                state.since.get_or_insert(now);
                state.answered |= e.status().is_some();
                state.error =
                    crate::text::truncate(&crate::text::sanitize(&e.to_string()), 120).into_owned();
            }
        }
    }

    /// The API answers again: failures that were only lost connections are forgotten.
    pub fn reconnected(&mut self) {
        for state in self.kinds.values_mut() {
            if !state.answered {
                *state = State::default();
            }
        }
    }

    /// Since when `kind` is failing, while it is.
    pub fn failing_since(&self, kind: Kind, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let state = self.kinds.get(&kind)?;
        let since = state.since?;
        (state.failures >= FAILING_AFTER && now - since >= FAILING_SPAN).then_some(since)
    }

    /// Every watched kind asked so far, failing or not.
    pub fn watched(&self, now: DateTime<Utc>) -> Vec<DatumHealth> {
        self.kinds
            .iter()
            .filter(|(kind, _)| kind.is_watched())
            .map(|(kind, state)| DatumHealth {
                kind: *kind,
                failing_since: self.failing_since(*kind, now),
                error: state.error.clone(),
            })
            .collect()
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
    fn a_kind_is_failing_after_three_failures_over_a_minute_and_one_success_ends_it() {
        let broken = Request::Invoices.failed(ApiError::Http {
            status: 500,
            excerpt: "Server Error".into(),
            retry_after: None,
        });
        let mut h = Health::default();
        h.observe(&broken, t(0));
        h.observe(&broken, t(30));
        assert_eq!(h.failing_since(Kind::Invoices, t(30)), None, "two");
        h.observe(&broken, t(50));
        assert_eq!(
            h.failing_since(Kind::Invoices, t(50)),
            None,
            "under a minute"
        );
        assert_eq!(h.failing_since(Kind::Invoices, t(60)), Some(t(0)));
        let said = h.watched(t(60));
        assert_eq!(said.len(), 1);
        assert!(said[0].error.contains("500"), "{said:?}");
        // Rejected credentials and the budget's 429 say nothing of the kind.
        h.observe(&Request::Invoices.failed(ApiError::Unauthenticated), t(61));
        assert_eq!(h.failing_since(Kind::Invoices, t(62)), Some(t(0)));
        let ok = Loaded::Invoices(Ok(Vec::new().into()));
        h.observe(&ok, t(90));
        assert_eq!(h.failing_since(Kind::Invoices, t(200)), None);
    }

    #[test]
    fn lost_connections_are_forgotten_when_the_api_answers_again() {
        let lost = Request::Credit.failed(ApiError::Connect {
            url: "http://127.0.0.1:1".into(),
            cause: "refused".into(),
        });
        let mut h = Health::default();
        for s in [0, 30, 90] {
            h.observe(&lost, t(s));
        }
        assert_eq!(h.failing_since(Kind::Credit, t(90)), Some(t(0)));
        h.reconnected();
        assert_eq!(h.failing_since(Kind::Credit, t(90)), None);
    }
}
