//! The rules, as one pure function of the data: [`evaluate`].
//!
//! Levels (the README's "Alerts" table and [`super::policy`], which the shipped
//! Prometheus rules are generated from, say the same):
//! - `service_status`: Suspended is critical (the proxies stop). Ended is not a problem:
//!   a service Terminated, Cancelled or Fraud when first seen raises nothing, and one
//!   seen ending while watched is one info notice that needs no resolving
//!   ([`Observation::Ended`]). Pending (every fresh order for a while) and every other
//!   status are fine.
//! - `service_due` (Active services only): due within `due_days` is info, within 3 days a
//!   warning, today, tomorrow or overdue critical.
//! - `credit_low`: read off the money ahead ([`crate::billing::runway`], the same figure
//!   as `proxydash_credit_runway_seconds`): the credit runs short of what is owed
//!   (unpaid invoices and renewals at their schedule) within `renewal_days` is a
//!   warning, by tomorrow (or already today) critical. A money ahead not known (an input
//!   that could not be read) is not checked, never "covered".
//! - `servers_in_error`: any server in error is a warning; more than `error_percent` of
//!   the service's servers (when its detail said how many) is critical.
//! - `rate_limit`: at `rate_percent` of the limit a warning, at the limit critical; a
//!   limit of 0 is "unlimited" and never alerts.
//! - `rate_forecast`: at the pace of the last 7 days of use ([`super::forecast`], the
//!   Usage chart's projection too), the limit is reached before its due date ends (on it
//!   or before): a warning, counted from now (the same comparison as
//!   `proxydash_ppr_limit_reached_seconds < proxydash_service_due_seconds + 86400`). Its
//!   message counts the days rounded up and names the date the same way. No statistics
//!   read yet is no observation (not checked).
//! - **Ended services** (Terminated, Cancelled, Fraud) raise no usage or network alert
//!   (`rate_limit`, `rate_forecast`, `servers_in_error`): their usage and network status
//!   are never read again, and an open one resolves at once as "service ended"
//!   ([`Observation::Ended`]).
//! - `unpaid_invoice`: Unpaid is a warning, Collections critical.
//! - `api_failing`: answers, but none of use (no success, no answer the spec documents:
//!   a server answering 500 to everything) for [`UNREACHABLE_AFTER`] is critical, like
//!   `api_unreachable`; one alert for the account, whatever the endpoints.
//! - `api_unreachable`: no answer at all from the API for [`UNREACHABLE_AFTER`] is
//!   critical.
//! - `api_unauthorized`: the API rejects the credentials (401, or its credential
//!   errors): critical at once (nothing else can be read until the token is fixed).
//! - `proxies_dead` ([`probes`]): in proxydash's own probe rounds (`watch --probe-every`)
//!   fewer than `probe_alive_percent` of a service's checked proxies are alive: a
//!   warning; none alive: critical. Counted per round.
//! - `datum_failing`: one kind of data whose reads keep failing while the API answers
//!   others ([`crate::account::connection`] says when a kind is failing): a warning, one
//!   alert per kind.
//! - The connection and data-health rules wait their own time in the state they read, so
//!   the book opens and resolves them at the first sweep that sees them.

mod probes;
mod state;

use super::snapshot::{ServiceFacts, Snapshot};
use super::{AlertKey, Level, Observation, Rule, Rules, Subject};
use crate::api::{InvoiceStatus, ServiceStatus};
use crate::text::{count, counted, money, number};
use chrono::{DateTime, Utc};
use state::{api_failing, api_unauthorized, api_unreachable, datum_failing};

/// How long the API may give no answer at all before `api_unreachable` opens.
pub const UNREACHABLE_AFTER: chrono::Duration = chrono::Duration::seconds(60);

