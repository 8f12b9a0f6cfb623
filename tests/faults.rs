//! The fault matrix: every endpoint the dashboard reads at start-up and on refresh, under
//! every fault the sandbox injects, driven headless through the real App, fetcher and
//! views. For each combination: load good data, turn the fault on for that endpoint's
//! path, refresh, and check that the session runs on, the pane keeps its last good data
//! marked stale, the status line names the request in one line, GETs were retried a
//! bounded number of times, and the next auto-refresh after the fault stops recovers.
//!
//! One `#[test]` per combination, named `<fault>_on_<endpoint>` inside `mod matrix`, so
//! one runs alone: `cargo test faults::matrix::html_502_on_services`. Each runs on tokio's paused
//! clock (the app's clock follows it, see `support`): a `hang` or `slow` costs its timeout
//! in virtual time only, the refresh that recovers is reached by waiting on that clock,
//! and nothing is checked against the wall clock. How long the fault phase took is not
//! asserted here: the client's timeout and `Retry-After` are checked on the same paused
//! clock in `faults/client.rs` and `faults/raw.rs`.

use crate::support;

// The client alone under faults, and faults from a raw TCP server: `tests/faults/`.
#[path = "faults/client.rs"]
mod client;
#[path = "faults/raw.rs"]
mod raw;

use proxydash::app::Answer;
use proxydash::app::App;
use proxydash::headless::Session;
use proxydash::sandbox::{FaultKind, FaultSpec};
use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;
use support::Key::{self, C, Enter, Esc};

/// The request timeout of the test client: short, so `hang` and `slow` finish quickly.
const TIMEOUT: Duration = Duration::from_secs(2);
/// How long `slow` holds its answer: longer than the timeout, so it times out.
const SLOW_MS: u64 = 3000;
/// Auto-refresh interval of the sessions (the recovery comes from it).
const REFRESH: Duration = Duration::from_secs(1);
/// A bound on a hang of one phase (on the paused clock): not a timing check.
const HANG: Duration = Duration::from_secs(60);

/// One endpoint as the dashboard shows it.
struct Endpoint {
    name: &'static str,
    /// The fault's `path=` prefix: this endpoint only.
    path: &'static str,
    /// Keys that bring its pane on screen.
    open: &'static [Key],
    /// Keys that refresh it.
    refresh: &'static [Key],
    /// What the status line names (`status::what`).
    names: &'static str,
    /// Text of its good data that must stay on screen while it is stale ([`TODAY`]: the
    /// date of today).
    shown: &'static str,
    /// Its answer, as (has a value, has an error).
    remote: fn(&App) -> (bool, bool),
}

const TODAY: &str = "today";

fn state<T>(r: Answer<'_, T>) -> (bool, bool) {
    (r.value().is_some(), r.error().is_some())
}

fn endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint {
            name: "services",
            path: "/api/services",
            open: &[C('1')],
            refresh: &[C('r')],
            names: "Services: ",
            shown: "Suspended",
            remote: |a| state(a.services().list()),
        },
        Endpoint {
            name: "service detail",
            path: "/api/service/",
            open: &[C('1')],
            refresh: &[C('r')],
            names: "Service 10",
            shown: "pd1001ka",
            remote: |a| state(a.services().detail(1001)),
        },
        Endpoint {
            name: "products",
            path: "/api/products",
            open: &[C('2')],
            refresh: &[C('r')],
            names: "Products: ",
            shown: "Residential 50 GB",
            remote: |a| state(a.products().list()),
        },
        Endpoint {
            name: "product detail",
            path: "/api/product/",
            open: &[C('2')],
            refresh: &[C('r')],
            names: "Product 11: ",
            shown: "Ashburn/US",
            remote: |a| state(a.products().detail(11)),
        },
        Endpoint {
            name: "credit",
            path: "/api/billing/credit",
            open: &[C('3')],
            refresh: &[C('r')],
            names: "Credit: ",
            shown: "$250.00",
            remote: |a| state(a.billing().credit()),
        },
        Endpoint {
            name: "invoices",
            path: "/api/billing/invoices",
            open: &[C('3')],
            refresh: &[C('r')],
            names: "Invoices: ",
            shown: "Add Funds",
            remote: |a| state(a.billing().invoices()),
        },
        Endpoint {
            name: "invoice",
            path: "/api/billing/invoice/",
            open: &[C('3'), Enter],
            // `r` belongs to the tab, not the popup: reopening asks again.
            refresh: &[Esc, Enter],
            names: "Invoice 7001: ",
            shown: "Payment method Credit Balance",
            remote: |a| state(a.billing().invoice(7001)),
        },
        Endpoint {
            name: "network errors",
            path: "/api/networkstatus/errors/",
            open: &[C('4')],
            refresh: &[C('r')],
            names: "Servers in error of service ",
            shown: "✗ error",
            remote: |a| state(a.store().network_answer(1001, true)),
        },
        Endpoint {
            name: "network inactive",
            path: "/api/networkstatus/inactive/",
            open: &[C('4')],
            refresh: &[C('r')],
            names: "Inactive servers of service ",
            shown: "○ inactive",
            remote: |a| state(a.store().network_answer(1001, false)),
        },
        Endpoint {
            name: "stats",
            path: "/api/stats/",
            open: &[C('5')],
            refresh: &[C('r')],
            names: "Usage of service ",
            // The chart's last x label is today.
            shown: TODAY,
            remote: |a| state(a.store().stats_answer(1003)),
        },
        Endpoint {
            name: "rate",
            path: "/api/rate/",
            open: &[C('5')],
            refresh: &[C('r')],
            names: "Rate of service ",
            shown: "over limit by",
            remote: |a| state(a.store().rate_answer(1003)),
        },
    ]
}

