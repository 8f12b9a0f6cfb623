//! The monitoring files shipped in `assets/watch/` (issue 25): the Prometheus alert rules
//! and the Grafana dashboard name only metrics proxydash exports (taken from the
//! encoder's own output, so a renamed metric breaks this test, not a user's alerting),
//! every rule is complete, and the dashboard is the JSON Grafana imports. `promtool check
//! rules` runs in `.ci/run` where it is installed; this holds without it.

use proxydash::metrics::{
    AlertMetrics, InvoiceMetrics, ProbeMetrics, ProfileMetrics, ServiceMetrics,
};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

fn asset(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("assets/watch")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Prometheus's own series, which a rule may name beside proxydash's.
const PROMETHEUS_OWN: &[&str] = &["up"];

/// Every series name `/metrics` serves, read from the encoder's output for a watched
/// account where everything is known.
fn exported() -> BTreeSet<String> {
    let service = ServiceMetrics {
        service_id: 1001,
        product: "Static DE".into(),
        status: "Active".into(),
        errors: Some(1),
        inactive: Some(0),
        proxies: Some(10),
        rate_ratio: Some(0.5),
        due_seconds: Some(86_400),
        limit_reached_seconds: Some(3_600.0),
    };
    let mut p = ProfileMetrics {
        credit_usd: Some(10.0),
        services: vec![service],
        budget_remaining: Some(3),
        api_up: Some(false),
        api_down: Some(("failing".into(), 60)),
        runway_seconds: Some(86_400),
        last_success: Some(1_700_000_000),
        oldest: vec![("services".into(), 12)],
        data_failing: vec![("invoices".into(), 90)],
        alerts: vec![AlertMetrics {
            id: "credit_low".into(),
            rule: "credit_low".into(),
            subject: "account".into(),
            level: "warn".into(),
            acknowledged: false,
            silenced: false,
        }],
        unpaid_invoices: vec![InvoiceMetrics {
            invoice_id: 7001,
            status: "Unpaid".into(),
            amount_usd: 12.0,
            age_seconds: Some(86_400),
        }],
        // `watch --probe-every`'s rounds, with the provider's network status known.
        probes: vec![ProbeMetrics {
            service_id: 1001,
            listed: 40,
            checked: 20,
            alive: 15,
            dead: vec![
                ("refused", 3),
                ("auth_failed", 1),
                ("timeout", 1),
                ("bad_answer", 0),
            ],
            dead_provider_fine: Some(4),
            round_age_seconds: 12.5,
            latency_buckets: vec![(0.1, 10), (1.0, 5), (f64::INFINITY, 0)],
            latency_sum: 3.5,
            latency_count: 15,
        }],
        ..ProfileMetrics::default()
    };
    p.requests.insert(("/api/services".into(), "200".into()), 1);
    let text = proxydash::metrics::encode_all(&BTreeMap::from([("main".to_owned(), p)]));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| l.split(['{', ' ']).next().unwrap_or_default().to_owned())
        .collect()
}

