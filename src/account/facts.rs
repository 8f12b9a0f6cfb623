//! What the engine's store says, as plain values for the alert rules
//! ([`crate::alerts::Snapshot`]) and for observers that only read (`watch`'s lines and
//! `/metrics`: [`Summary`]).

use super::connection::Connection;
use super::freshness::Kind;
use super::store::Store;
use super::types::Types;
use crate::alerts::snapshot::{InvoiceFacts, ServiceFacts, Snapshot, Unreachable};
use crate::api::{InvoiceStatus, ProductType};
use crate::text;
use chrono::{DateTime, FixedOffset, Utc};
use std::collections::HashMap;

/// Product names and invoice descriptions in alert messages are cut to this.
const NAME_WIDTH: usize = 40;

/// What a read-only observer needs of the account, published after every sweep and on
/// every change of the connection.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub profile: String,
    pub base_url: String,
    pub connection: Connection,
    /// The account's data as the alert rules saw it last.
    pub snapshot: Snapshot,
    /// Age in seconds of the oldest datum of each watched kind (`None`: one never
    /// answered).
    pub oldest: Vec<(Kind, Option<i64>)>,
    /// Sweeps evaluated so far.
    pub sweeps: u64,
    /// Reads whose last attempt failed with no answer or an answer the spec does not
    /// document (a documented one, such as `ClientID not found`, is the server's word).
    pub failing: usize,
    /// The money ahead (renewals, the day the credit runs short), once the services are
    /// known.
    pub runway: Option<crate::billing::Runway>,
    /// Records of each list read that could not be read (`invoices`, `products`), for
    /// the lists read so far.
    pub skipped: Vec<(&'static str, usize)>,
    /// When this summary was made.
    pub at: Option<DateTime<Utc>>,
}

/// What the rules see: everything the store holds, last good data included.
pub fn snapshot(
    store: &Store,
    types: &Types,
    connection: &Connection,
    base_url: &str,
    offset: FixedOffset,
    now: DateTime<Utc>,
) -> Snapshot {
    let today = now.with_timezone(&offset).date_naive();
    let invoices = store.invoices();
    let services = store.services().map(|list| {
        let product_prices: HashMap<&str, f64> = store
            .products()
            .into_iter()
            .flatten()
            .map(|p| (p.product_name.as_str(), p.price))
            .collect();
        // The latest invoice of each service that was not cancelled or refunded.
        let mut invoiced: HashMap<u64, (u64, f64)> = HashMap::new();
        for i in invoices.into_iter().flatten() {
            if matches!(i.status, InvoiceStatus::Cancelled | InvoiceStatus::Refunded) {
                continue;
            }
            if let Some(sid) = i.service_id.filter(|s| *s != 0) {
                let e = invoiced.entry(sid).or_insert((i.id, i.amount));
                if i.id >= e.0 {
                    *e = (i.id, i.amount);
                }
            }
        }
        list.iter()
            .map(|s| {
                let id = s.service_id;
                let detail = store.service(id);
                let mut f = ServiceFacts::new(id, s.status.clone());
                f.product_name =
                    text::truncate(&text::sanitize(&s.product_name), NAME_WIDTH).into_owned();
                f.nextduedate = s.nextduedate;
                f.price = detail
                    .map(|d| d.price)
                    .or_else(|| invoiced.get(&id).map(|(_, amount)| *amount))
                    .or_else(|| product_prices.get(s.product_name.as_str()).copied());
                f.servers = detail.and_then(|d| d.ip_count);
                f.errors = store.network(id, true).map(|v| {
                    v.iter()
                        .map(|ip| text::truncate(&text::sanitize(ip), 45).into_owned())
                        .collect()
                });
                f.inactive = store.network(id, false).map(<[String]>::len);
                let rate = store.rate(id);
                f.rate = rate.and_then(|r| r.first()).map(|r| (r.rate, r.limit));
                if let Some(stats) = store.stats(id) {
                    let mut days: Vec<_> = stats.iter().map(|e| (e.date, e.rate)).collect();
                    days.sort_by_key(|(date, _)| *date);
                    f.daily = Some(days.into_iter().map(|(_, rate)| rate).collect());
                }
                // An ended service's usage is never read again: nothing to wait for.
                f.usage_known = rate.is_some()
                    || types.get(id) == Some(&ProductType::Fpr)
                    || s.status.has_ended();
                f
            })
            .collect()
    });
    Snapshot {
        today,
        credit: store.credit().map(|c| c.credit),
        services,
        invoices: invoices.map(|list| {
            list.iter()
                .map(|i| InvoiceFacts {
                    id: i.id,
                    description: text::truncate(&text::sanitize(&i.description), NAME_WIDTH)
                        .into_owned(),
                    status: i.status.clone(),
                    amount: i.amount,
                    created_at: i.created_at,
                })
                .collect()
        }),
        unreachable: connection.unreachable_since().map(|since| Unreachable {
            since,
            last_answer: connection.last_answer,
            base_url: base_url.to_owned(),
        }),
        failing: connection.failing_since().map(|since| Unreachable {
            since,
            last_answer: connection.last_success,
            base_url: base_url.to_owned(),
        }),
    }
}

