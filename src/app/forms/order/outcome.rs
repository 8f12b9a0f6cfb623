//! The app's side of an order: sending a confirmed one (or saying why it is not sent),
//! routing each answer to the attempt that sent it (by its ticket), and checking an
//! unknown outcome by reading the account again. The rules are written down in
//! [`crate::app::orders`].

use super::{OrderForm, done_message};
use crate::api::{ApiError, Request, Response, Ticket, Unprocessable};
use crate::app::forms::{FormCx, TextField, failure};
use crate::app::messages::Level;
use crate::app::orders::{Attempt, Check, Doubt, Placed};
use crate::app::status::NoticeKind;
use crate::app::{Cx, Popup};
use chrono::{DateTime, Utc};

/// Enter on an order's confirmation: the POST, unless an order of that product for
/// that client is on its way, or the product is in doubt and its ID was not typed.
pub(in crate::app) fn confirm_order(cx: &mut FormCx<'_>, form: &mut OrderForm) {
    let offset = cx.offset();
    let Some(Request::Order { product_id, body }) = &form.request else {
        return;
    };
    let (product_id, client) = (*product_id, body.clientid);
    if let Some(a) = cx.orders().in_flight_for(product_id, client) {
        let sent = a.sent;
        form.note = Some(format!(
            "Not sent: the order of product {product_id} for client {client} sent at {} \
             is still on its way. Wait for its answer (m lists every outcome).",
            hms(offset, sent)
        ));
        return;
    }
    if let Some(d) = cx.orders().doubt(product_id) {
        let sent = hms(offset, d.attempt.sent);
        let typed = form.retype.as_ref().map(|f| f.value().trim().to_owned());
        let checked = d.check.is_done();
        form.retype.get_or_insert_with(TextField::default);
        if !checked {
            form.note = Some(format!(
                "Not sent: still checking whether the order sent at {sent} went through."
            ));
            return;
        }
        if typed.as_deref() != Some(product_id.to_string().as_str()) {
            form.note = Some(format!(
                "Not sent: type the product ID ({product_id}), then Enter, to order it again."
            ));
            return;
        }
    }
    let services_before = cx
        .store()
        .services()
        .map(|list| list.iter().map(|s| s.service_id).collect());
    let invoices_before = cx
        .store()
        .invoices()
        .map(|list| list.iter().map(|i| i.id).collect());
    let now = cx.now();
    let Some(request) = form.confirmed() else {
        return;
    };
    let ticket = cx.ticket();
    let label = label(form, client);
    cx.orders_mut().sent(Attempt {
        ticket,
        product_id,
        product_name: form.product_name.clone(),
        client,
        sent: now,
        services_before,
        invoices_before,
    });
    cx.status().log(Level::Info, format!("{label}: sent"));
    form.core.send_as(cx, request, ticket);
}

/// The record of orders takes every order's answer, by its attempt's ticket, whatever
/// became of the form that sent it (which then shows it, [`OrderForm::finish`]).
pub(in crate::app) fn on_order_result(
    cx: &mut FormCx<'_>,
    request: &Request,
    ticket: Option<Ticket>,
    result: &Result<Response, ApiError>,
) {
    let Request::Order { product_id, body } = request else {
        return;
    };
    let product_id = *product_id;
    let now = cx.now();
    let answered = ticket.and_then(|t| cx.orders_mut().answered(t));
    let attempt = answered.unwrap_or_else(|| Attempt {
        // Not an attempt of this app's (none has ticket 0).
        ticket: ticket.unwrap_or(Ticket(0)),
        product_id,
        product_name: String::new(),
        client: body.clientid,
        sent: now,
        services_before: None,
        invoices_before: None,
    });
    let label = format!(
        "Order of product {product_id}{} for client {}",
        named(&attempt.product_name),
        attempt.client
    );
    // A 200 that is not an order result cannot say what the server did.
    let unknown = match result {
        Ok(Response::Order(_)) => false,
        Ok(_) => true,
        Err(e) => e.outcome_unknown(),
    };
    let placed = matches!(result, Ok(Response::Order(_)));
    let short = result.as_ref().err().and_then(ApiError::unprocessable)
        == Some(Unprocessable::NotEnoughFunds);
    match result {
        Ok(Response::Order(r)) => {
            cx.orders_mut().settle(product_id);
            cx.orders_mut().placed(Placed {
                client: attempt.client,
                product_id,
                product_name: attempt.product_name.clone(),
                at: now,
                result: r.clone(),
            });
            cx.status()
                .pin(NoticeKind::Done, format!("{label}: {}", done_message(r)));
        }
        Err(e) if !unknown => {
            cx.orders_mut().settle(product_id);
            cx.status()
                .pin(NoticeKind::Error, format!("{label}: not placed: {e}"));
        }
        _ => {
            let why = match result {
                Err(e) => failure(e),
                Ok(_) => "Outcome unknown: the answer was not an order result.".into(),
            };
            cx.status().pin(
                NoticeKind::Warn,
                format!("{label}: {why} Checking services and invoices…"),
            );
            cx.orders_mut().put_in_doubt(attempt, now);
        }
    }
    if placed || unknown {
        // The new service, the lower credit and the new invoice; after an unknown
        // outcome these reads are also the check. Asked as one-offs, ahead of the
        // engine's plan: a person waits on them.
        for request in [Request::Services, Request::Credit, Request::Invoices] {
            cx.fetch(request);
        }
    } else if short {
        cx.fetch(Request::Credit);
    }
}

