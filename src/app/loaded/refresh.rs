//! When data is asked for: refreshing a tab, a group or everything (`r`, `R`, the
//! interval), and what the selection shows but was never asked for.

use super::super::popup::Popup;
use super::super::remote::Remote;
use super::super::tabs::Tab;
use super::super::{App, Command};
use crate::account::{Focus, Kind};
use crate::api::Request;

/// Groups of data that refresh together (`r` on a tab, `R`, after an order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RefreshGroup {
    /// Services, and through them the per-service data of Network and Usage.
    Services,
    Products,
    Billing,
}

impl App {
    /// Asks the engine for one group now (`r`, `R`, after an order), with what the app
    /// itself shows of it (the selected product's detail, an open invoice).
    pub(in crate::app) fn refresh_group(&mut self, group: RefreshGroup, out: &mut Vec<Command>) {
        match group {
            RefreshGroup::Services => {
                out.push(Command::Refresh(vec![Kind::Services, Kind::ServiceDetail]));
            }
            RefreshGroup::Products => {
                out.push(Command::Refresh(vec![Kind::Products]));
                self.fetch(self.tabs.products.list_request(), out);
                if self.shell.tab == Tab::Products
                    && let Some(id) = self.tabs.products.table.selected_id()
                {
                    self.fetch(Request::Product(id), out);
                }
            }
            RefreshGroup::Billing => {
                out.push(Command::Refresh(vec![
                    Kind::Credit,
                    Kind::Invoices,
                    Kind::Invoice,
                ]));
            }
        }
    }

    /// `r`: the current tab's data.
    pub(in crate::app) fn refresh_tab(&mut self, out: &mut Vec<Command>) {
        match self.shell.tab {
            Tab::Services => self.refresh_group(RefreshGroup::Services, out),
            Tab::Products => self.refresh_group(RefreshGroup::Products, out),
            Tab::Billing => self.refresh_group(RefreshGroup::Billing, out),
            Tab::Network => out.push(Command::Refresh(vec![Kind::Network])),
            Tab::Usage => out.push(Command::Refresh(vec![Kind::Rate, Kind::Stats])),
            // The alerts rest on everything.
            Tab::Alerts => self.refresh_all(out),
        }
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
        match self.shell.tab {
            Tab::Services => {
                focus.kinds = vec![Kind::Services];
                if let Some(id) = self.tabs.services.table.selected_id() {
                    focus.requests.push(Request::Service(id));
                }
            }
            Tab::Products => {
                focus.kinds = vec![Kind::Products];
                focus.requests.push(self.tabs.products.list_request());
                if let Some(id) = self.tabs.products.table.selected_id() {
                    focus.requests.push(Request::Product(id));
                }
            }
            Tab::Billing => focus.kinds = vec![Kind::Credit, Kind::Invoices],
            Tab::Network => focus.kinds = vec![Kind::Network],
            Tab::Usage => {
                focus.kinds = vec![Kind::Rate];
                if let Some(id) = self.tabs.usage.selected() {
                    focus
                        .requests
                        .extend([Request::Stats(id), Request::Rate(id)]);
                }
            }
            Tab::Alerts => {}
        }
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
        match self.shell.tab {
            Tab::Services => {
                // Asked when never read, or newly selected and due again (only the selected
                // detail is refreshed with the list: see after_services).
                if let Some(id) = self.tabs.services.table.selected_id() {
                    let newly = self.tabs.detail_selected.replace(id) != Some(id);
                    let detail = self.tabs.services.detail(id);
                    let due = newly
                        && self.shell.settings.refresh.is_some()
                        && !detail.is_loading()
                        && self.shell.is_due(detail.answered_at(), false);
                    if matches!(detail, Remote::NotRequested) || due {
                        self.fetch(Request::Service(id), out);
                    }
                }
            }
            Tab::Products => {
                if let Some(id) = self.tabs.products.table.selected_id()
                    && matches!(self.tabs.products.detail(id), Remote::NotRequested)
                {
                    self.fetch(Request::Product(id), out);
                }
            }
            Tab::Usage => {
                if let Some(id) = self.tabs.usage.selected() {
                    if matches!(self.tabs.usage.stats_of(id), Remote::NotRequested) {
                        self.fetch(Request::Stats(id), out);
                    }
                    if matches!(self.tabs.usage.rate_of(id), Remote::NotRequested) {
                        self.fetch(Request::Rate(id), out);
                    }
                }
            }
            Tab::Billing | Tab::Network | Tab::Alerts => {}
        }
    }
}
