//! `--scale N`: N generated services (and one invoice and one order each) in place of the
//! seed's, for load and long-list work. Clients, groups, products and the credit stay the
//! seed's.
//!
//! Choices:
//! - Service `i` (from 0) has ID `i + 1` and order `i + 1`; invoice `i + 1` is its invoice.
//! - Types alternate (even `i` fpr, odd ppr) over the seed's products of that type; the
//!   status cycles through all six every 12 services, so every status meets both types;
//!   clients are taken in turn; regdates go back up to a year.
//! - Service 1 (the first) is an Active fpr service with **100,000** IPs, for IP-list load
//!   work; the others have their product's `ip_count`.
//! - Every tenth fpr service is bound to an address of 100.64.0.0/10 (unique per service);
//!   an fpr service whose `i` is a multiple of 5 has its first proxy in error, of 7 its
//!   second proxy inactive.
//! - A ppr service's daily traffic is 50–140% of its limit over 30 days, so some are over.
//! - Invoice statuses cycle through all seven.
//! - Built in one pass with no per-record lookups: 100,000 services take well under a
//!   second.

use super::records::*;
use super::state::{invoice_description, next_due};
use crate::api::model::{InvoiceStatus, ProductType, ServiceStatus};
use chrono::{Days, NaiveDate};
use std::net::Ipv4Addr;

pub const BIG_LIST: u32 = 100_000;

pub fn replace_services(data: &mut Dataset, n: usize, today: NaiveDate) {
    let of_type = |t: ProductType| -> Vec<ProductRec> {
        data.products
            .iter()
            .filter(|p| p.product_type == t)
            .cloned()
            .collect()
    };
    let fpr = of_type(ProductType::Fpr);
    let ppr = of_type(ProductType::Ppr);
    let clients: Vec<u64> = data.clients.iter().map(|c| c.id).collect();
    let mut rng = fastrand::Rng::with_seed(n as u64);
    let mut services = Vec::with_capacity(n);
    let mut invoices = Vec::with_capacity(n);
    let mut orders = Vec::with_capacity(n);

    for i in 0..n {
        let id = i as u64 + 1;
        let round = i / 2;
        let want_fpr = i % 2 == 0;
        let pool = if (want_fpr && !fpr.is_empty()) || ppr.is_empty() {
            &fpr
        } else {
            &ppr
        };
        let Some(product) = pool.get((round / 6) % pool.len().max(1)) else {
            break; // A seed without products: nothing to generate services of.
        };
        let is_fpr = product.product_type == ProductType::Fpr;
        let status = ServiceStatus::ALL[round % 6].clone();
        let status = if i == 0 {
            ServiceStatus::Active
        } else {
            status
        };
        let regdate = today
            .checked_sub_days(Days::new((i % 365) as u64))
            .unwrap_or(today);
        let nextduedate = next_due(regdate, &product.billingcycle);
        let ip_count = match (is_fpr, i) {
            (false, _) => 0,
            (true, 0) => BIG_LIST,
            (true, _) => product.ip_count.unwrap_or(0),
        };
        let client_id = clients.get(i % clients.len().max(1)).copied().unwrap_or(0);
        let password: String = (0..12).map(|_| rng.alphanumeric()).collect();
        let bound_ip = (is_fpr && i % 20 == 0)
            .then(|| Ipv4Addr::from(u32::from(Ipv4Addr::new(100, 64, 0, 0)) + i as u32 / 20));
        let net = |every: usize, index: u32| {
            if is_fpr && i % every == 0 && index < ip_count {
                vec![index]
            } else {
                Vec::new()
            }
        };
        let limit_mb = if is_fpr {
            0.0
        } else {
            product.traffic_limit_mb
        };
        let daily_mb = if limit_mb > 0.0 {
            limit_mb / 30.0 * (0.5 + (i % 10) as f64 / 10.0)
        } else if is_fpr {
            0.0
        } else {
            500.0
        };
        services.push(ServiceRec {
            id,
            order_id: id,
            client_id,
            product_name: product.name.clone(),
            product_type: product.product_type.clone(),
            regdate,
            nextduedate,
            status,
            billingcycle: product.billingcycle.clone(),
            username: format!("pd{id}"),
            password,
            bound_ip,
            ip_count,
            price_cents: product.price_cents,
            network_errors: net(5, 0),
            network_inactive: net(7, 1),
            usage: Usage { limit_mb, daily_mb },
            list_epoch: 0,
            last_list_update: None,
            wire: None,
        });

        let invoice_status = InvoiceStatus::ALL[i % 7].clone();
        let paid = matches!(
            invoice_status,
            InvoiceStatus::Paid | InvoiceStatus::Refunded
        );
        invoices.push(InvoiceRec {
            id,
            description: invoice_description(&product.name, regdate, nextduedate),
            date_paid: paid.then_some(regdate),
            date_refunded: (invoice_status == InvoiceStatus::Refunded)
                .then(|| regdate.checked_add_days(Days::new(2)).unwrap_or(regdate)),
            status: invoice_status,
            created_at: regdate,
            amount_cents: product.price_cents,
            payment_method: ["Credit Balance", "PayPal", "Bank Transfer"][i % 3].into(),
            service_id: id,
            wire: None,
        });
        orders.push(id);
    }
    data.services = services;
    data.invoices = invoices;
    data.orders = orders;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::seed;

    #[test]
    fn scaled_services_cover_types_and_statuses() {
        let today = NaiveDate::from_ymd_opt(2026, 3, 15).expect("date");
        let mut data = seed::parse(seed::BUILT_IN, today).expect("seed");
        replace_services(&mut data, 1000, today);
        assert_eq!(data.services.len(), 1000);
        assert_eq!(data.invoices.len(), 1000);
        assert_eq!(data.services[0].ip_count, BIG_LIST);
        for status in ServiceStatus::ALL {
            for kind in ProductType::ALL {
                assert!(
                    data.services
                        .iter()
                        .any(|s| &s.status == status && &s.product_type == kind),
                    "{status} {kind}"
                );
            }
        }
        for status in InvoiceStatus::ALL {
            assert!(data.invoices.iter().any(|i| &i.status == status));
        }
        crate::sandbox::state::Store::new(data).expect("consistent");
    }
}