/// Everything `rules` find in `snapshot` at `now` (see the module docs for the levels).
pub fn evaluate(snapshot: &Snapshot, rules: &Rules, now: DateTime<Utc>) -> Vec<Observation> {
    // `now` is the evaluator's clock for rules that need a time of day; the date rules
    // count from the snapshot's local date, which the caller derived from the same clock.
    let mut out = Vec::new();
    let on = |r: Rule| rules.enabled(r);
    if on(Rule::ApiUnreachable) {
        out.push(api_unreachable(snapshot, now));
    }
    if on(Rule::ApiFailing) {
        out.push(api_failing(snapshot, now));
    }
    if on(Rule::ApiUnauthorized) {
        out.push(api_unauthorized(snapshot));
    }
    if on(Rule::DatumFailing) {
        out.extend(datum_failing(snapshot));
    }
    if let Some(services) = &snapshot.services {
        for s in services {
            if on(Rule::ServiceStatus) {
                out.push(service_status(s));
            }
            if on(Rule::ServiceDue) {
                out.push(service_due(s, snapshot, rules));
            }
            if on(Rule::ServersInError)
                && let Some(o) = servers_in_error(s, rules)
            {
                out.push(o);
            }
            if on(Rule::RateLimit)
                && let Some(o) = rate_limit(s, rules)
            {
                out.push(o);
            }
            if on(Rule::RateForecast)
                && let Some(o) = rate_forecast(s, snapshot, now)
            {
                out.push(o);
            }
            if on(Rule::ProxiesDead)
                && let Some(o) = probes::proxies_dead(s, rules)
            {
                out.push(o);
            }
        }
        if snapshot.probes_complete {
            out.push(Observation::Covered(Rule::ProxiesDead));
        }
        out.push(Observation::Covered(Rule::ServiceStatus));
        out.push(Observation::Covered(Rule::ServiceDue));
        // A service whose data has not arrived yet must not count as fine; an ended one's
        // network status is never read (its alert resolves as ended).
        if services
            .iter()
            .all(|s| s.errors.is_some() || s.network_answered || s.has_ended())
        {
            out.push(Observation::Covered(Rule::ServersInError));
        }
        if services.iter().all(|s| s.usage_known) {
            out.push(Observation::Covered(Rule::RateLimit));
            // The forecast reads the statistics too: covered only once every rotating
            // service that is still live has them.
            if services
                .iter()
                .all(|s| s.has_ended() || s.rate.is_none() || s.daily.is_some())
            {
                out.push(Observation::Covered(Rule::RateForecast));
            }
        }
    }
    if on(Rule::CreditLow)
        && let Some(ahead) = &snapshot.ahead
    {
        out.push(credit_low(ahead, snapshot, rules));
    }
    if on(Rule::UnpaidInvoice)
        && let Some(invoices) = &snapshot.invoices
    {
        for i in invoices {
            let key = AlertKey {
                rule: Rule::UnpaidInvoice,
                subject: Subject::Invoice(i.id),
            };
            let level = match i.status {
                InvoiceStatus::Unpaid => Level::Warn,
                InvoiceStatus::Collections => Level::Critical,
                _ => {
                    out.push(Observation::fine(key));
                    continue;
                }
            };
            let what = if i.description.trim().is_empty() {
                format!("Invoice {}", i.id)
            } else {
                format!("Invoice {} ({})", i.id, i.description)
            };
            let since = i
                .created_at
                .map(|d| format!(", since {d}"))
                .unwrap_or_default();
            let state = if level == Level::Critical {
                "is in collections"
            } else {
                "is unpaid"
            };
            let message = format!("{what} of {} {state}{since}", money(i.amount));
            out.push(Observation::problem(key, level, message));
        }
        out.push(Observation::Covered(Rule::UnpaidInvoice));
    }
    out
}

fn key(rule: Rule, s: &ServiceFacts) -> AlertKey {
    AlertKey {
        rule,
        subject: Subject::Service(s.id),
    }
}

