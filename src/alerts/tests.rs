//! The evaluator's rules, the book's debounce, levels and repeats, the config, and the
//! `on_alert` command end to end.

use super::snapshot::{self, InvoiceFacts, ServiceFacts};
use super::*;
use crate::api::{InvoiceStatus, ServiceStatus};
use chrono::{NaiveDate, TimeZone, Utc};
use std::time::Duration;

fn t(minutes: i64) -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap() + chrono::Duration::minutes(minutes)
}

fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 3, 1).unwrap()
}

fn service(id: u64) -> ServiceFacts {
    ServiceFacts {
        product_name: "Static 10".into(),
        nextduedate: Some(today() + chrono::Days::new(30)),
        errors: Some(Vec::new()),
        usage_known: true,
        ..ServiceFacts::new(id, ServiceStatus::Active)
    }
}

fn snapshot(services: Vec<ServiceFacts>) -> Snapshot {
    Snapshot {
        today: today(),
        today_start: Utc.with_ymd_and_hms(2026, 3, 1, 0, 0, 0).unwrap(),
        credit: Some(1000.0),
        services: Some(services),
        invoices: Some(Vec::new()),
        ..Snapshot::default()
    }
}

/// The money ahead as the runway would have it: `credit` against what is owed by
/// `short_on` (days from today; none: covered).
fn ahead(credit: f64, short_in: Option<u64>, owed: f64) -> snapshot::Ahead {
    snapshot::Ahead {
        credit,
        short_on: short_in.map(|d| today() + chrono::Days::new(d)),
        owed,
        renewals: 2,
        invoices: 0,
        unknown_prices: 0,
        at_the_latest: false,
    }
}

