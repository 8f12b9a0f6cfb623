//! Requests out and results in: sending fetches, and handing each typed answer
//! ([`Loaded`]) to what keeps it (see the module docs of [`super`] for the rules). When
//! data is asked for (`r`, `R`, the engine told what the screen shows, what the
//! selection shows but was never asked for) is each tab's own answer
//! ([`TabPane`](crate::app::tabs::TabPane)); the app adds what its popups show.
//!
//! Each tab marks what it loads ([`begin`](super::tabs::services::ServicesTab::begin)) and
//! keeps what arrives (`finish_*`); [`App::on_loaded`] is the dispatch between them, plus
//! what every read shares: the in-flight set, history, the alert sweep and the status
//! line. Writes and IP lists are answers to forms (and probes): they go to the forms'
//! routing ([`App::on_form_result`]) with their request and a write's ticket, untouched
//! here. Any other read a form waits for (an invoice asked for by its number) is kept by
//! its tab like every read, then handed to the form ([`App::on_form_read`]), which then
//! shows its failure instead of the status line.

mod services;

use super::forms::order::outcome::check_orders;
use super::popups::Popup;
use super::popups::invoice::InvoiceViewer;
use super::{App, Command, Cx, Mirror, Tabs, status};
use crate::account::{Focus, Kind};
use crate::api::{ApiError, Loaded, Request, ServiceSummary, Ticket, limits};
use chrono::{DateTime, Utc};

impl App {
    /// The context the parts get ([`Cx`]), with `out` for the commands they send.
    pub(in crate::app) fn cx<'a>(&'a mut self, out: &'a mut Vec<Command>) -> Cx<'a> {
        Cx {
            shell: &mut self.shell,
            tabs: &mut self.tabs,
            account: &mut self.account,
            work: &mut self.work,
            out,
        }
    }

