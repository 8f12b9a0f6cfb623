//! What the view reads of the app: each part's state, and the labels worked out from the
//! engine's mirror in the app's clock and offset. Read-only, except what the run loop sets
//! (the offset, what it waits for) and says (a notice).

use super::columns::{CellText, Column};
use super::status::StatusLine;
use super::tabs::{
    Tab, alerts::AlertsTab, billing::BillingView, network::NetworkTab, products::ProductsView,
    services::ServicesView, usage::UsageTab,
};
use super::{Answer, App, AppSettings, Mirror, Popup};
use crate::account::store::Store;
use crate::api::{Client, Request};
use chrono::{DateTime, FixedOffset, Utc};

impl App {
    pub fn should_quit(&self) -> bool {
        self.shell.quit
    }

    /// The offset times are shown in (the run loop sets the local one; UTC by default).
    pub fn set_utc_offset(&mut self, offset: FixedOffset) {
        self.shell.utc_offset = offset;
    }

    pub fn utc_offset(&self) -> FixedOffset {
        self.shell.utc_offset
    }

    pub fn now(&self) -> DateTime<Utc> {
        self.shell.now()
    }

    /// The money ahead, as the engine last worked it out ([`Msg::Money`](super::Msg::Money));
    /// `None` until the services list arrived.
    pub fn runway(&self) -> Option<&crate::billing::Runway> {
        self.tabs.billing.runway.as_deref()
    }

    pub fn settings(&self) -> &AppSettings {
        &self.shell.settings
    }

    pub fn tab(&self) -> Tab {
        self.shell.tab
    }

    pub fn size(&self) -> (u16, u16) {
        self.shell.size
    }

    /// A tab's columns as shown now (see [`TabPane`](super::tabs::TabPane)).
    pub fn tab_columns(&self, tab: Tab) -> Vec<Column> {
        tab.columns(&self.tabs, &self.tab_data())
    }

    /// The natural width of each searched column of a tab over all its rows.
    pub fn tab_natural(&self, tab: Tab) -> &[u16] {
        tab.natural(&self.tabs)
    }

    /// The cells of a tab's row `i` (an index into its rows).
    pub fn tab_cells(&self, tab: Tab, i: usize) -> Vec<CellText> {
        tab.cells(&self.tabs, &self.tab_data(), i)
    }

    /// What the tabs' rows are drawn from (see [`TabData`](super::tabs::TabData)).
    pub fn tab_data(&self) -> super::tabs::TabData<'_> {
        super::tabs::TabData {
            store: &self.account.store,
            probes: &self.probes,
            throttles: &self.account.throttles,
            history: &self.account.history,
            settings: &self.shell.settings,
            orders: &self.work.orders,
            budget_held: self.account.budget_held(self.now()),
            my_ip: self.account.my_ip.known(),
            now: self.now(),
            offset: self.shell.utc_offset,
        }
    }

    /// What a form is drawn from (see [`FormData`](super::forms::FormData)).
    pub fn form_data(&self) -> super::forms::FormData<'_> {
        super::forms::FormData {
            data: self.tab_data(),
            runway: self.runway(),
            my_ip: &self.account.my_ip,
        }
    }

    /// The Usage tab's chart (see [`UsageTab::chart`]).
    pub fn usage_chart(&self) -> Option<super::tabs::usage_chart::Chart> {
        self.tabs.usage.chart(&self.tab_data())
    }

    /// The account's answers (see [`Mirror::store`]).
    pub fn store(&self) -> &Store {
        &self.account.store
    }

    pub fn services(&self) -> ServicesView<'_> {
        self.tabs.services.view(&self.account.store)
    }

    pub fn products(&self) -> ProductsView<'_> {
        self.tabs.products.view(&self.account.store)
    }

    pub fn billing(&self) -> BillingView<'_> {
        self.tabs.billing.view(&self.account.store)
    }

    pub fn network(&self) -> &NetworkTab {
        &self.tabs.network
    }

    pub fn usage(&self) -> &UsageTab {
        &self.tabs.usage
    }

    pub fn alerts(&self) -> &AlertsTab {
        &self.tabs.alerts
    }

    /// The popup stack, bottom first.
    pub fn popups(&self) -> &[Popup] {
        &self.shell.popups
    }

    pub fn status(&self) -> &StatusLine {
        &self.shell.status
    }

    /// Says in the header what the program waits for (`None`: nothing any more).
    pub fn set_waiting(&mut self, what: Option<String>) {
        self.shell.waiting = what;
    }

    pub fn waiting(&self) -> Option<&str> {
        self.shell.waiting.as_deref()
    }

    /// Tells the user something that is not a failure of a request, in the status line.
    pub fn notify(&mut self, line: impl AsRef<str>) {
        self.shell.notify(line);
    }

    /// The reseller's clients (loaded when the order form opens).
    pub fn clients(&self) -> Answer<'_, Vec<Client>> {
        self.account.store.clients_answer()
    }

    /// A service's type as far as the app knows it (its detail, else the engine's).
    pub fn service_type(&self, id: u64) -> Option<crate::api::ProductType> {
        self.tabs.service_type(id, &self.account)
    }

    /// Requests sent and not answered yet (reads and writes).
    pub fn in_flight(&self) -> usize {
        self.account.in_flight()
    }

    pub fn is_in_flight(&self, request: &Request) -> bool {
        self.account
            .store
            .get(request)
            .is_some_and(|e| e.sent.is_some())
            || self.account.writes.values().any(|w| w == request)
    }

    /// The account's connection, as the engine last told.
    pub fn connection(&self) -> &crate::account::Connection {
        &self.account.connection
    }

    /// Since when the server gives no answer at all: the engine's outage, or, until it
    /// calls one, the first request that got no answer since the last answer.
    pub fn no_answer_since(&self) -> Option<DateTime<Utc>> {
        self.account
            .connection
            .unreachable_since()
            .or(self.account.no_answer_since)
    }

    /// Marked `✗`: unreachable, failing (answers of no use for a while), or a request that
    /// got no answer (before the engine's rule calls it unreachable).
    pub fn is_down(&self) -> bool {
        self.account.connection.down().is_some() || self.no_answer_since().is_some()
    }

    /// Nothing was answered yet, nor failed without an answer: the header says
    /// "connecting" rather than online.
    pub fn is_connecting(&self) -> bool {
        self.account.connection.link == crate::account::Link::Unknown
            && self.account.no_answer_since.is_none()
    }
}

