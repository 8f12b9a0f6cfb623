//! Requests out and results in: sending fetches, and keeping each typed answer
//! ([`Loaded`]) in the store (see the module docs of [`super`] for the rules). When
//! data is asked for (`r`, `R`, the engine told what the screen shows, what the
//! selection shows but was never asked for) is each tab's own answer
//! ([`TabPane`](crate::app::tabs::TabPane)); the app adds what its popups show.
//!
//! Every read is marked sent and its answer kept in one place, the account's store
//! ([`super::Mirror::store`], the engine's own [`crate::account::store::Store`] fed by its
//! events); the tabs keep no answers, they derive their rows from the store.
//! [`on_loaded`] keeps the answer and then does what follows from it: the rows to
//! rebuild, the orders to check, the history, the alert sweep and the status line.
//! Writes and IP lists are answers to forms (and probes; the palette learns a list's
//! hosts): they go to the forms' routing ([`Forms::on_result`]) with their request and a
//! write's ticket, untouched here. Any other read a form waits for (an invoice asked for
//! by its number) is kept in the store like every read, then handed to the form
//! ([`Forms::on_read`]), which then shows its failure instead of the status line. What no
//! context holds (the forms out of sight, the probes, the proxies) comes beside the
//! context as [`super::NotInContext`].
//!
//! [`Forms::on_result`]: super::forms::Forms::on_result
//! [`Forms::on_read`]: super::forms::Forms::on_read

mod services;

use super::forms::order::outcome::check_orders;
use super::{Cx, NotInContext, status};
use crate::api::{ApiError, Loaded, Request, Response, Ticket, limits};
use chrono::{DateTime, Utc};

/// An answer, with the ticket of the write it answers (see [`super::forms`]), through the
/// context: the parts it changes are the shell, the tabs and the mirror; what no context
/// holds (the forms out of sight, the probes, the palette's proxies) comes beside it
/// ([`NotInContext`]).
pub(in crate::app) fn on_loaded(
    cx: &mut Cx<'_>,
    aside: NotInContext<'_>,
    loaded: Loaded,
    ticket: Option<Ticket>,
) {
    let request = loaded.request();
    let sent = cx.account.store.get(&request).and_then(|e| e.sent);
    let now = cx.shell.now();
    if let Loaded::Order(..) | Loaded::UpdateService(..) | Loaded::IpList(..) = loaded {
        // Nothing of it is kept: an IP list is only no longer on its way.
        cx.account.store.answered(&loaded, now);
        let (request, result) = loaded.into_parts();
        if let Some(ticket) = ticket.filter(|_| request.is_write()) {
            cx.account.writes.remove(&ticket);
        }
        // The palette offers the hosts of every IP list seen.
        if let (Request::IpList { service_id, .. }, Ok(Response::IpList(list))) =
            (&request, &result)
        {
            aside.proxies.learn(*service_id, list);
        }
        let probes = &mut *aside.probes;
        return aside.forms.on_result(cx, probes, request, (ticket, result));
    }
    let for_form = (aside.forms)
        .reads(&cx.shell.popups, &request)
        .then(|| loaded.clone().into_parts().1);
    let error = loaded.error().cloned();
    // A list that reached the client's cap was (or may have been) cut: say so.
    let cut = loaded.kept().filter(|kept| limits::is_cut(&request, *kept));
    // Kept whole (no copy), before what follows reads it in the store.
    cx.account.store.keep(loaded, now);
    // A request that got no answer at all, after others that got none: the outage the
    // header shows; its line goes to the log only (below).
    let silent_before = cx.account.no_answer_since.is_some();
    match &error {
        Some(e) if e.status().is_none() => {
            cx.account.no_answer_since.get_or_insert(cx.shell.now());
        }
        _ => cx.account.no_answer_since = None,
    }
    let finished = finish(cx, &request, error.as_ref(), sent);
    // After the tab, so what the form opens finds the answer there.
    let shown = for_form.is_some_and(|result| aside.forms.on_read(cx, &request, result));
    let Some(reported) = finished else {
        return;
    };
    let reported = reported && !shown;
    match error {
        None => match cut {
            Some(kept) if reported => cx
                .shell
                .status
                .report(&request, status::cut_line(&request, kept)),
            _ => cx.shell.status.clear(&request),
        },
        // While the API is unreachable, a read that got no answer is that outage:
        // the header and the notice say it once, the line goes to the log only (the
        // read is asked again when the API is back).
        Some(e)
            if reported
                && !request.is_write()
                && e.status().is_none()
                && (silent_before || cx.account.connection.unreachable_since().is_some()) =>
        {
            let line = status::error_line(&request, &e, &cx.shell.settings.profile);
            cx.shell
                .status
                .log(crate::app::messages::Level::Error, line);
        }
        Some(e) if reported => {
            let line = status::error_line(&request, &e, &cx.shell.settings.profile);
            cx.shell.status.report(&request, line);
        }
        Some(_) => {}
    }
}

