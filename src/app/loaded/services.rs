//! The rules that cross tabs once an answer is kept: a new services list prunes every
//! tab's per-service data and plans the sweeps, a detail settles a service's type (and so
//! whether it has usage), and the Network and Usage rows are rebuilt from the services
//! once a burst of answers is handled.

use super::super::Tab;
use super::super::geometry::Geometry;
use super::super::status::StatusLine;
use super::super::tabs::usage::UsageTab;
use super::super::{Mirror, Tabs};
use crate::account::store::Store;
use crate::api::{ProductType, Request};
use chrono::NaiveDate;

impl Tabs {
    pub(in crate::app) fn is_fpr(&self, id: u64, account: &Mirror) -> bool {
        self.service_type(id, account) == Some(ProductType::Fpr)
    }

    fn is_ppr(&self, id: u64, account: &Mirror) -> bool {
        self.service_type(id, account) == Some(ProductType::Ppr)
    }

    pub(in crate::app) fn after_services(
        &mut self,
        store: &mut Store,
        today: NaiveDate,
        geometry: &Geometry,
    ) {
        self.services.note_list();
        // Forget per-service data of services that are gone (as the engine does).
        let listed: std::collections::HashSet<u64> =
            self.services.view(store).ids().into_iter().collect();
        store.retain_services(&listed);
        self.rebuild_services(store, today, geometry);
        self.usage.not_ppr.retain(|id| listed.contains(id));
        self.usage.reask.retain(|id| listed.contains(id));
        self.network_dirty = true;
        self.usage_dirty = true;
    }

    pub(in crate::app) fn after_detail(&mut self, id: u64, store: &Store, status: &mut StatusLine) {
        match store.service(id).map(|s| &s.product_type) {
            Some(ProductType::Fpr) => no_usage_errors(id, status),
            // The detail outranks a guess from a 422: its usage is asked for again when it
            // is selected on the Usage tab (fetch_for_selection), and a 422 then is shown.
            Some(_) if self.usage.not_ppr.remove(&id) => {
                self.usage.reask.insert(id);
            }
            Some(_) | None => {}
        }
        self.usage_dirty = true;
    }

    /// Rebuilds the derived rows of the tab on screen, if they changed (and the Usage
    /// rows with `usage_ahead`, whatever the tab).
    pub(in crate::app) fn rebuild_shown(
        &mut self,
        (tab, usage_ahead): (Tab, bool),
        eager_rows: usize,
        account: &Mirror,
        today: NaiveDate,
        geometry: &Geometry,
    ) {
        let store = &account.store;
        // The cells on screen are drawn from the live data; what a rebuild refreshes is the
        // search keys, problem marks, health order and widths of every row. On a big
        // account that is deferred until something reads them (see `rebuild_if_read`), so
        // a stream of per-service answers does not cost a pass over every row each.
        if tab == Tab::Services
            && self.services_dirty
            && (self.services.view(store).rows().len() <= eager_rows || self.services.reads_keys())
        {
            self.rebuild_services(store, today, geometry);
        }
        if tab == Tab::Network && self.network_dirty {
            self.network_dirty = false;
            self.rebuild_network(store);
        }
        if (tab == Tab::Usage || usage_ahead) && self.usage_dirty {
            self.usage_dirty = false;
            self.rebuild_usage(account);
        }
    }

    fn rebuild_network(&mut self, store: &Store) {
        let services = self.services.view(store);
        let ids = services.swept_ids();
        let product_of = |id: u64| {
            services
                .get(id)
                .map(|s| crate::text::sanitize(&s.product_name).into_owned())
                .unwrap_or_default()
        };
        self.network.rebuild(store, &ids, product_of);
    }

    fn rebuild_usage(&mut self, account: &Mirror) {
        let store = &account.store;
        let ppr = self
            .services
            .view(store)
            .rows()
            .iter()
            .filter(|s| self.is_ppr(s.service_id, account))
            .map(|s| {
                (
                    s.service_id,
                    crate::text::sanitize(&s.product_name).into_owned(),
                    s.status.has_ended(),
                )
            })
            .collect();
        self.usage.rebuild(store, ppr);
    }
}

impl Tabs {
    /// The service's product type: from its detail, else as the engine learnt it (from
    /// the catalogue), else inferred from its usage calls (stats or rate answered: ppr;
    /// the generic 422 to them: fpr).
    pub(in crate::app) fn service_type(&self, id: u64, account: &Mirror) -> Option<ProductType> {
        if let Some(t) = account.store.service(id).map(|s| &s.product_type) {
            return Some(t.clone());
        }
        if let Some(t) = account.types.get(&id) {
            return Some(t.clone());
        }
        if UsageTab::answered(&account.store, id) {
            Some(ProductType::Ppr)
        } else if self.usage.not_ppr.contains(&id) {
            Some(ProductType::Fpr)
        } else {
            None
        }
    }
}

/// An fpr service has no usage: any error its usage reads gave is no error. (Its answers
/// stay in the store; the Usage tab lists ppr services only.)
pub(super) fn no_usage_errors(id: u64, status: &mut StatusLine) {
    status.clear(&Request::Stats(id));
    status.clear(&Request::Rate(id));
}
