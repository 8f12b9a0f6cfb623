//! The tabs: one file per tab, a folder when big (its state, its [`TabPane`] and its
//! look), and what the app asks the tab on screen ([`Tab`]'s methods here, each through
//! [`Tabs::pane`]). A tab gets
//! only its own state and a narrow context ([`TabData`] to draw from, [`TabCx`] to act
//! through); `Tab::act` hands it them and then carries out the [`Intent`]s it left (a
//! row of another tab to show, rows to rebuild, a group to refresh), so no tab reaches
//! another's state.
//!
//! **Adding a tab** (the one place this recipe is written): a file here with the tab's
//! state (`Default`, with a [`TableView`]) and its `impl TabPane` (its table, columns and
//! cells, and whatever keys it answers), and its `mod` line here; then its line in
//! [`Tab`] (its name is its title; [`Tab::ALL`] is derived from the enum) and its state's
//! field in [`Tabs`] (both in the app's root, `src/app/mod.rs`) with its arm in
//! [`Tabs::pane`] and [`Tabs::pane_mut`], the one place a tab's state is reached by its
//! [`Tab`]: every question the app asks a tab goes through them. A tab with no look of
//! its own is drawn as a plain list from its columns, cells and [`Listing`] (the
//! [`TabLook`] defaults: `impl TabLook for … {}`); a tab with one is a folder, its look
//! (`impl TabLook`) in `look.rs`. Every tab is drawn in one frame ([`frame`]), over one
//! account's rows or the All view's merge of several. The keys `1`…`n` and
//! `Tab`, the palette, the footer and the dashboard over several accounts take it from
//! [`Tab::ALL`]. (The enum is in the root so that what names a tab, the key map and the
//! shell, need not sit above the tabs.)

// The tabs' modules (each also a variant of [`Tab`]) and what they share.
pub mod alerts;
pub mod billing;
pub mod clients;
pub mod frame;
pub mod network;
mod pane;
pub mod products;
pub mod services;
mod services_sort;
pub mod usage;
pub mod usage_chart;

pub use super::{Tab, Tabs};
pub use crate::app::look::pane::DetailPane;
pub use pane::{
    Areas, Fit, Heading, Intent, Listing, Member, Merged, Props, Rows, TabCx, TabData, TabLook,
    TabPane, TabView,
};

use super::Cx;
use super::columns::{CellText, Column};
use super::table::TableView;
use crate::account::Focus;

/// The one place the tabs' states are named by their [`Tab`]: every question the app asks
/// the tab on screen goes through these two (a new tab is an arm in each).
impl Tabs {
    pub fn pane(&self, tab: Tab) -> &dyn TabPane {
        match tab {
            Tab::Services => &self.services,
            Tab::Products => &self.products,
            Tab::Billing => &self.billing,
            Tab::Network => &self.network,
            Tab::Usage => &self.usage,
            Tab::Alerts => &self.alerts,
            Tab::Clients => &self.clients,
        }
    }

    pub(in crate::app) fn pane_mut(&mut self, tab: Tab) -> &mut dyn TabPane {
        match tab {
            Tab::Services => &mut self.services,
            Tab::Products => &mut self.products,
            Tab::Billing => &mut self.billing,
            Tab::Network => &mut self.network,
            Tab::Usage => &mut self.usage,
            Tab::Alerts => &mut self.alerts,
            Tab::Clients => &mut self.clients,
        }
    }
}

/// What the app asks the tab on screen, each through its [`TabPane`].
impl Tab {
    /// The title on the tab line, in the palette and the help: the tab's name.
    pub fn title(self) -> &'static str {
        self.into()
    }

    pub fn table(self, tabs: &Tabs) -> &TableView {
        tabs.pane(self).table()
    }

    pub(in crate::app) fn table_mut(self, tabs: &mut Tabs) -> &mut TableView {
        tabs.pane_mut(self).table_mut()
    }

    /// The table's columns as the app shows them now.
    pub fn columns(self, tabs: &Tabs, data: &TabData<'_>) -> Vec<Column> {
        tabs.pane(self).columns(data)
    }

    /// The natural width of each searched column over all the rows.
    pub fn natural(self, tabs: &Tabs) -> &[u16] {
        self.table(tabs).natural()
    }

    /// The cells of row `i` (an index into the tab's rows); empty when there is none.
    pub fn cells(self, tabs: &Tabs, data: &TabData<'_>, i: usize) -> Vec<CellText> {
        tabs.pane(self).cells(data, i)
    }

    /// `s`: the next sort.
    pub(in crate::app) fn cycle_sort(self, cx: &mut Cx<'_>) {
        self.act(cx, |pane, cx| pane.cycle_sort(cx));
    }

    /// `S`: the sort the other way round.
    pub(in crate::app) fn reverse_sort(self, tabs: &mut Tabs) {
        tabs.pane_mut(self).reverse_sort();
    }

    /// The rows in their new order after `s` or `S`.
    pub(in crate::app) fn resort(self, cx: &mut Cx<'_>) {
        self.act(cx, |pane, cx| pane.resort(cx));
    }

    /// Enter: the selected row's detail, or where it leads.
    pub(in crate::app) fn open(self, cx: &mut Cx<'_>) {
        self.act(cx, |pane, cx| pane.open(cx));
    }

    /// `r`: the tab's data, now.
    pub(in crate::app) fn refresh(self, cx: &mut Cx<'_>) {
        self.act(cx, |pane, cx| pane.refresh(cx));
    }

    /// What the tab shows, for the engine.
    pub(in crate::app) fn focus(self, tabs: &Tabs, focus: &mut Focus) {
        tabs.pane(self).focus(focus);
    }

    pub(in crate::app) fn fetch_for_selection(self, cx: &mut Cx<'_>) {
        self.act(cx, |pane, cx| pane.fetch_for_selection(cx));
    }

    pub(in crate::app) fn sync(self, cx: &mut Cx<'_>) {
        self.act(cx, |pane, cx| pane.sync(cx));
    }

    /// Does `act` on this tab alone, with a [`TabCx`] over the shell, the store and the
    /// commands out, then carries out what it asked of the rest ([`Intent`]).
    fn act<R>(self, cx: &mut Cx<'_>, act: impl FnOnce(&mut dyn TabPane, &mut TabCx<'_>) -> R) -> R {
        let mut intents = Vec::new();
        let account = &mut *cx.account;
        let mut tab_cx = TabCx::new(
            (&mut *cx.shell, &mut account.store, &account.history),
            &mut *cx.out,
            &mut intents,
        );
        let done = act(cx.tabs.pane_mut(self), &mut tab_cx);
        for intent in intents {
            cx.carry_out(intent);
        }
        done
    }

    /// A key of the tab's own: whether the tab took it.
    pub(in crate::app) fn key(self, cx: &mut Cx<'_>, action: crate::app::keymap::Action) -> bool {
        self.act(cx, |pane, cx| pane.key(action, cx))
    }

    pub(in crate::app) fn selected_service(self, tabs: &Tabs) -> Option<u64> {
        tabs.pane(self).selected_service()
    }

    /// The `proxydash` subcommand that reads what `r` reads here, for the palette.
    pub fn command(self, tabs: &Tabs) -> Option<&'static str> {
        tabs.pane(self).command()
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
            Intent::LookUpMyIp => self.look_up_my_ip(),
        }
    }
}
