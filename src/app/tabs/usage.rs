//! The Usage tab: rotating (ppr) services only. For each, the daily statistics (`Stats`)
//! and the rate against the limit (`Rate`, first entry).
//!
//! Which services are ppr is known from their detail (`Service(id)`); the list holds the
//! services whose detail says ppr, in the services' order.

use crate::api::{RateEntry, StatEntry};
use crate::app::remote::Remote;
use crate::app::table::{TableView, search_key};
use std::collections::HashMap;

#[derive(Debug, Default)]
pub struct UsageTab {
    pub stats: HashMap<u64, Remote<Vec<StatEntry>>>,
    pub rate: HashMap<u64, Remote<Vec<RateEntry>>>,
    /// The ppr services, as (id, product name).
    pub services: Vec<(u64, String)>,
    pub table: TableView,
}

impl UsageTab {
    pub fn selected(&self) -> Option<u64> {
        self.table
            .selected_row()
            .and_then(|i| self.services.get(i))
            .map(|(id, _)| *id)
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
