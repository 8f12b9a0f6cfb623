//! When data is asked for: refreshing a tab, a group or everything (`r`, `R`, the
//! interval), and what the selection shows but was never asked for.

use super::super::popup::Popup;
use super::super::remote::Remote;
use super::super::tabs::Tab;
use super::super::{App, Command, RefreshGroup};
use crate::api::Request;

impl App {
    /// Refreshes one group and restarts its interval.
    pub(in crate::app) fn refresh_group(&mut self, group: RefreshGroup, out: &mut Vec<Command>) {
        match group {
            RefreshGroup::Services => self.fetch(Request::Services, out),
            RefreshGroup::Products => {
                self.fetch(self.products.list_request(), out);
                if self.tab == Tab::Products
                    && let Some(p) = self.products.selected()
                {
                    let id = p.product_id;
                    self.fetch(Request::Product(id), out);
                }
            }
            RefreshGroup::Billing => {
                self.fetch(Request::Credit, out);
                self.fetch(Request::Invoices, out);
                let open: Vec<u64> = self
                    .popups
                    .iter()
                    .filter_map(|p| match p {
                        Popup::Invoice(id) => Some(*id),
                        _ => None,
                    })
                    .collect();
                for id in open {
                    self.fetch(Request::Invoice(id), out);
                }
            }
        }
        if let Some(every) = self.settings.refresh {
            self.refresh_due.insert(group, self.now() + every);
        }
    }

    /// `r`: the current tab's data.
    pub(in crate::app) fn refresh_tab(&mut self, out: &mut Vec<Command>) {
        match self.tab {
            Tab::Services => self.refresh_group(RefreshGroup::Services, out),
            Tab::Products => self.refresh_group(RefreshGroup::Products, out),
            Tab::Billing => self.refresh_group(RefreshGroup::Billing, out),
            tab @ (Tab::Network | Tab::Usage) => self.plan_sweeps(true, Some(tab), out),
            // The alerts rest on everything.
            Tab::Alerts => self.refresh_all(out),
        }
    }

    /// `R`: everything (the per-service data follows the services).
    pub(in crate::app) fn refresh_all(&mut self, out: &mut Vec<Command>) {
        for group in RefreshGroup::ALL {
            self.refresh_group(group, out);
        }
    }

    pub(in crate::app) fn on_tick(&mut self, out: &mut Vec<Command>) {
        self.expire_countdowns(out);
        if self.settings.refresh.is_none() {
            return;
        }
        let now = self.now();
        for group in RefreshGroup::ALL {
            if self.refresh_due.get(&group).is_some_and(|due| *due <= now) {
                self.refresh_group(group, out);
            }
        }
    }

    /// Fetches what the selection of the current tab shows but was never asked for.
    pub(in crate::app) fn fetch_for_selection(&mut self, out: &mut Vec<Command>) {
        match self.tab {
            Tab::Services => {
                // Asked when never read, or newly selected and due again (only the selected
                // detail is refreshed with the list: see after_services).
                if let Some(id) = self.services.table.selected_id() {
                    let newly = self.detail_selected.replace(id) != Some(id);
                    let detail = self.services.detail(id);
                    let due = newly
                        && self.settings.refresh.is_some()
                        && !detail.is_loading()
                        && self.is_due(detail.answered_at(), false);
                    if matches!(detail, Remote::NotRequested) || due {
                        self.fetch(Request::Service(id), out);
                    }
                }
            }
            Tab::Products => {
                if let Some(id) = self.products.table.selected_id()
                    && matches!(self.products.detail(id), Remote::NotRequested)
                {
                    self.fetch(Request::Product(id), out);
                }
            }
            Tab::Usage => {
                if let Some(id) = self.usage.selected() {
                    if matches!(self.usage.stats_of(id), Remote::NotRequested) {
                        self.fetch(Request::Stats(id), out);
                    }
                    if matches!(self.usage.rate_of(id), Remote::NotRequested) {
                        self.fetch(Request::Rate(id), out);
                    }
                }
            }
            Tab::Billing | Tab::Network | Tab::Alerts => {}
        }
    }
}
