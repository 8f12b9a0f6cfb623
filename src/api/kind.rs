//! What kind of datum a request reads: the rows of the freshness table (its cadences are
//! the account engine's, `crate::account::freshness`), the `kind` label of the metrics and
//! what an alert about one kind of data (`datum_failing`) is about. Here, beside the
//! requests, so the alert rules can name a kind without naming the engine.

use super::Request;
use serde::{Deserialize, Serialize};

/// What kind of datum a request reads: the rows of the freshness table, and the
/// `kind` label of `proxydash_oldest_datum_age_seconds`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Services,
    Credit,
    Invoices,
    Network,
    Rate,
    Stats,
    ServiceDetail,
    Invoice,
    Products,
    ProductDetail,
    Clients,
}

impl Kind {
    pub const ALL: [Kind; 11] = [
        Kind::Services,
        Kind::Credit,
        Kind::Invoices,
        Kind::Network,
        Kind::Rate,
        Kind::Stats,
        Kind::ServiceDetail,
        Kind::Invoice,
        Kind::Products,
        Kind::ProductDetail,
        Kind::Clients,
    ];

    /// The kind a read belongs to; `None` for writes and IP lists, which are never
    /// planned (they are asked by a person, once).
    pub fn of(request: &Request) -> Option<Kind> {
        Some(match request {
            Request::Services => Kind::Services,
            Request::Credit => Kind::Credit,
            Request::Invoices => Kind::Invoices,
            Request::NetworkErrors(_) | Request::NetworkInactive(_) => Kind::Network,
            Request::Rate(_) => Kind::Rate,
            Request::Stats(_) => Kind::Stats,
            Request::Service(_) => Kind::ServiceDetail,
            Request::Invoice(_) => Kind::Invoice,
            Request::Products | Request::ProductsOrderedBy(_) => Kind::Products,
            Request::Product(_) => Kind::ProductDetail,
            Request::Clients => Kind::Clients,
            Request::Order { .. } | Request::UpdateService { .. } | Request::IpList { .. } => {
                return None;
            }
        })
    }

    /// The kind a label names (`invoices`), as [`Kind::as_str`] writes it.
    pub fn parse(label: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == label.trim())
    }

    /// The label in metrics and the README.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Services => "services",
            Kind::Credit => "credit",
            Kind::Invoices => "invoices",
            Kind::Network => "network",
            Kind::Rate => "rate",
            Kind::Stats => "stats",
            Kind::ServiceDetail => "service_detail",
            Kind::Invoice => "invoice",
            Kind::Products => "products",
            Kind::ProductDetail => "product_detail",
            Kind::Clients => "clients",
        }
    }
}
