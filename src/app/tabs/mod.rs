//! The tabs: one file per tab (its state and its [`TabPane`]), and what the app asks the
//! tab on screen ([`Tab`]'s methods here, one plain match over the tabs each). A tab gets
//! only its own state and a narrow context ([`TabData`] to draw from, [`TabCx`] to act
//! through); `Tab::act` hands it them and then carries out the [`Intent`]s it left (a
//! row of another tab to show, rows to rebuild, a group to refresh), so no tab reaches
//! another's state.
//!
//! **Adding a tab** (the one place this recipe is written): a file here with the tab's
//! state (`Default`, with a [`TableView`] in a field named `table`) and its `impl TabPane` (its title, kinds,
//! columns and cells, and whatever keys it answers), and its `mod` line here; then its
//! variant in [`Tab`] and [`Tab::ALL`] and its state's field in [`Tabs`] (both in the
//! app's root, `src/app/mod.rs`), and the arms the compiler then asks for in the matches
//! below. The ui draws a tab it has no pane of its own for as a plain list, from its
//! columns, cells and [`Listing`]; the keys `1`…`n` and `Tab`, the palette, the footer and
//! the dashboard over several accounts take it from [`Tab::ALL`]. (The enum is in the
//! root so that what names a tab, the key map and the shell, need not sit above the tabs.)

// The tabs' modules (each also a variant of [`Tab`]) and what they share.
pub mod alerts;
pub mod billing;
pub mod clients;
pub mod network;
mod pane;
pub mod products;
pub mod services;
mod services_sort;
pub mod usage;
pub mod usage_chart;

pub use super::{Tab, Tabs};
pub use pane::{Intent, Listing, TabCx, TabData, TabPane, TabView};

use super::Cx;
use super::columns::{CellText, Column};
use super::table::TableView;
use crate::account::Focus;
use alerts::AlertsTab;
use billing::BillingTab;
use clients::ClientsTab;
use network::NetworkTab;
use products::ProductsTab;
use services::ServicesTab;
use usage::UsageTab;