/// The money ahead from what the store holds: the details read so far give services'
/// own prices and cycles, the catalogue the others' prices.
pub fn runway(
    store: &Store,
    offset: FixedOffset,
    now: DateTime<Utc>,
) -> Option<crate::billing::Runway> {
    let services = store.services()?;
    crate::billing::runway::runway(&crate::billing::Records {
        today: now.with_timezone(&offset).date_naive(),
        credit: store.credit().map(|c| c.credit),
        services: Some(services),
        details: Some(store),
        products: store.products(),
        invoices: store.invoices(),
        invoices_unread: crate::billing::Unread::of(store.invoices_listed()),
    })
}

/// How many records of each list read could not be read ([`crate::api::Listed`]): the
/// lists read so far, 0 for one read whole.
pub fn skipped(store: &Store) -> Vec<(&'static str, usize)> {
    let invoices = store
        .invoices_listed()
        .map(|l| ("invoices", l.skipped_count));
    let products = (store.products_listed(&crate::api::Request::Products))
        .map(|l| ("products", l.skipped_count));
    invoices.into_iter().chain(products).collect()
}

/// The age of the oldest datum of each watched kind: what the freshness rules promise to
/// bound.
pub fn oldest(store: &Store, types: &Types, now: DateTime<Utc>) -> Vec<(Kind, Option<i64>)> {
    let mut oldest: HashMap<Kind, Option<i64>> = HashMap::new();
    let mut note = |kind: Kind, at: Option<DateTime<Utc>>| {
        let age = at.map(|at| (now - at).num_seconds().max(0));
        let slot = oldest.entry(kind).or_insert(Some(0));
        *slot = match (*slot, age) {
            (None, _) | (_, None) => None,
            (Some(a), Some(b)) => Some(a.max(b)),
        };
    };
    let answered = |r: crate::api::Request| store.get(&r).and_then(|e| e.answered_at());
    for kind in [Kind::Services, Kind::Credit, Kind::Invoices] {
        let request = match kind {
            Kind::Services => crate::api::Request::Services,
            Kind::Credit => crate::api::Request::Credit,
            _ => crate::api::Request::Invoices,
        };
        note(kind, answered(request));
    }
    for s in store.services().into_iter().flatten() {
        if !super::freshness::is_swept(&s.status) {
            continue;
        }
        let id = s.service_id;
        note(
            Kind::Network,
            answered(crate::api::Request::NetworkErrors(id)),
        );
        note(
            Kind::Network,
            answered(crate::api::Request::NetworkInactive(id)),
        );
        if types.is_ppr(id) {
            note(Kind::Rate, answered(crate::api::Request::Rate(id)));
        }
    }
    let mut out: Vec<(Kind, Option<i64>)> = oldest.into_iter().collect();
    out.sort_by_key(|(k, _)| *k);
    out
}
