//! The fault matrix: every endpoint the dashboard reads at start-up and on refresh, under
//! every fault the sandbox injects, driven headless through the real App, fetcher and
//! views. For each combination: load good data, turn the fault on for that endpoint's
//! path, refresh, and check that the session runs on, the pane keeps its last good data
//! marked stale, the status line names the request in one line, GETs were retried a
//! bounded number of times, and the next auto-refresh after the fault stops recovers.
//!
//! Failures are counted, not stopped at: the test prints how many combinations ran and
//! which failed, then asserts none did.

mod support;

// The client alone under faults, and faults from a raw TCP server: `tests/faults/`.
#[path = "faults/client.rs"]
mod client;
#[path = "faults/raw.rs"]
mod raw;

use futures::{FutureExt, StreamExt};
use proxydash::app::App;
use proxydash::app::remote::Remote;
use proxydash::headless::Session;
use proxydash::sandbox::{FaultKind, FaultSpec};
use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::time::{Duration, Instant};
use support::Key::{self, C, Enter, Esc};

/// The request timeout of the test client: short, so `hang` and `slow` finish quickly.
const TIMEOUT: Duration = Duration::from_secs(2);
/// How long `slow` holds its answer: longer than the timeout, so it times out.
const SLOW_MS: u64 = 3000;
/// Auto-refresh interval of the sessions (the recovery comes from it).
const REFRESH: Duration = Duration::from_secs(1);
/// Combinations run at once.
const CONCURRENCY: usize = 10;

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
    /// Its `Remote`, as (has a value, has an error).
    remote: fn(&App) -> (bool, bool),
}

const TODAY: &str = "today";

fn state<T>(r: &Remote<T>) -> (bool, bool) {
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
            remote: |a| state(&a.services().list),
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
            remote: |a| state(&a.products().list),
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
            remote: |a| state(&a.billing().credit),
        },
        Endpoint {
            name: "invoices",
            path: "/api/billing/invoices",
            open: &[C('3')],
            refresh: &[C('r')],
            names: "Invoices: ",
            shown: "Add Funds",
            remote: |a| state(&a.billing().invoices),
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
            remote: |a| a.network().errors.get(&1001).map_or((false, false), state),
        },
        Endpoint {
            name: "network inactive",
            path: "/api/networkstatus/inactive/",
            open: &[C('4')],
            refresh: &[C('r')],
            names: "Inactive servers of service ",
            shown: "○ inactive",
            remote: |a| {
                a.network()
                    .inactive
                    .get(&1001)
                    .map_or((false, false), state)
            },
        },
        Endpoint {
            name: "stats",
            path: "/api/stats/",
            open: &[C('5')],
            refresh: &[C('r')],
            names: "Usage of service ",
            // The chart's last x label is today.
            shown: TODAY,
            remote: |a| state(a.usage().stats_of(1003)),
        },
        Endpoint {
            name: "rate",
            path: "/api/rate/",
            open: &[C('5')],
            refresh: &[C('r')],
            names: "Rate of service ",
            shown: "over limit by",
            remote: |a| state(a.usage().rate_of(1003)),
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

/// What one combination measured.
struct Outcome {
    fault_phase: Duration,
}

async fn combination(e: &Endpoint, kind: FaultKind, seed: &Path) -> Result<Outcome, String> {
    let sb = support::sandbox(Some(seed.to_path_buf())).await;
    let mut s = support::session(&sb, TIMEOUT, Some(REFRESH), (120, 40));
    support::wait_idle(&mut s, Duration::from_secs(15)).await;
    support::press(&mut s, e.open);
    support::wait_idle(&mut s, Duration::from_secs(15)).await;
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
        keys_answer_while_waiting(&mut s)?;
    }
    let fault_phase = support::wait_idle(&mut s, TIMEOUT * 4 + Duration::from_secs(6)).await;
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
    if matches!(kind, FaultKind::Hang | FaultKind::Slow)
        && fault_phase > TIMEOUT + Duration::from_secs(1)
    {
        problems.push(format!(
            "no answer took {fault_phase:?} to show (timeout {TIMEOUT:?})"
        ));
    }
    if kind == FaultKind::Unavailable503 && fault_phase < Duration::from_secs(2) {
        problems.push(format!(
            "503 with Retry-After: 1 failed after {fault_phase:?}: the two retries did not wait 1 s each"
        ));
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

    // The fault stops: the next auto-refresh recovers by itself.
    sb.set_faults(None);
    for _ in 0..3 {
        if !support::tick(&mut s).await {
            return Err("no auto-refresh is scheduled".into());
        }
        support::wait_idle(&mut s, Duration::from_secs(15)).await;
        let screen = s.screen();
        if (e.remote)(&s.app) == (true, false)
            && !screen.contains("stale")
            && s.app.status().current().is_none()
        {
            return Ok(Outcome { fault_phase });
        }
    }
    let screen = s.screen();
    Err(format!(
        "did not recover: {:?}, status {:?}\n{screen}",
        (e.remote)(&s.app),
        s.app.status().current(),
    ))
}

/// While a request hangs, keys still change the screen at once.
fn keys_answer_while_waiting(s: &mut Session) -> Result<(), String> {
    if s.app.in_flight() == 0 {
        return Err("the refresh sent nothing".into());
    }
    let before = s.screen();
    let t = Instant::now();
    support::press(s, &[C('?')]);
    let help = s.screen();
    support::press(s, &[C('?')]);
    let after = s.screen();
    if help == before || !help.contains("Keys") || after.contains("Keys ·") {
        return Err(format!("`?` did not open and close the help:\n{help}"));
    }
    if t.elapsed() > Duration::from_millis(500) {
        return Err(format!("two keys took {:?}", t.elapsed()));
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_endpoint_survives_every_fault_and_recovers() {
    let seed = support::clean_seed();
    let endpoints = endpoints();
    let combos: Vec<(&Endpoint, FaultKind)> = endpoints
        .iter()
        .flat_map(|e| FaultKind::ALL.into_iter().map(move |k| (e, k)))
        .collect();
    let started = Instant::now();
    let results: Vec<(String, Result<Outcome, String>)> =
        futures::stream::iter(combos.iter().map(|(e, kind)| {
            let seed = &seed;
            async move {
                let label = format!("{} × {kind}", e.name);
                let result = AssertUnwindSafe(combination(e, *kind, seed))
                    .catch_unwind()
                    .await
                    .unwrap_or_else(|panic| {
                        let why = panic
                            .downcast_ref::<String>()
                            .cloned()
                            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                            .unwrap_or_default();
                        Err(format!("panicked: {why}"))
                    });
                (label, result)
            }
        }))
        .buffer_unordered(CONCURRENCY)
        .collect()
        .await;
    let failures: Vec<_> = results.iter().filter(|(_, r)| r.is_err()).collect();
    let slowest = results
        .iter()
        .filter_map(|(l, r)| r.as_ref().ok().map(|o| (o.fault_phase, l)))
        .max();
    println!(
        "fault matrix: {} combinations ({} endpoints × {} faults), {} failures, {:.1} s; slowest fault phase: {:?}",
        results.len(),
        endpoints.len(),
        FaultKind::ALL.len(),
        failures.len(),
        started.elapsed().as_secs_f64(),
        slowest,
    );
    for (label, result) in &failures {
        println!("FAILED {label}: {}", result.as_ref().err().unwrap());
    }
    assert_eq!(results.len(), endpoints.len() * FaultKind::ALL.len());
    assert!(
        failures.is_empty(),
        "{} of {} combinations failed",
        failures.len(),
        results.len()
    );
}
