//! Requests out and results in: sending fetches, and keeping each typed answer
//! ([`Loaded`]) in the store (see the module docs of [`super`] for the rules). When
//! data is asked for (`r`, `R`, the engine told what the screen shows, what the
//! selection shows but was never asked for) is each tab's own answer
//! ([`TabPane`](crate::app::tabs::TabPane)); the app adds what its popups show.
//!
//! Every read is marked sent and its answer kept in one place, the account's store
//! ([`super::Mirror::store`], the engine's own [`crate::account::store::Store`] fed by its
//! events); the tabs keep no answers, they derive their rows from the store.
//! [`Cx::on_loaded`] keeps the answer and then does what follows from it: the rows to
//! rebuild, the orders to check, the history, the alert sweep and the status line.
//! Writes and IP lists are answers to forms (and probes; the palette learns a list's
//! hosts): they go to the forms' routing ([`Forms::on_result`]) with their request and a
//! write's ticket, untouched here. Any other read a form waits for (an invoice asked for
//! by its number) is kept in the store like every read, then handed to the form
//! ([`Forms::on_read`]), which then shows its failure instead of the status line. What no
//! context holds (the forms out of sight, the probes, the proxies) comes beside the
//! context as [`super::Aside`].
//!
//! [`Forms::on_result`]: super::forms::Forms::on_result
//! [`Forms::on_read`]: super::forms::Forms::on_read

mod services;

use super::forms::order::outcome::check_orders;
use super::popups::Popup;
use super::popups::invoice::InvoiceViewer;
use super::{Aside, Command, Cx, status};
use crate::account::{Focus, Kind};
use crate::api::{ApiError, Loaded, Request, Response, Ticket, limits};
use chrono::{DateTime, Utc};

