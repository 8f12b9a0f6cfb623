//! The runway on fixed data worked out by hand: every billing cycle of the spec, unpaid
//! invoices standing for a renewal or owed alone, unknown prices and cycles, ended
//! services, the day the credit runs short, spend per month, and several accounts.

use super::*;
use crate::api::{ProductType, ServiceStatus};
use crate::app::testdata::{self as td, date};
use crate::billing::{earliest, not_known};

fn listed(id: u64, status: ServiceStatus, due: &str, product: &str) -> ServiceSummary {
    ServiceSummary {
        status,
        nextduedate: Some(date(due)),
        product_name: product.into(),
        ..td::summary(id)
    }
}

fn detail(id: u64, cycle: BillingCycle, due: &str, price: f64) -> Service {
    Service {
        billingcycle: cycle,
        nextduedate: Some(date(due)),
        price,
        ..td::service(id, ProductType::Fpr)
    }
}

fn unpaid(id: u64, amount: f64, service: Option<u64>, status: InvoiceStatus) -> Invoice {
    Invoice {
        status,
        amount,
        service_id: service,
        date_paid: None,
        created_at: Some(date("2026-02-25")),
        ..td::invoice(id)
    }
}

fn paid(id: u64, amount: f64, paid: Option<&str>, created: &str) -> Invoice {
    Invoice {
        amount,
        date_paid: paid.map(date),
        created_at: Some(date(created)),
        ..td::invoice(id)
    }
}

struct Account {
    services: Vec<ServiceSummary>,
    details: HashMap<u64, Service>,
    products: Vec<ProductSummary>,
    invoices: Vec<Invoice>,
}

/// Today 2026-03-01. Hand-worked owed amounts, by date:
/// - today: invoice 9002 ($5, no service), invoice 9001 ($60, service 7's Semi-Annually
///   renewal of 03-25 already invoiced);
/// - 03-05: service 1, Monthly at its own $10; 03-20: service 2, Quarterly $30;
/// - 04-15: service 3, no detail: the catalogue's $25, cycle taken as Monthly;
/// - later: service 7 again 09-25, service 8 (Annually $120) 2027-01-10.
///
/// Left out: 4 (Terminated), 6 (Free), invoice 9003 (Payment Pending). Service 5 has
/// no price anywhere: its renewal of 03-10 may cost anything (not known, never 0).
fn account() -> Account {
    use BillingCycle::*;
    let services = vec![
        listed(1, ServiceStatus::Active, "2026-03-05", "Static 10"),
        listed(2, ServiceStatus::Active, "2026-03-20", "Static 50"),
        listed(3, ServiceStatus::Suspended, "2026-04-15", "Rotating 5"),
        listed(4, ServiceStatus::Terminated, "2026-03-02", "Static 10"),
        listed(5, ServiceStatus::Active, "2026-03-10", "Gone plan"),
        listed(6, ServiceStatus::Active, "2026-03-03", "Trial"),
        listed(7, ServiceStatus::Active, "2026-03-25", "Static 100"),
        listed(8, ServiceStatus::Pending, "2027-01-10", "Static 200"),
    ];
    let details = HashMap::from([
        (1, detail(1, Monthly, "2026-03-05", 10.0)),
        (2, detail(2, Quarterly, "2026-03-20", 30.0)),
        (4, detail(4, Monthly, "2026-03-02", 99.0)),
        (6, detail(6, Free, "2026-03-03", 0.0)),
        (7, detail(7, SemiAnnually, "2026-03-25", 60.0)),
        (8, detail(8, Annually, "2027-01-10", 120.0)),
    ]);
    let products = vec![
        ProductSummary {
            product_name: "Rotating 5".into(),
            price: 25.0,
            ..td::product_summary(1)
        },
        ProductSummary {
            product_name: "Static 10".into(),
            price: 11.0,
            ..td::product_summary(2)
        },
    ];
    let invoices = vec![
        unpaid(9001, 60.0, Some(7), InvoiceStatus::Unpaid),
        unpaid(9002, 5.0, None, InvoiceStatus::Collections),
        unpaid(9003, 50.0, None, InvoiceStatus::PaymentPending),
        paid(9100, 40.0, Some("2026-02-10"), "2026-02-09"),
        paid(9101, 25.0, Some("2026-03-01"), "2026-03-01"),
        paid(9102, 15.0, None, "2026-02-20"),
        Invoice {
            status: InvoiceStatus::Refunded,
            ..paid(9103, 100.0, Some("2026-02-11"), "2026-02-11")
        },
        paid(9104, 30.0, Some("2025-01-01"), "2025-01-01"),
        Invoice {
            service_id: None,
            description: "Add Funds".into(),
            ..paid(9105, 200.0, Some("2026-02-12"), "2026-02-12")
        },
    ];
    Account {
        services,
        details,
        products,
        invoices,
    }
}

