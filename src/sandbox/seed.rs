//! The seed file (`assets/seed.json`, built in; another file can replace it) → [`Dataset`].
//!
//! Format: one JSON object with `credit` (USD), `clients`, `groups`, `products`,
//! `services` and `invoices`; unknown members are errors, so a typo is not silently
//! ignored. Notes on the members that are not wire fields:
//! - Dates are `YYYY-MM-DD`, or relative to the start day (UTC): `today`, `today-30d`,
//!   `today+5d`, so the demo account never goes stale. `"0000-00-00"`, `""` or `null`
//!   mean "not set". `update_time` takes a date expression and ` HH:MM:SS`.
//! - A product names its `group`, `type` (`fpr`/`ppr`), `billingcycle` (given to the
//!   services ordered from it), `ip_count`, `update_time` and `geo` (fpr), and
//!   `traffic_limit_mb` (ppr, the limit of a new service; 0 = unlimited).
//! - A service names its `client` (which may be a client that no longer exists) and
//!   `product`; `billingcycle`, `ip_count` and `price` default to the product's.
//!   `network.errors` / `network.inactive` are indices into its IP list (fpr) or the
//!   gateways (ppr). `usage` (ppr) gives `limit_mb` (default the product's) and
//!   `daily_mb`, from which statistics are generated ([`super::usage`]).
//! - An invoice's `serviceid` is 0 for an invoice not tied to a service (adding funds).
//! - `_wire` on a client, product, service or invoice: members that replace those of its
//!   JSON answer verbatim, to reproduce live servers' quirks (numbers as strings,
//!   `"0000-00-00"`, `null`). A member changed through the API drops its override.

use super::records::*;
pub use super::seed_dates::{resolve_date, resolve_datetime};
use crate::api::model::{BillingCycle, InvoiceStatus, ProductType, ServiceStatus};
use chrono::NaiveDate;
use serde::Deserialize;
use serde_json::{Map, Value};
use std::collections::HashMap;

