//! The Network tab: for every service, its proxy servers in error (`NetworkErrors(id)`)
//! and inactive (`NetworkInactive(id)`), flattened into one table of (service, state, IP).
//! Only the services that are swept count (not Terminated, Cancelled or Fraud: see
//! `app/sweep.rs`).

use crate::app::remote::Remote;
use crate::app::table::{TableView, search_key};
use chrono::{DateTime, Utc};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ServerState {
    Error,
    Inactive,
}

impl ServerState {
    pub fn label(self) -> &'static str {
        match self {
            ServerState::Error => "error",
            ServerState::Inactive => "inactive",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerRow {
    pub service_id: u64,
    pub state: ServerState,
    pub ip: String,
}

#[derive(Debug, Default)]
pub struct NetworkTab {
    pub errors: HashMap<u64, Remote<Vec<String>>>,
    pub inactive: HashMap<u64, Remote<Vec<String>>>,
    pub rows: Vec<ServerRow>,
    pub table: TableView,
    /// The summary line, worked out with the rows (not per frame: it reads every service).
    pub summary: NetworkSummary,
}

/// The summary line's numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NetworkSummary {
    /// Services whose both lists have arrived.
    pub checked: usize,
    pub services: usize,
    pub errors: usize,
    pub inactive: usize,
    /// Requests still in flight.
    pub loading: usize,
    /// Requests that failed (the status line says why).
    pub failed: usize,
    /// The oldest data still shown from a per-service list whose refresh failed.
    pub stale_since: Option<DateTime<Utc>>,
    /// When the service checked longest ago was checked (both its lists).
    pub oldest: Option<DateTime<Utc>>,
}

impl NetworkTab {
    /// (servers in error, inactive servers) of one service, once known.
    pub fn counts(&self, id: u64) -> Option<(usize, usize)> {
        let e = self.errors.get(&id)?.value()?.len();
        let i = self.inactive.get(&id)?.value()?.len();
        Some((e, i))
    }

    pub fn selected(&self) -> Option<&ServerRow> {
        self.table.selected_row().and_then(|i| self.rows.get(i))
    }

    fn compute_summary(&self, service_ids: &[u64]) -> NetworkSummary {
        let mut s = NetworkSummary {
            services: service_ids.len(),
            ..Default::default()
        };
        for id in service_ids {
            let e = self.errors.get(id);
            let i = self.inactive.get(id);
            if let (Some((e, e_at)), Some((i, i_at))) =
                (e.and_then(Remote::stamped), i.and_then(Remote::stamped))
            {
                s.checked += 1;
                s.errors += e.len();
                s.inactive += i.len();
                let at = e_at.min(i_at);
                s.oldest = Some(s.oldest.map_or(at, |t| t.min(at)));
            }
            for r in [e, i].into_iter().flatten() {
                s.loading += usize::from(r.is_loading());
                s.failed += usize::from(r.error().is_some());
                if r.error().is_some()
                    && let Some((_, at)) = r.stamped()
                {
                    s.stale_since = Some(s.stale_since.map_or(at, |t| t.min(at)));
                }
            }
        }
        s
    }

    /// Rebuilds the rows for these services, in their order: errors first, then inactive.
    pub fn rebuild(&mut self, service_ids: &[u64], product_of: impl Fn(u64) -> String) {
        let mut rows = Vec::new();
        for &id in service_ids {
            for (state, map) in [
                (ServerState::Error, &self.errors),
                (ServerState::Inactive, &self.inactive),
            ] {
                if let Some(list) = map.get(&id).and_then(Remote::value) {
                    rows.extend(list.iter().map(|ip| ServerRow {
                        service_id: id,
                        state,
                        ip: crate::text::sanitize(ip).into_owned(),
                    }));
                }
            }
        }
        let keys = rows
            .iter()
            .map(|r| {
                let id = r.service_id.to_string();
                let product = product_of(r.service_id);
                search_key([id.as_str(), &product, r.state.label(), &r.ip])
            })
            .collect();
        let ids = rows.iter().map(row_id).collect();
        self.rows = rows;
        self.table.set_rows(keys, ids);
        self.summary = self.compute_summary(service_ids);
    }
}

/// A row's identity, so the selection survives a refresh.
fn row_id(row: &ServerRow) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    row.hash_key().hash(&mut h);
    h.finish()
}

impl ServerRow {
    fn hash_key(&self) -> (u64, ServerState, &str) {
        (self.service_id, self.state, &self.ip)
    }
}
