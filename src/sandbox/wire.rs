//! Records → the JSON shapes of spec section 2.
//!
//! The resource types of `crate::api::model` are reused where they match the spec member
//! for member (client, product in a list, statistics, rate, credit, order result, update
//! result). Service, service in a list, single product and invoice have their own
//! borrowing structs here, because the spec's shapes need what the client's types do not
//! express, and because a list of 100,000 services should not clone 100,000 strings:
//! - fpr-only members (`bindedip`, `ip_count`, `update_time`, `geo`) are left out for ppr;
//! - an fpr service without a bound IP has `"bindedip": ""`;
//! - a `nextduedate` that is not set (a Free service, which never falls due) is sent as
//!   [`NEVER_DUE`], 9999-12-31: the spec lists the member for every service as a date and
//!   has no "never" (with quirks the record carries a `"0000-00-00"` override, as live
//!   servers send it);
//! - an invoice's `date_paid` / `date_refunded` that is not set is left out;
//! - the single product (2.3) has no `productName`, as in the spec.
//!
//! A record with `_wire` overrides from the seed goes through a `serde_json::Value` and has
//! those members replaced verbatim; all others serialize straight to bytes. An override
//! only touches members of the shape being written (a product's `ip_count` quirk shows in
//! the single product, never as an extra member of the product list), and may set one the
//! typed value leaves out (an invoice's unset `date_refunded` as `"0000-00-00"`).

use super::records::*;
use crate::api::lenient::NEVER_DUE;
use crate::api::model::{
    BillingCycle, Client, InvoiceStatus, ProductSummary, ProductType, ServiceStatus,
};
use chrono::{NaiveDate, NaiveDateTime};
use serde::{Serialize, Serializer};

use serde_json::Value;

fn datetime<S: Serializer>(v: &Option<NaiveDateTime>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(t) => s.collect_str(&t.format("%Y-%m-%d %H:%M:%S")),
        None => s.serialize_none(),
    }
}

/// A typed value, or the same value rewritten through JSON with overrides applied.
#[derive(Serialize)]
#[serde(untagged)]
pub enum Wire<T> {
    Typed(T),
    Raw(Value),
}

impl<T: Serialize> Wire<T> {
    /// `members`: every member the shape may have.
    pub fn new(value: T, overrides: &WireOverrides, members: &[&str]) -> Self {
        let Some(overrides) = overrides
            .as_ref()
            .filter(|o| o.keys().any(|k| members.contains(&k.as_str())))
        else {
            return Wire::Typed(value);
        };
        match serde_json::to_value(&value) {
            Ok(Value::Object(mut map)) => {
                for (k, v) in overrides.iter() {
                    if members.contains(&k.as_str()) {
                        map.insert(k.clone(), v.clone());
                    }
                }
                Wire::Raw(Value::Object(map))
            }
            _ => Wire::Typed(value),
        }
    }
}

const CLIENT: &[&str] = &["id", "email"];
const PRODUCT_SUMMARY: &[&str] = &[
    "productId",
    "productName",
    "price",
    "groupId",
    "groupName",
    "created_at",
];
const PRODUCT: &[&str] = &[
    "productId",
    "price",
    "groupId",
    "groupName",
    "created_at",
    "product_hidden",
    "group_hidden",
    "product_type",
    "ip_count",
    "update_time",
    "geo",
];
const SERVICE: &[&str] = &[
    "service_id",
    "orderid",
    "product_name",
    "regdate",
    "nextduedate",
    "status",
    "billingcycle",
    "username",
    "password",
    "bindedip",
    "product_type",
    "ip_count",
    "price",
];
const SERVICE_SUMMARY: &[&str] = &[
    "service_id",
    "product_name",
    "nextduedate",
    "orderid",
    "status",
];
const INVOICE: &[&str] = &[
    "id",
    "description",
    "status",
    "created_at",
    "amount",
    "date_refunded",
    "date_paid",
    "paymentmethod",
    "serviceid",
];

pub fn client(c: &ClientRec) -> Wire<Client> {
    Wire::new(
        Client {
            id: c.id,
            email: c.email.clone(),
        },
        &c.wire,
        CLIENT,
    )
}

pub fn product_summary(p: &ProductRec, group: Option<&GroupRec>) -> Wire<ProductSummary> {
    Wire::new(
        ProductSummary {
            product_id: p.id,
            product_name: p.name.clone(),
            price: dollars(p.price_cents),
            group_id: Some(p.group_id),
            group_name: group.map(|g| g.name.clone()).unwrap_or_default(),
            created_at: Some(p.created_at),
        },
        &p.wire,
        PRODUCT_SUMMARY,
    )
}