fn records(a: &Account, credit: Option<f64>) -> Records<'_> {
    Records {
        today: date("2026-03-01"),
        credit,
        services: Some(&a.services),
        details: Some(&a.details),
        products: Some(&a.products),
        invoices: Some(&a.invoices),
        invoices_unread: Unread::default(),
    }
}

fn run(a: &Account, credit: Option<f64>) -> Runway {
    runway(&records(a, credit)).expect("the services are known")
}

/// A renewal already invoiced whose payment is on its way (`Payment Pending`, `Pending`)
/// is owed neither from the credit nor again as a renewal: the next one is.
#[test]
fn a_renewal_whose_payment_is_on_its_way_is_not_counted_again() {
    for status in [InvoiceStatus::PaymentPending, InvoiceStatus::Pending] {
        let mut a = account();
        a.invoices.push(unpaid(9004, 30.0, Some(2), status.clone()));
        let r = run(&a, Some(100.0));
        let of_2: Vec<String> = r
            .soon
            .iter()
            .filter(|o| o.service_id == Some(2))
            .map(|o| o.date.to_string())
            .collect();
        assert!(of_2.is_empty(), "{status:?}: {of_2:?}");
        assert_eq!(r.soon_total, 75.0, "{status:?}: 105 less service 2's 30");
        assert!(r.soon.iter().all(|o| o.invoice_id != Some(9004)));
        // Without it the credit of 75 ran short on 03-20 (service 2's renewal); now on
        // service 1's next, 04-05.
        let mut p = priced();
        p.invoices.push(unpaid(9004, 30.0, Some(2), status.clone()));
        assert_eq!(run(&p, Some(75.0)).short, Short::On(date("2026-04-05")));
    }
}

#[test]
fn the_renewals_of_the_next_30_days_by_date_and_their_sum() {
    let r = run(&account(), Some(100.0));
    type Row = (String, Option<u64>, Option<u64>, f64, PriceSource);
    let soon: Vec<Row> = r
        .soon
        .iter()
        .map(|o| {
            (
                o.date.to_string(),
                o.service_id,
                o.invoice_id,
                o.amount,
                o.source,
            )
        })
        .collect();
    use PriceSource::*;
    assert_eq!(
        soon,
        [
            ("2026-03-01".into(), None, Some(9002), 5.0, Invoice),
            ("2026-03-01".into(), Some(7), Some(9001), 60.0, Invoice),
            ("2026-03-05".into(), Some(1), None, 10.0, Service),
            ("2026-03-20".into(), Some(2), None, 30.0, Service),
        ]
    );
    assert_eq!(r.soon_total, 105.0);
    assert_eq!(r.unknown_prices, [5]);
    assert_eq!(r.assumed_monthly, 1, "service 3 has no detail");
}

/// The account without service 5, whose price is known nowhere.
fn priced() -> Account {
    let mut a = account();
    a.services.retain(|s| s.service_id != 5);
    a
}

