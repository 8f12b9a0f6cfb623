//! The resources of spec section 2, decoded leniently (see [`super::lenient`]).
//!
//! Field names in Rust follow Rust style; the wire names stay in `#[serde(rename)]`
//! (`bindedip` is `bound_ip` here). Every type also serializes back to the wire shape, so
//! the sandbox and `--json` output speak exactly the API's field names.

use super::lenient;
use crate::secret::Secret;
use chrono::{NaiveDate, NaiveDateTime};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

mod listed;
mod wire;
pub use listed::*;
pub use wire::*;

/// 2.1: a client of the reseller.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Client {
    #[serde(deserialize_with = "lenient::u64")]
    pub id: u64,
    #[serde(default, deserialize_with = "lenient::string")]
    pub email: String,
}

/// 2.2: a product as listed by endpoints 6 and 7.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProductSummary {
    #[serde(rename = "productId", deserialize_with = "lenient::u64")]
    pub product_id: u64,
    #[serde(rename = "productName", default, deserialize_with = "lenient::string")]
    pub product_name: String,
    #[serde(default = "lenient::missing", deserialize_with = "lenient::money")]
    pub price: f64,
    #[serde(rename = "groupId", default, deserialize_with = "lenient::opt_u64")]
    pub group_id: Option<u64>,
    #[serde(rename = "groupName", default, deserialize_with = "lenient::string")]
    pub group_name: String,
    #[serde(default, deserialize_with = "lenient::opt_date")]
    pub created_at: Option<NaiveDate>,
}

/// 2.3: one product (endpoint 4).
///
/// The spec's single product has no `productName`; some servers send it anyway, so it is
/// read when present.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Product {
    #[serde(rename = "productId", deserialize_with = "lenient::u64")]
    pub product_id: u64,
    #[serde(
        rename = "productName",
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient::opt_string"
    )]
    pub product_name: Option<String>,
    #[serde(default = "lenient::missing", deserialize_with = "lenient::money")]
    pub price: f64,
    #[serde(rename = "groupId", default, deserialize_with = "lenient::opt_u64")]
    pub group_id: Option<u64>,
    #[serde(rename = "groupName", default, deserialize_with = "lenient::string")]
    pub group_name: String,
    #[serde(default, deserialize_with = "lenient::opt_date")]
    pub created_at: Option<NaiveDate>,
    #[serde(default, deserialize_with = "lenient::bool")]
    pub product_hidden: bool,
    #[serde(default, deserialize_with = "lenient::bool")]
    pub group_hidden: bool,
    #[serde(default)]
    pub product_type: ProductType,
    #[serde(default, deserialize_with = "lenient::opt_u64")]
    pub ip_count: Option<u64>,
    #[serde(
        default,
        serialize_with = "ser_datetime",
        deserialize_with = "lenient::opt_datetime"
    )]
    pub update_time: Option<NaiveDateTime>,
    #[serde(default, deserialize_with = "lenient::vec")]
    pub geo: Vec<Geo>,
}

/// One element of a product's `geo` list. Its shape is "not shown" in the spec, so any JSON
/// value is accepted and kept as a short label: a string as it is, an object as its values
/// joined by `/` in key order (`{"country":"US","city":"Dallas"}` → `Dallas/US`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geo(pub String);

impl fmt::Display for Geo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for Geo {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Geo {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        fn label(v: &serde_json::Value) -> String {
            match v {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Null => String::new(),
                serde_json::Value::Array(items) => {
                    items.iter().map(label).collect::<Vec<_>>().join("/")
                }
                serde_json::Value::Object(map) => map
                    .values()
                    .map(label)
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
                    .join("/"),
                other => other.to_string(),
            }
        }
        Ok(Geo(label(&serde_json::Value::deserialize(d)?)))
    }
}

/// 2.4: one service (endpoint 13).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Service {
    #[serde(deserialize_with = "lenient::u64")]
    pub service_id: u64,
    #[serde(default, deserialize_with = "lenient::opt_u64")]
    pub orderid: Option<u64>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub product_name: String,
    #[serde(default, deserialize_with = "lenient::opt_date")]
    pub regdate: Option<NaiveDate>,
    #[serde(default, deserialize_with = "lenient::opt_due_date")]
    pub nextduedate: Option<NaiveDate>,
    #[serde(default)]
    pub status: ServiceStatus,
    #[serde(default)]
    pub billingcycle: BillingCycle,
    #[serde(default, deserialize_with = "lenient::string")]
    pub username: String,
    #[serde(default, serialize_with = "ser_secret", deserialize_with = "de_secret")]
    pub password: Secret,
    #[serde(rename = "bindedip", default, deserialize_with = "lenient::opt_string")]
    pub bound_ip: Option<String>,
    #[serde(default)]
    pub product_type: ProductType,
    #[serde(default, deserialize_with = "lenient::opt_u64")]
    pub ip_count: Option<u64>,
    #[serde(default = "lenient::missing", deserialize_with = "lenient::money")]
    pub price: f64,
}

