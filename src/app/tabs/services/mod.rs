//! The Services tab: the service list (`Services`), each service's detail (`Service(id)`,
//! cached, refreshed with the list) and whether the password is shown.
//!
//! The table's columns ([`COLUMNS`]) and their cells ([`cells`]) are one spec: the same
//! text is drawn and searched. `s` sorts locally by [`ServiceSort`]; `!` keeps the problem rows
//! (not Active, due within 7 days or late, proxy servers in error or inactive, over the
//! usage limit, or not checkable). Its look is [`look`].

mod cells;
pub mod look;

pub use cells::{COLUMNS, CellContext, PRODUCT, cells, due_cell, proxies_cell};
use cells::{Looked, RowInputs, cells_of, is_problem};

pub use super::services_sort::{Rank, ServiceSort, rank};
use super::{Intent, Tab, TabCx, TabData, TabPane};
use crate::account::Answer;
use crate::account::store::Store;
use crate::account::{Focus, Kind};
use crate::api::{ProductType, Request, Service, ServiceSummary};
use crate::app::columns::{CellText, Column, Sort, Tone};
use crate::app::keymap::Action;
use crate::app::table::TableView;
use crate::app::{Popup, RefreshGroup};
use std::collections::HashMap;

#[derive(Debug, Default)]
pub struct ServicesTab {
    pub table: TableView,
    pub show_password: bool,
    /// Shown, hidden or zoomed (`z`).
    pub detail_pane: super::DetailPane,
    pub sort: Sort<ServiceSort>,
    /// Service ID → position in the list, so per-service results find their row in O(1).
    index: HashMap<u64, usize>,
    /// Each row's search key, widths and problem mark with what they were made from.
    made: crate::app::memo::RowMemo<RowInputs>,
    /// How many lists were kept (each answer to `Services`, good or not): what is merged
    /// straight from the list changes with it.
    lists: u64,
    /// The service last selected: a newly selected one's cached detail is read again
    /// when due (only the selected detail refreshes with the list).
    detail_selected: Option<u64>,
}

/// The Services tab over the account's answers: the tab holds what it shows (the table,
/// the sort), the store what the server said.
pub type ServicesView<'a> = super::TabView<'a, ServicesTab>;

impl<'a> super::TabView<'a, ServicesTab> {
    pub fn list(self) -> Answer<'a, Vec<ServiceSummary>> {
        self.store.services_answer()
    }

    /// The services on screen (the last good list), in server order.
    pub fn rows(self) -> &'a [ServiceSummary] {
        self.list().value().map(Vec::as_slice).unwrap_or_default()
    }

    /// Counts the answers to `Services` kept (see [`ServicesTab::note_list`]).
    pub fn list_generation(self) -> u64 {
        self.tab.lists
    }

    pub fn ids(self) -> Vec<u64> {
        self.rows().iter().map(|s| s.service_id).collect()
    }

    pub fn selected(self) -> Option<&'a ServiceSummary> {
        self.tab
            .table
            .selected_row()
            .and_then(|i| self.rows().get(i))
    }

    pub fn detail(self, id: u64) -> Answer<'a, Service> {
        self.store.service_answer(id)
    }

    /// The product type of a service, once its detail has said it.
    pub fn product_type(self, id: u64) -> Option<&'a ProductType> {
        self.store.service(id).map(|s| &s.product_type)
    }

    pub fn knows(self, id: u64) -> bool {
        self.tab.index.contains_key(&id)
    }

    /// The listed service with this ID.
    pub fn get(self, id: u64) -> Option<&'a ServiceSummary> {
        self.tab.index.get(&id).and_then(|&i| self.rows().get(i))
    }

    /// The listed services that are swept (the account engine plans the sweeps:
    /// [`crate::account::planner`]), in the services' order.
    pub(in crate::app) fn swept_ids(self) -> Vec<u64> {
        self.rows()
            .iter()
            .filter(|s| crate::account::planner::is_swept(&s.status))
            .map(|s| s.service_id)
            .collect()
    }
}

impl ServicesTab {
    pub fn view<'a>(&'a self, store: &'a Store) -> ServicesView<'a> {
        super::TabView { tab: self, store }
    }

    /// An answer to `Services` was kept: [`ServicesView::rows`] may have changed.
    pub(in crate::app) fn note_list(&mut self) {
        self.lists += 1;
    }

    /// Whether the search keys, problem marks or order are in use (a filter, `!`, a sort).
    pub fn reads_keys(&self) -> bool {
        !self.table.filter().is_empty() || self.table.problems_only() || self.sort.by.is_some()
    }