#[test]
fn the_day_the_credit_runs_short() {
    let a = priced();
    // 5 + 60 + 10 = 75 by 03-05; 105 by 03-20.
    let r = run(&a, Some(100.0));
    assert_eq!(r.short, Short::On(date("2026-03-20")));
    assert_eq!(r.covers_until(), Some(date("2026-03-19")));
    assert_eq!(
        r.line(),
        "covers renewals until 2026-03-19; $105.00 due in 30 days; 1 with the cycle unknown taken as Monthly"
    );
    let now = date("2026-03-01").and_hms_opt(12, 0, 0).unwrap().and_utc();
    assert_eq!(r.seconds_left(now), Some(18 * 86_400 + 12 * 3600));
    // Exactly 105: the 03-20 renewal is covered; then 04-05 (service 1 again, 115).
    assert_eq!(run(&a, Some(105.0)).short_on(), Some(date("2026-04-05")));
    // Less than the invoices owed today.
    let r = run(&a, Some(50.0));
    assert_eq!(r.short_on(), Some(date("2026-03-01")));
    assert_eq!(r.seconds_left(now), Some(0));
    assert!(
        r.line().starts_with("does not cover what is owed today"),
        "{}",
        r.line()
    );
    // No credit known: no day.
    assert_eq!(run(&a, None).short, Short::NotKnown);
    assert_eq!(run(&a, None).seconds_left(now), None);
    assert!(run(&a, None).line().starts_with("credit not known"));
}

/// Issue 46.1: a renewal with no known price is not free. Service 5 renews on 03-10 at a
/// price known nowhere: the known amounts run the credit of 100 short on 03-20, so the
/// day is 03-20 at the latest, not known exactly, and never exported; a credit short on
/// 03-05 already is short then whatever service 5 costs.
#[test]
fn a_renewal_with_no_known_price_makes_the_day_not_known_never_later() {
    let a = account();
    let r = run(&a, Some(100.0));
    assert_eq!(r.unknown_prices, [5]);
    assert_eq!(r.first_unknown, Some(date("2026-03-10")));
    assert_eq!(r.short, Short::ByAtLatest(date("2026-03-20")));
    assert_eq!((r.short_on(), r.covers_until()), (None, None));
    let now = date("2026-03-01").and_hms_opt(12, 0, 0).unwrap().and_utc();
    assert_eq!(r.seconds_left(now), None, "an unknown day is not exported");
    assert!(!r.soon_is_complete(), "service 5 falls within the 30 days");
    assert_eq!(
        r.line(),
        "runs short by 2026-03-20 at the latest; at least $105.00 due in 30 days; not known: 1 service with no known price; 1 with the cycle unknown taken as Monthly"
    );
    // 70 is short on 03-05 (75 owed), before service 5's renewal: known.
    let r = run(&a, Some(70.0));
    assert_eq!(r.short, Short::On(date("2026-03-05")));
    assert_eq!(r.seconds_left(now), Some(3 * 86_400 + 12 * 3600));
    // A credit the known amounts never exhaust is not "a year": not known.
    assert_eq!(run(&a, Some(1e6)).short, Short::NotKnown);
}

