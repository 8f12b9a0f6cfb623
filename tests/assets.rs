//! The monitoring files shipped in `assets/watch/` (issue 25): the Prometheus alert rules
//! and the Grafana dashboard name only metrics proxydash exports (taken from the
//! encoder's own output, so a renamed metric breaks this test, not a user's alerting),
//! every rule is complete, and the dashboard is the JSON Grafana imports. `promtool check
//! rules` runs in `.ci/run` where it is installed; this holds without it.

use proxydash::metrics::{AlertMetrics, InvoiceMetrics, ProfileMetrics, ServiceMetrics};
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
        rate_ratio: Some(0.5),
        due_seconds: Some(86_400),
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
    // What issue 25 asks the rules to cover: API unreachable, service down, servers in
    // error, usage near limit, credit low, invoice overdue.
    for metric in [
        "proxydash_api_down_seconds",
        "proxydash_credit_runway_seconds",
        "proxydash_service_up",
        "proxydash_service_servers",
        "proxydash_ppr_rate_ratio",
        "proxydash_credit_usd",
        "proxydash_invoice_unpaid_age_seconds",
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

/// Issue 37: the shipped rules agree with proxydash's own. Pending (every fresh order for
/// a while) pages nobody, the due-date rule flags Active services only (as
/// `service_due`), no rule's text hard-codes a duration its expression could change, the
/// watch-down rule names the instance, and a table of several queries merges them.
#[test]
fn the_shipped_rules_agree_with_the_built_in_ones() {
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
        assert!(!expr.contains("Pending"), "{expr}");
        let text = format!("{:?}", r["annotations"]);
        for words in ["minutes", "5m", "hour"] {
            assert!(!text.contains(words), "a duration in {text}");
        }
    }
    assert!(
        rule("ProxydashServiceDueSoon")["expr"]
            .as_str()
            .unwrap()
            .contains("proxydash_service_up == 1")
    );
    assert!(
        rule("ProxydashWatchDown")["annotations"]["summary"]
            .as_str()
            .unwrap()
            .contains("$labels.instance")
    );
    assert!(
        rule("ProxydashApiFailing")["expr"]
            .as_str()
            .unwrap()
            .contains("state=\"failing\"")
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
