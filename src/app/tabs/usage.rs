//! The Usage tab: rotating (ppr) services only. For each, the daily statistics (`Stats`)
//! and the rate against the limit (`Rate`, first entry).
//!
//! Which services are ppr: the services list does not say, so the rate of every service
//! whose type is unknown is asked once (`app/sweep.rs`). A service is ppr when its detail
//! says so or when its stats or rate answered; it is fpr when its detail says so or when
//! stats/rate answered the generic 422 before any detail was known
//! ([`UsageTab::not_ppr`]). The list holds the ppr services, in the services' order.

use crate::api::{RateEntry, StatEntry};
use crate::app::remote::Remote;
use crate::app::table::{TableView, search_key};
use std::collections::{HashMap, HashSet};

#[derive(Debug, Default)]
pub struct UsageTab {
    pub stats: HashMap<u64, Remote<Vec<StatEntry>>>,
    pub rate: HashMap<u64, Remote<Vec<RateEntry>>>,
    /// The ppr services, as (id, product name).
    pub services: Vec<(u64, String)>,
    /// Services whose stats or rate answered 422 while their type was unknown: taken to be
    /// fpr, so they are not asked again and their 422 is not an error.
    pub not_ppr: HashSet<u64>,
    pub table: TableView,
}

impl UsageTab {
    pub fn selected(&self) -> Option<u64> {
        self.table
            .selected_row()
            .and_then(|i| self.services.get(i))
            .map(|(id, _)| *id)
    }

    /// The service's stats or rate answered, so it is a ppr service.
    pub fn answered(&self, id: u64) -> bool {
        self.stats_of(id).value().is_some() || self.rate_of(id).value().is_some()
    }

    pub fn stats_of(&self, id: u64) -> &Remote<Vec<StatEntry>> {
        static NONE: Remote<Vec<StatEntry>> = Remote::NotRequested;
        self.stats.get(&id).unwrap_or(&NONE)
    }

    pub fn rate_of(&self, id: u64) -> &Remote<Vec<RateEntry>> {
        static NONE: Remote<Vec<RateEntry>> = Remote::NotRequested;
        self.rate.get(&id).unwrap_or(&NONE)
    }

    pub fn rebuild(&mut self, ppr: Vec<(u64, String)>) {
        let keys = ppr
            .iter()
            .map(|(id, name)| {
                let id = id.to_string();
                search_key([id.as_str(), name.as_str()])
            })
            .collect();
        let ids = ppr.iter().map(|(id, _)| *id).collect();
        self.services = ppr;
        self.table.set_rows(keys, ids);
    }
}