/// 2.5: a service as listed by endpoint 14.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ServiceSummary {
    #[serde(deserialize_with = "lenient::u64")]
    pub service_id: u64,
    #[serde(default, deserialize_with = "lenient::string")]
    pub product_name: String,
    #[serde(default, deserialize_with = "lenient::opt_due_date")]
    pub nextduedate: Option<NaiveDate>,
    #[serde(default, deserialize_with = "lenient::opt_u64")]
    pub orderid: Option<u64>,
    #[serde(default)]
    pub status: ServiceStatus,
}

/// 2.6: an invoice (endpoints 11 and 12).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Invoice {
    #[serde(deserialize_with = "lenient::u64")]
    pub id: u64,
    #[serde(default, deserialize_with = "lenient::string")]
    pub description: String,
    #[serde(default)]
    pub status: InvoiceStatus,
    #[serde(default, deserialize_with = "lenient::opt_date")]
    pub created_at: Option<NaiveDate>,
    #[serde(default = "lenient::missing", deserialize_with = "lenient::money")]
    pub amount: f64,
    #[serde(default, deserialize_with = "lenient::opt_date")]
    pub date_refunded: Option<NaiveDate>,
    #[serde(default, deserialize_with = "lenient::opt_date")]
    pub date_paid: Option<NaiveDate>,
    #[serde(
        rename = "paymentmethod",
        default,
        deserialize_with = "lenient::string"
    )]
    pub payment_method: String,
    #[serde(rename = "serviceid", default, deserialize_with = "lenient::opt_u64")]
    pub service_id: Option<u64>,
}

/// 2.7: one day of a ppr service's usage (endpoint 2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StatEntry {
    #[serde(default, deserialize_with = "lenient::opt_date")]
    pub date: Option<NaiveDate>,
    #[serde(default, deserialize_with = "lenient::f64")]
    pub rate: f64,
}

/// 2.8: a ppr service's usage against its limit (endpoint 3). A limit of 0 is read as
/// "no limit"; the UI must not divide by it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RateEntry {
    #[serde(default, deserialize_with = "lenient::f64")]
    pub limit: f64,
    #[serde(default, deserialize_with = "lenient::f64")]
    pub rate: f64,
}

/// 2.9: the account credit (endpoint 10).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Credit {
    #[serde(deserialize_with = "lenient::money")]
    pub credit: f64,
}

/// 2.10: what an order (endpoint 5) returns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OrderResult {
    #[serde(rename = "serviceId", deserialize_with = "lenient::u64")]
    pub service_id: u64,
    #[serde(rename = "orderId", default, deserialize_with = "lenient::opt_u64")]
    pub order_id: Option<u64>,
    #[serde(rename = "invoiceId", default, deserialize_with = "lenient::opt_u64")]
    pub invoice_id: Option<u64>,
    #[serde(default = "lenient::missing", deserialize_with = "lenient::money")]
    pub amount: f64,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub ip: Option<String>,
}

/// 4.1: the body of an order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct OrderRequest {
    pub clientid: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setip: Option<String>,
}

/// 4.3: the body of a service update. Every member is optional; the password is sent
/// base64-encoded (the client encodes it, callers hand over the plain secret).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ServiceUpdate {
    pub setip: Option<String>,
    pub update_list: bool,
    pub password: Option<Secret>,
}

/// 4.3: the answer to a service update, one member per requested operation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UpdateResult {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setip: Option<UpdateOutcome>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub update_list: Option<UpdateOutcome>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password: Option<UpdateOutcome>,
}

impl UpdateResult {
    /// The success messages, in the order setip, update_list, password.
    pub fn messages(&self) -> Vec<&str> {
        [&self.setip, &self.update_list, &self.password]
            .into_iter()
            .flatten()
            .map(|o| o.success.as_str())
            .collect()
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UpdateOutcome {
    #[serde(default, deserialize_with = "lenient::string")]
    pub success: String,
}

fn ser_secret<S: Serializer>(v: &Secret, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(v.expose())
}

fn de_secret<'de, D: Deserializer<'de>>(d: D) -> Result<Secret, D::Error> {
    lenient::string(d).map(Secret::new)
}

fn ser_datetime<S: Serializer>(v: &Option<NaiveDateTime>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(t) => s.serialize_str(&t.format("%Y-%m-%d %H:%M:%S").to_string()),
        None => s.serialize_none(),
    }
}
