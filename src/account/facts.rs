//! What the engine's store says, as plain values for the alert rules
//! ([`crate::alerts::Snapshot`]) and for observers that only read (`watch`'s lines and
//! `/metrics`: [`Summary`]).

use super::connection::{Connection, Link};
use super::freshness::Kind;
use super::health::Health;
use super::store::Store;
use super::types::Types;
use crate::alerts::snapshot::{Ahead, InvoiceFacts, ServiceFacts, Snapshot, Unreachable};
use crate::api::ProductType;
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
    /// Age in seconds of the oldest datum of each watched kind, counted from the last
    /// answer that delivered it (`None`: one was never delivered).
    pub oldest: Vec<(Kind, Option<i64>)>,
    /// Sweeps evaluated so far.
    pub sweeps: u64,
    /// Reads whose last attempt failed with no answer or an answer the spec does not
    /// document (a documented one, such as `ClientID not found`, is the server's word).
    pub failing: usize,
    /// The money ahead (renewals, the day the credit runs short), once the services are
    /// known: the engine's one working out ([`super::money`]).
    pub runway: Option<std::sync::Arc<crate::billing::Runway>>,
    /// Records of each list read that could not be read (`invoices`, `products`), for
    /// the lists read so far.
    pub skipped: Vec<(&'static str, usize)>,
    /// When this summary was made.
    pub at: Option<DateTime<Utc>>,
    /// What the probe's last round found of each service it checked (`watch
    /// --probe-every`), by ID.
    pub probes: Vec<super::probed::ServiceProbe>,
}

/// What the snapshot is made from: the engine's parts.
pub struct Sources<'a> {
    pub store: &'a Store,
    pub types: &'a Types,
    pub connection: &'a Connection,
    pub health: &'a Health,
    pub probed: &'a super::probed::Probed,
    pub base_url: &'a str,
    pub offset: FixedOffset,
}

/// What the rules see: everything the store holds, last good data included, and the
/// money ahead worked out from it (`runway`, once per sweep).
pub fn snapshot(
    src: &Sources<'_>,
    runway: Option<&crate::billing::Runway>,
    now: DateTime<Utc>,
) -> Snapshot {
    let store = src.store;
    let today = now.with_timezone(&src.offset).date_naive();
    let today_start = today
        .and_hms_opt(0, 0, 0)
        .and_then(|t| t.and_local_timezone(src.offset).single())
        .map_or(now, |t| t.with_timezone(&Utc));
    let invoices = store.invoices();
    let services = store.services().map(|list| {
        list.iter()
            .map(|s| {
                let id = s.service_id;
                let detail = store.service(id);
                let mut f = ServiceFacts::new(id, s.status.clone());
                f.product_name =
                    text::truncate(&text::sanitize(&s.product_name), NAME_WIDTH).into_owned();
                f.nextduedate = s.nextduedate;
                f.servers = detail.and_then(|d| d.ip_count);
                f.errors = store.network(id, true).map(|v| {
                    v.iter()
                        .map(|ip| text::truncate(&text::sanitize(ip), 45).into_owned())
                        .collect()
                });
                f.network_answered = store
                    .get(&crate::api::Request::NetworkErrors(id))
                    .is_some_and(|e| e.delivered_at().is_some());
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
                    || src.types.get(id) == Some(&ProductType::Fpr)
                    || s.status.has_ended();
                f.product_type = src.types.get(id).cloned();
                f.probe = src.probed.facts(id);
                f
            })
            .collect()
    });
    let connection = src.connection;
    let down = |since: Option<DateTime<Utc>>, last: Option<DateTime<Utc>>| {
        since.map(|since| Unreachable {
            since,
            last_answer: last,
            base_url: src.base_url.to_owned(),
        })
    };
    Snapshot {
        today,
        today_start,
        credit: store.credit().map(|c| c.credit),
        ahead: runway.and_then(ahead),
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
        unreachable: down(connection.unreachable_since(), connection.last_answer),
        failing: down(connection.failing_since(), connection.last_success),
        unauthorized: down(connection.unauthorized_since(), connection.last_success),
        // While the account itself is down its own alert says so; a kind is its own
        // health only while the API answers.
        data: matches!(connection.link, Link::Online | Link::Throttled { .. })
            .then(|| src.health.watched(now)),
        probes_complete: src.probed.complete(),
    }
}

/// The money ahead as `credit_low` reads it; `None` when the credit is not known, or the
/// day it runs short is not (an amount owed could not be read: `Short::NotKnown`), so the
/// rule checks nothing rather than call it covered. A day the known amounts alone reach
/// (`Short::ByAtLatest`) is a day it runs short at the latest: the alert says so (the
/// metric, which would overstate the time left, has no series then).
fn ahead(runway: &crate::billing::Runway) -> Option<Ahead> {
    use crate::billing::Short;
    let credit = runway.credit?;
    let (short_on, at_the_latest) = match runway.short {
        Short::On(day) => (Some(day), false),
        Short::ByAtLatest(day) => (Some(day), true),
        Short::Never => (None, false),
        Short::NotKnown => return None,
    };
    let by_then: Vec<&crate::billing::runway::Owed> = match short_on {
        Some(on) => runway.soon.iter().filter(|o| o.date <= on).collect(),
        None => Vec::new(),
    };
    let invoices = by_then.iter().filter(|o| o.invoice_id.is_some()).count();
    Some(Ahead {
        credit,
        short_on,
        owed: by_then.iter().map(|o| o.amount).sum(),
        renewals: by_then.len() - invoices,
        invoices,
        unknown_prices: runway.unknown_prices.len(),
        at_the_latest,
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
    // From the last answer that delivered the datum: a failed read (a 401, a 500) resets
    // no age, and a datum never delivered has none.
    let answered = |r: crate::api::Request| store.get(&r).and_then(|e| e.delivered_at());
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
