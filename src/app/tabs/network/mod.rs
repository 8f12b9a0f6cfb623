//! The Network tab: for every service, its proxy servers in error (`NetworkErrors(id)`)
//! and inactive (`NetworkInactive(id)`), flattened into one table of (service, state, IP).
//! Only the services that are swept count (not Terminated, Cancelled or Fraud: see
//! `account/freshness.rs`). Its look is [`look`].

pub mod look;

use super::{Intent, Tab, TabCx, TabData, TabPane};
use crate::account::Answer;
use crate::account::store::Store;
use crate::account::{Focus, Kind};
use crate::api::Request;
use crate::app::columns::{self, CellText, Column, Sort, SortKey, Tone};
use crate::app::table::TableView;
use chrono::{DateTime, Utc};
use std::hash::{Hash, Hasher};

/// Errors before inactive servers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
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

/// The columns, in the order drawn.
pub const COLUMNS: [Column; 4] = [
    Column::number("Service", 0),
    Column::text("State", 1, 10),
    Column::text("IP address", 2, 15),
    Column::text("Product", 3, 8).cut_in_the_middle(),
];

/// What `s` sorts by, in turn (`!` keeps the servers in error).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetworkSort {
    State,
    Service,
    IpAddress,
}

impl SortKey for NetworkSort {
    const ALL: &'static [Self] = &[Self::State, Self::Service, Self::IpAddress];
    fn name(self) -> &'static str {
        match self {
            Self::State => "state",
            Self::Service => "service",
            Self::IpAddress => "IP address",
        }
    }
}

/// A server row's cells, as drawn and searched.
pub fn cells(r: &ServerRow, product: &str) -> Vec<CellText> {
    let state = match r.state {
        ServerState::Error => CellText::new("✗ error").tone(Tone::Bad),
        ServerState::Inactive => CellText::new("○ inactive").tone(Tone::Warn),
    };
    vec![
        CellText::new(r.service_id.to_string()),
        state,
        CellText::new(r.ip.clone()),
        CellText::new(product),
    ]
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerRow {
    pub service_id: u64,
    pub state: ServerState,
    pub ip: String,
}

#[derive(Debug, Default)]
pub struct NetworkTab {
    pub rows: Vec<ServerRow>,
    /// Each row's product name (sanitised), as drawn.
    pub products: Vec<String>,
    pub table: TableView,
    pub sort: Sort<NetworkSort>,
    /// The summary line, worked out with the rows (not per frame: it reads every service).
    pub summary: NetworkSummary,
}

/// The summary line's numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NetworkSummary {
    /// Services whose both lists were answered (with addresses or an error).
    pub checked: usize,
    pub services: usize,
    pub errors: usize,
    pub inactive: usize,
    /// Requests still in flight.
    pub loading: usize,
    /// Requests that failed (the status line says why).
    pub failed: usize,
    /// Services the server cannot check (400 `ClientID not found`: their client is gone).
    pub cannot_check: usize,
    /// The oldest data still shown from a per-service list whose refresh failed.
    pub stale_since: Option<DateTime<Utc>>,
    /// When the service checked longest ago was checked (both its lists).
    pub oldest: Option<DateTime<Utc>>,
}

impl NetworkTab {
    pub fn selected(&self) -> Option<&ServerRow> {
        self.table.selected_row().and_then(|i| self.rows.get(i))
    }