/// Kinds a GET is retried on (three attempts in all); the others are tried once.
fn retried(kind: FaultKind) -> bool {
    matches!(
        kind,
        FaultKind::Html500
            | FaultKind::BadGateway502
            | FaultKind::Unavailable503
            | FaultKind::Drop
            | FaultKind::DropAfter
    )
}

async fn combination(e: &Endpoint, kind: FaultKind, seed: &Path) -> Result<(), String> {
    let sb = support::sandbox(Some(seed.to_path_buf())).await;
    let mut s = support::session(&sb, TIMEOUT, Some(REFRESH), (120, 40));
    support::wait_idle(&mut s, HANG).await;
    support::press(&mut s, e.open);
    support::wait_idle(&mut s, HANG).await;
    let shown = match e.shown {
        TODAY => chrono::Utc::now().format("%Y-%m-%d").to_string(),
        text => text.to_owned(),
    };

    // Good data first.
    let screen = s.screen();
    if (e.remote)(&s.app) != (true, false) || !screen.contains(&shown) || screen.contains("stale") {
        return Err(format!(
            "no good data to start from: {:?}\n{screen}",
            (e.remote)(&s.app)
        ));
    }
    if let Some((line, _)) = s.app.status().current() {
        return Err(format!("the status line is not clear at the start: {line}"));
    }

    // The fault, then a refresh.
    let spec: FaultSpec = format!("{kind},path={},slow-ms={SLOW_MS}", e.path)
        .parse()
        .map_err(|e| format!("{e}"))?;
    sb.clear_requests();
    sb.set_faults(Some(spec));
    support::press(&mut s, e.refresh);
    if matches!(kind, FaultKind::Hang | FaultKind::Slow) {
        // The engine sends what the key asked for, and says so.
        s.until("the refresh sent", |app| app.in_flight() > 0).await;
        keys_answer_while_waiting(&mut s)?;
    }
    let fault_phase = support::wait_idle(&mut s, HANG).await;
    if s.app.in_flight() > 0 {
        return Err(format!(
            "{} requests still in flight after {fault_phase:?}",
            s.app.in_flight()
        ));
    }
    let screen = s.screen();
    let mut problems = Vec::new();
    if (e.remote)(&s.app) != (true, true) {
        problems.push(format!(
            "the remote is not failed-with-last-good: {:?}",
            (e.remote)(&s.app)
        ));
    }
    if !screen.contains("stale") {
        problems.push("the screen does not say stale".into());
    }
    if !screen.contains(&shown) {
        problems.push(format!("the last good data ({shown:?}) left the screen"));
    }
    match s.app.status().current() {
        None => problems.push("the status line says nothing".into()),
        Some((line, _)) => {
            if !line.starts_with(e.names) {
                problems.push(format!(
                    "the status line does not name {:?}: {line}",
                    e.names
                ));
            }
            if line.contains('<') || line.contains('\n') || line.contains('\r') {
                problems.push(format!("the status line is not one clean line: {line:?}"));
            }
            let head: String = line.chars().take(40).collect();
            if !screen.contains(&format!("✗ {head}")) {
                problems.push(format!("the status line is not on screen: {head}"));
            }
        }
    }
    // Attempts per path under the fault: bounded, and exactly as the policy says.
    let mut attempts: HashMap<String, usize> = HashMap::new();
    for r in sb.requests().iter().filter(|r| r.path.starts_with(e.path)) {
        if r.method != "GET" {
            problems.push(format!("a {} was sent: {}", r.method, r.path));
        }
        *attempts.entry(r.path.clone()).or_default() += 1;
    }
    let expected = if retried(kind) { 3 } else { 1 };
    if attempts.is_empty() {
        problems.push("the refresh sent nothing to the faulty endpoint".into());
    }
    for (path, n) in &attempts {
        if *n != expected {
            problems.push(format!("{path}: {n} attempts, expected {expected}"));
        }
    }
    if !problems.is_empty() {
        return Err(format!("{}\n{screen}", problems.join("\n")));
    }

    // The fault stops: the engine asks a failed read again by itself, at the next refresh
    // no sooner than its retry floor (a failing endpoint is not hammered), or, after a
    // request that got no answer, at the ten-second check that runs from that failure.
    sb.set_faults(None);
    let wait =
        proxydash::account::freshness::RETRY_FLOOR.max(proxydash::account::planner::PROBE_EVERY);
    let ticks = wait.as_secs() / REFRESH.as_secs() + 3;
    for _ in 0..ticks {
        if !support::tick(&mut s).await {
            return Err("no auto-refresh is scheduled".into());
        }
        support::wait_idle(&mut s, HANG).await;
        let screen = s.screen();
        if (e.remote)(&s.app) == (true, false)
            && !screen.contains("stale")
            && s.app.status().current().is_none()
        {
            return Ok(());
        }
    }
    let screen = s.screen();
    Err(format!(
        "did not recover: {:?}, status {:?}\n{screen}",
        (e.remote)(&s.app),
        s.app.status().current(),
    ))
}

