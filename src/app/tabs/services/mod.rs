//! The Services tab: the service list (`Services`), each service's detail (`Service(id)`,
//! cached, refreshed with the list) and whether the password is shown.
//!
//! The table's columns ([`COLUMNS`]) and their cells ([`cells`]) are one spec: the same
//! text is drawn and searched. `s` sorts locally by [`ServiceSort`]; `!` keeps the problem rows
//! (not Active, due within 7 days or late, proxy servers in error or inactive, over the
//! usage limit, or not checkable). Its look is [`look`].

pub mod look;

pub use super::services_sort::{Rank, ServiceSort, rank};
use super::{Intent, Props, Tab, TabCx, TabData, TabPane};
use crate::account::Answer;
use crate::account::store::Store;
use crate::account::{Focus, Kind};
use crate::api::{
    ApiError, ProductType, RateEntry, Request, Service, ServiceStatus, ServiceSummary,
};
use crate::app::columns::{CellText, Column, Sort, Tone};
use crate::app::popups::service::ServiceViewer;
use crate::app::table::TableView;
use crate::app::{Popup, RefreshGroup};
use crate::text::{self, MISSING};
use chrono::NaiveDate;
use std::collections::HashMap;

/// The columns, in the order drawn.
pub const COLUMNS: [Column; 7] = [
    Column::number("ID", 0),
    Column::text("Product", 1, 12).cut_in_the_middle(),
    Column::text("Status", 3, 10),
    Column::text("Due", 2, 10),
    Column::text("Proxies", 4, 8),
    Column::number("Next due", 5),
    Column::number("Order", 6),
];
/// Index of the Product column (the countdown is drawn after the name).
pub const PRODUCT: usize = 1;

/// What the Services table needs besides the service itself.
pub struct CellContext<'a> {
    pub today: NaiveDate,
    /// The account's answers (the network lists and rates the cells show).
    pub store: &'a Store,
}

/// A service's cells, as drawn and searched.
pub fn cells(s: &ServiceSummary, ctx: &CellContext) -> Vec<CellText> {
    cells_of(s, ctx.today, Looked::of(ctx.store, s.service_id))
}

fn cells_of(s: &ServiceSummary, today: NaiveDate, looked: Looked) -> Vec<CellText> {
    let (due, due_tone) = due_cell(s.nextduedate, today);
    let mut status = CellText::new(text::sanitize(s.status.as_str())).tone(status_tone(&s.status));
    if looked.over_limit() {
        status.text.push_str(" ⚠ over limit");
        status.tone = Tone::Bad;
    }
    vec![
        CellText::new(s.service_id.to_string()),
        CellText::new(text::or_missing(&s.product_name)),
        status,
        CellText::new(due).tone(due_tone),
        looked.proxies_cell(crate::app::is_swept(&s.status)),
        CellText::new(text::date(s.nextduedate)),
        CellText::new(text::id(s.orderid)),
    ]
}

pub fn status_tone(status: &ServiceStatus) -> Tone {
    match status {
        ServiceStatus::Active => Tone::Good,
        ServiceStatus::Pending => Tone::Warn,
        ServiceStatus::Suspended | ServiceStatus::Fraud => Tone::Bad,
        ServiceStatus::Terminated | ServiceStatus::Cancelled => Tone::Dim,
        ServiceStatus::Other(_) => Tone::Base,
    }
}

/// `in 3d!`, `today!`, `10d late!`: the days left; due within 7 days or overdue is marked
/// with `!`.
pub fn due_cell(due: Option<NaiveDate>, today: NaiveDate) -> (String, Tone) {
    let Some(due) = due else {
        return (MISSING.to_owned(), Tone::Dim);
    };
    match due.signed_duration_since(today).num_days() {
        d if d < 0 => (format!("{}d late!", -d), Tone::Bad),
        0 => ("today!".to_owned(), Tone::Warn),
        d if d <= 7 => (format!("in {d}d!"), Tone::Warn),
        d => (format!("in {d}d"), Tone::Base),
    }
}

/// A service's network lists and rate as the store has them, looked up once for its row:
/// its cells and its problem mark read them several times each, over every row.
#[derive(Clone, Copy)]
struct Looked<'a> {
    errors: Answer<'a, Vec<String>>,
    inactive: Answer<'a, Vec<String>>,
    rate: Option<&'a RateEntry>,
}

