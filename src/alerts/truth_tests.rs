//! Issue 37's "alerts that lie": absence of data never resolves (it says "not checked
//! since"), ended services raise no usage alert and resolve theirs as ended, the
//! forecast's words agree with its date, and the shared alert file keeps one first
//! sighting whoever saw it first.

use super::snapshot::ServiceFacts;
use super::*;
use crate::api::ServiceStatus;
use chrono::{NaiveDate, TimeZone, Utc};

fn t(minutes: i64) -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 28, 12, 0, 0).unwrap() + chrono::Duration::minutes(minutes)
}

fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, 28).unwrap()
}

/// A rotating service whose rate is known.
fn ppr(id: u64, status: ServiceStatus) -> ServiceFacts {
    ServiceFacts {
        product_name: "Rotating 50 GB".into(),
        nextduedate: Some(today() + chrono::Days::new(15)),
        errors: Some(Vec::new()),
        rate: Some((40_000.0, 51_200.0)),
        usage_known: true,
        ..ServiceFacts::new(id, status)
    }
}

fn snapshot(services: Vec<ServiceFacts>) -> Snapshot {
    Snapshot {
        today: today(),
        today_start: Utc.with_ymd_and_hms(2026, 11, 28, 0, 0, 0).unwrap(),
        credit: Some(1000.0),
        services: Some(services),
        invoices: Some(Vec::new()),
        ..Snapshot::default()
    }
}

fn key(rule: Rule, id: u64) -> AlertKey {
    AlertKey {
        rule,
        subject: Subject::Service(id),
    }
}

fn open_alert(rule: Rule, id: u64, first_seen: chrono::DateTime<Utc>) -> Alert {
    Alert {
        key: key(rule, id),
        level: Level::Warn,
        message: "opened elsewhere".into(),
        first_seen,
        last_seen: first_seen,
        resolved: None,
        repeats: 0,
        next_repeat: None,
        level_unsure: false,
        unchecked_since: None,
    }
}

/// Item 1: `rate_forecast` alerts opened by a dashboard, then a sweep whose rates are in
/// but whose statistics (read hourly) are not: nothing resolves, and each says since
/// when it was not checked.
#[test]
fn a_forecast_without_statistics_is_not_checked_and_stays_open() {
    let mut book = AlertBook::new(&Rules::default());
    book.restore(vec![open_alert(Rule::RateForecast, 6, t(-5))]);
    let s = snapshot(vec![
        ppr(6, ServiceStatus::Active),
        ppr(7, ServiceStatus::Active),
    ]);
    for i in 0..5 {
        let observations = evaluate(&s, &Rules::default(), t(i));
        assert!(
            !observations.contains(&Observation::Covered(Rule::RateForecast)),
            "the statistics are not in: the rule cannot cover its services"
        );
        assert!(book.sweep(&observations, t(i)).is_empty(), "sweep {i}");
        let became = book.note_checked(&observations, t(i));
        if i == 0 {
            assert_eq!(became.len(), 1);
            assert_eq!(became[0].unchecked_since, Some(t(-5)));
            let utc = chrono::FixedOffset::east_opt(0).unwrap();
            assert_eq!(
                became[0].not_checked(utc).as_deref(),
                Some("not checked since 2026-11-28 11:55 UTC")
            );
        } else {
            assert!(became.is_empty(), "said once");
        }
    }
    assert_eq!(book.open_count(), 1);
    // The statistics come: now it is checked (fine at this pace), and resolves.
    let mut s = s;
    for f in s.services.iter_mut().flatten() {
        f.daily = Some(vec![10.0; 7]);
    }
    let observations = evaluate(&s, &Rules::default(), t(10));
    assert!(observations.contains(&Observation::Covered(Rule::RateForecast)));
    book.sweep(&observations, t(10));
    book.note_checked(&observations, t(10));
    assert!(book.open().all(|a| a.unchecked_since.is_none()));
    let out = book.sweep(&observations, t(11));
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].change, Change::Resolved);
}