pub const BUILT_IN: &str = include_str!("../../assets/seed.json");

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeedFile {
    credit: f64,
    clients: Vec<SeedClient>,
    groups: Vec<SeedGroup>,
    products: Vec<SeedProduct>,
    services: Vec<SeedService>,
    invoices: Vec<SeedInvoice>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeedClient {
    id: u64,
    email: String,
    #[serde(rename = "_wire", default)]
    wire: Option<Map<String, Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeedGroup {
    id: u64,
    name: String,
    #[serde(default)]
    hidden: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeedProduct {
    id: u64,
    name: String,
    group: u64,
    #[serde(rename = "type")]
    product_type: ProductType,
    price: f64,
    billingcycle: BillingCycle,
    created_at: String,
    #[serde(default)]
    hidden: bool,
    ip_count: Option<u32>,
    update_time: Option<String>,
    #[serde(default)]
    geo: Option<Value>,
    #[serde(default)]
    traffic_limit_mb: f64,
    #[serde(rename = "_wire", default)]
    wire: Option<Map<String, Value>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct SeedNetwork {
    #[serde(default)]
    errors: Vec<u32>,
    #[serde(default)]
    inactive: Vec<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeedUsage {
    limit_mb: Option<f64>,
    daily_mb: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeedService {
    id: u64,
    client: u64,
    product: u64,
    orderid: u64,
    regdate: String,
    nextduedate: Option<String>,
    status: ServiceStatus,
    billingcycle: Option<BillingCycle>,
    username: String,
    password: String,
    bindedip: Option<String>,
    ip_count: Option<u32>,
    price: Option<f64>,
    #[serde(default)]
    network: SeedNetwork,
    usage: Option<SeedUsage>,
    #[serde(rename = "_wire", default)]
    wire: Option<Map<String, Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeedInvoice {
    id: u64,
    description: String,
    status: InvoiceStatus,
    created_at: String,
    amount: f64,
    date_paid: Option<String>,
    date_refunded: Option<String>,
    paymentmethod: String,
    serviceid: u64,
    #[serde(rename = "_wire", default)]
    wire: Option<Map<String, Value>>,
}

/// Reads a seed; `today` anchors the relative dates.
pub fn parse(text: &str, today: NaiveDate) -> Result<Dataset, String> {
    let seed: SeedFile = serde_json::from_str(text).map_err(|e| format!("seed: {e}"))?;
    let date = |what: &str, s: &str| -> Result<NaiveDate, String> {
        resolve_date(s, today)?.ok_or_else(|| format!("seed: {what}: a date is required"))
    };
    let opt_date = |s: &Option<String>| -> Result<Option<NaiveDate>, String> {
        s.as_deref().map_or(Ok(None), |s| resolve_date(s, today))
    };
    let wire = |w: Option<Map<String, Value>>| w.filter(|m| !m.is_empty()).map(Box::new);

    let clients = seed
        .clients
        .into_iter()
        .map(|c| ClientRec {
            id: c.id,
            email: c.email,
            wire: wire(c.wire),
        })
        .collect();
    let groups: Vec<GroupRec> = seed
        .groups
        .into_iter()
        .map(|g| GroupRec {
            id: g.id,
            name: g.name,
            hidden: g.hidden,
        })
        .collect();

    let mut products = Vec::new();
    for p in seed.products {
        let what = format!("product {}", p.id);
        known("product type", &p.product_type, ProductType::ALL, &what)?;
        known("billing cycle", &p.billingcycle, BillingCycle::ALL, &what)?;
        if !groups.iter().any(|g| g.id == p.group) {
            return Err(format!("seed: {what}: unknown group {}", p.group));
        }
        let update_time = match p.update_time.as_deref() {
            Some(s) => resolve_datetime(s, today)?,
            None => None,
        };
        products.push(ProductRec {
            id: p.id,
            name: p.name,
            group_id: p.group,
            product_type: p.product_type,
            price_cents: cents(p.price),
            billingcycle: p.billingcycle,
            created_at: date(&what, &p.created_at)?,
            hidden: p.hidden,
            ip_count: p.ip_count,
            update_time,
            geo: p.geo.unwrap_or_else(|| Value::Array(Vec::new())),
            traffic_limit_mb: p.traffic_limit_mb,
            wire: wire(p.wire),
        });
    }
    let by_id: HashMap<u64, &ProductRec> = products.iter().map(|p| (p.id, p)).collect();

    let mut services = Vec::new();
    for s in seed.services {
        let what = format!("service {}", s.id);
        known("status", &s.status, ServiceStatus::ALL, &what)?;
        let product = by_id
            .get(&s.product)
            .ok_or_else(|| format!("seed: {what}: unknown product {}", s.product))?;
        let fpr = product.product_type == ProductType::Fpr;
        let bound_ip = match s.bindedip.as_deref() {
            None | Some("") => None,
            Some(text) => Some(
                super::bodies::parse_ipv4(text)
                    .filter(|_| fpr)
                    .ok_or_else(|| format!("seed: {what}: bindedip {text:?} is not usable"))?,
            ),
        };
        let ip_count = if fpr {
            s.ip_count.or(product.ip_count).unwrap_or(0)
        } else {
            0
        };
        let hosts = if fpr {
            ip_count
        } else {
            super::iplist::GATEWAYS.len() as u32
        };
        if let Some(bad) = s
            .network
            .errors
            .iter()
            .chain(&s.network.inactive)
            .find(|i| **i >= hosts)
        {
            return Err(format!(
                "seed: {what}: network index {bad} is outside its {hosts} hosts"
            ));
        }
        let usage = match (&s.usage, fpr) {
            (Some(u), false) => Usage {
                limit_mb: u.limit_mb.unwrap_or(product.traffic_limit_mb),
                daily_mb: u.daily_mb,
            },
            (None, false) => Usage {
                limit_mb: product.traffic_limit_mb,
                daily_mb: 0.0,
            },
            (Some(_), true) => return Err(format!("seed: {what}: usage is for ppr services")),
            (None, true) => Usage::default(),
        };
        services.push(ServiceRec {
            id: s.id,
            order_id: s.orderid,
            client_id: s.client,
            product_name: product.name.clone(),
            product_type: product.product_type.clone(),
            regdate: date(&what, &s.regdate)?,
            nextduedate: opt_date(&s.nextduedate)?,
            status: s.status,
            billingcycle: s
                .billingcycle
                .unwrap_or_else(|| product.billingcycle.clone()),
            username: s.username,
            password: s.password,
            bound_ip,
            ip_count,
            price_cents: s.price.map_or(product.price_cents, cents),
            network_errors: s.network.errors,
            network_inactive: s.network.inactive,
            usage,
            list_epoch: 0,
            last_list_update: None,
            wire: wire(s.wire),
        });
    }

    let mut invoices = Vec::new();
    for i in seed.invoices {
        let what = format!("invoice {}", i.id);
        known("status", &i.status, InvoiceStatus::ALL, &what)?;
        if i.serviceid != 0 && !services.iter().any(|s| s.id == i.serviceid) {
            return Err(format!("seed: {what}: unknown service {}", i.serviceid));
        }
        invoices.push(InvoiceRec {
            id: i.id,
            description: i.description,
            status: i.status,
            created_at: date(&what, &i.created_at)?,
            amount_cents: cents(i.amount),
            date_paid: opt_date(&i.date_paid)?,
            date_refunded: opt_date(&i.date_refunded)?,
            payment_method: i.paymentmethod,
            service_id: i.serviceid,
            wire: wire(i.wire),
        });
    }
    let orders = services.iter().map(|s| s.order_id).collect();

    Ok(Dataset {
        credit_cents: cents(seed.credit),
        clients,
        groups,
        products,
        services,
        invoices,
        orders,
    })
}

fn known<T: PartialEq + std::fmt::Display>(
    kind: &str,
    value: &T,
    all: &[T],
    what: &str,
) -> Result<(), String> {
    if all.contains(value) {
        Ok(())
    } else {
        Err(format!(
            "seed: {what}: unknown {kind} {:?}",
            value.to_string()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 3, 15).expect("date")
    }

    #[test]
    fn built_in_seed_loads_and_covers_the_spec() {
        let data = parse(BUILT_IN, today()).expect("built-in seed");
        assert!(data.clients.len() >= 3);
        assert!(data.products.len() >= 8);
        assert!(data.services.len() >= 12);
        assert!(data.invoices.len() >= 20);
        for status in ServiceStatus::ALL {
            assert!(
                data.services.iter().any(|s| &s.status == status),
                "{status}"
            );
        }
        for kind in ProductType::ALL {
            assert!(
                data.services.iter().any(|s| &s.product_type == kind),
                "{kind}"
            );
            assert!(
                data.products.iter().any(|p| &p.product_type == kind),
                "{kind}"
            );
        }
        for status in InvoiceStatus::ALL {
            assert!(
                data.invoices.iter().any(|i| &i.status == status),
                "{status}"
            );
        }
        assert!(data.products.iter().any(|p| p.hidden));
        assert!(data.groups.iter().any(|g| g.hidden));
        assert_eq!(data.credit_cents, 25_000);
        super::super::state::Store::new(data).expect("a consistent seed");
    }

    #[test]
    fn typos_and_bad_references_are_reported() {
        let err = match parse(
            r#"{"credit":1,"clients":[],"groups":[],"products":[],"services":[],"invoices":[],"extra":1}"#,
            today(),
        ) {
            Err(e) => e,
            Ok(_) => String::new(),
        };
        assert!(err.contains("extra"), "{err}");
        let err = match parse(
            r#"{"credit":1,"clients":[],"groups":[],"products":[],"invoices":[],
               "services":[{"id":1,"client":1,"product":9,"orderid":1,"regdate":"today",
               "status":"Active","username":"u","password":"p"}]}"#,
            today(),
        ) {
            Err(e) => e,
            Ok(_) => String::new(),
        };
        assert!(err.contains("unknown product 9"), "{err}");
    }
}