/// The problems found, as (rule, subject, level).
fn problems(s: &Snapshot, rules: &Rules) -> Vec<(Rule, Subject, Level, String)> {
    evaluate(s, rules, t(0))
        .into_iter()
        .filter_map(|o| match o {
            Observation::Seen {
                key,
                level: Some(level),
                message,
            } => Some((key.rule, key.subject, level, message)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_healthy_account_has_no_problems_and_every_rule_is_covered() {
    let s = snapshot(vec![service(1), service(2)]);
    assert!(problems(&s, &Rules::default()).is_empty());
    let covered: Vec<Rule> = evaluate(&s, &Rules::default(), t(0))
        .into_iter()
        .filter_map(|o| match o {
            Observation::Covered(r) => Some(r),
            _ => None,
        })
        .collect();
    for rule in [
        Rule::ServiceStatus,
        Rule::ServiceDue,
        Rule::ServersInError,
        Rule::RateLimit,
        Rule::UnpaidInvoice,
    ] {
        assert!(covered.contains(&rule), "{rule:?} in {covered:?}");
    }
}

#[test]
fn each_rule_fires_at_its_level() {
    let due = |days: u64| Some(today() + chrono::Days::new(days));
    let s = Snapshot {
        credit: Some(20.0),
        ahead: Some(ahead(20.0, Some(6), 25.0)),
        invoices: Some(vec![
            InvoiceFacts {
                id: 70,
                description: "renewal".into(),
                status: InvoiceStatus::Unpaid,
                amount: 12.5,
                created_at: Some(today()),
            },
            InvoiceFacts {
                id: 71,
                description: String::new(),
                status: InvoiceStatus::Paid,
                amount: 3.0,
                created_at: None,
            },
        ]),
        ..snapshot(vec![
            ServiceFacts {
                status: ServiceStatus::Suspended,
                ..service(1)
            },
            ServiceFacts {
                nextduedate: due(1),
                ..service(2)
            },
            ServiceFacts {
                nextduedate: due(6),
                ..service(3)
            },
            ServiceFacts {
                errors: Some(vec![
                    "10.0.0.1".into(),
                    "10.0.0.2".into(),
                    "10.0.0.3".into(),
                ]),
                servers: Some(10),
                ..service(4)
            },
            ServiceFacts {
                rate: Some((950.0, 1000.0)),
                ..service(5)
            },
            ServiceFacts {
                rate: Some((100.0, 1000.0)),
                daily: Some(vec![50.0; 10]),
                ..service(6)
            },
            ServiceFacts {
                status: ServiceStatus::Terminated,
                ..service(7)
            },
        ])
    };
    let found = problems(&s, &Rules::default());
    let level_of = |rule: Rule, subject: Subject| {
        found
            .iter()
            .find(|(r, s, _, _)| *r == rule && *s == subject)
            .map(|(_, _, l, m)| (*l, m.clone()))
    };
    use Subject::*;
    assert_eq!(
        level_of(Rule::ServiceStatus, Service(1)).unwrap().0,
        Level::Critical
    );
    // Ended is not a problem: a service Terminated when first seen raises nothing.
    assert!(level_of(Rule::ServiceStatus, Service(7)).is_none());
    let (level, msg) = level_of(Rule::ServiceDue, Service(2)).unwrap();
    assert_eq!(level, Level::Critical);
    assert!(msg.contains("is due tomorrow"), "{msg}");
    assert_eq!(
        level_of(Rule::ServiceDue, Service(3)).unwrap().0,
        Level::Info
    );
    // 3 of 10 is above 20 %.
    let (level, msg) = level_of(Rule::ServersInError, Service(4)).unwrap();
    assert_eq!(level, Level::Critical);
    assert!(msg.contains("3 of 10 proxy servers in error"), "{msg}");
    assert_eq!(
        level_of(Rule::RateLimit, Service(5)).unwrap().0,
        Level::Warn
    );
    // 100 used + 50 a day for 30 days passes 1000.
    let (level, msg) = level_of(Rule::RateForecast, Service(6)).unwrap();
    assert_eq!(level, Level::Warn);
    assert!(msg.contains("reached in about 18 days"), "{msg}");
    // The money ahead runs short in 6 days (of 7): a warning.
    let (level, msg) = level_of(Rule::CreditLow, Account).unwrap();
    assert_eq!(level, Level::Warn);
    assert!(
        msg.contains("$20.00 does not cover what is owed by 2026-03-07: $25.00 (2 renewals)"),
        "{msg}"
    );
    assert_eq!(
        level_of(Rule::UnpaidInvoice, Invoice(70)).unwrap().0,
        Level::Warn
    );
    assert!(level_of(Rule::UnpaidInvoice, Invoice(71)).is_none());
    // A disabled rule says nothing.
    let rules = Rules {
        disabled: vec![Rule::UnpaidInvoice],
        ..Rules::default()
    };
    assert!(
        !problems(&s, &rules)
            .iter()
            .any(|p| p.0 == Rule::UnpaidInvoice)
    );
}

#[test]
fn absurd_numbers_alert_nothing_and_panic_nowhere() {
    let s = Snapshot {
        credit: Some(f64::NAN),
        ..snapshot(vec![ServiceFacts {
            rate: Some((f64::INFINITY, f64::MAX)),
            daily: Some(vec![f64::NAN, -5.0, f64::MAX]),
            nextduedate: Some(NaiveDate::MAX),
            servers: Some(0),
            ..service(1)
        }])
    };
    let found = problems(&s, &Rules::default());
    assert!(
        found
            .iter()
            .all(|p| p.0 != Rule::RateLimit && p.0 != Rule::CreditLow),
        "{found:?}"
    );
}

fn seen(rule: Rule, id: u64, level: Option<Level>) -> Observation {
    Observation::Seen {
        key: AlertKey {
            rule,
            subject: Subject::Service(id),
        },
        level,
        message: format!("service {id} at {level:?}"),
    }
}

#[test]
fn an_alert_opens_on_the_second_sweep_and_resolves_on_the_second_clear_one() {
    let mut book = AlertBook::new(&Rules::default());
    let bad = [seen(Rule::ServersInError, 1, Some(Level::Critical))];
    let good = [seen(Rule::ServersInError, 1, None)];
    assert!(book.sweep(&good, t(0)).is_empty());
    assert!(book.sweep(&bad, t(1)).is_empty(), "one sweep is a blip");
    let opened = book.sweep(&bad, t(2));
    assert_eq!(opened.len(), 1);
    assert_eq!(opened[0].change, Change::Opened);
    assert_eq!(opened[0].alert.first_seen, t(1));
    assert_eq!(book.open_count(), 1);
    assert!(book.sweep(&good, t(3)).is_empty());
    let resolved = book.sweep(&good, t(4));
    assert_eq!(resolved.len(), 1);
    assert_eq!(resolved[0].change, Change::Resolved);
    assert_eq!(resolved[0].alert.resolved, Some(t(4)));
    assert_eq!(book.open_count(), 0);
    assert_eq!(book.recent().len(), 1);
}

/// A record (a status, a due date, an invoice's state) does not blip: its alert opens and
/// resolves at the first sweep that sees it, whatever the debounce.
#[test]
fn a_record_opens_and_resolves_at_the_first_sweep() {
    let mut book = AlertBook::new(&Rules {
        debounce: 3,
        ..Rules::default()
    });
    for rule in [Rule::ServiceStatus, Rule::ServiceDue, Rule::UnpaidInvoice] {
        let opened = book.sweep(&[seen(rule, 1, Some(Level::Critical))], t(0));
        assert_eq!(opened.len(), 1, "{rule:?}");
        assert_eq!(opened[0].change, Change::Opened);
        let resolved = book.sweep(&[seen(rule, 1, None)], t(1));
        assert_eq!(resolved[0].change, Change::Resolved, "{rule:?}");
    }
    // A measurement keeps the debounce.
    assert!(
        book.sweep(&[seen(Rule::RateLimit, 1, Some(Level::Warn))], t(2))
            .is_empty()
    );
}

#[test]
fn unknown_is_not_fine_but_a_covered_rule_resolves_what_is_gone() {
    let mut book = AlertBook::new(&Rules::default());
    let bad = [seen(Rule::ServersInError, 1, Some(Level::Warn))];
    book.sweep(&bad, t(0));
    book.sweep(&bad, t(1));
    assert_eq!(book.open_count(), 1);
    // Nothing said about service 1 (its data did not come): it stays open.
    for i in 2..10 {
        assert!(book.sweep(&[], t(i)).is_empty());
    }
    assert_eq!(book.open_count(), 1);
    // The whole rule was checked and service 1 was not among them: it is gone.
    let covered = [Observation::Covered(Rule::ServersInError)];
    assert!(book.sweep(&covered, t(10)).is_empty());
    let out = book.sweep(&covered, t(11));
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].change, Change::Resolved);
}

#[test]
fn levels_go_up_loudly_and_down_quietly_after_the_debounce() {
    let mut book = AlertBook::new(&Rules::default());
    let at = |l| [seen(Rule::RateLimit, 5, Some(l))];
    book.sweep(&at(Level::Warn), t(0));
    assert_eq!(book.sweep(&at(Level::Warn), t(1))[0].change, Change::Opened);
    assert!(book.sweep(&at(Level::Critical), t(2)).is_empty());
    let up = book.sweep(&at(Level::Critical), t(3));
    assert_eq!(up[0].change, Change::Escalated { from: Level::Warn });
    assert_eq!(up[0].alert.level, Level::Critical);
    assert!(book.sweep(&at(Level::Warn), t(4)).is_empty());
    assert!(book.sweep(&at(Level::Warn), t(5)).is_empty());
    assert_eq!(book.open().next().unwrap().level, Level::Warn);
}

#[test]
fn a_critical_alert_repeats_with_back_off() {
    let rules = Rules {
        repeat_after: Duration::from_secs(30 * 60),
        ..Rules::default()
    };
    let mut book = AlertBook::new(&rules);
    let bad = [seen(Rule::ServersInError, 1, Some(Level::Critical))];
    book.sweep(&bad, t(0));
    book.sweep(&bad, t(1));
    // Sweep every minute for a day: repeats after 30, 60, 120, 240, 480 minutes...
    let mut repeats = Vec::new();
    for m in 2..=(24 * 60) {
        for tr in book.sweep(&bad, t(m)) {
            assert_eq!(tr.change, Change::Repeated);
            repeats.push(m);
        }
    }
    assert_eq!(repeats, vec![31, 91, 211, 451, 931]);
}

/// The flapping fixture: per 10 sweeps, a one-sweep blip, a three-sweep problem with a
/// one-sweep gap in it, then three clear sweeps.
const FLAP: [bool; 10] = [
    true, false, true, true, true, false, true, false, false, false,
];

#[test]
fn a_flapping_condition_gives_one_notification_per_transition_over_1000_sweeps() {
    let mut book = AlertBook::new(&Rules::default());
    let mut sink = Recording::default();
    for i in 0..1000 {
        let bad = FLAP[i % FLAP.len()];
        let level = bad.then_some(Level::Warn);
        for tr in book.sweep(&[seen(Rule::ServersInError, 9, level)], t(i as i64)) {
            sink.record(&tr);
        }
    }
    let got = sink.taken();
    let opened = got.iter().filter(|t| t.change == Change::Opened).count();
    let resolved = got.iter().filter(|t| t.change == Change::Resolved).count();
    // Each cycle opens once (the second of two problem sweeps in a row) and resolves
    // once (the second of two clear sweeps in a row); the blips say nothing.
    assert_eq!((opened, resolved, got.len()), (100, 100, 200));
    // And they alternate: never two openings without a recovery between them.
    for pair in got.windows(2) {
        assert_ne!(pair[0].change, pair[1].change);
    }
}

#[test]
fn restored_alerts_are_not_announced_again() {
    let mut book = AlertBook::new(&Rules::default());
    let bad = [seen(Rule::ServiceStatus, 1, Some(Level::Warn))];
    book.sweep(&bad, t(0));
    book.sweep(&bad, t(1));
    let open: Vec<Alert> = book.open().cloned().collect();
    let dir = std::env::temp_dir().join(format!("proxydash-alerts-{}", std::process::id()));
    let file = store::AlertFile::new(dir.join("alerts.json"));
    file.save("acct", &open, &[]).unwrap();
    let mut again = AlertBook::new(&Rules::default());
    again.restore(file.load("acct").0);
    assert_eq!(again.open_count(), 1);
    assert!(again.sweep(&bad, t(5)).is_empty());
    assert!(file.load("other").0.is_empty());
    let _ = std::fs::remove_dir_all(dir);
}

/// Issue 38 item 2: one alert with a bad level used to lose every open alert (and each
/// was announced again); now the good ones are kept, the one whose key reads is kept as
/// announced, and the file is moved aside with a line saying so.
#[test]
fn a_corrupt_alert_file_loses_no_alert_and_announces_none_again() {
    let mut book = AlertBook::new(&Rules::default());
    let bad = [
        seen(Rule::ServersInError, 1, Some(Level::Warn)),
        seen(Rule::ServersInError, 2, Some(Level::Critical)),
        seen(Rule::ServersInError, 3, Some(Level::Warn)),
    ];
    book.sweep(&bad, t(0));
    assert_eq!(book.sweep(&bad, t(1)).len(), 3);
    let open: Vec<Alert> = book.open().cloned().collect();
    let dir = std::env::temp_dir().join(format!("proxydash-alerts-bad-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let file = store::AlertFile::new(dir.join("alerts.json"));
    file.save("acct", &open, &[]).unwrap();
    file.save("other", &open[..1], &[]).unwrap();
    // Service 2's level is one no version wrote; service 3's key is unreadable.
    let text = std::fs::read_to_string(file.path()).unwrap();
    let text = text.replacen("\"critical\"", "\"severe\"", 1).replacen(
        "\"service\": 3",
        "\"server\": 3",
        1,
    );
    assert!(text.contains("severe") && text.contains("server"), "{text}");
    std::fs::write(file.path(), &text).unwrap();

    let (restored, said) = file.load("acct");
    let said = said.expect("the problem is said");
    assert!(
        said.contains("alerts.json") && said.contains("2 entries"),
        "{said}"
    );
    assert!(said.contains("alerts.json.bad"), "{said}");
    assert_eq!(
        std::fs::read_to_string(dir.join("alerts.json.bad")).unwrap(),
        text
    );
    assert_eq!(
        restored.len(),
        2,
        "service 1 whole, service 2 without its level"
    );
    assert_eq!(
        file.load("other").0.len(),
        1,
        "the other account is untouched"
    );

    let mut again = AlertBook::new(&Rules::default());
    again.restore(file.load("acct").0);
    let announced = again.sweep(&bad[..2], t(5));
    assert!(
        announced.is_empty(),
        "nothing announced again: {announced:?}"
    );
    let level = again
        .open()
        .find(|a| a.key.subject == Subject::Service(2))
        .unwrap()
        .level;
    assert_eq!(
        level,
        Level::Critical,
        "the level is taken quietly from the sweep"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn config_overrides_key_by_key_and_rejects_nonsense() {
    let top: AlertsConfig = toml::from_str("debounce = 3\nalert_bell = true\n").unwrap();
    let mine: AlertsConfig =
        toml::from_str("debounce = 1\ndisabled = [\"unpaid_invoice\"]\n").unwrap();
    let (rules, delivery) = top.overlaid(&mine).resolve().unwrap();
    assert_eq!(rules.debounce, 1);
    assert_eq!(rules.disabled, vec![Rule::UnpaidInvoice]);
    assert!(delivery.bell);
    assert_eq!(delivery.timeout, Duration::from_secs(10));
    let bad: AlertsConfig = toml::from_str("error_percent = 250\n").unwrap();
    assert!(bad.resolve().unwrap_err().contains("error_percent"));
    let bad: AlertsConfig = toml::from_str("disabled = [\"nope\"]\n").unwrap();
    assert!(bad.resolve().unwrap_err().contains("nope"));
    let bad: AlertsConfig = toml::from_str("debounce = 0\n").unwrap();
    assert!(bad.resolve().is_err());
    assert!(toml::from_str::<AlertsConfig>("debounse = 2\n").is_err());
}

/// Issue 45: a share is rounded as the Usage table rounds it (133.8 % is 134 % in both).
#[test]
fn a_rate_share_is_rounded_as_the_usage_table_rounds_it() {
    let s = snapshot(vec![ServiceFacts {
        rate: Some((13_380.0, 10_000.0)),
        ..service(5)
    }]);
    let found = problems(&s, &Rules::default());
    let (_, _, level, message) = found
        .iter()
        .find(|p| p.0 == Rule::RateLimit)
        .expect("over its limit");
    assert_eq!(*level, Level::Critical);
    assert!(message.ends_with("(134%)"), "{message}");
}