/// A services or invoices list arrived (`sent`: when it was asked, `ok`: it was read):
/// the checks of orders in doubt take it if it was asked after the outcome was lost,
/// and ask it again if not.
pub(in crate::app) fn check_orders(
    cx: &mut Cx<'_>,
    request: &Request,
    sent: Option<DateTime<Utc>>,
    ok: bool,
) {
    let invoices = match request {
        Request::Services => false,
        Request::Invoices => true,
        _ => return,
    };
    let sent = sent.unwrap_or(DateTime::<Utc>::MIN_UTC);
    if cx.work.orders.checking().any(|d| sent < d.lost_at) {
        cx.fetch(request.clone());
    }
    let ids: Option<Vec<u64>> = match (ok, invoices) {
        (false, _) => None,
        (true, false) => Some(cx.services().ids()),
        (true, true) => cx
            .account
            .store
            .invoices()
            .map(|list| list.iter().map(|i| i.id).collect()),
    };
    let services = cx.tabs.services.view(&cx.account.store);
    let name_of = |id: u64| services.get(id).map(|s| s.product_name.clone());
    let finished = cx
        .work
        .orders
        .observe(invoices, ids.as_deref(), &name_of, sent);
    for product in finished {
        let Some(d) = cx.work.orders.doubt(product) else {
            continue;
        };
        let line = check_line(d, &hms(cx.shell.utc_offset, d.attempt.sent));
        let kind = match d.check {
            Check::Found { .. } => NoticeKind::Done,
            _ => NoticeKind::Warn,
        };
        cx.shell.status.pin(kind, &line);
        for form in cx.shell.popups.iter_mut().filter_map(Popup::form_mut) {
            form.order_checked(product, &line);
        }
    }
}

fn hms(offset: chrono::FixedOffset, at: DateTime<Utc>) -> String {
    at.with_timezone(&offset).format("%H:%M:%S").to_string()
}

/// `Order of product 11 (Datacenter US 10) for client 101`.
fn label(form: &OrderForm, client: u64) -> String {
    format!(
        "Order of product {}{} for client {client}",
        form.product_id,
        named(&form.product_name)
    )
}

fn named(name: &str) -> String {
    if name.trim().is_empty() {
        String::new()
    } else {
        format!(" ({})", name.trim())
    }
}

/// What the check of an order in doubt found, in one line.
fn check_line(d: &Doubt, sent: &str) -> String {
    let a = &d.attempt;
    let what = format!(
        "Order of product {}{} sent at {sent}",
        a.product_id,
        named(&a.product_name)
    );
    let ids = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    match &d.check {
        Check::Found { services, invoices } => {
            let mut found = Vec::new();
            if !services.is_empty() {
                found.push(format!("new service {}", ids(services)));
            }
            if !invoices.is_empty() {
                found.push(format!("new invoice {}", ids(invoices)));
            }
            format!(
                "{what}: it went through ({} since). Ordering again buys a second one.",
                found.join(", ")
            )
        }
        Check::NotFound => format!(
            "{what}: no new service of this product and no new invoice since, so most likely \
             not carried out. To order anyway, type {} in the confirmation.",
            a.product_id
        ),
        Check::Unknown(why) => format!(
            "{what}: could not tell whether it went through ({why}). Check Services before \
             ordering again."
        ),
        Check::Checking { .. } => format!("{what}: checking services and invoices…"),
    }
}