/// Item 2: a Terminated or Cancelled service near its limit raises no usage alert, and
/// its open one resolves at once as "service ended".
#[test]
fn ended_services_raise_no_usage_alert_and_theirs_resolve_as_ended() {
    let near = |id, status| ServiceFacts {
        rate: Some((51_000.0, 51_200.0)),
        daily: Some(vec![5_000.0; 7]),
        ..ppr(id, status)
    };
    let s = snapshot(vec![
        near(1, ServiceStatus::Active),
        near(2, ServiceStatus::Terminated),
        near(3, ServiceStatus::Cancelled),
        ServiceFacts {
            rate: None,
            usage_known: false,
            daily: None,
            ..ppr(4, ServiceStatus::Fraud)
        },
    ]);
    let observations = evaluate(&s, &Rules::default(), t(0));
    let problems: Vec<AlertKey> = observations
        .iter()
        .filter_map(|o| match o {
            Observation::Seen {
                key,
                level: Some(_),
                ..
            } if matches!(key.rule, Rule::RateLimit | Rule::RateForecast) => Some(*key),
            _ => None,
        })
        .collect();
    assert_eq!(
        problems,
        [key(Rule::RateLimit, 1), key(Rule::RateForecast, 1)],
        "only the live service"
    );
    let mut book = AlertBook::new(&Rules {
        debounce: 3,
        ..Rules::default()
    });
    book.restore(vec![
        open_alert(Rule::RateLimit, 2, t(-60)),
        open_alert(Rule::RateForecast, 3, t(-60)),
    ]);
    let out = book.sweep(&observations, t(0));
    let resolved: Vec<(AlertKey, &str)> = out
        .iter()
        .filter(|t| t.change == Change::Resolved)
        .map(|t| (t.alert.key, t.alert.message.as_str()))
        .collect();
    assert_eq!(
        resolved,
        [
            (
                key(Rule::RateLimit, 2),
                "Service 2 (Rotating 50 GB): service ended (Terminated)"
            ),
            (
                key(Rule::RateForecast, 3),
                "Service 3 (Rotating 50 GB): service ended (Cancelled)"
            ),
        ]
    );
}

/// Item 3: reached during the due date itself is "on its due date", and the days and the
/// date are one rounding.
#[test]
fn the_forecast_says_on_its_due_date_when_that_is_the_day() {
    // 11,200 left at 800 a day: 14 days, reached on 12-12, the day before the due date.
    // At 760 a day: 14.7 days, reached during 12-13, the due date.
    let message = |per_day: f64| {
        let s = snapshot(vec![ServiceFacts {
            daily: Some(vec![per_day; 7]),
            ..ppr(6, ServiceStatus::Active)
        }]);
        evaluate(&s, &Rules::default(), t(0))
            .into_iter()
            .find_map(|o| match o {
                Observation::Seen {
                    key,
                    level: Some(_),
                    message,
                } if key.rule == Rule::RateForecast => Some(message),
                _ => None,
            })
    };
    assert_eq!(
        message(800.0).as_deref(),
        Some(
            "Service 6 (Rotating 50 GB): at 800 a day the limit of 51,200 is reached in about 14 days, before its due date 2026-12-13"
        )
    );
    assert_eq!(
        message(760.0).as_deref(),
        Some(
            "Service 6 (Rotating 50 GB): at 760 a day the limit of 51,200 is reached in about 15 days, on its due date 2026-12-13"
        )
    );
}

/// Item 4: an alert a dashboard opened five minutes ago keeps that first sighting when
/// `watch` sees it, through the shared file, and `watch`'s save keeps the dashboard's
/// other alerts.
#[test]
fn the_shared_alert_file_keeps_the_first_sighting_whoever_saw_it() {
    let dir = std::env::temp_dir().join(format!("proxydash-truth-{}", std::process::id()));
    let file = store::AlertFile::new(dir.join("alerts.json"));
    let dashboard_saw = open_alert(Rule::ServersInError, 6, t(-5));
    let other = open_alert(Rule::ServiceDue, 9, t(-30));
    file.save("acct", &[dashboard_saw.clone(), other.clone()], &[])
        .unwrap();
    // `watch` started with nothing open and is counting the servers in error.
    let mut watch = AlertBook::new(&Rules::default());
    let bad = [Observation::problem(
        key(Rule::ServersInError, 6),
        Level::Warn,
        "2 proxy servers in error".into(),
    )];
    assert!(watch.sweep(&bad, t(0)).is_empty());
    watch.adopt(file.load("acct").0);
    // Its next sweep does not announce it again: the dashboard did.
    assert!(watch.sweep(&bad, t(1)).is_empty());
    let first_seen: Vec<_> = watch.open().map(|a| (a.key, a.first_seen)).collect();
    assert_eq!(
        first_seen,
        [
            (key(Rule::ServiceDue, 9), t(-30)),
            (key(Rule::ServersInError, 6), t(-5)),
        ]
    );
    // `watch` saves a newer view of one alert with a later first sighting: the earlier
    // stays, and the other process's alert is kept; a resolution takes its alert out.
    let later = Alert {
        first_seen: t(0),
        ..dashboard_saw.clone()
    };
    file.save("acct", &[later], &[]).unwrap();
    let kept = file.load("acct").0;
    assert_eq!(kept.len(), 2);
    assert!(
        kept.iter()
            .any(|a| a.key == dashboard_saw.key && a.first_seen == t(-5))
    );
    file.save("acct", &[], &[other.key]).unwrap();
    assert_eq!(file.load("acct").0.len(), 1);
    let _ = std::fs::remove_dir_all(dir);
}
