//! The 16 endpoints of spec section 4: path → rule in [`super::state`] → shape in
//! [`super::wire`]. Handlers hold the store's lock only while reading or changing it and
//! serializing the answer; an IP list is written after the lock is released.
//!
//! Choices:
//! - Path IDs are decimal digits; anything else is the generic 422 (`product ID not found`
//!   on endpoint 5, which lists no generic 422).
//! - The `{field}`, `{typel}` and `{formatl}` parameters match without regard to case.
//! - A path the spec does not list answers 404 `Not Found` (plain text, no authentication
//!   needed); a listed path with another method answers 405.

use super::auth;
use super::bodies::parse_id;
use super::errors::{Failure, text, with_type};
use super::front;
use super::iplist;
use super::shared::Shared;
use super::usage;
use super::wire;
use crate::api::model::{Credit, IpListFormat, IpListType, SortField};
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::middleware::from_fn_with_state;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Serialize;
use std::sync::Arc;

type Shr = State<Arc<Shared>>;
type Id = Result<Path<String>, PathRejection>;

pub fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/api/clients", get(clients))
        .route("/api/stats/{id}", get(stats))
        .route("/api/rate/{id}", get(rate))
        .route("/api/product/{pid}", get(product).post(order))
        .route("/api/products", get(products))
        .route("/api/products/orderby/{field}", get(products_ordered))
        .route("/api/networkstatus/errors/{id}", get(network_errors))
        .route("/api/networkstatus/inactive/{id}", get(network_inactive))
        .route("/api/billing/credit", get(credit))
        .route("/api/billing/invoices", get(invoices))
        .route("/api/billing/invoice/{id}", get(invoice))
        .route("/api/service/{id}", get(service).put(update_service))
        .route("/api/services", get(services))
        .route("/api/iplist/{typel}/{formatl}/{id}", get(ip_list))
        .route_layer(from_fn_with_state(
            shared.rate_limit.clone(),
            super::ratelimit::limit,
        ))
        .route_layer(from_fn_with_state(shared.auth.clone(), auth::require))
        // Not the API: the public-IP stub, without authentication.
        .route(
            "/myip",
            get(super::myip::get)
                .put(super::myip::put)
                .with_state(shared.public_ip.clone()),
        )
        .fallback(not_found)
        .layer(from_fn_with_state(shared.clone(), front::handle))
        .with_state(shared)
}

fn json<T: Serialize>(value: &T) -> Response {
    match serde_json::to_vec(value) {
        Ok(bytes) => with_type(StatusCode::OK, bytes, "application/json"),
        Err(_) => text(StatusCode::INTERNAL_SERVER_ERROR, "Internal Server Error"),
    }
}

fn reply<T: Serialize>(result: Result<T, Failure>) -> Response {
    match result {
        Ok(value) => json(&value),
        Err(failure) => failure.into_response(),
    }
}

fn id(path: Id) -> Option<u64> {
    path.ok().and_then(|Path(s)| parse_id(&s))
}

async fn not_found() -> Response {
    text(StatusCode::NOT_FOUND, "Not Found")
}

async fn clients(State(shared): Shr) -> Response {
    let store = shared.store();
    json(&store.clients.iter().map(wire::client).collect::<Vec<_>>())
}

async fn stats(State(shared): Shr, path: Id) -> Response {
    let store = shared.store();
    let today = shared.now().date_naive();
    reply(store.ppr_service(id(path)).map(|s| usage::stats(s, today)))
}

async fn rate(State(shared): Shr, path: Id) -> Response {
    let store = shared.store();
    let today = shared.now().date_naive();
    reply(store.ppr_service(id(path)).map(|s| [usage::rate(s, today)]))
}

async fn product(State(shared): Shr, path: Id) -> Response {
    let store = shared.store();
    let found = match id(path) {
        None => Err(Failure::Generic),
        Some(pid) => store
            .product(pid)
            .map(|p| wire::product(p, store.group(p.group_id)))
            .ok_or(Failure::ProductNotFound),
    };
    reply(found)
}

async fn order(State(shared): Shr, path: Id, body: Bytes) -> Response {
    let mut store = shared.store();
    reply(store.order(id(path), &body, shared.now()))
}

async fn products(State(shared): Shr) -> Response {
    let store = shared.store();
    let list: Vec<_> = store
        .products
        .iter()
        .map(|p| wire::product_summary(p, store.group(p.group_id)))
        .collect();
    json(&list)
}

async fn products_ordered(State(shared): Shr, path: Id) -> Response {
    let store = shared.store();
    let field = path.map_or(SortField::Other("".into()), |Path(f)| SortField::parse(&f));
    let sorted = store
        .products_by(&field)
        .ok_or(Failure::Generic)
        .map(|list| {
            list.into_iter()
                .map(|p| wire::product_summary(p, store.group(p.group_id)))
                .collect::<Vec<_>>()
        });
    reply(sorted)
}

async fn network_errors(State(shared): Shr, path: Id) -> Response {
    network(&shared, path, |s| &s.network_errors)
}

async fn network_inactive(State(shared): Shr, path: Id) -> Response {
    network(&shared, path, |s| &s.network_inactive)
}

fn network(
    shared: &Shared,
    path: Id,
    which: fn(&super::records::ServiceRec) -> &Vec<u32>,
) -> Response {
    let store = shared.store();
    reply(store.owned_service(id(path)).map(|s| {
        which(s)
            .iter()
            .filter_map(|i| iplist::host(s, shared.farm.get(), *i))
            .map(|ip| ip.to_string())
            .collect::<Vec<_>>()
    }))
}

async fn credit(State(shared): Shr) -> Response {
    let store = shared.store();
    json(&Credit {
        credit: super::records::dollars(store.credit_cents),
    })
}

async fn invoices(State(shared): Shr) -> Response {
    let store = shared.store();
    json(&store.invoices.iter().map(wire::invoice).collect::<Vec<_>>())
}

async fn invoice(State(shared): Shr, path: Id) -> Response {
    let store = shared.store();
    reply(
        id(path)
            .and_then(|i| store.invoice(i))
            .map(|i| [wire::invoice(i)])
            .ok_or(Failure::Generic),
    )
}

async fn service(State(shared): Shr, path: Id) -> Response {
    let store = shared.store();
    reply(store.known_service(id(path)).map(wire::service))
}

async fn services(State(shared): Shr) -> Response {
    let store = shared.store();
    json(
        &store
            .services
            .iter()
            .map(wire::service_summary)
            .collect::<Vec<_>>(),
    )
}

async fn update_service(State(shared): Shr, path: Id, body: Bytes) -> Response {
    let mut store = shared.store();
    reply(store.update(id(path), &body, shared.now(), shared.throttle))
}

async fn ip_list(
    State(shared): Shr,
    path: Result<Path<(String, String, String)>, PathRejection>,
) -> Response {
    let Ok(Path((typel, formatl, service_id))) = path else {
        return Failure::Generic.into_response();
    };
    let list_type = IpListType::parse(&typel);
    let format = IpListFormat::parse(&formatl);
    let (plan, quirks) = {
        let store = shared.store();
        let plan = store
            .known_service(parse_id(&service_id))
            .ok()
            .and_then(|s| iplist::plan(s, shared.farm.get(), &list_type));
        (plan, store.quirks)
    };
    match plan.and_then(|plan| iplist::render(&plan, &format, quirks)) {
        Some(body) => with_type(StatusCode::OK, body, iplist::content_type(&format)),
        None => Failure::Generic.into_response(),
    }
}
