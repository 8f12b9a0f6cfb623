//! The alert policy's first sightings and announcements (issue 44): what was already true
//! at start is baseline and one summary, a change is news, many at once are one digest,
//! an ending is one notice, and an ended service raises nothing.

use super::herald::{BASELINE_WAIT, Herald, Notice};
use super::snapshot::{InvoiceFacts, ServiceFacts};
use super::*;
use crate::api::{InvoiceStatus, ServiceStatus};
use chrono::{NaiveDate, TimeZone, Utc};

fn t(seconds: i64) -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap() + chrono::Duration::seconds(seconds)
}

fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 3, 1).unwrap()
}

fn service(id: u64, status: ServiceStatus) -> ServiceFacts {
    ServiceFacts {
        product_name: "Static 10".into(),
        nextduedate: Some(today() + chrono::Days::new(30)),
        errors: Some(Vec::new()),
        usage_known: true,
        ..ServiceFacts::new(id, status)
    }
}

fn snapshot(services: Vec<ServiceFacts>, invoices: Vec<InvoiceFacts>) -> Snapshot {
    Snapshot {
        today: today(),
        today_start: Utc.with_ymd_and_hms(2026, 3, 1, 0, 0, 0).unwrap(),
        credit: Some(1000.0),
        // The money ahead known and covered: `credit_low` is checked.
        ahead: Some(super::snapshot::Ahead {
            credit: 1000.0,
            short_on: None,
            owed: 0.0,
            renewals: 0,
            invoices: 0,
            unknown_prices: 0,
            at_the_latest: false,
        }),
        services: Some(services),
        invoices: Some(invoices),
        ..Snapshot::default()
    }
}

fn unpaid(id: u64) -> InvoiceFacts {
    InvoiceFacts {
        id,
        description: "renewal".into(),
        status: InvoiceStatus::Unpaid,
        amount: 5.0,
        created_at: Some(today()),
    }
}

/// A book and a herald, swept at `t(at)`.
struct Watch {
    book: AlertBook,
    herald: Herald,
    rules: Rules,
}

impl Watch {
    fn new() -> Self {
        let rules = Rules::default();
        Self {
            book: AlertBook::new(&rules),
            herald: Herald::default(),
            rules,
        }
    }

    fn sweep(&mut self, s: &Snapshot, at: i64) -> (Vec<Transition>, Vec<Notice>) {
        let observations = evaluate(s, &self.rules, t(at));
        let transitions = self.book.sweep(&observations, t(at));
        let notices = self
            .herald
            .notices(&transitions, &self.book, &self.rules, t(at));
        (transitions, notices)
    }
}

#[test]
fn what_is_true_at_start_is_one_summary_and_a_later_change_is_news() {
    let mut w = Watch::new();
    // 700 Suspended services and 300 unpaid invoices at start.
    let mut services: Vec<ServiceFacts> = (0..700)
        .map(|i| service(1000 + i, ServiceStatus::Suspended))
        .collect();
    services.push(service(5000, ServiceStatus::Active));
    let invoices: Vec<InvoiceFacts> = (0..300).map(|i| unpaid(7000 + i)).collect();
    let s = snapshot(services.clone(), invoices.clone());
    let (opened, first) = w.sweep(&s, 0);
    assert_eq!(opened.len(), 1000);
    assert!(opened.iter().all(|t| t.baseline), "all baseline");
    assert!(
        first.is_empty(),
        "held until the first full picture: {first:?}"
    );
    // The second sweep completes every measurement's debounce: one summary.
    let (_, second) = w.sweep(&s, 30);
    assert_eq!(second.len(), 1, "{second:?}");
    let Notice::Digest(d) = &second[0] else {
        panic!("a summary: {second:?}")
    };
    assert_eq!(d.kind, DigestKind::Baseline);
    assert_eq!(d.total, 1000);
    assert_eq!(d.open.get(&Level::Critical), Some(&700));
    assert_eq!(d.open.get(&Level::Warn), Some(&300));
    let message = d.message("shop");
    assert!(
        message.starts_with("shop: 1,000 alerts already open at start (700 critical, 300 warn)"),
        "{message}"
    );
    assert!(
        message.contains("service_status 700, unpaid_invoice 300"),
        "{message}"
    );
    assert!(
        message.contains("Worst: Service 1000 (Static 10) is Suspended"),
        "{message}"
    );
    // Service 5000, seen Active, is suspended: news, at once, on its own.
    services.last_mut().unwrap().status = ServiceStatus::Suspended;
    let (changed, third) = w.sweep(&snapshot(services.clone(), invoices.clone()), 60);
    assert_eq!(changed.len(), 1);
    assert!(!changed[0].baseline);
    assert!(
        matches!(&third[..], [Notice::One(t)] if t.alert.key.subject == Subject::Service(5000))
    );
    // A new invoice, after the invoices were checked: news too.
    let mut more = invoices.clone();
    more.push(unpaid(9999));
    let (changed, _) = w.sweep(&snapshot(services, more), 90);
    assert_eq!(changed.len(), 1);
    assert!(!changed[0].baseline, "a new invoice is a change");
}

