//! Small builders of API values for tests and benchmarks (no sandbox involved): each gives a
//! plausible value for an ID; change fields with struct update syntax. Not in release
//! builds: compiled for the crate's tests and with the `testdata` feature, which the
//! benchmarks and doc tests get through the crate's dev-dependency on itself.
//!
//! ```
//! use proxydash::app::testdata as td;
//! use proxydash::api::ServiceStatus;
//! let s = proxydash::api::ServiceSummary { status: ServiceStatus::Suspended, ..td::summary(5001) };
//! assert_eq!(s.service_id, 5001);
//! ```

use crate::api::*;
use crate::secret::Secret;
use chrono::NaiveDate;

pub fn date(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("a YYYY-MM-DD date")
}

/// A listed service: Active, monthly, due 2026-02-01.
pub fn summary(id: u64) -> ServiceSummary {
    ServiceSummary {
        service_id: id,
        product_name: format!("Product of {id}"),
        nextduedate: Some(date("2026-02-01")),
        orderid: Some(id + 10_000),
        status: ServiceStatus::Active,
    }
}

/// A service's detail of the given type (fpr services get a bound IP and an IP count).
pub fn service(id: u64, product_type: ProductType) -> Service {
    let fpr = product_type == ProductType::Fpr;
    Service {
        service_id: id,
        orderid: Some(id + 10_000),
        product_name: format!("Product of {id}"),
        regdate: Some(date("2025-06-01")),
        nextduedate: Some(date("2026-02-01")),
        status: ServiceStatus::Active,
        billingcycle: BillingCycle::Monthly,
        username: format!("user{id}"),
        password: Secret::new(format!("pw-{id}-secret")),
        bound_ip: fpr.then(|| "203.0.113.5".to_owned()),
        product_type,
        ip_count: fpr.then_some(25),
        price: 12.5,
    }
}

pub fn product_summary(id: u64) -> ProductSummary {
    ProductSummary {
        product_id: id,
        product_name: format!("Proxy plan {id}"),
        price: 10.0 + id as f64,
        group_id: Some(id % 3 + 1),
        group_name: format!("Group {}", id % 3 + 1),
        created_at: Some(date("2025-01-15")),
    }
}

pub fn product(id: u64, product_type: ProductType) -> Product {
    let fpr = product_type == ProductType::Fpr;
    Product {
        product_id: id,
        product_name: Some(format!("Proxy plan {id}")),
        price: 10.0 + id as f64,
        group_id: Some(id % 3 + 1),
        group_name: format!("Group {}", id % 3 + 1),
        created_at: Some(date("2025-01-15")),
        product_hidden: false,
        group_hidden: false,
        product_type,
        ip_count: fpr.then_some(50),
        update_time: fpr.then(|| date("2025-12-30").and_hms_opt(8, 15, 0).expect("time")),
        geo: if fpr {
            vec![Geo("US".into()), Geo("DE/Berlin".into())]
        } else {
            vec![]
        },
    }
}

pub fn invoice(id: u64) -> Invoice {
    Invoice {
        id,
        description: format!("Proxy service #{id}"),
        status: InvoiceStatus::Paid,
        created_at: Some(date("2025-12-01")),
        amount: 12.5,
        date_refunded: None,
        date_paid: Some(date("2025-12-02")),
        payment_method: "credit".into(),
        service_id: Some(5000 + id % 10),
    }
}

/// `days` daily entries ending 2026-01-01, with a simple rising pattern.
pub fn stats(days: u32) -> Vec<StatEntry> {
    let end = date("2026-01-01");
    (0..days)
        .map(|i| StatEntry {
            date: Some(end - chrono::Days::new(u64::from(days - 1 - i))),
            rate: f64::from((i * 37) % 11 * 100 + 200),
        })
        .collect()
}

pub fn rate(rate: f64, limit: f64) -> Vec<RateEntry> {
    vec![RateEntry { limit, rate }]
}
