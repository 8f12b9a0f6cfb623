//! The exposition read back by a real parser of the format (the `prometheus-parse`
//! crate; Python's `prometheus_client` is not installed on the build machine).

use super::*;
use prometheus_parse::{Scrape, Value};

fn parse(text: &str) -> Scrape {
    Scrape::parse(text.lines().map(|l| Ok(l.to_owned()))).expect("the exposition parses")
}

fn value(v: &Value) -> f64 {
    match v {
        Value::Counter(x) | Value::Gauge(x) | Value::Untyped(x) => *x,
        other => panic!("unexpected {other:?}"),
    }
}

fn sample(scrape: &Scrape, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    scrape
        .samples
        .iter()
        .find(|s| s.metric == name && labels.iter().all(|(k, v)| s.labels.get(k) == Some(*v)))
        .map(|s| value(&s.value))
}

pub(crate) fn board_of(services: usize) -> BTreeMap<String, ProfileMetrics> {
    let mut p = ProfileMetrics {
        credit_usd: Some(123.45),
        budget_remaining: Some(41),
        api_down: Some(("failing".into(), 75)),
        runway_seconds: Some(86_400 * 9),
        ..ProfileMetrics::default()
    };
    p.requests
        .insert(("/api/services".into(), "200".into()), 12);
    p.requests.insert(
        ("/api/networkstatus/errors/{id}".into(), "timeout".into()),
        2,
    );
    for i in 0..services {
        let id = 1000 + i as u64;
        p.services.push(ServiceMetrics {
            service_id: id,
            product: format!("Static DE {}", i % 7),
            status: if i % 10 == 0 { "Suspended" } else { "Active" }.into(),
            errors: Some(i % 3),
            inactive: (i % 2 == 0).then_some(1),
            proxies: (i % 5 == 0).then_some(10),
            rate_ratio: (i % 4 == 0).then_some(0.25),
            due_seconds: Some(86_400 * (i as i64 % 40) - 3600),
            limit_reached_seconds: (i % 4 == 0).then_some(86_400.0 * 3.0),
        });
    }
    BTreeMap::from([("main".to_owned(), p)])
}

#[test]
fn every_metric_of_the_issue_is_served_and_parses() {
    let text = encode_all(&board_of(3));
    let scrape = parse(&text);
    let main = ("profile", "main");
    assert_eq!(
        sample(&scrape, "proxydash_credit_usd", &[main]),
        Some(123.45)
    );
    assert_eq!(
        sample(
            &scrape,
            "proxydash_service_up",
            &[main, ("service", "1000"), ("status", "Suspended")]
        ),
        Some(0.0)
    );
    assert_eq!(
        sample(
            &scrape,
            "proxydash_service_up",
            &[
                ("service", "1001"),
                ("product", "Static DE 1"),
                ("status", "Active")
            ]
        ),
        Some(1.0)
    );
    assert_eq!(
        sample(
            &scrape,
            "proxydash_service_servers",
            &[("service", "1002"), ("state", "error")]
        ),
        Some(2.0)
    );
    // Never read: no series, not a healthy-looking 0.
    assert_eq!(
        sample(
            &scrape,
            "proxydash_service_servers",
            &[("service", "1001"), ("state", "inactive")]
        ),
        None
    );
    assert_eq!(
        sample(&scrape, "proxydash_ppr_rate_ratio", &[("service", "1000")]),
        Some(0.25)
    );
    assert_eq!(
        sample(
            &scrape,
            "proxydash_service_due_seconds",
            &[("service", "1001")]
        ),
        Some(82_800.0)
    );
    assert_eq!(
        sample(
            &scrape,
            "proxydash_api_requests_total",
            &[("endpoint", "/api/services"), ("status", "200")]
        ),
        Some(12.0)
    );
    assert_eq!(
        sample(&scrape, "proxydash_api_budget_remaining", &[main]),
        Some(41.0)
    );
    assert_eq!(
        sample(
            &scrape,
            "proxydash_api_down_seconds",
            &[main, ("state", "failing")]
        ),
        Some(75.0)
    );
    assert_eq!(
        sample(&scrape, "proxydash_credit_runway_seconds", &[main]),
        Some(86_400.0 * 9.0)
    );
    assert!(text.ends_with("# EOF\n"), "{text}");
}

