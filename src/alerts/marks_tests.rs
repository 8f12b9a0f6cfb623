//! Acknowledgements and silences as values: what they hold back, and what a person types.

use super::marks::*;
use super::{Alert, AlertBook, AlertKey, Change, Level, Rule, Subject, Transition};
use chrono::{TimeZone, Utc};

fn t(minutes: i64) -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap() + chrono::Duration::minutes(minutes)
}

fn key(rule: Rule, service: u64) -> AlertKey {
    AlertKey {
        rule,
        subject: Subject::Service(service),
    }
}

fn transition(key: AlertKey, change: Change) -> Transition {
    Transition {
        change,
        alert: Alert {
            key,
            level: Level::Critical,
            message: "m".into(),
            first_seen: t(0),
            last_seen: t(0),
            resolved: None,
            repeats: 0,
            next_repeat: None,
            level_unsure: false,
            unchecked_since: None,
        },
        at: t(0),
        baseline: false,
    }
}

fn silence(target: Target, until: i64) -> Silence {
    Silence {
        id: new_id(),
        target,
        until: t(until),
        reason: "r".into(),
        by: "me".into(),
        created: t(0),
    }
}

#[test]
fn a_silence_covers_its_rule_its_service_or_the_rule_on_the_service_until_its_end() {
    let rule = Target {
        rule: Some(Rule::RateLimit),
        service: None,
    };
    let service = Target {
        rule: None,
        service: Some(7),
    };
    let both = Target {
        rule: Some(Rule::RateLimit),
        service: Some(7),
    };
    assert!(rule.covers(&key(Rule::RateLimit, 1)));
    assert!(!rule.covers(&key(Rule::ServiceDue, 1)));
    assert!(service.covers(&key(Rule::ServiceDue, 7)));
    assert!(!service.covers(&key(Rule::ServiceDue, 8)));
    assert!(both.covers(&key(Rule::RateLimit, 7)));
    assert!(!both.covers(&key(Rule::RateLimit, 8)));
    assert!(!both.covers(&key(Rule::ServiceDue, 7)));
    let invoice = AlertKey {
        rule: Rule::UnpaidInvoice,
        subject: Subject::Invoice(7),
    };
    assert!(!service.covers(&invoice), "service 7 is not invoice 7");
    let mut marks = Marks::default();
    marks.apply(MarkChange::Silence(silence(both, 60)));
    assert!(marks.silence(&key(Rule::RateLimit, 7), t(59)).is_some());
    assert!(
        marks.silence(&key(Rule::RateLimit, 7), t(60)).is_none(),
        "ended"
    );
    assert_eq!(marks.active(t(61)).count(), 0);
}

#[test]
fn deliverable_holds_back_silenced_and_acknowledged_but_not_the_acknowledged_resolution() {
    let acked = key(Rule::ServiceStatus, 1);
    let quiet = key(Rule::RateLimit, 2);
    let other = key(Rule::ServiceDue, 3);
    let mut marks = Marks::default();
    marks.apply(MarkChange::Ack(Ack {
        key: acked,
        by: "me".into(),
        at: t(0),
    }));
    marks.apply(MarkChange::Silence(silence(
        Target {
            rule: None,
            service: Some(2),
        },
        60,
    )));
    let sweep = vec![
        transition(acked, Change::Repeated),
        transition(acked, Change::Escalated { from: Level::Warn }),
        transition(quiet, Change::Opened),
        transition(quiet, Change::Resolved),
        transition(other, Change::Opened),
    ];
    let (out, ended) = marks.deliverable(sweep.clone(), t(1));
    let kept: Vec<_> = out.iter().map(|t| (t.alert.key, t.change)).collect();
    assert_eq!(kept, vec![(other, Change::Opened)]);
    assert!(ended.is_empty());
    let (out, ended) = marks.deliverable(vec![transition(acked, Change::Resolved)], t(1));
    assert_eq!(
        out.len(),
        1,
        "the resolution of an acknowledged alert is delivered"
    );
    assert_eq!(ended, vec![acked]);
    // After the silence's end its service's transitions go out again.
    let (out, _) = marks.deliverable(vec![transition(quiet, Change::Resolved)], t(60));
    assert_eq!(out.len(), 1);
}

