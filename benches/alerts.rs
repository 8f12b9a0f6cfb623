//! Target 9: an alert sweep of 10,000 services (the rules evaluated over everything known,
//! then the alert book fed) costs under 16 ms, one frame of the UI task it runs on, even
//! when a tenth of the services have servers in error and every rotating one is near its
//! limit.

mod common;

use chrono::{Days, NaiveDate, TimeZone, Utc};
use common::*;
use criterion::{Criterion, criterion_group, criterion_main};
use proxydash::alerts::snapshot::{InvoiceFacts, ServiceFacts};
use proxydash::alerts::{AlertBook, Rules, Snapshot, evaluate};
use proxydash::api::{InvoiceStatus, ServiceStatus};

fn snapshot(n: u64) -> Snapshot {
    let today = NaiveDate::from_ymd_opt(2026, 3, 1).unwrap();
    let services = (1..=n)
        .map(|id| {
            let mut s = ServiceFacts::new(
                id,
                if id % 50 == 0 {
                    ServiceStatus::Suspended
                } else {
                    ServiceStatus::Active
                },
            );
            s.product_name = format!("Product of {id}");
            s.nextduedate = Some(today + Days::new(id % 40));
            s.servers = Some(25);
            s.errors = Some(if id % 10 == 0 {
                vec!["198.51.100.7".into(), "198.51.100.9".into()]
            } else {
                Vec::new()
            });
            if id % 2 == 0 {
                s.rate = Some((9_300.0, 10_000.0));
                s.daily = Some(vec![400.0; 30]);
            }
            s.usage_known = true;
            s
        })
        .collect();
    let invoices = (1..=n)
        .map(|id| InvoiceFacts {
            id,
            description: format!("Renewal of {id}"),
            status: if id % 20 == 0 {
                InvoiceStatus::Unpaid
            } else {
                InvoiceStatus::Paid
            },
            amount: 12.0,
            created_at: Some(today),
        })
        .collect();
    Snapshot {
        today,
        today_start: today.and_hms_opt(0, 0, 0).unwrap().and_utc(),
        credit: Some(100.0),
        // The money ahead as the runway would give it: short within the week.
        ahead: Some(proxydash::alerts::snapshot::Ahead {
            credit: 100.0,
            short_on: Some(today + Days::new(5)),
            owed: 130.0,
            renewals: 10,
            invoices: 1,
            unknown_prices: 0,
            at_the_latest: false,
        }),
        services: Some(services),
        invoices: Some(invoices),
        ..Snapshot::default()
    }
}

fn bench(c: &mut Criterion) {
    let snap = snapshot(10_000);
    let rules = Rules::default();
    let mut book = AlertBook::new(&rules);
    let mut minute = 0;
    let mut sweep = |book: &mut AlertBook| {
        minute += 1;
        let now =
            Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap() + chrono::Duration::minutes(minute);
        let found = evaluate(&snap, &rules, now);
        book.sweep(&found, now).len()
    };
    // The first sweeps open every alert; later ones find them all still open.
    let opening = median(1, || {
        sweep(&mut book);
    });
    let opened = median(1, || {
        sweep(&mut book);
    });
    let steady = median(9, || {
        sweep(&mut book);
    });
    println!(
        "alert sweep of 10,000 services ({} open): first {}, opening {}, steady {}",
        book.open_count(),
        ms(opening),
        ms(opened),
        ms(steady)
    );
    let worst = opening.max(opened).max(steady);
    report(
        "alert sweep of 10,000 services (ms)",
        worst.as_secs_f64() * 1000.0,
        "< 16 ms",
        worst < std::time::Duration::from_millis(16),
    );
    // For scale: the account of 1,000 services.
    let small = snapshot(1_000);
    let mut small_book = AlertBook::new(&rules);
    let at = Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap();
    let small_steady = median(9, || {
        let found = evaluate(&small, &rules, at);
        small_book.sweep(&found, at);
    });
    println!("alert sweep of 1,000 services: steady {}", ms(small_steady));
    c.bench_function("alerts/sweep-10k", |b| b.iter(|| sweep(&mut book)));
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
