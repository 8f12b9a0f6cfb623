//! Prometheus metrics of watched accounts (`watch --metrics-listen`): plain data published
//! by each profile's watcher ([`ProfileMetrics`], kept on a shared [`Board`]) and encoded
//! in the text exposition format by the `prometheus-client` crate on each scrape.
//!
//! Choices where the issue leaves room:
//! - **A fresh registry per scrape**: the series are built from the latest published
//!   data, so a service that left the list leaves the output with it (no stale series),
//!   and a scrape never waits on a watcher (the board is read under a short lock).
//! - **Label values** are server text made safe: control and bidi characters removed
//!   ([`crate::text::sanitize`]) and cut to [`LABEL_WIDTH`] characters; the encoder
//!   escapes `\`, `"` and newlines.
//! - `proxydash_service_up` is 1 for an `Active` service and 0 otherwise, with the status
//!   as a label; `proxydash_service_due_seconds` counts from now to the start of the due
//!   date (UTC midnight), negative when late, for live services only: an ended one
//!   (Terminated, Cancelled, Fraud) will not be renewed, and its date would flag it
//!   forever.
//! - `proxydash_credit_runway_seconds` is how long the credit covers the renewals at
//!   their schedule ([`crate::billing::runway`]): the seconds until the start of the day
//!   of the first renewal it cannot pay (0 when one due already cannot be paid); absent
//!   while the credit covers every renewal of the horizon, or nothing is known.
//! - `proxydash_api_requests_total` counts answers by endpoint (the spec's path with its
//!   parameters as `{id}`) and status: the HTTP status, or `timeout`, `connect`,
//!   `transport`, `refused` when none came. A 429 of a GET is not counted: the scheduler
//!   pauses and sends it again, and the answer that comes is counted.
//! - `proxydash_api_up` is 1 while the account's API works (online, or throttled by
//!   it), 0 while no answer comes (unreachable) or only answers of no use do (failing:
//!   a 500 to everything; the spec's documented errors, such as a service's permanent
//!   `ClientID not found`, are answers of use); `proxydash_api_down_seconds{state}` is
//!   there only while it is down, the seconds since, so a rule's text can say how long
//!   without hard-coding a duration; `proxydash_api_last_success_timestamp_seconds` is the
//!   last successful answer; `proxydash_oldest_datum_age_seconds{kind}` is the age of the
//!   oldest watched datum of each kind, the figure the freshness rules bound.
//! - `proxydash_alert_open` is 1 per open alert, with `acknowledged` and `silenced`
//!   labels (`true`/`false`) as the engine applies them: a silenced alert is not
//!   delivered, but is still listed here so a scrape shows it is silenced, not gone.
//! - `proxydash_invoice_unpaid_usd` and `proxydash_invoice_unpaid_age_seconds` list each
//!   invoice not paid (`Unpaid`, or in `Collections`), its status as a label: the API
//!   gives an invoice no due date, so "overdue" is an age an alert rule chooses.
//!   `Payment Pending` and `Pending` invoices are left out on purpose: a payment is on
//!   its way (or the invoice is not yet due for payment), nothing is asked of the
//!   operator, and the built-in `unpaid_invoice` rule raises nothing for them either.
//! - `proxydash_records_skipped{kind}` is how many records of a list read (`invoices`,
//!   `products`) could not be read and were left out of it (0 when it read whole; absent
//!   before it was read): a figure worked out from the list is incomplete while it is
//!   above 0.
//! - The probe's rounds (`watch --probe-every`) are series per service, never per proxy
//!   ([`probes`]).
//! - Absent data gives no series: a service whose network status was never read has no
//!   `proxydash_service_servers`, rather than a 0 that would look healthy.

pub mod format;
mod probes;
pub mod server;
#[cfg(test)]
mod strict;

use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;
use std::collections::BTreeMap;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, RwLock};

pub use probes::ProbeMetrics;

