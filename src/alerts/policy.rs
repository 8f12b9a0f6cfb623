//! The one severity table: for each built-in rule and level, the Prometheus alert that
//! says the same over `/metrics`, with the same condition, level and wait. The shipped
//! rules (`assets/watch/proxydash-alerts.yml`) are this table written out for the default
//! thresholds ([`prometheus_yaml`]; `proxydash alerts rules` writes it for a profile's
//! own, and `tests/assets.rs` fails when the shipped file is not what it writes).
//!
//! - **Levels** map to Alertmanager's usual severities: `critical`, `warn` → `warning`,
//!   `info`.
//! - **Waits**: a record (a status, a due date, an invoice) and a state (the connection,
//!   a kind of data failing) open at once (`for: 0m`), as the built-in rules do; a
//!   measurement must be seen `debounce` sweeps in a row, one `refresh` apart, so its
//!   `for` is `(debounce − 1) × refresh`; the probe's rounds (`proxies_dead`) are counted
//!   per round, so theirs is `(debounce − 1) × probe_every`.
//! - **Restarts change nothing**: every rule over proxydash's series keeps firing for
//!   [`KEEP_FIRING_FOR`] after its series stop (`keep_firing_for`, Prometheus 2.42 or
//!   later), so the scrape gap of a restarted `watch` resolves nothing;
//!   `ProxydashWatchDown` fires meanwhile if the gap lasts (within two minutes at the
//!   shipped scrape and evaluation intervals).
//! - **Bands**: a rule with several levels has one alert per level over disjoint ranges
//!   (PromQL's chained comparisons filter), so a service due tomorrow is one critical
//!   alert, not also a warning and an info.
//! - **Days** are counted as the built-in rules count them: the due-date and runway
//!   series count seconds to the start of the day in the watching machine's time zone,
//!   so `<= 86400` is "by tomorrow" exactly.
//! - Two rules are Prometheus's own, with no built-in twin: `ProxydashWatchDown` (the
//!   scrape fails: `watch` cannot say it is down) and `ProxydashDataStale` (the budget
//!   too small to keep the data fresh, which no built-in rule watches).
//! - Not here: the ending of a service (an info notice of `watch` and the dashboard, not
//!   a state an alert could hold) and the built-in rules' acknowledgements and silences
//!   (Alertmanager has its own silences).

use super::{Level, Rule, Rules};
use std::fmt::Write;
use std::time::Duration;

/// How long a rule keeps firing after its series stop (a restart's scrape gap).
pub const KEEP_FIRING_FOR: &str = "5m";

/// One Prometheus alerting rule.
#[derive(Clone, Debug, PartialEq)]
pub struct PromRule {
    pub alert: &'static str,
    /// The built-in rule and level it says the same as; `None`: Prometheus's own.
    pub built_in: Option<(Rule, Level)>,
    pub expr: String,
    /// `for`, in Prometheus's duration syntax.
    pub wait: String,
    pub keep_firing: bool,
    pub summary: String,
    pub description: Option<String>,
}

/// Alertmanager's word for a level.
pub fn severity(level: Level) -> &'static str {
    match level {
        Level::Critical => "critical",
        Level::Warn => "warning",
        Level::Info => "info",
    }
}

const DAY: u64 = 86_400;