/// Issue 46.1: the invoices never read (or failing since start) are not "none": what is
/// owed today is not known, so neither is the day, the 30-day sum is "at least", and
/// the spend is not known (not $0.00).
#[test]
fn invoices_not_read_make_the_day_and_the_spend_not_known() {
    let a = priced();
    let r = runway(&Records {
        today: date("2026-03-01"),
        credit: Some(1e6),
        services: Some(&a.services),
        details: Some(&a.details),
        products: Some(&a.products),
        invoices: None,
        invoices_unread: Unread::default(),
    })
    .unwrap();
    assert_eq!(r.short, Short::NotKnown);
    assert!(!r.invoices_known && !r.spend_is_complete() && !r.soon_is_complete());
    assert!(r.spend.is_empty());
    assert!(
        r.line().starts_with(
            "not known how long the credit lasts; at least $100.00 due in 30 days; not known: the invoices could not be read"
        ),
        "{}",
        r.line()
    );
    // Short today on renewals alone: that much is known whatever the invoices say.
    let mut overdue = priced();
    overdue.services[0].nextduedate = Some(date("2026-02-01"));
    overdue.details.get_mut(&1).unwrap().nextduedate = Some(date("2026-02-01"));
    let r = runway(&Records {
        today: date("2026-03-01"),
        credit: Some(1.0),
        services: Some(&overdue.services),
        details: Some(&overdue.details),
        products: Some(&overdue.products),
        invoices: None,
        invoices_unread: Unread::default(),
    })
    .unwrap();
    assert_eq!(r.short, Short::On(date("2026-03-01")));
}

/// The catalogue not read: every service priced by it alone has no known price.
#[test]
fn a_catalogue_not_read_prices_nothing_at_zero() {
    let a = priced();
    let r = runway(&Records {
        today: date("2026-03-01"),
        credit: Some(100.0),
        services: Some(&a.services),
        details: Some(&a.details),
        products: None,
        invoices: Some(&a.invoices),
        invoices_unread: Unread::default(),
    })
    .unwrap();
    assert_eq!(r.unknown_prices, [3], "service 3 has no detail");
    assert_eq!(r.first_unknown, Some(date("2026-04-15")));
    // Short on 03-20 on the known amounts, before service 3's renewal: known.
    assert_eq!(r.short, Short::On(date("2026-03-20")));
    assert_eq!(
        run(&a, Some(300.0)).short,
        Short::On(date("2026-08-15")),
        "with the catalogue"
    );
    let r = runway(&Records {
        products: None,
        ..records(&a, Some(300.0))
    })
    .unwrap();
    assert_eq!(
        r.short,
        Short::ByAtLatest(date("2026-11-05")),
        "service 3 renews from April at a price not known"
    );
}

/// An unpaid invoice whose amount the server did not send is owed, not free.
#[test]
fn an_unpaid_invoice_without_an_amount_is_not_free() {
    let mut a = priced();
    a.invoices
        .push(unpaid(9009, f64::NAN, None, InvoiceStatus::Unpaid));
    let r = run(&a, Some(100.0));
    assert_eq!(r.unpaid_without_amount, [9009]);
    assert_eq!(r.first_unknown, Some(date("2026-03-01")));
    assert_eq!(r.short, Short::ByAtLatest(date("2026-03-20")));
}

/// A year ahead: service 1 Monthly $10 ×12 (03-05 … 2027-02-05), 2 Quarterly $30 ×4,
/// 3 Monthly (assumed) $25 ×11 (04-15 … 2027-02-15), 7: the invoice $60 and 09-25 $60,
/// 8 Annually $120, invoice 9002 $5: 120 + 120 + 275 + 120 + 120 + 5 = 760.
#[test]
fn every_cycle_repeats_at_its_length_over_a_year() {
    let a = priced();
    assert_eq!(run(&a, Some(760.0)).short, Short::Never);
    assert_eq!(
        run(&a, Some(760.0)).line(),
        "covers every renewal for a year; $105.00 due in 30 days; 1 with the cycle unknown taken as Monthly"
    );
    // 755 falls short on the year's last renewal: service 3's of 2027-02-15.
    assert_eq!(run(&a, Some(755.0)).short_on(), Some(date("2027-02-15")));
}