/// Label values are cut to this many characters.
pub const LABEL_WIDTH: usize = 60;

/// What one watched profile knows, as last published by its watcher.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProfileMetrics {
    pub credit_usd: Option<f64>,
    pub services: Vec<ServiceMetrics>,
    /// Answers by (endpoint, status).
    pub requests: BTreeMap<(String, String), u64>,
    /// Requests the budget allows now.
    pub budget_remaining: Option<u32>,
    /// The API works (online or throttled); `None` before anything was asked.
    pub api_up: Option<bool>,
    /// While the API is down: `unreachable` or `failing`, and seconds since.
    pub api_down: Option<(String, i64)>,
    /// Seconds until the credit runs short of the next renewal (see
    /// [`crate::billing::runway`]); `None` when it covers every renewal known or nothing
    /// is known.
    pub runway_seconds: Option<i64>,
    /// When the API last answered with success (Unix seconds).
    pub last_success: Option<i64>,
    /// Age in seconds of the oldest datum of each watched kind, by kind.
    pub oldest: Vec<(String, i64)>,
    /// Each kind of data whose reads keep failing while the API answers others, with the
    /// seconds since.
    pub data_failing: Vec<(String, i64)>,
    /// The open alerts, as of the last sweep.
    pub alerts: Vec<AlertMetrics>,
    /// The invoices not paid (Unpaid, or in Collections).
    pub unpaid_invoices: Vec<InvoiceMetrics>,
    /// Records of each list read (`invoices`, `products`) that could not be read.
    pub records_skipped: Vec<(String, u64)>,
    /// What the probe's rounds found of each service they checked (`watch
    /// --probe-every`; see [`probes`]).
    pub probes: Vec<ProbeMetrics>,
}

/// One invoice not paid.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InvoiceMetrics {
    pub invoice_id: u64,
    /// `Unpaid` or `Collections`.
    pub status: String,
    pub amount_usd: f64,
    /// Seconds since it was created (its date, UTC midnight), when known.
    pub age_seconds: Option<i64>,
}

/// One open alert.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AlertMetrics {
    /// `service_status:1001` (what `proxydash alerts ack` takes).
    pub id: String,
    pub rule: String,
    pub subject: String,
    pub level: String,
    pub acknowledged: bool,
    pub silenced: bool,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ServiceMetrics {
    pub service_id: u64,
    pub product: String,
    pub status: String,
    pub errors: Option<usize>,
    pub inactive: Option<usize>,
    /// How many proxy servers it has (its detail's `ip_count`), when read.
    pub proxies: Option<u64>,
    /// rate / limit of a rotating service.
    pub rate_ratio: Option<f64>,
    pub due_seconds: Option<i64>,
    /// Seconds until a rotating service reaches its limit at its recent pace.
    pub limit_reached_seconds: Option<f64>,
}

/// Every watched profile's latest metrics, by profile name.
pub type Board = Arc<RwLock<BTreeMap<String, ProfileMetrics>>>;