/// The table for `rules` at `refresh` (the sweeps' distance) and `probe_every` (the probe
/// rounds' distance, `watch --probe-every`).
pub fn prometheus_rules(rules: &Rules, refresh: Duration, probe_every: Duration) -> Vec<PromRule> {
    let sightings = |every: Duration| {
        format!(
            "{}s",
            u64::from(rules.debounce.saturating_sub(1)) * every.as_secs()
        )
    };
    let measured = sightings(refresh);
    let rounds = sightings(probe_every);
    let now = || "0m".to_owned();
    let rule = |alert, built_in: Option<(Rule, Level)>, expr: String, wait: String| PromRule {
        alert,
        built_in,
        expr,
        wait,
        keep_firing: true,
        summary: String::new(),
        description: None,
    };
    let unreachable = super::evaluate::UNREACHABLE_AFTER.num_seconds();
    let active = "and on (profile, service) proxydash_service_up{status=\"Active\"}";
    let due_days = u64::from(rules.due_days).max(3) * DAY;
    let renewal = u64::from(rules.renewal_days).max(1) * DAY;
    let share = rules.error_percent / 100.0;
    let rate = rules.rate_percent / 100.0;
    let errors = "proxydash_service_servers{state=\"error\"}";
    let over_share = format!("{errors} / ignoring (state) proxydash_service_proxies > {share}");
    let mut out = vec![
        PromRule {
            summary: "The API of {{ $labels.profile }} is not answering".into(),
            description: Some("No answer from the reseller API of profile {{ $labels.profile }} for {{ $value | humanizeDuration }}; what proxydash shows of it is getting old.".into()),
            ..rule("ProxydashApiUnreachable", Some((Rule::ApiUnreachable, Level::Critical)),
                format!("proxydash_api_down_seconds{{state=\"unreachable\"}} >= {unreachable}"), now())
        },
        PromRule {
            summary: "The API of {{ $labels.profile }} answers only with errors".into(),
            description: Some("The reseller API of profile {{ $labels.profile }} has answered nothing of use (no success, no error the API documents) for {{ $value | humanizeDuration }}.".into()),
            ..rule("ProxydashApiFailing", Some((Rule::ApiFailing, Level::Critical)),
                format!("proxydash_api_down_seconds{{state=\"failing\"}} >= {unreachable}"), now())
        },
        PromRule {
            summary: "The API of {{ $labels.profile }} rejects its credentials".into(),
            description: Some("For {{ $value | humanizeDuration }}: check the token (`proxydash doctor --profile {{ $labels.profile }}`). proxydash asks again only every few minutes meanwhile.".into()),
            ..rule("ProxydashApiUnauthorized", Some((Rule::ApiUnauthorized, Level::Critical)),
                "proxydash_api_down_seconds{state=\"unauthorized\"} >= 0".into(), now())
        },
        PromRule {
            summary: "The {{ $labels.kind }} of {{ $labels.profile }} keep failing".into(),
            description: Some("For {{ $value | humanizeDuration }}, while the API answers other reads: that endpoint is down alone.".into()),
            ..rule("ProxydashDataFailing", Some((Rule::DatumFailing, Level::Warn)),
                "proxydash_datum_failing_seconds >= 0".into(), now())
        },
        PromRule {
            summary: "Service {{ $labels.service }} ({{ $labels.product }}) of {{ $labels.profile }} is Suspended".into(),
            ..rule("ProxydashServiceSuspended", Some((Rule::ServiceStatus, Level::Critical)),
                "proxydash_service_up{status=\"Suspended\"} == 0".into(), now())
        },
        PromRule {
            summary: "Service {{ $labels.service }} of {{ $labels.profile }} {{ if gt $value 0.0 }}is due tomorrow{{ else if gt $value -86400.0 }}is due today{{ else }}was due {{ reReplaceAll \"^-\" \"\" (humanizeDuration $value) }} ago{{ end }}".into(),
            ..rule("ProxydashServiceDueNow", Some((Rule::ServiceDue, Level::Critical)),
                format!("proxydash_service_due_seconds <= {DAY} {active}"), now())
        },
        PromRule {
            summary: "Service {{ $labels.service }} of {{ $labels.profile }} is due in {{ $value | humanizeDuration }}".into(),
            ..rule("ProxydashServiceDueSoon", Some((Rule::ServiceDue, Level::Warn)),
                format!("proxydash_service_due_seconds > {DAY} <= {} {active}", 3 * DAY), now())
        },
        PromRule {
            summary: "Service {{ $labels.service }} of {{ $labels.profile }} is due in {{ $value | humanizeDuration }}".into(),
            ..rule("ProxydashServiceDue", Some((Rule::ServiceDue, Level::Info)),
                format!("proxydash_service_due_seconds > {} <= {due_days} {active}", 3 * DAY), now())
        },
        PromRule {
            summary: "The credit of {{ $labels.profile }} {{ if eq $value 0.0 }}does not cover what is owed today{{ else }}does not cover what is owed by tomorrow{{ end }}".into(),
            description: Some("Unpaid invoices and renewals at their schedule: `proxydash credit --profile {{ $labels.profile }}` lists them.".into()),
            ..rule("ProxydashCreditShort", Some((Rule::CreditLow, Level::Critical)),
                format!("proxydash_credit_runway_seconds <= {DAY}"), measured.clone())
        },
        PromRule {
            summary: "The credit of {{ $labels.profile }} runs short of what is owed in {{ $value | humanizeDuration }}".into(),
            description: Some("Unpaid invoices and renewals at their schedule: `proxydash credit --profile {{ $labels.profile }}` lists them.".into()),
            ..rule("ProxydashCreditLow", Some((Rule::CreditLow, Level::Warn)),
                format!("proxydash_credit_runway_seconds > {DAY} <= {renewal}"), measured.clone())
        },
        PromRule {
            summary: format!("More than {}% of the proxy servers of service {{{{ $labels.service }}}} ({{{{ $labels.profile }}}}) are in error: {{{{ $value | humanizePercentage }}}}", rules.error_percent),
            ..rule("ProxydashServersInErrorMost", Some((Rule::ServersInError, Level::Critical)),
                over_share.clone(), measured.clone())
        },
        PromRule {
            summary: "Proxy servers of service {{ $labels.service }} ({{ $labels.profile }}) in error: {{ $value }}".into(),
            ..rule("ProxydashServersInError", Some((Rule::ServersInError, Level::Warn)),
                format!("{errors} > 0 unless on (profile, service) ({over_share})"), measured.clone())
        },
        PromRule {
            summary: "Service {{ $labels.service }} ({{ $labels.profile }}) used {{ $value | humanizePercentage }} of its limit".into(),
            ..rule("ProxydashRotatingAtLimit", Some((Rule::RateLimit, Level::Critical)),
                "proxydash_ppr_rate_ratio >= 1".into(), measured.clone())
        },
        PromRule {
            summary: "Service {{ $labels.service }} ({{ $labels.profile }}) used {{ $value | humanizePercentage }} of its limit".into(),
            ..rule("ProxydashRotatingNearLimit", Some((Rule::RateLimit, Level::Warn)),
                format!("proxydash_ppr_rate_ratio >= {rate} < 1"), measured.clone())
        },
        PromRule {
            summary: "Service {{ $labels.service }} ({{ $labels.profile }}) reaches its limit in {{ $value | humanizeDuration }}, by its due date".into(),
            description: Some("At the average daily use of its last 7 days.".into()),
            ..rule("ProxydashRotatingForecast", Some((Rule::RateForecast, Level::Warn)),
                format!("proxydash_ppr_limit_reached_seconds < on (profile, service) (proxydash_service_due_seconds + {DAY})"), measured)
        },
        PromRule {
            summary: "Invoice {{ $labels.invoice }} of {{ $labels.profile }} ({{ $value }} USD) is unpaid".into(),
            ..rule("ProxydashInvoiceUnpaid", Some((Rule::UnpaidInvoice, Level::Warn)),
                "proxydash_invoice_unpaid_usd{status=\"Unpaid\"} >= 0".into(), now())
        },
        PromRule {
            summary: "Invoice {{ $labels.invoice }} of {{ $labels.profile }} ({{ $value }} USD) is in collections".into(),
            ..rule("ProxydashInvoiceInCollections", Some((Rule::UnpaidInvoice, Level::Critical)),
                "proxydash_invoice_unpaid_usd{status=\"Collections\"} >= 0".into(), now())
        },
        PromRule {
            summary: "None of the {{ $value }} proxies of service {{ $labels.service }} ({{ $labels.profile }}) that proxydash's probe checked is alive".into(),
            description: Some(probe_description()),
            ..rule("ProxydashProxiesAllDead", Some((Rule::ProxiesDead, Level::Critical)),
                "proxydash_probe_checked_proxies > 0 unless on (profile, service) proxydash_probe_alive_proxies > 0".into(), rounds.clone())
        },
        PromRule {
            summary: format!("Under {}% of the proxies of service {{{{ $labels.service }}}} ({{{{ $labels.profile }}}}) answer proxydash's probe: {{{{ $value | humanizePercentage }}}}", rules.probe_alive_percent),
            description: Some(probe_description()),
            ..rule("ProxydashProxiesDead", Some((Rule::ProxiesDead, Level::Warn)),
                format!("proxydash_probe_alive_proxies / proxydash_probe_checked_proxies < {} > 0", rules.probe_alive_percent / 100.0), rounds)
        },
        PromRule {
            summary: "The {{ $labels.kind }} of {{ $labels.profile }} are {{ $value | humanizeDuration }} old".into(),
            description: Some("The request budget is too small, or a failing endpoint keeps proxydash from reading them again.".into()),
            ..rule("ProxydashDataStale", None,
                "proxydash_oldest_datum_age_seconds > 3600".into(), "15m".into())
        },
        PromRule {
            summary: "proxydash watch at {{ $labels.instance }} is not answering scrapes".into(),
            description: Some("Its alerts and metrics are not seen meanwhile; the rules above keep firing for a few minutes, then resolve.".into()),
            keep_firing: false,
            ..rule("ProxydashWatchDown", None, "up{job=\"proxydash\"} == 0".into(), "1m".into())
        },
    ];
    out.retain(|r| r.built_in.is_none_or(|(rule, _)| rules.enabled(rule)));
    out
}