    fn compute_summary(store: &Store, service_ids: &[u64]) -> NetworkSummary {
        let mut s = NetworkSummary {
            services: service_ids.len(),
            ..Default::default()
        };
        for id in service_ids {
            let e = store.network_answer(*id, true);
            let i = store.network_answer(*id, false);
            // Checked: both lists answered, with addresses or with an error about the
            // service (see account/freshness.rs).
            if let (Some(e_at), Some(i_at)) = (e.answered_at(), i.answered_at()) {
                s.checked += 1;
                let at = e_at.min(i_at);
                s.oldest = Some(s.oldest.map_or(at, |t| t.min(at)));
            }
            if let (Some(e), Some(i)) = (e.value(), i.value()) {
                s.errors += e.len();
                s.inactive += i.len();
            }
            let gone = |r: Answer<'_, Vec<String>>| {
                matches!(
                    r.error(),
                    Some(crate::api::ApiError::ClientIdNotFound { .. })
                )
            };
            s.cannot_check += usize::from([e, i].into_iter().any(gone));
            for r in [e, i] {
                s.loading += usize::from(r.is_loading());
                s.failed += usize::from(r.error().is_some() && !gone(r));
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
    pub fn rebuild(
        &mut self,
        store: &Store,
        service_ids: &[u64],
        product_of: impl Fn(u64) -> String,
    ) {
        let mut rows = Vec::new();
        for &id in service_ids {
            for (state, errors) in [(ServerState::Error, true), (ServerState::Inactive, false)] {
                if let Some(list) = store.network_answer(id, errors).value() {
                    rows.extend(list.iter().map(|ip| ServerRow {
                        service_id: id,
                        state,
                        ip: crate::text::sanitize(ip).into_owned(),
                    }));
                }
            }
        }
        let products: Vec<String> = rows.iter().map(|r| product_of(r.service_id)).collect();
        let all: Vec<Vec<CellText>> = rows
            .iter()
            .zip(&products)
            .map(|(r, p)| cells(r, p))
            .collect();
        self.table.set_natural(columns::natural_widths(
            &COLUMNS,
            all.iter().map(Vec::as_slice),
        ));
        let keys = all.iter().map(|c| columns::search_key(c)).collect();
        let problems = rows.iter().map(|r| r.state == ServerState::Error).collect();
        let order = self.sort.order(rows.len(), |by, a, b| {
            let (a, b) = (&rows[a], &rows[b]);
            match by {
                NetworkSort::State => a.state.cmp(&b.state),
                NetworkSort::Service => a.service_id.cmp(&b.service_id),
                NetworkSort::IpAddress => ip_order(&a.ip).cmp(&ip_order(&b.ip)),
            }
        });
        let ids = rows.iter().map(row_id).collect();
        self.rows = rows;
        self.products = products;
        self.table.set_rows_with(keys, ids, order, problems);
        self.summary = Self::compute_summary(store, service_ids);
    }
}

/// Addresses in numeric order (10.0.0.9 before 10.0.0.10); what does not parse, after.
fn ip_order(ip: &str) -> (bool, Option<std::net::IpAddr>, &str) {
    let parsed = ip.trim().parse().ok();
    (parsed.is_none(), parsed, ip)
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

/// (servers in error, inactive servers) of one service, once both lists are known.
pub fn counts(store: &Store, id: u64) -> Option<(usize, usize)> {
    let e = store.network_answer(id, true).value()?.len();
    let i = store.network_answer(id, false).value()?.len();
    Some((e, i))
}

/// When a service's network status was last checked (the older of its two lists), with
/// an answer or with an error the server gave for it.
pub fn checked_at(store: &Store, id: u64) -> Option<DateTime<Utc>> {
    let e = store.network_answer(id, true).answered_at()?;
    let i = store.network_answer(id, false).answered_at()?;
    Some(e.min(i))
}

impl TabPane for NetworkTab {
    fn kinds(&self) -> &'static [Kind] {
        &[Kind::Network]
    }

    fn table(&self) -> &TableView {
        &self.table
    }
    fn table_mut(&mut self) -> &mut TableView {
        &mut self.table
    }
    /// When each service was checked; with the history on, since when each server is
    /// listed and its errors of the last 24 hours.
    fn columns(&self, data: &TabData<'_>) -> Vec<Column> {
        let mut columns = COLUMNS.to_vec();
        columns.push(Column::text("Checked", 4, 8));
        // Hidden, not cut, when short of room: each is only useful whole.
        if data.history.overview().is_some() {
            columns.push(Column::text("Listed", 5, 15));
            columns.push(Column::text("Errors 24h", 6, 12));
        }
        columns
    }
    fn cells(&self, data: &TabData<'_>, i: usize) -> Vec<CellText> {
        self.row_cells(data, i).unwrap_or_default()
    }
    fn cycle_sort(&mut self, _cx: &mut TabCx<'_>) {
        self.sort.cycle();
    }
    fn reverse_sort(&mut self) {
        self.sort.reverse();
    }
    fn resort(&mut self, cx: &mut TabCx<'_>) {
        cx.intend(Intent::Rebuild(Tab::Network));
    }
    /// The server's service, on the Services tab.
    fn open(&mut self, cx: &mut TabCx<'_>) {
        if let Some(row) = self.selected() {
            cx.intend(Intent::GoTo(Tab::Services, row.service_id));
        }
    }
    /// Every network list, and those of the services whose servers are on screen (a row
    /// is a server, not a service).
    fn focus(&self, focus: &mut Focus) {
        focus.kinds = self.kinds().to_vec();
        let (_, visible) = self.table.visible(self.table.page_rows());
        let mut services: Vec<u64> = visible
            .iter()
            .filter_map(|i| self.rows.get(*i))
            .map(|r| r.service_id)
            .collect();
        services.dedup();
        focus.rows.extend(
            services
                .into_iter()
                .flat_map(|id| [Request::NetworkErrors(id), Request::NetworkInactive(id)]),
        );
    }
}

impl NetworkTab {
    fn row_cells(&self, data: &TabData<'_>, i: usize) -> Option<Vec<CellText>> {
        use crate::history::ServerList;
        let r = self.rows.get(i)?;
        let mut row = cells(r, self.products.get(i).map_or("", String::as_str));
        let checked = checked_at(data.store, r.service_id)
            .map(|at| crate::text::age(data.now, at))
            .unwrap_or_default();
        row.push(CellText::new(checked).tone(Tone::Dim));
        if let Some(o) = data.history.overview() {
            let list = match r.state {
                ServerState::Error => ServerList::Errors,
                ServerState::Inactive => ServerList::Inactive,
            };
            let listed = o
                .open
                .get(&(r.service_id, list, r.ip.clone()))
                .map(|at| crate::text::since(data.now, data.offset, *at))
                .unwrap_or_default();
            row.push(CellText::new(listed).tone(Tone::Dim));
            let spark = o
                .services
                .get(&r.service_id)
                .map(|s| crate::text::spark_counts(&s.errors_24h, 12))
                .unwrap_or_default();
            row.push(CellText::new(spark).tone(Tone::Bad));
        }
        Some(row)
    }
}
