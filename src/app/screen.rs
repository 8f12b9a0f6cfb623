//! What the screen's items need from the app: the context of the keys and the help, the
//! tables and their pages (from the view's [`super::geometry`]), and the Services rows'
//! rebuild (their cells read the network status, the usage and the date).

use super::keymap::Context;
use super::popup::Popup;
use super::tabs::Tab;
use super::{App, table};

/// Accounts up to this many services have their Services rows rebuilt with every change.
pub const EAGER_ROWS: usize = 5_000;

impl App {
    /// What decides which keys apply.
    pub fn context(&self) -> Context {
        let top = self.shell.popups.last();
        let popup = top.map(Popup::kind);
        Context {
            tab: self.shell.tab,
            popup,
            editing_filter: popup.is_none() && self.table(self.shell.tab).is_editing(),
            typing: top.is_some_and(Popup::is_typing),
            read_only: self.shell.settings.read_only,
            switchable: self.shell.settings.profiles.len() > 1,
        }
    }

    /// The main table of a tab.
    pub fn table(&self, tab: Tab) -> &table::TableView {
        match tab {
            Tab::Services => &self.tabs.services.table,
            Tab::Products => &self.tabs.products.table,
            Tab::Billing => &self.tabs.billing.table,
            Tab::Network => &self.tabs.network.table,
            Tab::Usage => &self.tabs.usage.table,
            Tab::Alerts => &self.tabs.alerts.table,
        }
    }

    pub(super) fn table_mut(&mut self, tab: Tab) -> &mut table::TableView {
        match tab {
            Tab::Services => &mut self.tabs.services.table,
            Tab::Products => &mut self.tabs.products.table,
            Tab::Billing => &mut self.tabs.billing.table,
            Tab::Network => &mut self.tabs.network.table,
            Tab::Usage => &mut self.tabs.usage.table,
            Tab::Alerts => &mut self.tabs.alerts.table,
        }
    }

    /// Where the view last laid things out.
    pub fn geometry(&self) -> &super::geometry::Geometry {
        &self.shell.geometry
    }

    /// Tells every table how many rows fit, as the view last reported.
    pub(super) fn update_pages(&mut self) {
        for tab in Tab::ALL {
            let rows = self.shell.geometry.page(tab);
            self.table_mut(tab).set_page(rows);
        }
    }

    /// The context the help at `index` of the popups describes: what is under it.
    pub fn help_context(&self, index: usize) -> Context {
        let mut ctx = self.context();
        ctx.popup = index.checked_sub(1).map(|i| self.shell.popups[i].kind());
        ctx.editing_filter = false;
        ctx.typing = false;
        ctx
    }

    /// The first help line shown (the view clamps it).
    pub fn help_scroll(&self) -> usize {
        self.shell.help_scroll
    }

    /// Selects the row of this identity in a tab's table, as a click would (the dashboard
    /// over several accounts selects in each account's tab what its All view selects),
    /// and works out what follows (the detail read, the engine's focus).
    pub fn select_row(&mut self, tab: Tab, id: u64) -> Vec<super::Command> {
        self.table_mut(tab).select_id(id);
        self.update_all([])
    }

    /// Brings the search keys, problem marks and order of the tab on screen up to date
    /// (a big account defers them until something reads them: here, the All view).
    pub fn keys_up_to_date(&mut self) {
        self.rebuild_if_read();
    }

    /// Before `/`, `!`, `s` or `S` on Services: the keys they read are brought up to date.
    pub(super) fn rebuild_if_read(&mut self) {
        if self.shell.tab == Tab::Services && self.tabs.services_dirty {
            self.rebuild_services();
        }
    }

    /// The Services rows' cells read the network status, the usage and today's date.
    pub(super) fn rebuild_services(&mut self) {
        self.tabs.services_dirty = false;
        let ctx = crate::app::tabs::services::CellContext {
            today: self.now().with_timezone(&self.utc_offset()).date_naive(),
            network: &self.tabs.network,
            usage: &self.tabs.usage,
        };
        self.tabs.services.rebuild(&ctx);
        self.update_pages();
    }
}