/// The metric names a PromQL expression uses: identifiers that are not functions or
/// aggregations (followed by `(`), keywords, numbers, label names (inside `{…}` or after
/// `by`/`without`/`on`/`ignoring`/`group_*`) or inside strings and ranges.
fn metrics_in(expr: &str) -> Vec<String> {
    const KEYWORDS: &[&str] = &["and", "or", "unless", "bool", "offset"];
    const LABEL_LISTS: &[&str] = &[
        "by",
        "without",
        "on",
        "ignoring",
        "group_left",
        "group_right",
    ];
    let chars: Vec<char> = expr.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let skip_to = |from: usize, close: char| {
        let mut j = from + 1;
        let mut quote = None;
        while j < chars.len() {
            match (quote, chars[j]) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), '\\') => j += 1,
                (None, c) if c == close => break,
                (None, '"' | '\'' | '`') => quote = Some(chars[j]),
                _ => {}
            }
            j += 1;
        }
        j + 1
    };
    while i < chars.len() {
        let c = chars[i];
        if c == '{' {
            i = skip_to(i, '}');
        } else if c == '[' {
            i = skip_to(i, ']');
        } else if matches!(c, '"' | '\'' | '`') {
            i = skip_to(i, c);
        } else if c.is_ascii_digit() || c == '.' {
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '.') {
                i += 1;
            }
        } else if c.is_ascii_alphabetic() || c == '_' || c == ':' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || "_:".contains(chars[i])) {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let mut next = i;
            while next < chars.len() && chars[next].is_whitespace() {
                next += 1;
            }
            let rest: String = chars[next..].iter().collect();
            // `sum by (…) (…)`: an aggregation with its grouping before its parentheses.
            let grouped = ["by", "without"].iter().any(|k| {
                rest.strip_prefix(k)
                    .is_some_and(|r| r.trim_start().starts_with('('))
            });
            let call = chars.get(next) == Some(&'(') || grouped;
            if LABEL_LISTS.contains(&word.as_str()) {
                if call {
                    i = skip_to(next, ')');
                }
            } else if !call && !KEYWORDS.contains(&word.as_str()) {
                out.push(word);
            }
        } else {
            i += 1;
        }
    }
    out
}