#[test]
fn month_ends_clamp_and_an_overdue_renewal_is_owed_today_once() {
    let services = vec![
        listed(1, ServiceStatus::Active, "2026-01-31", "A"),
        listed(2, ServiceStatus::Active, "2025-12-15", "B"),
    ];
    let details = HashMap::from([
        (1, detail(1, BillingCycle::Monthly, "2026-01-31", 10.0)),
        (2, detail(2, BillingCycle::Biennially, "2025-12-15", 200.0)),
    ]);
    let r = runway(&Records {
        today: date("2026-01-20"),
        credit: Some(0.0),
        services: Some(&services),
        details: Some(&details),
        ..Records::default()
    })
    .unwrap();
    let dates: Vec<(u64, String)> = r
        .soon
        .iter()
        .map(|o| (o.service_id.unwrap(), o.date.to_string()))
        .collect();
    // Service 2 is overdue: owed today once; its next renewal is two years on.
    assert_eq!(dates, [(2, "2026-01-20".into()), (1, "2026-01-31".into())]);
    assert_eq!(r.short, Short::On(date("2026-01-20")));
    let later = runway(&Records {
        today: date("2026-02-10"),
        credit: Some(0.0),
        services: Some(&services),
        details: Some(&details),
        ..Records::default()
    })
    .unwrap();
    assert!(
        later
            .soon
            .iter()
            .any(|o| o.service_id == Some(1) && o.date == date("2026-02-28")),
        "January 31st plus a month is February 28th: {:?}",
        later.soon
    );
}

#[test]
fn spend_per_month_from_the_paid_invoices() {
    let r = run(&account(), Some(100.0));
    assert_eq!(r.spend.len(), SPEND_MONTHS);
    assert_eq!(r.spend.first().unwrap().0, date("2025-04-01"));
    // February: 40 paid on the 10th and 15 with only a creation date; the refund is no
    // spend, nor the $200 top-up. March: 25. January 2025 is past the twelve months.
    assert_eq!(r.this_and_last_month(), (25.0, 55.0));
    assert_eq!(r.spend.iter().map(|(_, v)| v).sum::<f64>(), 80.0);
}

#[test]
fn nothing_is_known_before_the_services_list_and_several_accounts_give_the_earliest() {
    assert_eq!(runway(&Records::default()), None);
    let a = priced();
    let first = run(&a, Some(100.0));
    let none = run(&a, Some(10_000.0));
    let today = run(&a, Some(1.0));
    let unknown = run(&account(), Some(100.0));
    assert_eq!(
        earliest(&[
            Some(&first),
            None,
            Some(&none),
            Some(&today),
            Some(&unknown)
        ]),
        Some((3, date("2026-03-01")))
    );
    assert_eq!(earliest(&[Some(&none), None]), None);
    assert_eq!(
        not_known(&[Some(&first), None, Some(&none), Some(&unknown)]),
        [1, 3],
        "not worked out yet, and a day not known"
    );
}

/// An order is paid from the credit today and renews monthly after: the day the credit
/// runs short comes as much earlier as that costs.
#[test]
fn what_an_order_does_to_the_day_the_credit_runs_short() {
    let a = priced();
    let r = run(&a, Some(75.0));
    assert_eq!(r.short, Short::On(date("2026-03-20")));
    // 5 + 60 + 10 (the order) = 75 today; service 1's 10 on 03-05 runs it short.
    assert_eq!(r.after_order(10.0), Some(Short::On(date("2026-03-05"))));
    assert_eq!(
        r.covers_with(Short::On(date("2026-03-05"))),
        "covers renewals until 2026-03-04"
    );
    // 5 + 60 + 20 today is past 75 already.
    assert_eq!(r.after_order(20.0), Some(Short::On(date("2026-03-01"))));
    // With plenty, the order's monthly renewals count too: 12 × 500 is past 5,000.
    let rich = run(&a, Some(5_000.0));
    assert_eq!(rich.short, Short::Never);
    assert!(matches!(rich.after_order(500.0), Some(Short::On(_))));
    // A price or a credit not known says nothing.
    assert_eq!(r.after_order(f64::NAN), None);
    assert_eq!(run(&a, None).after_order(10.0), None);
}