/// What the probe's alerts add: the reason most proxies died of, and how many of the dead
/// the provider's network status lists as fine (said only when some are), read by
/// queries of the same service's series.
fn probe_description() -> String {
    let series = "{profile='%s',service='%s'}";
    let args = "$labels.profile $labels.service";
    format!(
        "In the last rounds of `watch --probe-every`.\
         {{{{ with printf \"topk(1, proxydash_probe_dead_proxies{series})\" {args} | query }}}}\
         {{{{ with first . }}}} Most dead: {{{{ label \"reason\" . }}}}.{{{{ end }}}}{{{{ end }}}}\
         {{{{ with printf \"proxydash_probe_dead_provider_fine_proxies{series}\" {args} | query }}}}\
         {{{{ with first . | value }}}} The provider's network status lists {{{{ . }}}} of the dead as fine.\
         {{{{ end }}}}{{{{ end }}}}"
    )
}

/// A YAML single-quoted string (no escape but a doubled quote).
fn quoted(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// The rules file for `rules` at `refresh`, as Prometheus loads it (`rule_files:`).
pub fn prometheus_yaml(rules: &Rules, refresh: Duration, probe_every: Duration) -> String {
    let mut out = String::from(
        "# Prometheus alert rules over proxydash's metrics (`proxydash watch --metrics-listen`),\n\
         # written by `proxydash alerts rules` from the built-in rules' one severity table\n\
         # (src/alerts/policy.rs): the same conditions, levels and waits as the alerts `watch`\n\
         # and the dashboard raise themselves, for the default thresholds, a 30 s refresh\n\
         # and probe rounds every 5 minutes (`watch --probe-every 5m`).\n\
         # Do not edit: run `proxydash alerts rules > proxydash-alerts.yml` for your own\n\
         # thresholds. Load it with `rule_files:` (prometheus.yml beside it does);\n\
         # `promtool check rules` and `promtool test rules proxydash-alerts.test.yml` check it.\n\
         # `keep_firing_for` needs Prometheus 2.42 or later: a restarted `watch` resolves\n\
         # nothing.\n\
         groups:\n  - name: proxydash\n    rules:\n",
    );
    for r in prometheus_rules(rules, refresh, probe_every) {
        let level = match r.built_in {
            Some((rule, level)) => {
                format!(
                    "the built-in {} rule at level {}",
                    rule.as_str(),
                    level.as_str()
                )
            }
            None => "Prometheus's own: no built-in rule says it".into(),
        };
        let severity = r.built_in.map_or(
            if r.alert == "ProxydashWatchDown" {
                "critical"
            } else {
                "warning"
            },
            |(_, l)| severity(l),
        );
        let _ = writeln!(out, "      # {level}");
        let _ = writeln!(out, "      - alert: {}", r.alert);
        let _ = writeln!(out, "        expr: {}", quoted(&r.expr));
        let _ = writeln!(out, "        for: {}", r.wait);
        if r.keep_firing {
            let _ = writeln!(out, "        keep_firing_for: {KEEP_FIRING_FOR}");
        }
        let _ = writeln!(out, "        labels:");
        let _ = writeln!(out, "          severity: {severity}");
        if let Some((rule, _)) = r.built_in {
            let _ = writeln!(out, "          rule: {}", rule.as_str());
        }
        let _ = writeln!(out, "        annotations:");
        let _ = writeln!(out, "          summary: {}", quoted(&r.summary));
        if let Some(d) = &r.description {
            let _ = writeln!(out, "          description: {}", quoted(d));
        }
        out.push('\n');
    }
    out.pop();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `proxydash alerts rules` for a profile: the probe's share and the distance of its
    /// rounds (`probe_every`) make the twins' threshold and wait, as `debounce` rounds do.
    #[test]
    fn the_probe_twins_follow_the_profile_s_share_and_rounds() {
        let rules = Rules {
            probe_alive_percent: 30.0,
            debounce: 3,
            ..Rules::default()
        };
        let table = prometheus_rules(&rules, Duration::from_secs(60), Duration::from_secs(600));
        let twin = |level| {
            table
                .iter()
                .find(|r| r.built_in == Some((Rule::ProxiesDead, level)))
                .unwrap()
        };
        let warn = twin(Level::Warn);
        assert!(warn.expr.ends_with("< 0.3 > 0"), "{}", warn.expr);
        assert_eq!(warn.wait, "1200s", "two rounds after the first");
        assert!(warn.summary.starts_with("Under 30% "), "{}", warn.summary);
        assert_eq!(twin(Level::Critical).wait, "1200s");
        // The measurements keep the refresh's wait.
        let servers = table
            .iter()
            .find(|r| r.built_in == Some((Rule::ServersInError, Level::Warn)))
            .unwrap();
        assert_eq!(servers.wait, "120s");
    }
}