#[test]
fn hostile_server_text_cannot_break_the_exposition() {
    let mut board = board_of(1);
    let p = board.get_mut("main").unwrap();
    p.services[0].product =
        "evil\"} 1\nproxydash_credit_usd{profile=\"x\"} 9e9 \u{202e}\u{1b}[31m".into();
    let text = encode_all(&board);
    let scrape = parse(&text);
    // Still exactly one credit series, with the real value.
    let credits: Vec<_> = scrape
        .samples
        .iter()
        .filter(|s| s.metric == "proxydash_credit_usd")
        .collect();
    assert_eq!(credits.len(), 1, "{text}");
    assert_eq!(value(&credits[0].value), 123.45);
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{202e}'),
        "{text}"
    );
    strict_lines(&text);
}

/// Every line is a `# HELP`, `# TYPE`, `# UNIT`, the final `# EOF`, or `name{labels} value`.
fn strict_lines(text: &str) {
    for line in text.lines() {
        if line.starts_with("# HELP ") || line.starts_with("# TYPE ") || line == "# EOF" {
            continue;
        }
        let (series, value) = line.rsplit_once(' ').expect(line);
        assert!(value.parse::<f64>().is_ok(), "{line}");
        let name_end = series.find('{').unwrap_or(series.len());
        let name = &series[..name_end];
        assert!(
            name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
            "{line}"
        );
        if name_end < series.len() {
            assert!(series.ends_with('}'), "{line}");
        }
    }
}

#[test]
fn a_thousand_services_scrape_small_and_parse() {
    let text = encode_all(&board_of(1000));
    assert!(text.len() < 1 << 20, "{} bytes", text.len());
    let scrape = parse(&text);
    let up = scrape
        .samples
        .iter()
        .filter(|s| s.metric == "proxydash_service_up")
        .count();
    assert_eq!(up, 1000);
    strict_lines(&text);
}

#[test]
fn unpaid_invoices_are_listed_with_their_amount_and_age() {
    let mut board = board_of(0);
    let p = board.get_mut("main").unwrap();
    p.unpaid_invoices = vec![
        InvoiceMetrics {
            invoice_id: 7001,
            status: "Unpaid".into(),
            amount_usd: 12.5,
            age_seconds: Some(9 * 86_400),
        },
        InvoiceMetrics {
            invoice_id: 7002,
            status: "Collections".into(),
            amount_usd: 40.0,
            age_seconds: None,
        },
    ];
    let scrape = parse(&encode_all(&board));
    let invoice = |id| [("profile", "main"), ("invoice", id)];
    assert_eq!(
        sample(&scrape, "proxydash_invoice_unpaid_usd", &invoice("7001")),
        Some(12.5)
    );
    assert_eq!(
        sample(
            &scrape,
            "proxydash_invoice_unpaid_age_seconds",
            &invoice("7001")
        ),
        Some(777_600.0)
    );
    let collections = [("invoice", "7002"), ("status", "Collections")];
    assert_eq!(
        sample(&scrape, "proxydash_invoice_unpaid_usd", &collections),
        Some(40.0)
    );
    // A date never read: no age, rather than a 0 that looks fresh.
    assert_eq!(
        sample(
            &scrape,
            "proxydash_invoice_unpaid_age_seconds",
            &collections
        ),
        None
    );
    // Paid: no series at all.
    let none = parse(&encode_all(&board_of(0)));
    assert!(
        !none
            .samples
            .iter()
            .any(|s| s.metric.starts_with("proxydash_invoice_")),
    );
}