#[test]
fn a_large_first_round_is_summed_up_by_its_deadline_not_held_back() {
    let mut w = Watch::new();
    // The network lists are not all read yet: servers_in_error is never checked in full.
    let mut services: Vec<ServiceFacts> = (0..50)
        .map(|i| service(1000 + i, ServiceStatus::Suspended))
        .collect();
    services.push(ServiceFacts {
        errors: None,
        ..service(5000, ServiceStatus::Active)
    });
    let s = snapshot(services, Vec::new());
    let (_, first) = w.sweep(&s, 0);
    assert!(first.is_empty());
    let (_, before) = w.sweep(&s, 30);
    assert!(before.is_empty(), "not complete, not yet due");
    let due = BASELINE_WAIT.num_seconds();
    let (_, summary) = w.sweep(&s, due);
    assert!(
        matches!(&summary[..], [Notice::Digest(d)] if d.kind == DigestKind::Baseline && d.total == 50),
        "{summary:?}"
    );
}

#[test]
fn more_than_a_handful_of_changes_at_once_is_one_digest() {
    let mut w = Watch::new();
    let mut services: Vec<ServiceFacts> = (0..10)
        .map(|i| service(1000 + i, ServiceStatus::Active))
        .collect();
    w.sweep(&snapshot(services.clone(), Vec::new()), 0);
    w.sweep(&snapshot(services.clone(), Vec::new()), 30);
    for s in services.iter_mut().take(3) {
        s.status = ServiceStatus::Suspended;
    }
    let (_, three) = w.sweep(&snapshot(services.clone(), Vec::new()), 60);
    assert_eq!(three.len(), 3);
    assert!(three.iter().all(|n| matches!(n, Notice::One(_))));
    for s in services.iter_mut() {
        s.status = ServiceStatus::Suspended;
    }
    let (_, seven) = w.sweep(&snapshot(services, Vec::new()), 90);
    assert!(
        matches!(&seven[..], [Notice::Digest(d)] if d.kind == DigestKind::Changes && d.total == 7),
        "{seven:?}"
    );
}

#[test]
fn an_ending_seen_while_watched_is_one_notice_and_an_ended_service_raises_nothing() {
    let mut w = Watch::new();
    let services = vec![
        service(1, ServiceStatus::Terminated),
        service(2, ServiceStatus::Cancelled),
        service(3, ServiceStatus::Fraud),
        service(4, ServiceStatus::Pending),
        service(5, ServiceStatus::Active),
        service(6, ServiceStatus::Suspended),
    ];
    let (opened, _) = w.sweep(&snapshot(services.clone(), Vec::new()), 0);
    let subjects: Vec<Subject> = opened.iter().map(|t| t.alert.key.subject).collect();
    assert_eq!(subjects, [Subject::Service(6)], "only the suspended one");
    let mut ended = services.clone();
    ended[4].status = ServiceStatus::Terminated;
    ended[5].status = ServiceStatus::Cancelled;
    let (changes, notices) = w.sweep(&snapshot(ended.clone(), Vec::new()), 30);
    let of = |id: u64| {
        changes
            .iter()
            .find(|t| t.alert.key.subject == Subject::Service(id))
            .map(|t| (t.change, t.alert.level, t.alert.message.clone()))
    };
    assert_eq!(
        of(5),
        Some((
            Change::Notice,
            Level::Info,
            "Service 5 (Static 10) ended (Terminated)".into()
        ))
    );
    // The open alert of the suspended one resolves as ended: one transition, no notice.
    assert_eq!(of(6).map(|o| o.0), Some(Change::Resolved));
    assert_eq!(changes.len(), 2);
    assert!(w.book.open().next().is_none(), "a notice is never open");
    assert!(
        notices
            .iter()
            .any(|n| matches!(n, Notice::One(t) if t.change == Change::Notice))
    );
    // Never again.
    let (again, _) = w.sweep(&snapshot(ended, Vec::new()), 60);
    assert!(again.is_empty(), "{again:?}");
}