#[test]
fn typed_lengths_read_or_say_why_and_never_panic() {
    let ok = |s: &str| parse_duration(s).map(|d| d.num_minutes());
    assert_eq!(ok("90m"), Ok(90));
    assert_eq!(ok("8h"), Ok(480));
    assert_eq!(ok("2h30m"), Ok(150));
    assert_eq!(ok(" 1d 12h "), Ok(36 * 60));
    assert_eq!(ok("24H"), Ok(24 * 60));
    for bad in [
        "abc",
        "90",
        "",
        "h",
        "0m",
        "91d",
        "1x",
        "99999999999999999999d",
        "-5m",
        "5m-",
    ] {
        let e = parse_duration(bad).unwrap_err();
        assert!(!e.is_empty(), "{bad}");
    }
    assert!(parse_duration("abc").unwrap_err().contains("not a unit"));
    assert!(parse_duration("90").unwrap_err().contains("unit"));
    assert!(parse_duration("").unwrap_err().contains("How long"));
    for d in [1, 59, 60, 150, 1440, 1441, 90 * 1440] {
        let text = format_duration(chrono::Duration::minutes(d));
        assert_eq!(ok(&text), Ok(d), "{text}");
    }
}

#[test]
fn alert_ids_read_back_and_bad_ones_say_why() {
    for k in [
        key(Rule::RateLimit, 1003),
        AlertKey {
            rule: Rule::CreditLow,
            subject: Subject::Account,
        },
        AlertKey {
            rule: Rule::UnpaidInvoice,
            subject: Subject::Invoice(7001),
        },
    ] {
        assert_eq!(parse_alert_id(&alert_id(&k)), Ok(k));
    }
    assert_eq!(
        alert_id(&key(Rule::ServiceStatus, 1002)),
        "service_status:1002"
    );
    for bad in [
        "",
        "nope:1",
        "rate_limit",
        "rate_limit:x",
        "credit_low:3",
        "rate_limit:-1",
    ] {
        assert!(parse_alert_id(bad).is_err(), "{bad}");
    }
}

#[test]
fn silence_ids_are_six_hex_digits_and_differ() {
    let a = new_id();
    assert_eq!(a.len(), 6);
    assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
    assert_ne!(a, new_id());
}

#[test]
fn an_acknowledgement_whose_alert_ended_unseen_goes_at_the_first_sweep_that_finds_it_fine() {
    let acked = key(Rule::ServiceStatus, 1);
    let mut marks = Marks::default();
    marks.apply(MarkChange::Ack(Ack {
        key: acked,
        by: "me".into(),
        at: t(0),
    }));
    let book = AlertBook::new(&super::Rules::default());
    // Still a problem (not open yet here: the debounce): kept.
    let problem = vec![super::Observation::problem(
        acked,
        Level::Critical,
        "m".into(),
    )];
    assert!(marks.stale_acks(&book, &problem).is_empty());
    // Not checked at all (its data did not come): kept.
    assert!(marks.stale_acks(&book, &[]).is_empty());
    // Fine, or its rule checked in full without it: gone.
    assert_eq!(
        marks.stale_acks(&book, &[super::Observation::fine(acked)]),
        vec![acked]
    );
    let covered = vec![super::Observation::Covered(Rule::ServiceStatus)];
    assert_eq!(marks.stale_acks(&book, &covered), vec![acked]);
    // Open in the book: kept, whatever the sweep says (its resolution ends it).
    let mut book = AlertBook::new(&super::Rules {
        debounce: 1,
        ..super::Rules::default()
    });
    book.sweep(&problem, t(0));
    assert!(marks.stale_acks(&book, &covered).is_empty());
}