type Labels = Vec<(&'static str, String)>;
type GaugeF = Gauge<f64, AtomicU64>;

fn profile_label(name: &str) -> (&'static str, String) {
    ("profile", label(name))
}

fn label(text: &str) -> String {
    crate::text::truncate(&crate::text::sanitize(text), LABEL_WIDTH).into_owned()
}

/// The exposition of every profile on `board`.
pub fn scrape(board: &Board) -> String {
    match board.read() {
        Ok(profiles) => encode_all(&profiles),
        Err(poisoned) => encode_all(&poisoned.into_inner()),
    }
}

/// The exposition of `profiles`, in the text format.
pub fn encode_all(profiles: &BTreeMap<String, ProfileMetrics>) -> String {
    let mut registry = Registry::default();
    let credit = Family::<Labels, GaugeF>::default();
    let up = Family::<Labels, GaugeF>::default();
    let servers = Family::<Labels, GaugeF>::default();
    let ratio = Family::<Labels, GaugeF>::default();
    let due = Family::<Labels, GaugeF>::default();
    let requests = Family::<Labels, Counter>::default();
    let budget = Family::<Labels, GaugeF>::default();
    let api_down = Family::<Labels, GaugeF>::default();
    let runway = Family::<Labels, GaugeF>::default();
    let api_up = Family::<Labels, GaugeF>::default();
    let last_success = Family::<Labels, GaugeF>::default();
    let oldest = Family::<Labels, GaugeF>::default();
    let alerts = Family::<Labels, GaugeF>::default();
    let unpaid = Family::<Labels, GaugeF>::default();
    let unpaid_age = Family::<Labels, GaugeF>::default();
    let data_failing = Family::<Labels, GaugeF>::default();
    let proxies = Family::<Labels, GaugeF>::default();
    let reached = Family::<Labels, GaugeF>::default();
    let skipped = Family::<Labels, GaugeF>::default();
    for (name, p) in profiles {
        for (kind, n) in &p.records_skipped {
            skipped
                .get_or_create(&vec![profile_label(name), ("kind", kind.clone())])
                .set(*n as f64);
        }
        for i in &p.unpaid_invoices {
            let labels = vec![
                profile_label(name),
                ("invoice", i.invoice_id.to_string()),
                ("status", label(&i.status)),
            ];
            unpaid.get_or_create(&labels).set(i.amount_usd);
            if let Some(age) = i.age_seconds {
                unpaid_age.get_or_create(&labels).set(age as f64);
            }
        }
        for a in &p.alerts {
            let yes_no = |b: bool| if b { "true" } else { "false" }.to_owned();
            alerts
                .get_or_create(&vec![
                    profile_label(name),
                    ("alert", label(&a.id)),
                    ("rule", a.rule.clone()),
                    ("subject", label(&a.subject)),
                    ("level", a.level.clone()),
                    ("acknowledged", yes_no(a.acknowledged)),
                    ("silenced", yes_no(a.silenced)),
                ])
                .set(1.0);
        }
        let profile = ("profile", label(name));
        if let Some(is_up) = p.api_up {
            api_up
                .get_or_create(&vec![profile.clone()])
                .set(if is_up { 1.0 } else { 0.0 });
        }
        if let Some(at) = p.last_success {
            last_success
                .get_or_create(&vec![profile.clone()])
                .set(at as f64);
        }
        for (kind, age) in &p.oldest {
            oldest
                .get_or_create(&vec![profile.clone(), ("kind", kind.clone())])
                .set(*age as f64);
        }
        for (kind, secs) in &p.data_failing {
            data_failing
                .get_or_create(&vec![profile.clone(), ("kind", kind.clone())])
                .set(*secs as f64);
        }
        if let Some((state, secs)) = &p.api_down {
            api_down
                .get_or_create(&vec![profile.clone(), ("state", state.clone())])
                .set(*secs as f64);
        }
        if let Some(secs) = p.runway_seconds {
            runway
                .get_or_create(&vec![profile.clone()])
                .set(secs as f64);
        }
        if let Some(c) = p.credit_usd {
            credit.get_or_create(&vec![profile.clone()]).set(c);
        }
        if let Some(left) = p.budget_remaining {
            budget
                .get_or_create(&vec![profile.clone()])
                .set(f64::from(left));
        }
        for ((endpoint, status), n) in &p.requests {
            requests
                .get_or_create(&vec![
                    profile.clone(),
                    ("endpoint", endpoint.clone()),
                    ("status", status.clone()),
                ])
                .inc_by(*n);
        }
        for s in &p.services {
            let service = ("service", s.service_id.to_string());
            let base = vec![profile.clone(), service];
            let mut labels = base.clone();
            labels.push(("product", label(&s.product)));
            labels.push(("status", label(&s.status)));
            let is_up = if s.status == "Active" { 1.0 } else { 0.0 };
            up.get_or_create(&labels).set(is_up);
            for (state, count) in [("error", s.errors), ("inactive", s.inactive)] {
                if let Some(n) = count {
                    let mut l = base.clone();
                    l.push(("state", state.to_owned()));
                    servers.get_or_create(&l).set(n as f64);
                }
            }
            if let Some(r) = s.rate_ratio {
                ratio.get_or_create(&base).set(r);
            }
            if let Some(d) = s.due_seconds {
                due.get_or_create(&base).set(d as f64);
            }
            if let Some(n) = s.proxies {
                proxies.get_or_create(&base).set(n as f64);
            }
            if let Some(secs) = s.limit_reached_seconds {
                reached.get_or_create(&base).set(secs);
            }
        }
    }
    registry.register("proxydash_credit_usd", "The account credit in USD", credit);
    registry.register(
        "proxydash_service_up",
        "1 when the service is Active, else 0 (its status is a label)",
        up,
    );
    registry.register(
        "proxydash_service_servers",
        "Proxy servers of the service in error or inactive, per the provider",
        servers,
    );
    registry.register(
        "proxydash_ppr_rate_ratio",
        "Usage of a rotating (ppr) service against its limit (rate / limit)",
        ratio,
    );
    registry.register(
        "proxydash_service_due_seconds",
        "Seconds until the start of the service's next due date in the watching machine's time zone (negative when late); live services only",
        due,
    );
    registry.register(
        "proxydash_api_requests",
        "Answers of the API by endpoint and status",
        requests,
    );
    registry.register(
        "proxydash_api_budget_remaining",
        "Requests the scheduler's budget allows now",
        budget,
    );
    registry.register(
        "proxydash_api_down_seconds",
        "While the account's API is down: seconds since it went unreachable (no answer), failing (answers, none of use) or unauthorized (credentials rejected), the state a label",
        api_down,
    );
    registry.register(
        "proxydash_credit_runway_seconds",
        "Seconds from now until the credit no longer covers the next renewal at the current schedule (absent while it covers everything known)",
        runway,
    );
    registry.register(
        "proxydash_api_up",
        "1 while the account's API works (online or throttled), 0 while it is unreachable, failing or rejects the credentials",
        api_up,
    );
    registry.register(
        "proxydash_api_last_success_timestamp_seconds",
        "When the account's API last answered a request with success (Unix time)",
        last_success,
    );
    registry.register(
        "proxydash_oldest_datum_age_seconds",
        "Age of the oldest datum of each watched kind (services, credit, invoices, network, rate), from the last answer that delivered it; absent while one never came",
        oldest,
    );
    registry.register(
        "proxydash_alert_open",
        "1 for each open alert, labelled with its level and whether it is acknowledged or silenced",
        alerts,
    );
    registry.register(
        "proxydash_invoice_unpaid_usd",
        "Amount of each invoice not paid (Unpaid or Collections), in USD",
        unpaid,
    );
    registry.register(
        "proxydash_invoice_unpaid_age_seconds",
        "Seconds since each invoice not paid was created",
        unpaid_age,
    );
    registry.register(
        "proxydash_datum_failing_seconds",
        "While one kind of data keeps failing and the API answers other reads: seconds since its reads began to fail (absent while they work)",
        data_failing,
    );
    registry.register(
        "proxydash_service_proxies",
        "How many proxy servers the service has (its detail's ip_count), once read",
        proxies,
    );
    registry.register(
        "proxydash_ppr_limit_reached_seconds",
        "Seconds until a rotating (ppr) service reaches its limit at the average daily use of its last 7 days (absent when it never will, or its statistics are not read)",
        reached,
    );
    registry.register(
        "proxydash_records_skipped",
        "Records of a list read (invoices, products) that could not be read and were left out of it",
        skipped,
    );
    probes::register(&mut registry, profiles);
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = encode(&mut out, &registry);
    out
}

#[cfg(test)]
mod tests;
