//! When data is asked for: refreshing a tab or everything (`r`, `R`), the engine told
//! what the screen shows, and what the selection shows but was never asked for. Each is
//! the tab's own answer ([`TabPane`](crate::app::tabs::TabPane)); the app adds what its
//! popups show.

use super::super::popup::Popup;
use super::super::{App, Command};
use crate::account::{Focus, Kind};
use crate::api::Request;

impl App {
    /// `r`: the current tab's data.
    pub(in crate::app) fn refresh_tab(&mut self, out: &mut Vec<Command>) {
        let tab = self.shell.tab;
        tab.refresh(&mut self.cx(out));
    }

    /// `R`: everything.
    pub(in crate::app) fn refresh_all(&mut self, out: &mut Vec<Command>) {
        out.push(Command::Refresh(Kind::ALL.to_vec()));
    }

    pub(in crate::app) fn on_tick(&mut self, out: &mut Vec<Command>) {
        self.account
            .expire_countdowns(self.shell.now(), &mut self.shell.status, out);
    }

    /// What the screen shows, for the engine: the tab's whole kinds and the selection's
    /// reads. Told when it changed.
    pub(in crate::app) fn tell_focus(&mut self, out: &mut Vec<Command>) {
        let mut focus = Focus::default();
        self.shell.tab.focus(&self.tabs, &mut focus);
        for popup in &self.shell.popups {
            if let Popup::Invoice(id) = popup {
                focus.requests.push(Request::Invoice(*id));
            }
        }
        if self.account.focus.as_ref() != Some(&focus) {
            self.account.focus = Some(focus.clone());
            out.push(Command::Focus(focus));
        }
    }

    /// Fetches what the selection of the current tab shows but was never asked for.
    pub(in crate::app) fn fetch_for_selection(&mut self, out: &mut Vec<Command>) {
        let tab = self.shell.tab;
        tab.fetch_for_selection(&mut self.cx(out));
    }
}