/// What the app asks the tab on screen: one match over the tabs per question, each arm
/// the tab's [`TabPane`] (a new tab's arms are the ones the compiler asks for).
impl Tab {
    /// The title on the tab line, in the palette and the help.
    pub fn title(self) -> &'static str {
        match self {
            Tab::Services => <ServicesTab as TabPane>::TITLE,
            Tab::Products => <ProductsTab as TabPane>::TITLE,
            Tab::Billing => <BillingTab as TabPane>::TITLE,
            Tab::Network => <NetworkTab as TabPane>::TITLE,
            Tab::Usage => <UsageTab as TabPane>::TITLE,
            Tab::Alerts => <AlertsTab as TabPane>::TITLE,
            Tab::Clients => <ClientsTab as TabPane>::TITLE,
        }
    }

    pub fn table(self, tabs: &Tabs) -> &TableView {
        match self {
            Tab::Services => TabPane::table(&tabs.services),
            Tab::Products => TabPane::table(&tabs.products),
            Tab::Billing => TabPane::table(&tabs.billing),
            Tab::Network => TabPane::table(&tabs.network),
            Tab::Usage => TabPane::table(&tabs.usage),
            Tab::Alerts => TabPane::table(&tabs.alerts),
            Tab::Clients => TabPane::table(&tabs.clients),
        }
    }

    pub(in crate::app) fn table_mut(self, tabs: &mut Tabs) -> &mut TableView {
        match self {
            Tab::Services => &mut tabs.services.table,
            Tab::Products => &mut tabs.products.table,
            Tab::Billing => &mut tabs.billing.table,
            Tab::Network => &mut tabs.network.table,
            Tab::Usage => &mut tabs.usage.table,
            Tab::Alerts => &mut tabs.alerts.table,
            Tab::Clients => &mut tabs.clients.table,
        }
    }

    /// The table's columns as the app shows them now.
    pub fn columns(self, tabs: &Tabs, data: &TabData<'_>) -> Vec<Column> {
        match self {
            Tab::Services => tabs.services.columns(data),
            Tab::Products => tabs.products.columns(data),
            Tab::Billing => tabs.billing.columns(data),
            Tab::Network => tabs.network.columns(data),
            Tab::Usage => tabs.usage.columns(data),
            Tab::Alerts => tabs.alerts.columns(data),
            Tab::Clients => tabs.clients.columns(data),
        }
    }

    /// The natural width of each searched column over all the rows.
    pub fn natural(self, tabs: &Tabs) -> &[u16] {
        self.table(tabs).natural()
    }

    /// The cells of row `i` (an index into the tab's rows); empty when there is none.
    pub fn cells(self, tabs: &Tabs, data: &TabData<'_>, i: usize) -> Vec<CellText> {
        match self {
            Tab::Services => tabs.services.cells(data, i),
            Tab::Products => tabs.products.cells(data, i),
            Tab::Billing => tabs.billing.cells(data, i),
            Tab::Network => tabs.network.cells(data, i),
            Tab::Usage => tabs.usage.cells(data, i),
            Tab::Alerts => tabs.alerts.cells(data, i),
            Tab::Clients => tabs.clients.cells(data, i),
        }
    }

    /// Where the rows come from, for a tab the ui draws as a plain list.
    pub fn listing(self, tabs: &Tabs, data: &TabData<'_>) -> Option<Listing> {
        match self {
            Tab::Services => tabs.services.listing(data),
            Tab::Products => tabs.products.listing(data),
            Tab::Billing => tabs.billing.listing(data),
            Tab::Network => tabs.network.listing(data),
            Tab::Usage => tabs.usage.listing(data),
            Tab::Alerts => tabs.alerts.listing(data),
            Tab::Clients => tabs.clients.listing(data),
        }
    }

    /// `s`: the next sort.
    pub(in crate::app) fn cycle_sort(self, cx: &mut Cx<'_>) {
        self.act(Act::CycleSort, cx);
    }

    /// `S`: the sort the other way round.
    pub(in crate::app) fn reverse_sort(self, tabs: &mut Tabs) {
        match self {
            Tab::Services => TabPane::reverse_sort(&mut tabs.services),
            Tab::Products => TabPane::reverse_sort(&mut tabs.products),
            Tab::Billing => TabPane::reverse_sort(&mut tabs.billing),
            Tab::Network => TabPane::reverse_sort(&mut tabs.network),
            Tab::Usage => TabPane::reverse_sort(&mut tabs.usage),
            Tab::Alerts => TabPane::reverse_sort(&mut tabs.alerts),
            Tab::Clients => TabPane::reverse_sort(&mut tabs.clients),
        }
    }

    /// The rows in their new order after `s` or `S`.
    pub(in crate::app) fn resort(self, cx: &mut Cx<'_>) {
        self.act(Act::Resort, cx);
    }

    /// Enter: the selected row's detail, or where it leads.
    pub(in crate::app) fn open(self, cx: &mut Cx<'_>) {
        self.act(Act::Open, cx);
    }

    /// `r`: the tab's data, now.
    pub(in crate::app) fn refresh(self, cx: &mut Cx<'_>) {
        self.act(Act::Refresh, cx);
    }

    /// What the tab shows, for the engine.
    pub(in crate::app) fn focus(self, tabs: &Tabs, focus: &mut Focus) {
        match self {
            Tab::Services => TabPane::focus(&tabs.services, focus),
            Tab::Products => TabPane::focus(&tabs.products, focus),
            Tab::Billing => TabPane::focus(&tabs.billing, focus),
            Tab::Network => TabPane::focus(&tabs.network, focus),
            Tab::Usage => TabPane::focus(&tabs.usage, focus),
            Tab::Alerts => TabPane::focus(&tabs.alerts, focus),
            Tab::Clients => TabPane::focus(&tabs.clients, focus),
        }
    }

    pub(in crate::app) fn fetch_for_selection(self, cx: &mut Cx<'_>) {
        self.act(Act::FetchForSelection, cx);
    }

    pub(in crate::app) fn sync(self, cx: &mut Cx<'_>) {
        self.act(Act::Sync, cx);
    }

    /// Does `act` on this tab alone, with a [`TabCx`] over the shell, the store and the
    /// commands out, then carries out what it asked of the rest ([`Intent`]).
    fn act(self, act: Act, cx: &mut Cx<'_>) {
        let mut intents = Vec::new();
        let tabs = &mut *cx.tabs;
        let mut tab_cx = TabCx::new(
            &mut *cx.shell,
            &mut cx.account.store,
            &mut *cx.out,
            &mut intents,
        );
        let tab_cx = &mut tab_cx;
        match self {
            Tab::Services => act.on(&mut tabs.services, tab_cx),
            Tab::Products => act.on(&mut tabs.products, tab_cx),
            Tab::Billing => act.on(&mut tabs.billing, tab_cx),
            Tab::Network => act.on(&mut tabs.network, tab_cx),
            Tab::Usage => act.on(&mut tabs.usage, tab_cx),
            Tab::Alerts => act.on(&mut tabs.alerts, tab_cx),
            Tab::Clients => act.on(&mut tabs.clients, tab_cx),
        }
        for intent in intents {
            cx.carry_out(intent);
        }
    }

    pub(in crate::app) fn selected_service(self, tabs: &Tabs) -> Option<u64> {
        match self {
            Tab::Services => TabPane::selected_service(&tabs.services),
            Tab::Products => TabPane::selected_service(&tabs.products),
            Tab::Billing => TabPane::selected_service(&tabs.billing),
            Tab::Network => TabPane::selected_service(&tabs.network),
            Tab::Usage => TabPane::selected_service(&tabs.usage),
            Tab::Alerts => TabPane::selected_service(&tabs.alerts),
            Tab::Clients => TabPane::selected_service(&tabs.clients),
        }
    }

    pub fn command(self) -> Option<&'static str> {
        match self {
            Tab::Services => <ServicesTab as TabPane>::command(),
            Tab::Products => <ProductsTab as TabPane>::command(),
            Tab::Billing => <BillingTab as TabPane>::command(),
            Tab::Network => <NetworkTab as TabPane>::command(),
            Tab::Usage => <UsageTab as TabPane>::command(),
            Tab::Alerts => <AlertsTab as TabPane>::command(),
            Tab::Clients => <ClientsTab as TabPane>::command(),
        }
    }
}