fn service_status(s: &ServiceFacts) -> Observation {
    let k = key(Rule::ServiceStatus, s);
    if s.has_ended() {
        return Observation::Ended {
            key: k,
            message: format!("{} ended ({})", s.label(), s.status),
        };
    }
    match s.status {
        ServiceStatus::Suspended => {
            Observation::problem(k, Level::Critical, format!("{} is {}", s.label(), s.status))
        }
        _ => Observation::fine(k),
    }
}

/// Days from `snapshot.today` to the service's due date, if it has one.
fn days_left(s: &ServiceFacts, snapshot: &Snapshot) -> Option<i64> {
    s.nextduedate
        .map(|d| d.signed_duration_since(snapshot.today).num_days())
}

fn service_due(s: &ServiceFacts, snapshot: &Snapshot, rules: &Rules) -> Observation {
    let k = key(Rule::ServiceDue, s);
    let (ServiceStatus::Active, Some(days)) = (&s.status, days_left(s, snapshot)) else {
        return Observation::fine(k);
    };
    let level = match days {
        ..=1 => Level::Critical,
        2..=3 => Level::Warn,
        d if d <= i64::from(rules.due_days) => Level::Info,
        _ => return Observation::fine(k),
    };
    let when = match days {
        ..0 => format!("was due {} days ago", count(days.unsigned_abs())),
        0 => "is due today".to_owned(),
        1 => "is due tomorrow".to_owned(),
        d => format!("is due in {d} days"),
    };
    let due = s.nextduedate.map(|d| format!(" ({d})")).unwrap_or_default();
    Observation::problem(k, level, format!("{} {when}{due}", s.label()))
}

fn servers_in_error(s: &ServiceFacts, rules: &Rules) -> Option<Observation> {
    if let Some(o) = ended(Rule::ServersInError, s) {
        return Some(o);
    }
    let errors = s.errors.as_ref()?;
    let k = key(Rule::ServersInError, s);
    if errors.is_empty() {
        return Some(Observation::fine(k));
    }
    let n = errors.len() as u64;
    let (level, of) = match s.servers.filter(|t| *t > 0) {
        Some(total) => {
            let share = n as f64 * 100.0 / total as f64;
            let level = if share > rules.error_percent {
                Level::Critical
            } else {
                Level::Warn
            };
            (level, format!(" of {}", count(total)))
        }
        None => (Level::Warn, String::new()),
    };
    let mut shown: Vec<&str> = errors.iter().take(3).map(String::as_str).collect();
    if errors.len() > 3 {
        shown.push("…");
    }
    let servers = if n == 1 && of.is_empty() {
        "proxy server"
    } else {
        "proxy servers"
    };
    let message = format!(
        "{}: {}{of} {servers} in error ({})",
        s.label(),
        count(n),
        shown.join(", ")
    );
    Some(Observation::problem(k, level, message))
}

/// The use and the limit, when there is a finite, positive limit to speak of.
fn usage(s: &ServiceFacts) -> Option<(f64, f64)> {
    let (rate, limit) = s.rate?;
    (rate.is_finite() && limit.is_finite() && limit > 0.0).then_some((rate.max(0.0), limit))
}

/// An ended service's usage alert resolves, saying why; it raises none.
fn ended(rule: Rule, s: &ServiceFacts) -> Option<Observation> {
    s.has_ended().then(|| Observation::Ended {
        key: key(rule, s),
        message: format!("{}: service ended ({})", s.label(), s.status),
    })
}

fn rate_limit(s: &ServiceFacts, rules: &Rules) -> Option<Observation> {
    if let Some(o) = ended(Rule::RateLimit, s) {
        return Some(o);
    }
    s.rate?;
    let k = key(Rule::RateLimit, s);
    let Some((rate, limit)) = usage(s) else {
        return Some(Observation::fine(k));
    };
    let share = rate * 100.0 / limit;
    let level = if share >= 100.0 {
        Level::Critical
    } else if share >= rules.rate_percent {
        Level::Warn
    } else {
        return Some(Observation::fine(k));
    };
    let message = format!(
        "{}: {} of its limit of {} used ({}%)",
        s.label(),
        number(rate),
        number(limit),
        // Rounded as the Usage table rounds it (133.8 % is 134 % in both, issue 45).
        number(share.round())
    );
    Some(Observation::problem(k, level, message))
}