#[test]
fn the_expression_reader_finds_metrics_and_nothing_else() {
    assert_eq!(
        metrics_in(r#"sum by (profile) (rate(a_total{status!="200", x=~"{y}"}[15m])) > 0.1"#),
        ["a_total"]
    );
    assert_eq!(
        metrics_in("time() - b_seconds{profile=~\"$profile\"} > 7 * 86400 and on(profile) c"),
        ["b_seconds", "c"]
    );
    assert_eq!(metrics_in("up{job=\"proxydash\"} == 0"), ["up"]);
    assert!(metrics_in("1e3 + 0.5").is_empty());
}

#[test]
fn the_encoder_serves_what_this_test_expects() {
    let names = exported();
    for name in [
        "proxydash_api_up",
        "proxydash_api_requests_total",
        "proxydash_invoice_unpaid_age_seconds",
    ] {
        assert!(names.contains(name), "{name} not in {names:?}");
    }
}

/// The names of `expr` that are neither exported nor Prometheus's own.
fn unknown(expr: &str, exported: &BTreeSet<String>) -> Vec<String> {
    metrics_in(expr)
        .into_iter()
        .filter(|m| !exported.contains(m) && !PROMETHEUS_OWN.contains(&m.as_str()))
        .collect()
}

#[test]
fn every_alert_rule_is_complete_and_names_exported_metrics_only() {
    let doc: serde_norway::Value =
        serde_norway::from_str(&asset("proxydash-alerts.yml")).expect("the rules are YAML");
    let exported = exported();
    let mut named = BTreeSet::new();
    let mut alerts = BTreeSet::new();
    let groups = doc["groups"].as_sequence().expect("groups");
    assert!(!groups.is_empty());
    for group in groups {
        let group_name = group["name"].as_str().expect("a group has a name");
        let rules = group["rules"].as_sequence().expect("a group has rules");
        assert!(!rules.is_empty(), "{group_name}: no rules");
        for rule in rules {
            let alert = rule["alert"].as_str().expect("every rule is an alert");
            assert!(alerts.insert(alert.to_owned()), "{alert} twice");
            let expr = rule["expr"]
                .as_str()
                .unwrap_or_else(|| panic!("{alert}: expr"));
            let wait = rule["for"]
                .as_str()
                .unwrap_or_else(|| panic!("{alert}: for"));
            assert!(
                wait.trim_end_matches(['s', 'm', 'h', 'd'])
                    .parse::<u32>()
                    .is_ok(),
                "{alert}: for {wait:?}"
            );
            let severity = rule["labels"]["severity"].as_str();
            assert!(
                matches!(severity, Some("info" | "warning" | "critical")),
                "{alert}: severity {severity:?}"
            );
            let summary = rule["annotations"]["summary"].as_str().unwrap_or_default();
            assert!(!summary.trim().is_empty(), "{alert}: annotations.summary");
            let metrics = metrics_in(expr);
            assert!(!metrics.is_empty(), "{alert}: no metric in {expr:?}");
            let strangers = unknown(expr, &exported);
            assert!(
                strangers.is_empty(),
                "{alert}: {strangers:?} not exported by proxydash ({exported:?})"
            );
            named.extend(metrics);
        }
    }
    // What the built-in rules watch, each with its twin (issues 25 and 44): the API's
    // state, a service suspended or due, servers in error, usage near and heading for the
    // limit, the credit running short, invoices unpaid, a kind of data failing alone, and
    // (issue 49) the proxies proxydash's own probe rounds find dead.
    for metric in [
        "proxydash_api_down_seconds",
        "proxydash_credit_runway_seconds",
        "proxydash_service_up",
        "proxydash_service_servers",
        "proxydash_ppr_rate_ratio",
        "proxydash_ppr_limit_reached_seconds",
        "proxydash_service_due_seconds",
        "proxydash_invoice_unpaid_usd",
        "proxydash_datum_failing_seconds",
        "proxydash_probe_checked_proxies",
        "proxydash_probe_alive_proxies",
    ] {
        assert!(named.contains(metric), "no rule on {metric}");
    }
    // The scrape config beside them loads them.
    assert!(asset("prometheus.yml").contains("- proxydash-alerts.yml"));
}

#[test]
fn the_grafana_dashboard_is_importable_and_names_exported_metrics_only() {
    let doc: Value =
        serde_json::from_str(&asset("proxydash-grafana.json")).expect("the dashboard is JSON");
    let exported = exported();
    for key in ["title", "uid"] {
        assert!(doc[key].as_str().is_some_and(|s| !s.is_empty()), "{key}");
    }
    assert!(doc["schemaVersion"].as_u64().is_some(), "schemaVersion");
    let panels = doc["panels"].as_array().expect("panels");
    assert!(panels.len() >= 6, "{} panels", panels.len());
    let mut ids = BTreeSet::new();
    let mut named = BTreeSet::new();
    for panel in panels {
        let title = panel["title"].as_str().expect("a panel has a title");
        assert!(panel["type"].as_str().is_some(), "{title}: type");
        assert!(
            ids.insert(panel["id"].as_u64().expect("an id")),
            "{title}: id twice"
        );
        let grid = &panel["gridPos"];
        let (x, w, h) = (grid["x"].as_u64(), grid["w"].as_u64(), grid["h"].as_u64());
        assert!(
            matches!((x, w, h, grid["y"].as_u64()), (Some(x), Some(w), Some(h), Some(_)) if x + w <= 24 && w > 0 && h > 0),
            "{title}: gridPos {grid}"
        );
        let targets = panel["targets"].as_array().expect("a panel has targets");
        assert!(!targets.is_empty(), "{title}: no target");
        let mut refs = BTreeSet::new();
        for target in targets {
            assert!(
                refs.insert(target["refId"].as_str().expect("refId")),
                "{title}: refId twice"
            );
            let expr = target["expr"].as_str().expect("a target has an expr");
            let metrics = metrics_in(expr);
            assert!(!metrics.is_empty(), "{title}: no metric in {expr:?}");
            let strangers = unknown(expr, &exported);
            assert!(strangers.is_empty(), "{title}: {strangers:?} not exported");
            named.extend(metrics);
        }
    }
    // The profile chooser reads its values off an exported series too.
    for variable in doc["templating"]["list"].as_array().expect("templating") {
        let query = variable["definition"].as_str().unwrap_or_default();
        let metric = query
            .strip_prefix("label_values(")
            .and_then(|rest| rest.split([',', ')']).next())
            .unwrap_or_else(|| panic!("not a label_values query: {query:?}"));
        assert!(exported.contains(metric.trim()), "{query}");
    }
    // Every series proxydash exports has a panel.
    let missing: Vec<_> = exported.difference(&named).collect();
    assert!(missing.is_empty(), "no panel shows {missing:?}");
}

/// Issue 44: one severity table. The shipped rules are the built-in rules' table written
/// out for the defaults (`proxydash alerts rules`): every level of every built-in rule has
/// exactly one Prometheus alert of that severity; records and states open at once and
/// measurements wait what the debounce waits; every state rule keeps firing across a
/// scrape gap; nothing alerts on Pending or on an ended service; the watch-down rule
/// names the instance; a table of several queries merges them.
#[test]
fn the_shipped_rules_agree_with_the_built_in_ones() {
    use proxydash::alerts::policy::{self, prometheus_rules, prometheus_yaml};
    use proxydash::alerts::{Rule, Rules};
    let defaults = Rules::default();
    let refresh = std::time::Duration::from_secs(30);
    let probe_every = proxydash::config::RULES_PROBE_EVERY;
    assert_eq!(
        asset("proxydash-alerts.yml").trim_end(),
        prometheus_yaml(&defaults, refresh, probe_every).trim_end(),
        "assets/watch/proxydash-alerts.yml is not what `proxydash alerts rules` writes: \
         run `cargo run -- alerts rules > assets/watch/proxydash-alerts.yml`"
    );
    let table = prometheus_rules(&defaults, refresh, probe_every);
    for rule in Rule::ALL {
        for level in rule.levels() {
            let twins: Vec<_> = table
                .iter()
                .filter(|r| r.built_in == Some((rule, *level)))
                .collect();
            assert_eq!(twins.len(), 1, "{rule:?} at {level:?}: {twins:?}");
            // A probe round's sighting waits one round (the shipped file assumes 5m).
            let wait = if rule.reads_a_record() || rule.reads_the_connection() {
                "0m"
            } else if rule.reads_probe_rounds() {
                "300s"
            } else {
                "30s"
            };
            assert_eq!(twins[0].wait, wait, "{rule:?} waits as its debounce");
            assert!(twins[0].keep_firing, "{rule:?} keeps firing across a gap");
        }
    }
    let doc: serde_norway::Value =
        serde_norway::from_str(&asset("proxydash-alerts.yml")).expect("the rules are YAML");
    let rules = doc["groups"][0]["rules"].as_sequence().expect("rules");
    let rule = |name: &str| {
        rules
            .iter()
            .find(|r| r["alert"].as_str() == Some(name))
            .unwrap_or_else(|| panic!("no rule {name}"))
    };
    for r in rules {
        let expr = r["expr"].as_str().unwrap_or_default();
        for word in ["Pending", "Terminated", "Cancelled", "Fraud"] {
            assert!(!expr.contains(word), "{expr}");
        }
        let name = r["alert"].as_str().unwrap_or_default();
        let severity = r["labels"]["severity"].as_str().unwrap_or_default();
        let built_in = table
            .iter()
            .find(|t| t.alert == name)
            .and_then(|t| t.built_in);
        if let Some((_, level)) = built_in {
            assert_eq!(severity, policy::severity(level), "{name}");
        }
    }
    assert!(
        rule("ProxydashWatchDown")["annotations"]["summary"]
            .as_str()
            .unwrap()
            .contains("$labels.instance")
    );
    // Two minutes at most: `for` plus one evaluation after the first failed scrape.
    assert_eq!(rule("ProxydashWatchDown")["for"].as_str(), Some("1m"));
    assert!(asset("prometheus.yml").contains("evaluation_interval: 15s"));
    assert!(
        rule("ProxydashApiUnauthorized")["expr"]
            .as_str()
            .unwrap()
            .contains("state=\"unauthorized\"")
    );
    let grafana: Value = serde_json::from_str(&asset("proxydash-grafana.json")).unwrap();
    for panel in grafana["panels"].as_array().unwrap() {
        let targets = panel["targets"].as_array().map_or(0, Vec::len);
        let merged = panel["transformations"]
            .as_array()
            .is_some_and(|t| t.iter().any(|t| t["id"] == "merge"));
        assert!(
            panel["type"] != "table" || targets < 2 || merged,
            "{}: {targets} queries and no merge",
            panel["title"]
        );
    }
}
