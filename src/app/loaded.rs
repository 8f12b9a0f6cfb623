//! Requests out and results in: sending fetches, refreshing, and storing `Loaded` results
//! (see the module docs of [`super`] for the rules).

use super::remote::Remote;
use super::tabs::Tab;
use super::{App, Command, IN_FLIGHT_TIMEOUT, RefreshGroup, status};
use crate::api::{ApiError, ProductType, Request, Response, limits};

impl App {
    /// Sends `request` unless it is already in flight, and marks what it loads as loading.
    pub(super) fn fetch(&mut self, request: Request, out: &mut Vec<Command>) {
        let now = self.now();
        if let Some(sent) = self.in_flight.get(&request)
            && now
                .signed_duration_since(*sent)
                .to_std()
                .unwrap_or_default()
                < IN_FLIGHT_TIMEOUT
        {
            return;
        }
        self.in_flight.insert(request.clone(), now);
        self.begin(&request);
        out.push(Command::Fetch(request));
    }

    /// The remote a request fills, marked loading.
    fn begin(&mut self, request: &Request) {
        match request {
            Request::Services => self.services.list.begin(),
            Request::Service(id) => self.services.details.entry(*id).or_default().begin(),
            Request::Products | Request::ProductsOrderedBy(_) => self.products.list.begin(),
            Request::Product(id) => self.products.details.entry(*id).or_default().begin(),
            Request::Credit => self.billing.credit.begin(),
            Request::Invoices => self.billing.invoices.begin(),
            Request::Invoice(id) => self.billing.opened.entry(*id).or_default().begin(),
            Request::NetworkErrors(id) => self.network.errors.entry(*id).or_default().begin(),
            Request::NetworkInactive(id) => self.network.inactive.entry(*id).or_default().begin(),
            Request::Stats(id) => self.usage.stats.entry(*id).or_default().begin(),
            Request::Rate(id) => self.usage.rate.entry(*id).or_default().begin(),
            Request::Clients => self.clients.begin(),
            _ => {}
        }
    }