fn rate_forecast(s: &ServiceFacts, snapshot: &Snapshot, now: DateTime<Utc>) -> Option<Observation> {
    if let Some(o) = ended(Rule::RateForecast, s) {
        return Some(o);
    }
    s.rate?;
    // No statistics yet: not checked (they come hourly when nothing shows them), which
    // is not "fine".
    let daily = s.daily.as_deref()?;
    let k = key(Rule::RateForecast, s);
    let fine = Some(Observation::fine(k));
    let (Some((rate, limit)), Some(days)) = (usage(s), days_left(s, snapshot)) else {
        return fine;
    };
    let Some(projection) = super::forecast::project(rate, limit, daily) else {
        return fine;
    };
    // Already at the limit is `rate_limit`'s business; nothing is left to forecast.
    if rate >= limit || days <= 0 {
        return fine;
    }
    // Reached before its due date ends (on it, or before): the same comparison as the
    // shipped rule's (`proxydash_ppr_limit_reached_seconds < proxydash_service_due_seconds
    // + 86400`), counted from now.
    let due_ends_in = s
        .nextduedate
        .map(|d| (snapshot.start_of(d) - now).num_seconds() as f64 + 86_400.0);
    let Some(reached_in) = projection
        .days_to_limit()
        .filter(|d| due_ends_in.is_some_and(|end| d * 86_400.0 < end))
    else {
        return fine;
    };
    // The day it is reached and the days counted are one rounding (up: it is reached
    // during that day), so "in about 15 days" and the date never disagree.
    let in_days = reached_in.ceil().max(1.0);
    let when = match (s.nextduedate, projection.reached_on(snapshot.today)) {
        (Some(due), Some(on)) if on >= due => format!("on its due date {due}"),
        (Some(due), _) => format!("before its due date {due}"),
        (None, _) => "before its due date".to_owned(),
    };
    let message = format!(
        "{}: at {} a day the limit of {} is reached in about {} {}, {when}",
        s.label(),
        number(projection.per_day.round()),
        number(limit),
        number(in_days),
        if in_days == 1.0 { "day" } else { "days" },
    );
    Some(Observation::problem(k, Level::Warn, message))
}

fn credit_low(ahead: &super::snapshot::Ahead, snapshot: &Snapshot, rules: &Rules) -> Observation {
    let k = AlertKey {
        rule: Rule::CreditLow,
        subject: Subject::Account,
    };
    let Some(short_on) = ahead.short_on else {
        return Observation::fine(k);
    };
    let days = short_on.signed_duration_since(snapshot.today).num_days();
    let level = match days {
        ..=1 => Level::Critical,
        d if d <= i64::from(rules.renewal_days) => Level::Warn,
        _ => return Observation::fine(k),
    };
    let when = match days {
        ..=0 => "what is owed today".to_owned(),
        1 => format!("what is owed by tomorrow ({short_on})"),
        _ => format!("what is owed by {short_on}"),
    };
    let when = if ahead.at_the_latest && days > 0 {
        format!("{when} at the latest (some amounts owed could not be read)")
    } else {
        when
    };
    let mut what = Vec::new();
    if ahead.invoices > 0 {
        let n = ahead.invoices as u64;
        what.push(counted(n, "unpaid invoice", "unpaid invoices"));
    }
    if ahead.renewals > 0 {
        what.push(counted(ahead.renewals as u64, "renewal", "renewals"));
    }
    let unknown = if ahead.unknown_prices > 0 {
        format!(
            "; {} more with no known price",
            count(ahead.unknown_prices as u64)
        )
    } else {
        String::new()
    };
    let message = format!(
        "Credit {} does not cover {when}: {} ({}){unknown}",
        money(ahead.credit),
        money(ahead.owed),
        what.join(" and ")
    );
    Observation::problem(k, level, message)
}