/// 2.3
#[derive(Serialize)]
pub struct ProductOut<'a> {
    #[serde(rename = "productId")]
    product_id: u64,
    price: f64,
    #[serde(rename = "groupId")]
    group_id: u64,
    #[serde(rename = "groupName")]
    group_name: &'a str,
    created_at: NaiveDate,
    product_hidden: bool,
    group_hidden: bool,
    product_type: &'a ProductType,
    #[serde(skip_serializing_if = "Option::is_none")]
    ip_count: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "datetime")]
    update_time: Option<NaiveDateTime>,
    #[serde(skip_serializing_if = "Option::is_none")]
    geo: Option<&'a Value>,
}

pub fn product<'a>(p: &'a ProductRec, group: Option<&'a GroupRec>) -> Wire<ProductOut<'a>> {
    let fpr = p.product_type == ProductType::Fpr;
    Wire::new(
        ProductOut {
            product_id: p.id,
            price: dollars(p.price_cents),
            group_id: p.group_id,
            group_name: group.map(|g| g.name.as_str()).unwrap_or(""),
            created_at: p.created_at,
            product_hidden: p.hidden,
            group_hidden: group.is_some_and(|g| g.hidden),
            product_type: &p.product_type,
            ip_count: if fpr {
                Some(p.ip_count.unwrap_or(0))
            } else {
                None
            },
            update_time: if fpr { p.update_time } else { None },
            geo: fpr.then_some(&p.geo),
        },
        &p.wire,
        PRODUCT,
    )
}

/// 2.4
#[derive(Serialize)]
pub struct ServiceOut<'a> {
    service_id: u64,
    orderid: u64,
    product_name: &'a str,
    regdate: NaiveDate,
    nextduedate: NaiveDate,
    status: &'a ServiceStatus,
    billingcycle: &'a BillingCycle,
    username: &'a str,
    password: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    bindedip: Option<String>,
    product_type: &'a ProductType,
    #[serde(skip_serializing_if = "Option::is_none")]
    ip_count: Option<u32>,
    price: f64,
}

pub fn service(s: &ServiceRec) -> Wire<ServiceOut<'_>> {
    let fpr = s.is_fpr();
    Wire::new(
        ServiceOut {
            service_id: s.id,
            orderid: s.order_id,
            product_name: &s.product_name,
            regdate: s.regdate,
            nextduedate: s.nextduedate.unwrap_or(NEVER_DUE),
            status: &s.status,
            billingcycle: &s.billingcycle,
            username: &s.username,
            password: &s.password,
            bindedip: fpr.then(|| s.bound_ip.map(|ip| ip.to_string()).unwrap_or_default()),
            product_type: &s.product_type,
            ip_count: fpr.then_some(s.ip_count),
            price: dollars(s.price_cents),
        },
        &s.wire,
        SERVICE,
    )
}

/// 2.5
#[derive(Serialize)]
pub struct ServiceSummaryOut<'a> {
    service_id: u64,
    product_name: &'a str,
    nextduedate: NaiveDate,
    orderid: u64,
    status: &'a ServiceStatus,
}

pub fn service_summary(s: &ServiceRec) -> Wire<ServiceSummaryOut<'_>> {
    Wire::new(
        ServiceSummaryOut {
            service_id: s.id,
            product_name: &s.product_name,
            nextduedate: s.nextduedate.unwrap_or(NEVER_DUE),
            orderid: s.order_id,
            status: &s.status,
        },
        &s.wire,
        SERVICE_SUMMARY,
    )
}

/// 2.6
#[derive(Serialize)]
pub struct InvoiceOut<'a> {
    id: u64,
    description: &'a str,
    status: &'a InvoiceStatus,
    created_at: NaiveDate,
    amount: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    date_refunded: Option<NaiveDate>,
    #[serde(skip_serializing_if = "Option::is_none")]
    date_paid: Option<NaiveDate>,
    paymentmethod: &'a str,
    serviceid: u64,
}

pub fn invoice(i: &InvoiceRec) -> Wire<InvoiceOut<'_>> {
    Wire::new(
        InvoiceOut {
            id: i.id,
            description: &i.description,
            status: &i.status,
            created_at: i.created_at,
            amount: dollars(i.amount_cents),
            date_refunded: i.date_refunded,
            date_paid: i.date_paid,
            paymentmethod: &i.payment_method,
            serviceid: i.service_id,
        },
        &i.wire,
        INVOICE,
    )
}