impl App {
    /// The shell, for what the run loop asks of it (the profile switch, the message log).
    pub fn shell_mut(&mut self) -> &mut super::Shell {
        &mut self.shell
    }

    /// The engine's mirror: the budget, the connection, what is in flight.
    pub fn account(&self) -> &Mirror {
        &self.account
    }

    /// See [`Mirror::budget_waiting`].
    pub fn budget_waiting(&self) -> Option<String> {
        self.account.budget_waiting(self.now())
    }

    /// See [`Mirror::connection_label`].
    pub fn connection_label(&self) -> Option<String> {
        self.account
            .connection_label(self.now(), self.shell.utc_offset)
            .or_else(|| {
                let since = self.account.no_answer_since?;
                Some(format!(
                    "no answer since {}",
                    since
                        .with_timezone(&self.shell.utc_offset)
                        .format("%H:%M:%S")
                ))
            })
    }

    /// See [`Mirror::budget_next`].
    pub fn budget_next(&self) -> Option<String> {
        self.account.budget_next(self.now())
    }

    /// See [`Mirror::budget_label`].
    pub fn budget_label(&self) -> Option<String> {
        self.account.budget_label()
    }

    /// See [`Mirror::budget`].
    pub fn budget(&self) -> Option<&super::budget::Shown> {
        self.account.budget()
    }

    /// See [`Mirror::throttled_until`].
    pub fn throttled_until(&self, service_id: u64) -> Option<DateTime<Utc>> {
        self.account.throttled_until(service_id, self.now())
    }

    /// See [`Mirror::countdown`].
    pub fn countdown(&self, service_id: u64) -> Option<String> {
        self.account
            .countdown(service_id, self.now(), self.shell.utc_offset)
    }

    /// An order was sent and its outcome is unknown, and no later order of that product
    /// got a definite answer.
    pub fn order_in_doubt(&self) -> bool {
        self.work.orders.any_doubt()
    }

    /// The doubt over `product_id`'s last order, if any.
    pub fn order_doubt(&self, product_id: u64) -> Option<&super::orders::Doubt> {
        self.work.orders.doubt(product_id)
    }

    /// The record of the orders sent this session.
    pub fn orders(&self) -> &super::orders::Orders {
        &self.work.orders
    }

    /// The command log of this session.
    pub fn command_log(&self) -> &super::cmdlog::CommandLog {
        &self.work.cmdlog
    }

    /// The command log, taken out to go on under the next profile's session (as the
    /// message log does).
    pub fn take_command_log(&mut self) -> super::cmdlog::CommandLog {
        std::mem::take(&mut self.work.cmdlog)
    }

    /// Puts the log of the session before under this one's.
    pub fn continue_command_log(&mut self, older: super::cmdlog::CommandLog) {
        self.work.cmdlog.continue_after(older);
    }

    /// Turns recording and history questions on (see [`super::history`]).
    pub fn enable_history(&mut self) -> Vec<super::Command> {
        let now = self.now();
        self.account.history.enable(now)
    }