/// What an answer does, through the context: the parts it changes are the shell, the
/// tabs and the mirror; what no context holds (the forms out of sight, the probes, the
/// palette's proxies) comes beside it ([`Aside`]).
impl Cx<'_> {
    /// An answer, with the ticket of the write it answers (see [`super::forms`]).
    pub(super) fn on_loaded(&mut self, aside: Aside<'_>, loaded: Loaded, ticket: Option<Ticket>) {
        let request = loaded.request();
        let sent = self.account.store.get(&request).and_then(|e| e.sent);
        let now = self.shell.now();
        if let Loaded::Order(..) | Loaded::UpdateService(..) | Loaded::IpList(..) = loaded {
            // Nothing of it is kept: an IP list is only no longer on its way.
            self.account.store.answered(&loaded, now);
            let (request, result) = loaded.into_parts();
            if let Some(ticket) = ticket.filter(|_| request.is_write()) {
                self.account.writes.remove(&ticket);
            }
            // The palette offers the hosts of every IP list seen.
            if let (Request::IpList { service_id, .. }, Ok(Response::IpList(list))) =
                (&request, &result)
            {
                aside.proxies.learn(*service_id, list);
            }
            let probes = &mut *aside.probes;
            return aside
                .forms
                .on_result(self, probes, request, (ticket, result));
        }
        let for_form = (aside.forms)
            .reads(&self.shell.popups, &request)
            .then(|| loaded.clone().into_parts().1);
        let error = loaded.error().cloned();
        // A list that reached the client's cap was (or may have been) cut: say so.
        let cut = loaded.kept().filter(|kept| limits::is_cut(&request, *kept));
        // Kept whole (no copy), before what follows reads it in the store.
        self.account.store.keep(loaded, now);
        // A request that got no answer at all, after others that got none: the outage the
        // header shows; its line goes to the log only (below).
        let silent_before = self.account.no_answer_since.is_some();
        match &error {
            Some(e) if e.status().is_none() => {
                self.account.no_answer_since.get_or_insert(self.shell.now());
            }
            _ => self.account.no_answer_since = None,
        }
        let finished = self.finish(&request, error.as_ref(), sent);
        // After the tab, so what the form opens finds the answer there.
        let shown = for_form.is_some_and(|result| aside.forms.on_read(self, &request, result));
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

    /// What follows from a read's answer, now kept in the store: the rows it changes, the
    /// orders it settles. Whether a failure of it is reported in the status line; `None`
    /// when the answer is no longer wanted (its service is gone, its sort was changed),
    /// so nothing else is done with it.
    fn finish(
        &mut self,
        request: &Request,
        error: Option<&ApiError>,
        sent: Option<DateTime<Utc>>,
    ) -> Option<bool> {
        if let Some(id) = crate::account::store::service_of(request)
            && !self.cares_about_service(id)
        {
            self.account.store.forget(request);
            self.shell.status.clear(request);
            return None;
        }
        match request {
            Request::Services => self.on_services(error.is_none(), sent),
            Request::Service(id) => {
                self.tabs
                    .after_detail(*id, &self.account.store, &mut self.shell.status);
            }
            Request::Stats(id) | Request::Rate(id) => self.wants_usage(*id, error)?,
            Request::NetworkErrors(_) | Request::NetworkInactive(_) => {
                return self.wants_network(error);
            }
            Request::Products | Request::ProductsOrderedBy(_) => self.on_products(request)?,
            Request::Invoices => {
                self.tabs.billing.rebuild(&self.account.store);
                check_orders(self, &Request::Invoices, sent, error.is_none());
            }
            Request::Product(_) | Request::Credit | Request::Invoice(_) | Request::Clients => {}
            // Routed to the forms by `on_loaded`.
            Request::Order { .. } | Request::UpdateService { .. } | Request::IpList { .. } => {
                return None;
            }
        }
        Some(true)
    }

    fn on_services(&mut self, ok: bool, sent: Option<DateTime<Utc>>) {
        let today = self.shell.today();
        self.tabs
            .after_services(&mut self.account.store, today, &self.shell.geometry);
        check_orders(self, &Request::Services, sent, ok);
    }

    /// A catalogue in the order chosen now is shown; one for a sort no longer chosen is
    /// not.
    fn on_products(&mut self, request: &Request) -> Option<()> {
        (*request == self.tabs.products.list_request()).then_some(())?;
        self.tabs.products.rebuild(&self.account.store);
        self.tabs.set_pages(&self.shell.geometry);
        Some(())
    }

    /// Whether a usage answer (`Stats`, `Rate`) for service `id` counts: an fpr service
    /// has no usage, so its answer is no error and changes no row; before any detail says
    /// ppr, a 422 means "not a rotating service" and is not an error either.
    fn wants_usage(&mut self, id: u64, failed: Option<&ApiError>) -> Option<()> {
        if self.tabs.is_fpr(id, self.account) {
            services::no_usage_errors(id, &mut self.shell.status);
            return None;
        }
        self.tabs.usage_dirty = true;
        let unknown = self.account.store.service(id).is_none();
        if unknown && matches!(failed, Some(ApiError::Unprocessable { .. })) {
            self.tabs.usage.not_ppr.insert(id);
            services::no_usage_errors(id, &mut self.shell.status);
            return None;
        }
        self.tabs.services_dirty = true;
        Some(())
    }

    /// Whether a network answer's failure is reported: a service the server cannot check
    /// (its client is gone) is marked once in its row (`can't check`), not reported as a
    /// failure on every refresh.
    fn wants_network(&mut self, failed: Option<&ApiError>) -> Option<bool> {
        // Rebuilt once the burst is handled (rebuild_shown), not per answer.
        self.tabs.network_dirty = true;
        self.tabs.services_dirty = true;
        Some(!matches!(failed, Some(ApiError::ClientIdNotFound { .. })))
    }

    /// A per-service result matters while the service is listed (or no list is known).
    fn cares_about_service(&self, id: u64) -> bool {
        self.account.store.services().is_none() || self.services().knows(id)
    }

    /// `r`: the current tab's data.
    pub(in crate::app) fn refresh_tab(&mut self) {
        let tab = self.shell.tab;
        tab.refresh(self);
    }

    /// `R`: everything.
    pub(in crate::app) fn refresh_all(&mut self) {
        self.out.push(Command::Refresh(Kind::ALL.to_vec()));
    }

    pub(in crate::app) fn on_tick(&mut self) {
        self.account
            .expire_countdowns(self.shell.now(), &mut self.shell.status, self.out);
    }

    /// What the screen shows, for the engine: the tab's whole kinds and the selection's
    /// reads. Told when it changed.
    pub(in crate::app) fn tell_focus(&mut self) {
        let mut focus = Focus::default();
        self.shell.tab.focus(self.tabs, &mut focus);
        for popup in &self.shell.popups {
            if let Popup::Invoice(InvoiceViewer(id)) = popup {
                focus.requests.push(Request::Invoice(*id));
            }
        }
        if self.account.focus.as_ref() != Some(&focus) {
            self.account.focus = Some(focus.clone());
            self.out.push(Command::Focus(focus));
        }
    }

    /// Fetches what the selection of the current tab shows but was never asked for.
    pub(in crate::app) fn fetch_for_selection(&mut self) {
        let tab = self.shell.tab;
        tab.fetch_for_selection(self);
    }
}