    /// The probes with the context, for the probe view's work (the probes are no part of
    /// the context: no other part sees them).
    pub(in crate::app) fn probes_cx<'a>(
        &'a mut self,
        out: &'a mut Vec<Command>,
    ) -> (&'a mut super::probe::Probes, Cx<'a>) {
        let cx = Cx {
            shell: &mut self.shell,
            tabs: &mut self.tabs,
            account: &mut self.account,
            work: &mut self.work,
            out,
        };
        (&mut self.probes, cx)
    }

    /// An answer, with the ticket of the write it answers (see [`super::forms`]).
    pub(super) fn on_loaded(
        &mut self,
        loaded: Loaded,
        ticket: Option<Ticket>,
        out: &mut Vec<Command>,
    ) {
        if let Loaded::Order(..) | Loaded::UpdateService(..) | Loaded::IpList(..) = loaded {
            let (request, result) = loaded.into_parts();
            match ticket {
                Some(ticket) if request.is_write() => {
                    self.account.writes.remove(&ticket);
                }
                _ => {
                    self.account.in_flight.remove(&request);
                }
            }
            return self.on_form_result(request, ticket, result, out);
        }
        let request = loaded.request();
        let sent = self.account.in_flight.remove(&request);
        let for_form = self
            .form_reads(&request)
            .then(|| loaded.clone().into_parts().1);
        let error = loaded.error().cloned();
        // A request that got no answer at all, after others that got none: the outage the
        // header shows; its line goes to the log only (below).
        let silent_before = self.account.no_answer_since.is_some();
        match &error {
            Some(e) if e.status().is_none() => {
                self.account.no_answer_since.get_or_insert(self.now());
            }
            _ => self.account.no_answer_since = None,
        }
        // A list that reached the client's cap was (or may have been) cut: say so.
        let cut = loaded.kept().filter(|kept| limits::is_cut(&request, *kept));
        let finished = self.finish(loaded, sent, out);
        // After the tab, so what the form opens finds the answer there.
        let shown = for_form.is_some_and(|result| self.on_form_read(&request, result, out));
        let Some(reported) = finished else {
            return;
        };
        let reported = reported && !shown;
        match error {
            None => match cut {
                Some(kept) if reported => self
                    .shell
                    .status
                    .report(&request, status::cut_line(&request, kept)),
                _ => self.shell.status.clear(&request),
            },
            // While the API is unreachable, a read that got no answer is that outage:
            // the header and the notice say it once, the line goes to the log only (the
            // read is asked again when the API is back).
            Some(e)
                if reported
                    && !request.is_write()
                    && e.status().is_none()
                    && (silent_before || self.account.connection.unreachable_since().is_some()) =>
            {
                let line = status::error_line(&request, &e, &self.shell.settings.profile);
                self.shell
                    .status
                    .log(crate::app::messages::Level::Error, line);
            }
            Some(e) if reported => {
                let line = status::error_line(&request, &e, &self.shell.settings.profile);
                self.shell.status.report(&request, line);
            }
            Some(_) => {}
        }
    }

    /// Hands a read's answer to the tab that keeps it. Whether a failure of it is
    /// reported in the status line; `None` when the answer is no longer wanted (its
    /// service is gone, its sort was changed), so nothing else is done with it.
    fn finish(
        &mut self,
        loaded: Loaded,
        sent: Option<DateTime<Utc>>,
        out: &mut Vec<Command>,
    ) -> Option<bool> {
        let now = self.now();
        match loaded {
            Loaded::Services(result) => self.finish_services(result, sent, out),
            Loaded::Service(id, result) => {
                self.cares_about_service(id).then_some(())?;
                self.tabs.services.finish_detail(id, result, now);
                self.tabs.after_detail(id, &mut self.shell.status);
            }
            Loaded::Stats(id, result) => {
                let failed = result.as_ref().err();
                self.wants_usage(id, failed)?;
                self.tabs.usage.finish_stats(id, result, now);
            }
            Loaded::Rate(id, result) => {
                let failed = result.as_ref().err();
                self.wants_usage(id, failed)?;
                self.tabs.usage.finish_rate(id, result, now);
            }
            Loaded::NetworkErrors(id, result) => {
                let reported = self.wants_network(id, result.as_ref().err())?;
                self.tabs.network.finish_errors(id, result, now);
                return Some(reported);
            }
            Loaded::NetworkInactive(id, result) => {
                let reported = self.wants_network(id, result.as_ref().err())?;
                self.tabs.network.finish_inactive(id, result, now);
                return Some(reported);
            }
            Loaded::Products(result) => self.finish_products(None, result)?,
            Loaded::ProductsOrderedBy(field, result) => {
                self.finish_products(Some(field), result)?
            }
            Loaded::Product(id, result) => self.tabs.products.finish_detail(id, result, now),
            Loaded::Credit(result) => self.tabs.billing.finish_credit(result, now),
            Loaded::Invoices(result) => {
                let ok = result.is_ok();
                self.tabs.billing.finish_invoices(result, now);
                check_orders(&mut self.cx(out), &Request::Invoices, sent, ok);
            }
            Loaded::Invoice(id, result) => self.tabs.billing.finish_invoice(id, result, now),
            Loaded::Clients(result) => self.account.clients.finish(result, now),
            // Routed to the forms by `on_loaded`.
            Loaded::Order(..) | Loaded::UpdateService(..) | Loaded::IpList(..) => return None,
        }
        Some(true)
    }

    fn finish_services(
        &mut self,
        result: Result<Vec<ServiceSummary>, ApiError>,
        sent: Option<DateTime<Utc>>,
        out: &mut Vec<Command>,
    ) {
        let ok = result.is_ok();
        self.tabs.services.finish_list(result, self.now());
        let today = self.now().with_timezone(&self.utc_offset()).date_naive();
        self.tabs.after_services(today, &self.shell.geometry);
        check_orders(&mut self.cx(out), &Request::Services, sent, ok);
    }

    fn finish_products(
        &mut self,
        sort: Option<crate::api::SortField>,
        result: Result<Vec<crate::api::ProductSummary>, ApiError>,
    ) -> Option<()> {
        let now = self.now();
        self.tabs
            .products
            .finish_list(sort, result, now)
            .then_some(())?;
        self.update_pages();
        Some(())
    }

    /// Whether a usage answer (`Stats`, `Rate`) for service `id` is kept. An fpr service
    /// has none, so its answer is dropped; before any detail says ppr, a 422 means "not a
    /// rotating service" and is not an error.
    fn wants_usage(&mut self, id: u64, failed: Option<&ApiError>) -> Option<()> {
        if !self.cares_about_service(id) || self.tabs.is_fpr(id, &self.account) {
            self.tabs.drop_usage(id, &mut self.shell.status);
            return None;
        }
        self.tabs.usage_dirty = true;
        let unknown = self.tabs.services.product_type(id).is_none();
        if unknown && matches!(failed, Some(ApiError::Unprocessable { .. })) {
            self.tabs.usage.not_ppr.insert(id);
            self.tabs.drop_usage(id, &mut self.shell.status);
            return None;
        }
        self.tabs.services_dirty = true;
        Some(())
    }

    /// Whether a network answer for service `id` is kept, and whether its failure is
    /// reported: a service the server cannot check (its client is gone) is marked once in
    /// its row (`can't check`), not reported as a failure on every refresh.
    fn wants_network(&mut self, id: u64, failed: Option<&ApiError>) -> Option<bool> {
        self.cares_about_service(id).then_some(())?;
        // Rebuilt once the burst is handled (rebuild_shown), not per answer.
        self.tabs.network_dirty = true;
        self.tabs.services_dirty = true;
        Some(!matches!(failed, Some(ApiError::ClientIdNotFound { .. })))
    }

    /// A per-service result matters while the service is listed (or no list is known).
    fn cares_about_service(&self, id: u64) -> bool {
        self.tabs.services.list.value().is_none() || self.tabs.services.knows(id)
    }

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
            if let Popup::Invoice(InvoiceViewer(id)) = popup {
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

impl Tabs {
    /// The remote a request fills, marked loading by the tab that keeps it.
    pub(in crate::app) fn begin(&mut self, request: &Request, account: &mut Mirror) {
        self.services.begin(request);
        self.products.begin(request);
        self.billing.begin(request);
        self.network.begin(request);
        self.usage.begin(request);
        if *request == Request::Clients {
            account.clients.begin();
        }
    }
}
