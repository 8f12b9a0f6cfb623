//! What a watcher reads off its engine's [`Summary`]: the metrics it publishes and the
//! summary line of a sweep. Read-only.

use crate::account::{Link, Summary};
use crate::api::{ApiError, InvoiceStatus, Request};
use crate::metrics::{InvoiceMetrics, ProfileMetrics, ServiceMetrics};
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

/// The engine's summary as metrics (the request counts and budget are the watcher's own).
pub fn metrics(summary: &Summary, now: DateTime<Utc>, into: &mut ProfileMetrics) {
    let snapshot = &summary.snapshot;
    into.credit_usd = snapshot.credit;
    into.api_up = match summary.connection.link {
        Link::Unknown => None,
        _ => Some(summary.connection.is_up()),
    };
    into.api_down = summary
        .connection
        .down()
        .map(|(state, since)| (state.to_owned(), (now - since).num_seconds().max(0)));
    into.last_success = summary.connection.last_success.map(|t| t.timestamp());
    // To the start of the day in the user's time zone, as the rules count days; only a
    // day that is known (an unknown input leaves the series out, issue 46.1).
    into.runway_seconds = summary
        .runway
        .as_ref()
        .and_then(|r| r.short_on())
        .map(|d| (snapshot.start_of(d) - now).num_seconds().max(0));
    into.records_skipped = (summary.skipped.iter())
        .map(|(kind, n)| ((*kind).to_owned(), *n as u64))
        .collect();
    into.data_failing = snapshot
        .data
        .iter()
        .flatten()
        .filter_map(|d| {
            let since = d.failing_since?;
            Some((
                d.kind.as_str().to_owned(),
                (now - since).num_seconds().max(0),
            ))
        })
        .collect();
    into.oldest = summary
        .oldest
        .iter()
        .filter_map(|(kind, age)| Some((kind.as_str().to_owned(), (*age)?)))
        .collect();
    into.services = snapshot
        .services
        .iter()
        .flatten()
        .map(|s| ServiceMetrics {
            service_id: s.id,
            product: s.product_name.clone(),
            status: s.status.as_str().to_owned(),
            // Ended is not a problem: an ended service's last measurements (never read
            // again) and its due date (it will not be renewed) would flag it forever.
            errors: s.errors.as_ref().map(Vec::len).filter(|_| !s.has_ended()),
            inactive: s.inactive.filter(|_| !s.has_ended()),
            proxies: s.servers.filter(|_| !s.has_ended()),
            rate_ratio: s
                .rate
                .filter(|(_, limit)| *limit > 0.0 && !s.has_ended())
                .map(|(rate, limit)| rate / limit),
            // To the start of the day in the user's time zone, as the rules count days.
            due_seconds: s
                .nextduedate
                .filter(|_| !s.has_ended())
                .map(|d| (snapshot.start_of(d) - now).num_seconds()),
            limit_reached_seconds: limit_reached(s),
        })
        .collect();
    into.probes = summary.probes.iter().map(|p| probe(p, now)).collect();
    into.unpaid_invoices = snapshot
        .invoices
        .iter()
        .flatten()
        .filter(|i| matches!(i.status, InvoiceStatus::Unpaid | InvoiceStatus::Collections))
        .map(|i| InvoiceMetrics {
            invoice_id: i.id,
            status: i.status.as_str().to_owned(),
            amount_usd: i.amount,
            age_seconds: i
                .created_at
                .and_then(|d| d.and_hms_opt(0, 0, 0))
                .map(|d| (now - d.and_utc()).num_seconds()),
        })
        .collect();
}

/// One service's probe rounds as metrics: every reason listed (0 when none died of it).
fn probe(p: &crate::account::ServiceProbe, now: DateTime<Utc>) -> crate::metrics::ProbeMetrics {
    use crate::probe::DeadReason;
    crate::metrics::ProbeMetrics {
        service_id: p.service_id,
        listed: p.listed as u64,
        checked: u64::from(p.checked),
        alive: u64::from(p.alive),
        dead: DeadReason::ALL
            .iter()
            .map(|r| (r.word(), u64::from(p.dead[r.index()])))
            .collect(),
        dead_provider_fine: p.dead_listed_fine.map(u64::from),
        round_age_seconds: (now - p.at).num_milliseconds().max(0) as f64 / 1000.0,
        latency_buckets: p.latencies.buckets(),
        latency_sum: p.latencies.sum,
        latency_count: p.latencies.count,
    }
}

/// Seconds from now until a live rotating service reaches its limit at the pace of its
/// last days ([`crate::alerts::forecast`], what `rate_forecast` reads); none when it is
/// already there, never will be, or its statistics are not read.
fn limit_reached(s: &crate::alerts::snapshot::ServiceFacts) -> Option<f64> {
    if s.has_ended() {
        return None;
    }
    let (rate, limit) = s.rate?;
    let p = crate::alerts::forecast::project(rate, limit, s.daily.as_deref()?)?;
    p.days_to_limit()
        .filter(|d| *d > 0.0 && d.is_finite())
        .map(|d| d * 86_400.0)
}

/// The open alerts as metrics, each labelled acknowledged and silenced as the engine
/// applies them (a silenced alert is listed, so a dashboard of dashboards sees it is
/// silenced rather than gone).
pub fn alerts(
    book: &crate::alerts::AlertBook,
    marks: &crate::alerts::marks::Marks,
    now: DateTime<Utc>,
    into: &mut ProfileMetrics,
) {
    into.alerts = book
        .open()
        .map(|a| crate::metrics::AlertMetrics {
            id: crate::alerts::marks::alert_id(&a.key),
            rule: a.key.rule.as_str().to_owned(),
            subject: a.key.subject.to_string(),
            level: a.level.as_str().to_owned(),
            acknowledged: marks.ack(&a.key).is_some(),
            silenced: marks.silence(&a.key, now).is_some(),
        })
        .collect();
}

/// One line saying what a sweep found; while the API does not answer, that instead, with
/// the age of what is known.
pub fn summary(
    profile: &str,
    summary: &Summary,
    m: &ProfileMetrics,
    open: usize,
    now: DateTime<Utc>,
) -> String {
    let credit = m
        .credit_usd
        .map_or("unknown".to_owned(), |c| format!("{c:.2} USD"));
    if summary.connection.down().is_some() {
        let utc = chrono::FixedOffset::east_opt(0).expect("zero offset");
        let data = match summary.connection.last_success {
            Some(at) => format!(
                "data shown is {} old (credit {credit} then)",
                crate::text::ago(now - at)
            ),
            None => "nothing known yet".into(),
        };
        return format!(
            "{profile}: the API is {}; {data}; {open} alerts open",
            summary.connection.describe(now, utc)
        );
    }
    let services = m.services.len();
    let active = m.services.iter().filter(|s| s.status == "Active").count();
    let in_error: usize = m.services.iter().filter_map(|s| s.errors).sum();
    // An ended service's network status is never read: not "not checked".
    let unchecked = summary
        .snapshot
        .services
        .iter()
        .flatten()
        .filter(|s| s.errors.is_none() && !s.network_answered && !s.has_ended())
        .count();
    let budget = m
        .budget_remaining
        .map_or(String::new(), |b| format!(", budget {b} left"));
    let failed = if summary.failing > 0 {
        format!(", {} requests failing", summary.failing)
    } else {
        String::new()
    };
    format!(
        "{profile}: sweep done: {services} services ({active} active, {unchecked} not checked), {in_error} servers in error, credit {credit}, {open} alerts open{budget}{failed}"
    )
}