/// What follows from a read's answer, now kept in the store: the rows it changes, the
/// orders it settles. Whether a failure of it is reported in the status line; `None`
/// when the answer is no longer wanted (its service is gone, its sort was changed),
/// so nothing else is done with it.
fn finish(
    cx: &mut Cx<'_>,
    request: &Request,
    error: Option<&ApiError>,
    sent: Option<DateTime<Utc>>,
) -> Option<bool> {
    if let Some(id) = crate::account::store::service_of(request)
        && !cares_about_service(cx, id)
    {
        cx.account.store.forget(request);
        cx.shell.status.clear(request);
        return None;
    }
    match request {
        Request::Services => on_services(cx, error.is_none(), sent),
        Request::Service(id) => {
            cx.tabs
                .after_detail(*id, &cx.account.store, &mut cx.shell.status);
        }
        Request::Stats(id) | Request::Rate(id) => wants_usage(cx, *id, error)?,
        Request::NetworkErrors(_) | Request::NetworkInactive(_) => {
            return wants_network(cx, error);
        }
        Request::Products | Request::ProductsOrderedBy(_) => on_products(cx, request)?,
        Request::Invoices => {
            cx.tabs.billing.rebuild(&cx.account.store);
            check_orders(cx, &Request::Invoices, sent, error.is_none());
        }
        Request::Product(_) | Request::Credit | Request::Invoice(_) | Request::Clients => {}
        // Routed to the forms by `on_loaded`.
        Request::Order { .. } | Request::UpdateService { .. } | Request::IpList { .. } => {
            return None;
        }
    }
    Some(true)
}

fn on_services(cx: &mut Cx<'_>, ok: bool, sent: Option<DateTime<Utc>>) {
    let today = cx.shell.today();
    cx.tabs
        .after_services(&mut cx.account.store, today, &cx.shell.geometry);
    check_orders(cx, &Request::Services, sent, ok);
}

/// A catalogue in the order chosen now is shown; one for a sort no longer chosen is
/// not.
fn on_products(cx: &mut Cx<'_>, request: &Request) -> Option<()> {
    (*request == cx.tabs.products.list_request()).then_some(())?;
    cx.tabs.products.rebuild(&cx.account.store);
    cx.tabs.set_pages(&cx.shell.geometry);
    Some(())
}

/// Whether a usage answer (`Stats`, `Rate`) for service `id` counts: an fpr service
/// has no usage, so its answer is no error and changes no row; before any detail says
/// ppr, a 422 means "not a rotating service" and is not an error either.
fn wants_usage(cx: &mut Cx<'_>, id: u64, failed: Option<&ApiError>) -> Option<()> {
    if cx.tabs.is_fpr(id, cx.account) {
        services::no_usage_errors(id, &mut cx.shell.status);
        return None;
    }
    cx.tabs.usage_dirty = true;
    let unknown = cx.account.store.service(id).is_none();
    if unknown && matches!(failed, Some(ApiError::Unprocessable { .. })) {
        cx.tabs.usage.not_ppr.insert(id);
        services::no_usage_errors(id, &mut cx.shell.status);
        return None;
    }
    cx.tabs.services_dirty = true;
    Some(())
}

/// Whether a network answer's failure is reported: a service the server cannot check
/// (its client is gone) is marked once in its row (`can't check`), not reported as a
/// failure on every refresh.
fn wants_network(cx: &mut Cx<'_>, failed: Option<&ApiError>) -> Option<bool> {
    // Rebuilt once the burst is handled (rebuild_shown), not per answer.
    cx.tabs.network_dirty = true;
    cx.tabs.services_dirty = true;
    Some(!matches!(failed, Some(ApiError::ClientIdNotFound { .. })))
}

/// A per-service result matters while the service is listed (or no list is known).
fn cares_about_service(cx: &Cx<'_>, id: u64) -> bool {
    cx.account.store.services().is_none() || cx.services().knows(id)
}
