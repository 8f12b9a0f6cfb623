//! The rules that cross tabs once an answer is kept: a new services list prunes every
//! tab's per-service data and plans the sweeps, a detail settles a service's type (and so
//! whether it has usage), and the Network and Usage rows are rebuilt from the services
//! once a burst of answers is handled.

use super::super::tabs::Tab;
use super::super::{App, Mirror, Tabs};
use crate::api::{ProductType, Request};

impl App {
    pub(super) fn is_fpr(&self, id: u64) -> bool {
        self.tabs.service_type(id, &self.account) == Some(ProductType::Fpr)
    }

    fn is_ppr(&self, id: u64) -> bool {
        self.tabs.service_type(id, &self.account) == Some(ProductType::Ppr)
    }

    pub(super) fn after_services(&mut self) {
        self.rebuild_services();
        let ids = self.tabs.services.ids();
        // Forget per-service data of services that are gone.
        let listed: std::collections::HashSet<u64> = ids.iter().copied().collect();
        self.tabs
            .services
            .details
            .retain(|id, _| listed.contains(id));
        self.tabs.network.errors.retain(|id, _| listed.contains(id));
        self.tabs
            .network
            .inactive
            .retain(|id, _| listed.contains(id));
        self.tabs.usage.stats.retain(|id, _| listed.contains(id));
        self.tabs.usage.rate.retain(|id, _| listed.contains(id));
        self.tabs.usage.not_ppr.retain(|id| listed.contains(id));
        self.tabs.network_dirty = true;
        self.tabs.usage_dirty = true;
    }

    pub(super) fn after_detail(&mut self, id: u64) {
        match self.tabs.services.product_type(id) {
            Some(ProductType::Fpr) => self.drop_usage(id),
            // The detail outranks a guess from a 422: its usage is asked for again when it
            // is selected on the Usage tab (fetch_for_selection), and a 422 then is shown.
            Some(_) => {
                self.tabs.usage.not_ppr.remove(&id);
            }
            None => {}
        }
        self.tabs.usage_dirty = true;
    }

    /// An fpr service has no usage: forget what was asked and any error it gave.
    pub(super) fn drop_usage(&mut self, id: u64) {
        self.tabs.usage.stats.remove(&id);
        self.tabs.usage.rate.remove(&id);
        self.shell.status.clear(&Request::Stats(id));
        self.shell.status.clear(&Request::Rate(id));
    }

    /// Rebuilds the derived rows of the tab on screen, if they changed.
    pub(in crate::app) fn rebuild_shown(&mut self) {
        // The cells on screen are drawn from the live data; what a rebuild refreshes is the
        // search keys, problem marks, health order and widths of every row. On a big
        // account that is deferred until something reads them (see `rebuild_if_read`), so
        // a stream of per-service answers does not cost a pass over every row each.
        if self.shell.tab == Tab::Services
            && self.tabs.services_dirty
            && (self.tabs.services.rows().len() <= self.shell.settings.eager_rows
                || self.tabs.services.reads_keys())
        {
            self.rebuild_services();
        }
        if self.shell.tab == Tab::Network && self.tabs.network_dirty {
            self.tabs.network_dirty = false;
            self.rebuild_network();
        }
        if self.shell.tab == Tab::Usage && self.tabs.usage_dirty {
            self.tabs.usage_dirty = false;
            self.rebuild_usage();
        }
    }

    fn rebuild_network(&mut self) {
        let ids = self.tabs.services.swept_ids();
        let services = &self.tabs.services;
        let product_of = |id: u64| {
            services
                .get(id)
                .map(|s| crate::text::sanitize(&s.product_name).into_owned())
                .unwrap_or_default()
        };
        self.tabs.network.rebuild(&ids, product_of);
    }

    fn rebuild_usage(&mut self) {
        let ppr = self
            .tabs
            .services
            .rows()
            .iter()
            .filter(|s| self.is_ppr(s.service_id))
            .map(|s| {
                (
                    s.service_id,
                    crate::text::sanitize(&s.product_name).into_owned(),
                )
            })
            .collect();
        self.tabs.usage.rebuild(ppr);
    }
}

impl Tabs {
    /// The service's product type: from its detail, else as the engine learnt it (from
    /// the catalogue), else inferred from its usage calls (stats or rate answered: ppr;
    /// the generic 422 to them: fpr).
    pub(in crate::app) fn service_type(&self, id: u64, account: &Mirror) -> Option<ProductType> {
        if let Some(t) = self.services.product_type(id) {
            return Some(t.clone());
        }
        if let Some(t) = account.types.get(&id) {
            return Some(t.clone());
        }
        if self.usage.answered(id) {
            Some(ProductType::Ppr)
        } else if self.usage.not_ppr.contains(&id) {
            Some(ProductType::Fpr)
        } else {
            None
        }
    }
}