/// While a request hangs, keys still change the screen at once: `press` returns only
/// after the key was handled and drawn, and the request is still in flight afterwards, so
/// the keys were not held up by it.
fn keys_answer_while_waiting(s: &mut Session) -> Result<(), String> {
    if s.app.in_flight() == 0 {
        return Err("the refresh sent nothing".into());
    }
    let before = s.screen();
    support::press(s, &[C('?')]);
    let help = s.screen();
    support::press(s, &[C('?')]);
    let after = s.screen();
    if help == before || !help.contains("Keys") || after.contains("Keys ·") {
        return Err(format!("`?` did not open and close the help:\n{help}"));
    }
    if s.app.in_flight() == 0 {
        return Err("the request ended while the keys were handled".into());
    }
    Ok(())
}

/// Runs one combination; panics with what went wrong.
async fn run(endpoint: &str, kind: FaultKind) {
    let endpoints = endpoints();
    let e = endpoints
        .iter()
        .find(|e| e.name == endpoint)
        .unwrap_or_else(|| panic!("no endpoint {endpoint:?}"));
    let seed = support::clean_seed();
    if let Err(why) = combination(e, kind, &seed).await {
        panic!("{} × {kind}: {why}", e.name);
    }
}

macro_rules! matrix {
    ($($test:ident: $endpoint:literal, $kind:ident;)*) => {
        /// Every combination the tests below run, to check none is missing.
        const CASES: &[(&str, FaultKind)] = &[$(($endpoint, FaultKind::$kind)),*];
        $(
            #[tokio::test(start_paused = true)]
            async fn $test() {
                super::run($endpoint, FaultKind::$kind).await;
            }
        )*
    };
}

mod matrix {
    use super::*;

    #[test]
    fn the_matrix_has_every_fault_on_every_endpoint_once() {
        let mut cases = CASES.to_vec();
        cases.sort_by_key(|(e, k)| (*e, k.name()));
        cases.dedup();
        let endpoints = endpoints();
        assert_eq!(cases.len(), endpoints.len() * FaultKind::ALL.len());
        for e in &endpoints {
            for kind in FaultKind::ALL {
                assert!(
                    cases.contains(&(e.name, kind)),
                    "{} × {kind} is missing",
                    e.name
                );
            }
        }
    }