    /// Rebuilds the table's search keys, widths, order and problem marks from the list
    /// (after it, the network status, the usage or the date changed).
    pub fn rebuild(&mut self, rows: &[ServiceSummary], ctx: &CellContext) {
        // What each row's cells read of the store, looked up once; a row whose service,
        // date and state are as last time keeps its key, widths and mark (`RowMemo`).
        let today = ctx.today;
        let derived = self.made.derive(
            &COLUMNS,
            rows.iter()
                .map(|s| (s.service_id, (s, Looked::of(ctx.store, s.service_id)))),
            |kept: &RowInputs, (s, l)| {
                kept.service == **s && kept.today == today && kept.state == l.state()
            },
            |&(s, l)| {
                let inputs = RowInputs {
                    service: s.clone(),
                    today,
                    state: l.state(),
                };
                (inputs, cells_of(s, today, l), is_problem(s, today, l))
            },
        );
        self.table.set_natural(derived.natural);
        let (keys, problems) = (derived.keys, derived.problems);
        let ranks: Vec<Rank> = match self.sort.by {
            Some(by) => rows.iter().map(|s| rank(by, s, ctx.store)).collect(),
            None => Vec::new(),
        };
        let cmp = |_: ServiceSort, a: usize, b: usize| ranks[a].cmp(&ranks[b]);
        // By due date, an ended service (terminated, cancelled, fraud) will never fall due:
        // last in both directions, so neither end of the list starts with the dead.
        let order = if self.sort.by == Some(ServiceSort::DueDate) {
            let ended = |i: usize| !crate::app::is_swept(&rows[i].status);
            self.sort.order_with_last(rows.len(), cmp, ended)
        } else {
            self.sort.order(rows.len(), cmp)
        };
        let ids = rows.iter().map(|s| s.service_id).collect();
        self.index = rows
            .iter()
            .enumerate()
            .map(|(i, s)| (s.service_id, i))
            .collect();
        self.table.set_rows_with(keys, ids, order, problems);
    }
}

impl TabPane for ServicesTab {
    fn kinds(&self) -> &'static [Kind] {
        &[Kind::Services]
    }

    fn table(&self) -> &TableView {
        &self.table
    }
    fn table_mut(&mut self) -> &mut TableView {
        &mut self.table
    }

    /// A Health column once a service was probed.
    fn columns(&self, data: &TabData<'_>) -> Vec<Column> {
        let mut columns = COLUMNS.to_vec();
        // It changes with each probe, so it is drawn beside the searched columns.
        if !data.probes.is_empty() {
            columns.push(Column::text("Health", 2, 16));
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
        cx.intend(Intent::Rebuild(Tab::Services));
    }
    /// `z` cycles the detail pane; `v` shows or hides the selected service's password
    /// (hidden again when another service is selected: [`Self::fetch_for_selection`]).
    fn toggle(&mut self, action: Action) {
        match action {
            Action::CycleDetail => self.detail_pane = self.detail_pane.next(),
            Action::TogglePassword => self.show_password = !self.show_password,
            _ => {}
        }
    }
    fn open(&mut self, cx: &mut TabCx<'_>) {
        if let Some(id) = self.table.selected_id() {
            cx.open_popup(Popup::service(id));
        }
    }

    fn refresh(&mut self, cx: &mut TabCx<'_>) {
        cx.intend(Intent::Refresh(RefreshGroup::Services));
    }
    fn focus(&self, focus: &mut Focus) {
        // Each row on screen shows its proxies (the network lists) and whether it is over
        // its limit (the rate of a rotating service): read first while never shown, but
        // only the list is the tab's whole kind.
        super::pane::on_screen(&[Kind::Network, Kind::Rate], &self.table, focus);
        focus.kinds = self.kinds().to_vec();
        focus.requests.push(Request::Services);
        if let Some(id) = self.table.selected_id() {
            focus.requests.push(Request::Service(id));
        }
    }
    /// The selected service's detail, when never read, or newly selected and due again
    /// (only the selected detail is refreshed with the list: see `after_services`), and
    /// this machine's IP once, when the detail shows a bound IP to compare with it.
    fn fetch_for_selection(&mut self, cx: &mut TabCx<'_>) {
        let Some(id) = self.table.selected_id() else {
            return;
        };
        let newly = self.detail_selected.replace(id) != Some(id);
        if newly {
            // `v` showed one service's password: another's stays hidden until asked.
            self.show_password = false;
        }
        let detail = cx.store().service_answer(id);
        let bound_fpr = detail.value().is_some_and(|s| {
            s.product_type == ProductType::Fpr
                && s.bound_ip
                    .as_deref()
                    .is_some_and(|ip| !ip.trim().is_empty())
        });
        let due = newly
            && cx.settings().refresh.is_some()
            && !detail.is_loading()
            && cx.is_due(detail.answered_at(), false);
        let read = !detail.is_requested() || due;
        if bound_fpr {
            // The detail says whether the bound IP is this machine's.
            cx.intend(Intent::LookUpMyIp);
        }
        if read {
            cx.fetch(Request::Service(id));
        }
    }
    fn selected_service(&self) -> Option<u64> {
        self.table.selected_id()
    }
    fn command(&self) -> Option<&'static str> {
        Some("services")
    }
}

impl ServicesTab {
    /// A Services row's cells: the service's, its last probe's health, and the IP-list
    /// refresh countdown after the name.
    fn row_cells(&self, data: &TabData<'_>, i: usize) -> Option<Vec<CellText>> {
        let s = self.view(data.store).rows().get(i)?;
        let ctx = CellContext {
            today: data.today(),
            store: data.store,
        };
        let mut cells = cells(s, &ctx);
        if !data.probes.is_empty() {
            cells.push(
                data.probes
                    .get(s.service_id)
                    .map_or_else(|| CellText::new(""), |run| run.health_cell()),
            );
        }
        if let Some(until) = data.throttled_until(s.service_id) {
            // The IP-list refresh countdown follows the name, which gives way to it but
            // stays (the detail has the countdown in words).
            let tail = format!(
                " ⟳ {}",
                crate::iplist_throttle::format_remaining(until, data.now)
            );
            let name = std::mem::take(&mut cells[PRODUCT]);
            cells[PRODUCT] = name.with_tail(tail, Tone::Stale);
        }
        Some(cells)
    }
}