    /// Refreshes one group and restarts its interval.
    pub(super) fn refresh_group(&mut self, group: RefreshGroup, out: &mut Vec<Command>) {
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
                        super::popup::Popup::Invoice(id) => Some(*id),
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
    pub(super) fn refresh_tab(&mut self, out: &mut Vec<Command>) {
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
    pub(super) fn refresh_all(&mut self, out: &mut Vec<Command>) {
        for group in RefreshGroup::ALL {
            self.refresh_group(group, out);
        }
    }

    pub(super) fn on_tick(&mut self, out: &mut Vec<Command>) {
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

    /// The service's product type: from its detail, or else inferred from its usage calls
    /// (stats or rate answered: ppr; the generic 422 to them: fpr). The services list does
    /// not carry the type, and details are only fetched for the services looked at.
    pub(in crate::app) fn service_type(&self, id: u64) -> Option<ProductType> {
        if let Some(t) = self.services.product_type(id) {
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

    fn is_fpr(&self, id: u64) -> bool {
        self.service_type(id) == Some(ProductType::Fpr)
    }

    fn is_ppr(&self, id: u64) -> bool {
        self.service_type(id) == Some(ProductType::Ppr)
    }

    /// Fetches what the selection of the current tab shows but was never asked for.
    pub(super) fn fetch_for_selection(&mut self, out: &mut Vec<Command>) {
        match self.tab {
            Tab::Services => {
                if let Some(id) = self.services.table.selected_id()
                    && matches!(self.services.detail(id), Remote::NotRequested)
                {
                    self.fetch(Request::Service(id), out);
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

    pub(super) fn on_loaded(
        &mut self,
        request: Request,
        result: Result<Response, ApiError>,
        out: &mut Vec<Command>,
    ) {
        let sent = self.in_flight.remove(&request);
        if request.is_write() || matches!(request, Request::IpList { .. }) {
            return self.on_form_result(request, result, out);
        }
        if let Ok(response) = &result {
            self.remember(&request, response);
        }
        let now = self.now();
        let error = result.as_ref().err().cloned();
        // A list that reached the client's cap was (or may have been) cut: say so.
        let cut = result
            .as_ref()
            .ok()
            .and_then(Response::list_len)
            .filter(|kept| limits::is_cut(&request, *kept));
        let reported = match (&request, result) {
            (Request::Services, result) => {
                let ok = result.is_ok();
                self.services.list.finish(expect(result, as_services), now);
                self.after_services(ok, out);
                self.check_orders(&request, sent, ok, out);
                true
            }
            (Request::Service(id), result) => {
                if !self.cares_about_service(*id) {
                    return;
                }
                self.services
                    .details
                    .entry(*id)
                    .or_default()
                    .finish(expect(result, as_service), now);
                self.after_detail(*id);
                true
            }
            (Request::Stats(id) | Request::Rate(id), result) => {
                let id = *id;
                if !self.cares_about_service(id) || self.is_fpr(id) {
                    self.drop_usage(id);
                    return;
                }
                if matches!(request, Request::Stats(_)) {
                    self.usage
                        .stats
                        .entry(id)
                        .or_default()
                        .finish(expect(result, as_stats), now);
                } else {
                    self.usage
                        .rate
                        .entry(id)
                        .or_default()
                        .finish(expect(result, as_rate), now);
                }
                // Before any detail says ppr, a 422 means "not a rotating service".
                let unknown = self.services.product_type(id).is_none();
                if unknown && matches!(error, Some(ApiError::Unprocessable { .. })) {
                    self.usage.not_ppr.insert(id);
                    self.drop_usage(id);
                    self.usage_dirty = true;
                    return;
                }

                self.usage_dirty = true;
                self.services_dirty = true;
                true
            }
            (Request::NetworkErrors(id) | Request::NetworkInactive(id), result) => {
                let id = *id;
                if !self.cares_about_service(id) {
                    return;
                }
                let map = if matches!(request, Request::NetworkErrors(_)) {
                    &mut self.network.errors
                } else {
                    &mut self.network.inactive
                };
                map.entry(id)
                    .or_default()
                    .finish(expect(result, as_addresses), now);
                // Rebuilt once the burst is handled (rebuild_shown), not per answer.
                self.network_dirty = true;
                self.services_dirty = true;
                // A service the server cannot check (its client is gone) is marked once in
                // its row (`can't check`), not reported as a failure on every refresh.
                !matches!(error, Some(ApiError::ClientIdNotFound { .. }))
            }
            (Request::Products | Request::ProductsOrderedBy(_), result) => {
                if !self.products.is_current(&request) {
                    return;
                }
                self.products.list.finish(expect(result, as_products), now);
                self.products.rebuild();
                self.update_pages();
                true
            }
            (Request::Product(id), result) => {
                self.products
                    .details
                    .entry(*id)
                    .or_default()
                    .finish(expect(result, as_product), now);
                true
            }
            (Request::Credit, result) => {
                self.billing.credit.finish(expect(result, as_credit), now);
                true
            }
            (Request::Invoices, result) => {
                let ok = result.is_ok();
                self.billing
                    .invoices
                    .finish(expect(result, as_invoices), now);
                self.billing.rebuild();
                self.check_orders(&request, sent, ok, out);
                true
            }
            (Request::Invoice(id), result) => {
                self.billing
                    .opened
                    .entry(*id)
                    .or_default()
                    .finish(expect(result, as_invoice), now);
                true
            }
            (Request::Clients, result) => {
                self.clients.finish(expect(result, as_clients), now);
                true
            }
            // Writes and IP lists went to the forms above.
            _ => return,
        };
        // New data for the alert rules: a failure brings nothing new, and sweeping the
        // same stale data again would count as a second sighting.
        if error.is_none() {
            self.note_alert_data(&request);
        }
        match error {
            None => match cut {
                Some(kept) if reported => self
                    .status
                    .report(&request, status::cut_line(&request, kept)),
                _ => self.status.clear(&request),
            },
            Some(e) if reported => {
                let line = status::error_line(&request, &e, &self.settings.profile);
                self.status.report(&request, line);
            }
            Some(_) => {}
        }
    }

    /// A per-service result matters while the service is listed (or no list is known).
    fn cares_about_service(&self, id: u64) -> bool {
        self.services.list.value().is_none() || self.services.knows(id)
    }

    fn after_services(&mut self, ok: bool, out: &mut Vec<Command>) {
        self.rebuild_services();
        let ids = self.services.ids();
        // Forget per-service data of services that are gone.
        let listed: std::collections::HashSet<u64> = ids.iter().copied().collect();
        self.services.details.retain(|id, _| listed.contains(id));
        self.network.errors.retain(|id, _| listed.contains(id));
        self.network.inactive.retain(|id, _| listed.contains(id));
        self.usage.stats.retain(|id, _| listed.contains(id));
        self.usage.rate.retain(|id, _| listed.contains(id));
        self.usage.not_ppr.retain(|id| listed.contains(id));
        if ok {
            // Details are fetched when a service is selected (fetch_for_selection, in this
            // same update, so the selected one goes out first) and then refreshed with the
            // list; asking all of them up front would cost a request per service for data
            // nobody looks at.
            for &id in &ids {
                if self.services.details.contains_key(&id) {
                    self.fetch(Request::Service(id), out);
                }
            }
            self.plan_sweeps(false, None, out);
        }
        self.network_dirty = true;
        self.usage_dirty = true;
    }

    fn after_detail(&mut self, id: u64) {
        match self.services.product_type(id) {
            Some(ProductType::Fpr) => self.drop_usage(id),
            // The detail outranks a guess from a 422: its usage is asked for again when it
            // is selected on the Usage tab (fetch_for_selection), and a 422 then is shown.
            Some(_) => {
                self.usage.not_ppr.remove(&id);
            }
            None => {}
        }
        self.usage_dirty = true;
    }

    /// An fpr service has no usage: forget what was asked and any error it gave.
    fn drop_usage(&mut self, id: u64) {
        self.usage.stats.remove(&id);
        self.usage.rate.remove(&id);
        self.status.clear(&Request::Stats(id));
        self.status.clear(&Request::Rate(id));
    }

    /// Rebuilds the derived rows of the tab on screen, if they changed.
    pub(super) fn rebuild_shown(&mut self) {
        // The cells on screen are drawn from the live data; what a rebuild refreshes is the
        // search keys, problem marks, health order and widths of every row. On a big
        // account that is deferred until something reads them (see `rebuild_if_read`), so
        // a stream of per-service answers does not cost a pass over every row each.
        if self.tab == Tab::Services
            && self.services_dirty
            && (self.services.rows().len() <= super::screen::EAGER_ROWS
                || self.services.reads_keys())
        {
            self.rebuild_services();
        }
        if self.tab == Tab::Network && self.network_dirty {
            self.network_dirty = false;
            self.rebuild_network();
        }
        if self.tab == Tab::Usage && self.usage_dirty {
            self.usage_dirty = false;
            self.rebuild_usage();
        }
    }

    fn rebuild_network(&mut self) {
        let ids = self.swept_ids();
        let services = &self.services;
        let product_of = |id: u64| {
            services
                .get(id)
                .map(|s| crate::text::sanitize(&s.product_name).into_owned())
                .unwrap_or_default()
        };
        self.network.rebuild(&ids, product_of);
    }

    fn rebuild_usage(&mut self) {
        let ppr = self
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
        self.usage.rebuild(ppr);
    }
}

/// The typed value of a result, or a decode error if the fetcher answered the wrong shape.
fn expect<T>(
    result: Result<Response, ApiError>,
    pick: fn(Response) -> Option<T>,
) -> Result<T, ApiError> {
    let response = result?;
    pick(response).ok_or_else(|| ApiError::Decode {
        endpoint: "fetcher",
        detail: "the answer does not match the request".into(),
    })
}

macro_rules! picker {
    ($name:ident, $variant:ident, $t:ty) => {
        fn $name(r: Response) -> Option<$t> {
            match r {
                Response::$variant(v) => Some(v),
                _ => None,
            }
        }
    };
}

picker!(as_services, Services, Vec<crate::api::ServiceSummary>);
picker!(as_service, Service, crate::api::Service);
picker!(as_stats, Stats, Vec<crate::api::StatEntry>);
picker!(as_rate, Rate, Vec<crate::api::RateEntry>);
picker!(as_products, Products, Vec<crate::api::ProductSummary>);
picker!(as_product, Product, crate::api::Product);
picker!(as_credit, Credit, crate::api::Credit);
picker!(as_invoices, Invoices, Vec<crate::api::Invoice>);
picker!(as_invoice, Invoice, Vec<crate::api::Invoice>);
picker!(as_clients, Clients, Vec<crate::api::Client>);

fn as_addresses(r: Response) -> Option<Vec<String>> {
    match r {
        Response::NetworkErrors(v) | Response::NetworkInactive(v) => Some(v),
        _ => None,
    }
}
