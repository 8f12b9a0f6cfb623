//! What a watcher reads off its [`App`]: the metrics it publishes and the summary line of
//! a sweep. Read-only: nothing here changes the app.

use crate::api::{ApiError, Request};
use crate::app::App;
use crate::app::probe::Stage;
use crate::metrics::{ProfileMetrics, ServiceMetrics};
use chrono::{DateTime, Utc};

/// The endpoint label: the spec's path pattern ([`Request::label`]), with the method in
/// front where one path has two (`PUT /api/service/{id}`, `POST /api/product/{pid}`).
pub fn endpoint(request: &Request) -> String {
    match request.method() {
        "GET" => request.label().to_owned(),
        method => format!("{method} {}", request.label()),
    }
}

/// The status label of an answer: the HTTP status, or why none came.
pub fn status(error: Option<&ApiError>) -> String {
    match error {
        None => "200".into(),
        Some(e) => match (e.status(), e) {
            (Some(code), _) => code.to_string(),
            (None, ApiError::Timeout { .. }) => "timeout".into(),
            (None, ApiError::Connect { .. }) => "connect".into(),
            (None, ApiError::Transport { .. }) => "transport".into(),
            (None, _) => "refused".into(),
        },
    }
}

/// The app's data as metrics (the request counts and budget are the watcher's own).
pub fn metrics(app: &App, now: DateTime<Utc>, into: &mut ProfileMetrics) {
    into.credit_usd = app.billing().credit.value().map(|c| c.credit);
    let network = app.network();
    let count = |map: &std::collections::HashMap<u64, crate::app::Remote<Vec<String>>>, id: u64| {
        map.get(&id).and_then(|r| r.value()).map(Vec::len)
    };
    into.services = app
        .services()
        .rows()
        .iter()
        .map(|s| {
            let id = s.service_id;
            let rate_ratio = app
                .usage()
                .rate_of(id)
                .value()
                .and_then(|r| r.first())
                .filter(|r| r.limit > 0.0)
                .map(|r| r.rate / r.limit);
            let due_seconds = s
                .nextduedate
                .and_then(|d| d.and_hms_opt(0, 0, 0))
                .map(|d| (d.and_utc() - now).num_seconds());
            let probe_alive_ratio = app.probes().get(id).and_then(|run| {
                let checked = run.checked();
                (run.stage == Stage::Done && checked > 0).then(|| {
                    let alive = run
                        .finished()
                        .iter()
                        .filter(|r| r.verdict.is_alive())
                        .count();
                    alive as f64 / checked as f64
                })
            });
            ServiceMetrics {
                service_id: id,
                product: s.product_name.clone(),
                status: s.status.as_str().to_owned(),
                errors: count(&network.errors, id),
                inactive: count(&network.inactive, id),
                rate_ratio,
                due_seconds,
                probe_alive_ratio,
            }
        })
        .collect();
}

/// One line saying what a sweep found.
/// `failed`: answers of the sweep that were failures.
pub fn summary(profile: &str, app: &App, m: &ProfileMetrics, failed: u64) -> String {
    let services = m.services.len();
    let active = m.services.iter().filter(|s| s.status == "Active").count();
    let in_error: usize = m.services.iter().filter_map(|s| s.errors).sum();
    let unchecked = m.services.iter().filter(|s| s.errors.is_none()).count();
    let credit = m
        .credit_usd
        .map_or("unknown".to_owned(), |c| format!("{c:.2} USD"));
    let open = app.alerts().book.open().count();
    let budget = m
        .budget_remaining
        .map_or(String::new(), |b| format!(", budget {b} left"));
    let failed = if failed > 0 {
        format!(", {failed} requests failing")
    } else {
        String::new()
    };
    format!(
        "{profile}: sweep done: {services} services ({active} active, {unchecked} not checked), {in_error} servers in error, credit {credit}, {open} alerts open{budget}{failed}"
    )
}