impl<'a> Looked<'a> {
    fn of(store: &'a Store, id: u64) -> Self {
        Self {
            errors: store.network_answer(id, true),
            inactive: store.network_answer(id, false),
            rate: store.rate(id).and_then(|v| v.first()),
        }
    }

    /// (servers in error, inactive servers), once both lists are known.
    fn counts(self) -> Option<(usize, usize)> {
        Some((self.errors.value()?.len(), self.inactive.value()?.len()))
    }

    /// The server cannot give its network status (400 `ClientID not found`: its client
    /// is gone). It is marked once in its row, not reported as a failure.
    fn cannot_check(self) -> bool {
        [self.errors, self.inactive]
            .into_iter()
            .any(|r| matches!(r.error(), Some(ApiError::ClientIdNotFound { .. })))
    }

    /// A ppr service whose rate is above its limit (a limit of 0 means none).
    fn over_limit(self) -> bool {
        self.rate
            .is_some_and(|r| r.limit > 0.0 && r.rate.is_finite() && r.rate > r.limit)
    }

    fn state(self) -> State {
        State {
            counts: self.counts(),
            cannot_check: self.cannot_check(),
            failed: self.failed(),
            over_limit: self.over_limit(),
        }
    }

    /// A network list failed and no good one is kept.
    fn failed(self) -> bool {
        [self.errors, self.inactive]
            .into_iter()
            .any(|r| r.error().is_some() && r.value().is_none())
    }

    /// See [`proxies_cell`].
    fn proxies_cell(self, swept: bool) -> CellText {
        if self.cannot_check() {
            return CellText::new("can't check").tone(Tone::Dim);
        }
        match self.counts() {
            None if !swept => CellText::new(text::MISSING).tone(Tone::Dim),
            Some((0, 0)) => CellText::new("ok").tone(Tone::Dim),
            Some((e, 0)) => CellText::new(format!("⚠ {e} err")).tone(Tone::Bad),
            Some((0, i)) => CellText::new(format!("⚠ {i} inactive")).tone(Tone::Warn),
            Some((e, i)) => CellText::new(format!("⚠ {e} err {i} inactive")).tone(Tone::Bad),
            None => {
                if self.failed() {
                    CellText::new("✗ unknown").tone(Tone::Bad)
                } else {
                    CellText::new("…").tone(Tone::Dim)
                }
            }
        }
    }
}

/// The proxy servers of a service in error or inactive, or why that is not known.
/// `swept`: whether the service's network status is checked at all (Terminated, Cancelled
/// and Fraud services are not, see `account/freshness.rs`); one that is not shows `—`,
/// not `…`.
pub fn proxies_cell(store: &Store, id: u64, swept: bool) -> CellText {
    Looked::of(store, id).proxies_cell(swept)
}

/// What a row's cells and problem mark are made from: the service as listed, the date,
/// and what they read of its network lists and rate.
#[derive(PartialEq)]
struct RowInputs {
    service: ServiceSummary,
    today: NaiveDate,
    state: State,
}

/// What a row reads of a service's network lists and rate ([`Looked`]), all of it.
#[derive(Clone, Copy, PartialEq)]
struct State {
    counts: Option<(usize, usize)>,
    cannot_check: bool,
    failed: bool,
    over_limit: bool,
}

fn is_problem(s: &ServiceSummary, today: NaiveDate, looked: Looked) -> bool {
    let due_soon = s
        .nextduedate
        .is_some_and(|d| d.signed_duration_since(today).num_days() <= 7);
    let servers = looked.counts().is_some_and(|(e, i)| e + i > 0);
    s.status != ServiceStatus::Active
        || due_soon
        || servers
        || looked.over_limit()
        || looked.cannot_check()
}

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
    fn render(&self, frame: &mut ratatui::Frame, area: ratatui::layout::Rect, props: &Props<'_>) {
        look::draw(self, frame, area, props);
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
    fn open(&mut self, cx: &mut TabCx<'_>) {
        if let Some(id) = self.table.selected_id() {
            cx.open_popup(Popup::Service(ServiceViewer::new(id)));
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
    /// (only the selected detail is refreshed with the list: see `after_services`).
    fn fetch_for_selection(&mut self, cx: &mut TabCx<'_>) {
        let Some(id) = self.table.selected_id() else {
            return;
        };
        let newly = self.detail_selected.replace(id) != Some(id);
        let detail = cx.store().service_answer(id);
        let due = newly
            && cx.settings().refresh.is_some()
            && !detail.is_loading()
            && cx.is_due(detail.answered_at(), false);
        if !detail.is_requested() || due {
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