    pub fn history(&self) -> &super::history::HistoryState {
        &self.account.history
    }

    /// The records of the reads handled since the last call, as one sweep to write.
    pub fn take_history(&mut self) -> Option<crate::history::Sweep> {
        let now = self.now();
        self.account.history.take(now)
    }

    pub fn probes(&self) -> &super::probe::Probes {
        &self.probes
    }

    pub fn probe_templates(&self) -> Vec<crate::probe::export::Template> {
        crate::probe::export::all(&self.shell.settings.probe.templates)
    }

    pub fn provider_mark(&self, service_id: u64, host: &str) -> Option<crate::probe::report::Mark> {
        let list = |errors: bool| {
            self.account
                .store
                .network(service_id, errors)
                .unwrap_or_default()
        };
        crate::probe::report::Mark::of(host, list(true), list(false))
    }

    /// What decides which keys apply.
    pub fn context(&self) -> super::keymap::Context {
        let top = self.shell.popups.last();
        let popup = top.map(Popup::kind);
        super::keymap::Context {
            tab: self.shell.tab,
            popup,
            editing_filter: popup.is_none() && self.table(self.shell.tab).is_editing(),
            typing: top.is_some_and(Popup::is_typing),
            read_only: self.shell.settings.read_only,
            switchable: self.shell.settings.profiles.names.len() > 1,
            accounts: self.shell.accounts,
        }
    }

    /// The main table of a tab.
    pub fn table(&self, tab: Tab) -> &super::table::TableView {
        self.tabs.table(tab)
    }

    /// Where the view last laid things out.
    pub fn geometry(&self) -> &super::geometry::Geometry {
        &self.shell.geometry
    }

    /// The context the help at `index` of the popups describes: what is under it.
    pub fn help_context(&self, index: usize) -> super::keymap::Context {
        self.shell.help_context(index)
    }

    /// The proxy IPs of the lists loaded this session (the palette searches them).
    pub fn palette_proxies(&self) -> &super::palette::Proxies {
        &self.proxies
    }

    /// Selects the row of this identity in a tab's table, as a click would (the dashboard
    /// over several accounts selects in each account's tab what its All view selects),
    /// and works out what follows (the detail read, the engine's focus).
    pub fn select_row(&mut self, tab: Tab, id: u64) -> Vec<super::Command> {
        self.tabs.table_mut(tab).select_id(id);
        self.update_all([])
    }

    /// Selects the row of `tab` with this identity, whatever this account's own filter
    /// or `!` hid (the All view filters its merged rows itself), so what acts next acts
    /// on it; `None` when the account does not list it (then nothing may act).
    /// Marks the rows `ids` of `tab` and no other (the All view's marks, for a key on
    /// them).
    pub fn set_marks(&mut self, tab: Tab, ids: &[u64]) {
        self.tabs.table_mut(tab).set_marks(ids);
    }

    pub fn select_row_exactly(&mut self, tab: Tab, id: u64) -> Option<Vec<super::Command>> {
        if self.table(tab).selected_id() == Some(id) {
            return Some(Vec::new());
        }
        self.keys_up_to_date();
        let table = self.tabs.table_mut(tab);
        if !table.select_id(id) {
            table.clear_filter();
            table.set_problems_only(false);
            if !table.select_id(id) {
                return None;
            }
        }
        Some(self.update_all([]))
    }

    /// Over several accounts, which of them the screen shows (the keys' context: the
    /// footer and `?` say `A` and what `P` lists).
    pub fn set_accounts(&mut self, accounts: super::keymap::Accounts) {
        if self.shell.accounts != accounts {
            self.shell.accounts = accounts;
            self.shell.redraw = true;
        }
    }

    /// Opens a popup the desk made (over several accounts: the account picker, every
    /// account's messages or command lines, `P`'s accounts).
    pub fn push_popup(&mut self, popup: Popup) {
        self.shell.popups.push(popup);
        self.shell.redraw = true;
    }

    /// The popup on top, for the desk to bring what it shows of the other accounts up
    /// to date.
    pub fn top_popup_mut(&mut self) -> Option<&mut Popup> {
        self.shell.popups.last_mut()
    }

    /// Brings the search keys, problem marks and order of the tab on screen up to date
    /// (a big account defers them until something reads them: here, the All view).
    pub fn keys_up_to_date(&mut self) {
        self.cx(&mut Vec::new()).rebuild_if_read();
    }
}

/// The time and the settings the look kit draws with.
impl super::look::Seen for App {
    fn now(&self) -> DateTime<Utc> {
        self.shell.now()
    }
    fn offset(&self) -> FixedOffset {
        self.shell.utc_offset
    }
    fn settings(&self) -> &AppSettings {
        self.shell.settings()
    }
}
