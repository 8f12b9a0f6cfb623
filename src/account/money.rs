//! The money ahead ([`crate::billing::runway`]), worked out once per account, by the
//! engine, from its store: the Billing tab, the All view, the alert rules, `watch`'s
//! summary and `/metrics` all read this one figure (they once worked it out each from
//! their own inputs, and could disagree: the tab priced from the catalogue rows it
//! showed, the engine from the catalogue it read).
//!
//! Worked out again when an answer changed what it reads (the services and their
//! details, the catalogue, the invoices, the credit) or the day changed, at most once
//! per batch of answers: a thousand details arriving cost one working out, not a
//! thousand.

use super::freshness::Kind;
use super::store::Store;
use crate::api::Request;
use crate::billing::Runway;
use chrono::{DateTime, FixedOffset, NaiveDate, Utc};
use std::sync::Arc;

/// Whether `request` reads what the money ahead is worked out from.
pub fn reads_money(request: &Request) -> bool {
    matches!(
        Kind::of(request),
        Some(Kind::Services | Kind::ServiceDetail | Kind::Products | Kind::Invoices | Kind::Credit)
    )
}

/// The engine's money ahead and whether an answer since made it stale.
#[derive(Debug, Default)]
pub struct Money {
    /// The day it was worked out for, and what it was (`None` until the services
    /// list arrived).
    worked: Option<(NaiveDate, Option<Arc<Runway>>)>,
    stale: bool,
}

impl Money {
    /// An answer to `request` arrived: what it reads may have changed.
    pub fn answered(&mut self, request: &Request) {
        self.stale |= reads_money(request);
    }

    /// Works it out again when an answer or the day made it stale; whether it changed.
    pub fn refresh(&mut self, store: &Store, offset: FixedOffset, now: DateTime<Utc>) -> bool {
        let today = now.with_timezone(&offset).date_naive();
        let day_changed = self.worked.as_ref().is_none_or(|(day, _)| *day != today);
        if !(self.stale || day_changed) {
            return false;
        }
        self.stale = false;
        let runway = runway(store, today).map(Arc::new);
        let changed = self
            .worked
            .as_ref()
            .is_none_or(|(_, was)| was.as_deref() != runway.as_deref());
        self.worked = Some((today, runway));
        changed
    }

    /// The money ahead as last worked out (`None` until the services list arrived).
    pub fn runway(&self) -> Option<&Arc<Runway>> {
        self.worked.as_ref()?.1.as_ref()
    }
}

/// The money ahead from what the store holds: the details read so far give services'
/// own prices and cycles, the catalogue the others' prices.
fn runway(store: &Store, today: NaiveDate) -> Option<Runway> {
    let services = store.services()?;
    crate::billing::runway::runway(&crate::billing::Records {
        today,
        credit: store.credit().map(|c| c.credit),
        services: Some(services),
        details: Some(store),
        products: store.products(),
        invoices: store.invoices(),
        invoices_unread: crate::billing::Unread::of(store.invoices_listed()),
    })
}