    matrix! {
        html_500_on_services: "services", Html500;
        html_502_on_services: "services", BadGateway502;
        html_503_on_services: "services", Unavailable503;
        truncated_on_services: "services", Truncated;
        wrong_shape_on_services: "services", WrongShape;
        empty_on_services: "services", Empty;
        drop_on_services: "services", Drop;
        drop_after_on_services: "services", DropAfter;
        slow_on_services: "services", Slow;
        hang_on_services: "services", Hang;
        html_500_on_service_detail: "service detail", Html500;
        html_502_on_service_detail: "service detail", BadGateway502;
        html_503_on_service_detail: "service detail", Unavailable503;
        truncated_on_service_detail: "service detail", Truncated;
        wrong_shape_on_service_detail: "service detail", WrongShape;
        empty_on_service_detail: "service detail", Empty;
        drop_on_service_detail: "service detail", Drop;
        drop_after_on_service_detail: "service detail", DropAfter;
        slow_on_service_detail: "service detail", Slow;
        hang_on_service_detail: "service detail", Hang;
        html_500_on_products: "products", Html500;
        html_502_on_products: "products", BadGateway502;
        html_503_on_products: "products", Unavailable503;
        truncated_on_products: "products", Truncated;
        wrong_shape_on_products: "products", WrongShape;
        empty_on_products: "products", Empty;
        drop_on_products: "products", Drop;
        drop_after_on_products: "products", DropAfter;
        slow_on_products: "products", Slow;
        hang_on_products: "products", Hang;
        html_500_on_product_detail: "product detail", Html500;
        html_502_on_product_detail: "product detail", BadGateway502;
        html_503_on_product_detail: "product detail", Unavailable503;
        truncated_on_product_detail: "product detail", Truncated;
        wrong_shape_on_product_detail: "product detail", WrongShape;
        empty_on_product_detail: "product detail", Empty;
        drop_on_product_detail: "product detail", Drop;
        drop_after_on_product_detail: "product detail", DropAfter;
        slow_on_product_detail: "product detail", Slow;
        hang_on_product_detail: "product detail", Hang;
        html_500_on_credit: "credit", Html500;
        html_502_on_credit: "credit", BadGateway502;
        html_503_on_credit: "credit", Unavailable503;
        truncated_on_credit: "credit", Truncated;
        wrong_shape_on_credit: "credit", WrongShape;
        empty_on_credit: "credit", Empty;
        drop_on_credit: "credit", Drop;
        drop_after_on_credit: "credit", DropAfter;
        slow_on_credit: "credit", Slow;
        hang_on_credit: "credit", Hang;
        html_500_on_invoices: "invoices", Html500;
        html_502_on_invoices: "invoices", BadGateway502;
        html_503_on_invoices: "invoices", Unavailable503;
        truncated_on_invoices: "invoices", Truncated;
        wrong_shape_on_invoices: "invoices", WrongShape;
        empty_on_invoices: "invoices", Empty;
        drop_on_invoices: "invoices", Drop;
        drop_after_on_invoices: "invoices", DropAfter;
        slow_on_invoices: "invoices", Slow;
        hang_on_invoices: "invoices", Hang;
        html_500_on_invoice: "invoice", Html500;
        html_502_on_invoice: "invoice", BadGateway502;
        html_503_on_invoice: "invoice", Unavailable503;
        truncated_on_invoice: "invoice", Truncated;
        wrong_shape_on_invoice: "invoice", WrongShape;
        empty_on_invoice: "invoice", Empty;
        drop_on_invoice: "invoice", Drop;
        drop_after_on_invoice: "invoice", DropAfter;
        slow_on_invoice: "invoice", Slow;
        hang_on_invoice: "invoice", Hang;
        html_500_on_network_errors: "network errors", Html500;
        html_502_on_network_errors: "network errors", BadGateway502;
        html_503_on_network_errors: "network errors", Unavailable503;
        truncated_on_network_errors: "network errors", Truncated;
        wrong_shape_on_network_errors: "network errors", WrongShape;
        empty_on_network_errors: "network errors", Empty;
        drop_on_network_errors: "network errors", Drop;
        drop_after_on_network_errors: "network errors", DropAfter;
        slow_on_network_errors: "network errors", Slow;
        hang_on_network_errors: "network errors", Hang;
        html_500_on_network_inactive: "network inactive", Html500;
        html_502_on_network_inactive: "network inactive", BadGateway502;
        html_503_on_network_inactive: "network inactive", Unavailable503;
        truncated_on_network_inactive: "network inactive", Truncated;
        wrong_shape_on_network_inactive: "network inactive", WrongShape;
        empty_on_network_inactive: "network inactive", Empty;
        drop_on_network_inactive: "network inactive", Drop;
        drop_after_on_network_inactive: "network inactive", DropAfter;
        slow_on_network_inactive: "network inactive", Slow;
        hang_on_network_inactive: "network inactive", Hang;
        html_500_on_stats: "stats", Html500;
        html_502_on_stats: "stats", BadGateway502;
        html_503_on_stats: "stats", Unavailable503;
        truncated_on_stats: "stats", Truncated;
        wrong_shape_on_stats: "stats", WrongShape;
        empty_on_stats: "stats", Empty;
        drop_on_stats: "stats", Drop;
        drop_after_on_stats: "stats", DropAfter;
        slow_on_stats: "stats", Slow;
        hang_on_stats: "stats", Hang;
        html_500_on_rate: "rate", Html500;
        html_502_on_rate: "rate", BadGateway502;
        html_503_on_rate: "rate", Unavailable503;
        truncated_on_rate: "rate", Truncated;
        wrong_shape_on_rate: "rate", WrongShape;
        empty_on_rate: "rate", Empty;
        drop_on_rate: "rate", Drop;
        drop_after_on_rate: "rate", DropAfter;
        slow_on_rate: "rate", Slow;
        hang_on_rate: "rate", Hang;
    }
}
