//! What the screen's items need from the app: the help's scroll position and context, and
//! the Services rows' rebuild (their cells read the network status, the usage and the date).

use super::App;
use super::keymap::Context;
use super::tabs::Tab;

/// Accounts up to this many services have their Services rows rebuilt with every change.
pub(super) const EAGER_ROWS: usize = 5_000;

impl App {
    /// The context the help at `index` of the popups describes: what is under it.
    pub fn help_context(&self, index: usize) -> Context {
        let mut ctx = self.context();
        ctx.popup = index.checked_sub(1).map(|i| self.popups[i].kind());
        ctx.editing_filter = false;
        ctx.typing = false;
        ctx
    }

    /// The first help line shown (the view clamps it).
    pub fn help_scroll(&self) -> usize {
        self.help_scroll
    }

    /// Before `/`, `!`, `s` or `S` on Services: the keys they read are brought up to date.
    pub(super) fn rebuild_if_read(&mut self) {
        if self.tab == Tab::Services && self.services_dirty {
            self.rebuild_services();
        }
    }

    /// The Services rows' cells read the network status, the usage and today's date.
    pub(super) fn rebuild_services(&mut self) {
        self.services_dirty = false;
        let ctx = crate::app::tabs::services::CellContext {
            today: self.now().with_timezone(&self.utc_offset()).date_naive(),
            network: &self.network,
            usage: &self.usage,
        };
        self.services.rebuild(&ctx);
        self.update_pages();
    }
}
