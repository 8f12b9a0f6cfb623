//! The sandbox's own records: what the server stores, in the types its rules need.
//!
//! They are not the wire types: money is kept in cents (so an order never leaves
//! `249.99999` of credit behind), a bound IP is an [`Ipv4Addr`], and each record carries
//! the extra facts the server needs but never sends (the owning client, the product, the
//! network state, the usage profile, the time of the last `update_list`).
//! [`super::wire`] turns them into the spec's shapes.

use crate::api::model::{BillingCycle, InvoiceStatus, ProductType, ServiceStatus};
use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use serde_json::{Map, Value};
use std::net::Ipv4Addr;

/// Members that replace those of a record's JSON answer verbatim: the seed's `_wire`, used
/// to reproduce live servers' quirks (a price as a string, `"0000-00-00"`, a `null`).
pub type WireOverrides = Option<Box<Map<String, Value>>>;

#[derive(Clone, Debug)]
pub struct ClientRec {
    pub id: u64,
    pub email: String,
    pub wire: WireOverrides,
}

#[derive(Clone, Debug)]
pub struct GroupRec {
    pub id: u64,
    pub name: String,
    pub hidden: bool,
}

#[derive(Clone, Debug)]
pub struct ProductRec {
    pub id: u64,
    pub name: String,
    pub group_id: u64,
    pub product_type: ProductType,
    pub price_cents: i64,
    /// Not a field of the product on the wire (2.3); it becomes the service's billingcycle.
    pub billingcycle: BillingCycle,
    pub created_at: NaiveDate,
    pub hidden: bool,
    /// fpr only.
    pub ip_count: Option<u32>,
    /// fpr only.
    pub update_time: Option<NaiveDateTime>,
    /// fpr only; served as the seed wrote it (element shape "not shown").
    pub geo: Value,
    /// ppr only: the usage limit a new service of this product gets (0 = unlimited).
    pub traffic_limit_mb: f64,
    pub wire: WireOverrides,
}

/// A ppr service's usage profile: the rate endpoint's limit, and the mean daily traffic
/// from which the statistics are generated (see [`super::usage`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Usage {
    pub limit_mb: f64,
    pub daily_mb: f64,
}

#[derive(Clone, Debug)]
pub struct ServiceRec {
    pub id: u64,
    pub order_id: u64,
    /// The owner; may name a client that no longer exists (endpoints 8, 9 and 15 then
    /// answer 400 `ClientID not found`).
    pub client_id: u64,
    pub product_name: String,
    pub product_type: ProductType,
    pub regdate: NaiveDate,
    /// `None`: a Free service never falls due; left out of answers (`"0000-00-00"` with
    /// quirks).
    pub nextduedate: Option<NaiveDate>,
    pub status: ServiceStatus,
    pub billingcycle: BillingCycle,
    pub username: String,
    pub password: String,
    pub bound_ip: Option<Ipv4Addr>,
    /// fpr: how many proxies the IP list holds; ppr: 0 (its list is the gateways).
    pub ip_count: u32,
    pub price_cents: i64,
    /// Indices into the service's IP list (fpr) or the gateways (ppr).
    pub network_errors: Vec<u32>,
    pub network_inactive: Vec<u32>,
    pub usage: Usage,
    /// Bumped by every `update_list`: the generated addresses move, as a refresh would.
    pub list_epoch: u32,
    pub last_list_update: Option<DateTime<Utc>>,
    pub wire: WireOverrides,
}

impl ServiceRec {
    pub fn is_fpr(&self) -> bool {
        self.product_type == ProductType::Fpr
    }

    /// Terminated, cancelled and fraud services can no longer be changed (endpoint 15).
    pub fn is_closed(&self) -> bool {
        matches!(
            self.status,
            ServiceStatus::Terminated | ServiceStatus::Cancelled | ServiceStatus::Fraud
        )
    }

    /// Live servers send an unset due date as `"0000-00-00"` (kept unless the seed says
    /// otherwise).
    pub fn quirk_unset_due_date(&mut self) {
        self.wire
            .get_or_insert_with(Default::default)
            .entry("nextduedate")
            .or_insert_with(|| Value::String("0000-00-00".into()));
    }

    /// Drops a quirk override of `member`, so a value changed through the API is served
    /// as it now is rather than as the seed's frozen text.
    pub fn forget_override(&mut self, member: &str) {
        if let Some(map) = self.wire.as_mut() {
            map.remove(member);
        }
    }
}

#[derive(Clone, Debug)]
pub struct InvoiceRec {
    pub id: u64,
    pub description: String,
    pub status: InvoiceStatus,
    pub created_at: NaiveDate,
    pub amount_cents: i64,
    pub date_paid: Option<NaiveDate>,
    pub date_refunded: Option<NaiveDate>,
    pub payment_method: String,
    /// 0 for an invoice that is not for a service (adding funds).
    pub service_id: u64,
    pub wire: WireOverrides,
}

pub fn cents(amount: f64) -> i64 {
    (amount * 100.0).round() as i64
}

pub fn dollars(cents: i64) -> f64 {
    cents as f64 / 100.0
}

/// Everything the server starts from: the seed (or the seed with scaled services).
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    pub credit_cents: i64,
    pub clients: Vec<ClientRec>,
    pub groups: Vec<GroupRec>,
    pub products: Vec<ProductRec>,
    pub services: Vec<ServiceRec>,
    pub invoices: Vec<InvoiceRec>,
    /// Order IDs: an order has no resource of its own in the API; it is seen only as a
    /// service's `orderid` and in the order result.
    pub orders: Vec<u64>,
}

impl Dataset {
    /// Without quirks every record answers in the spec's own types: the seed's `_wire`
    /// overrides are dropped. With them, an unset due date is also served as live servers
    /// send it, `"0000-00-00"`.
    pub fn set_quirks(&mut self, quirks: bool) {
        if !quirks {
            self.clients.iter_mut().for_each(|c| c.wire = None);
            self.products.iter_mut().for_each(|p| p.wire = None);
            self.services.iter_mut().for_each(|s| s.wire = None);
            self.invoices.iter_mut().for_each(|i| i.wire = None);
            return;
        }
        for s in self.services.iter_mut().filter(|s| s.nextduedate.is_none()) {
            s.quirk_unset_due_date();
        }
    }
}