/// What the app asks a tab to do (the methods of [`TabPane`] that get a [`TabCx`]).
#[derive(Clone, Copy, Debug)]
enum Act {
    CycleSort,
    Resort,
    Open,
    Refresh,
    FetchForSelection,
    Sync,
}

impl Act {
    fn on<P: TabPane>(self, pane: &mut P, cx: &mut TabCx<'_>) {
        match self {
            Act::CycleSort => pane.cycle_sort(cx),
            Act::Resort => pane.resort(cx),
            Act::Open => pane.open(cx),
            Act::Refresh => pane.refresh(cx),
            Act::FetchForSelection => pane.fetch_for_selection(cx),
            Act::Sync => pane.sync(cx),
        }
    }
}

/// The tabs as a list: their order, numbers and digit keys.
impl Tab {
    /// The tabs' digit keys as the footer says them: `1-7`.
    pub const KEYS: &str = [
        "", "1", "1-2", "1-3", "1-4", "1-5", "1-6", "1-7", "1-8", "1-9",
    ][Tab::ALL.len()];

    /// 1-based number shown in the header and typed to switch.
    pub fn number(self) -> usize {
        self.index() + 1
    }

    pub fn index(self) -> usize {
        Tab::ALL.iter().position(|t| *t == self).unwrap_or(0)
    }

    pub fn next(self) -> Tab {
        Tab::ALL[(self.index() + 1) % Tab::ALL.len()]
    }

    pub fn prev(self) -> Tab {
        Tab::ALL[(self.index() + Tab::ALL.len() - 1) % Tab::ALL.len()]
    }
}

/// How a tab's detail pane (Services, Products) shares the body with its table; `z`
/// cycles it: shown → hidden (the table takes the whole body) → zoomed (the detail takes
/// all but the selected row) → shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DetailPane {
    #[default]
    Shown,
    Hidden,
    Zoomed,
}

impl DetailPane {
    pub fn next(self) -> Self {
        match self {
            DetailPane::Shown => DetailPane::Hidden,
            DetailPane::Hidden => DetailPane::Zoomed,
            DetailPane::Zoomed => DetailPane::Shown,
        }
    }
}

/// The tabs a part reads through its context, over the account's answers (an `impl` here,
/// not in `cx`: the context does not know the tabs' views).
impl crate::app::Cx<'_> {
    pub(in crate::app) fn services(&self) -> services::ServicesView<'_> {
        self.tabs.services.view(&self.account.store)
    }

    pub(in crate::app) fn products(&self) -> products::ProductsView<'_> {
        self.tabs.products.view(&self.account.store)
    }

    /// Carries out what a tab asked of the rest of the dashboard.
    fn carry_out(&mut self, intent: Intent) {
        match intent {
            Intent::GoTo(tab, id) => {
                self.go_to(tab, id);
            }
            Intent::Show(tab) => self.shell.tab = tab,
            Intent::Rebuild(Tab::Services) => self.rebuild_services(),
            // Rebuilt once the batch is handled, when the tab is shown.
            Intent::Rebuild(Tab::Network) => self.tabs.network_dirty = true,
            Intent::Rebuild(_) => {}
            Intent::Refresh(group) => self.refresh_group(group),
        }
    }
}
