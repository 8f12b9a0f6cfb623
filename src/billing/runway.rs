//! The money ahead: what the coming renewals cost, and the day the credit runs short of
//! them at their schedule. Pure: the account's records in, figures out.
//!
//! Choices where the issue leaves room (the README's "The money ahead" says the same):
//! - **Which services renew**: every live one (not Terminated, Cancelled or Fraud); a
//!   `Free` cycle renews for nothing. A due date already past counts as due today (the
//!   renewal is owed now).
//! - **What a renewal costs**: the service's own `price` where its detail is known, else
//!   its product's catalogue price (matched by product name), saying which
//!   ([`PriceSource`]); a service with neither is counted ([`Runway::unknown_prices`]),
//!   never taken as free.
//! - **Unknown is not zero**: an amount that may be owed but cannot be read (a renewal
//!   with no known price, the invoices never read or failing since start, an unpaid
//!   invoice without an amount) is not summed as 0. The first day such an amount may
//!   fall is kept ([`Runway::first_unknown`]): the day the credit runs short is known
//!   only when the known amounts already run it short before then ([`Short::On`]); else
//!   it is [`Short::NotKnown`], with the day the known amounts alone reach, which is the
//!   latest it can be. The 30-day sum is "at least" when an unknown falls in it, and the
//!   spend is not known without the invoices. Nothing optimistic is ever exported.
//! - **The schedule**: each renewal after the next is one billing cycle later (the
//!   spec's cycles, in calendar months, the day clamped to the month's end). A cycle not
//!   known (no detail read, or a value the spec does not list) is taken as `Monthly`,
//!   the shortest, so the runway is never overstated; such services are counted
//!   ([`Runway::assumed_monthly`]).
//! - **Unpaid invoices** (`Unpaid`, `Collections`) are owed today. One for a live
//!   service is that service's next renewal already invoiced: its amount stands for the
//!   renewal (priced [`PriceSource::Invoice`]), so nothing is counted twice.
//!   `Payment Pending` and `Pending` are not owed from the credit (a payment is on its
//!   way); one for a live service stands for its next renewal all the same, which is
//!   then not counted again from the credit.
//! - **Runs short**: walking the owed amounts by date (the unpaid invoices first), the
//!   first day whose total passes the credit. The credit covers renewals until the day
//!   before. Nothing short within [`HORIZON_DAYS`] is "covers every renewal for a year".
//! - **Spend per month** is the paid invoices' amounts by the month they were paid (their
//!   creation month when no payment date is given); refunded and cancelled ones are not
//!   spend, nor is a top-up ("Add Funds": an invoice for no service), which is credit
//!   the renewals are then paid from.

use crate::api::{
    BillingCycle, Invoice, InvoiceStatus, ProductSummary, Service, ServiceSummary, Skipped,
};
use chrono::{Months, NaiveDate};
use serde::Serialize;
use std::collections::{HashMap, HashSet};

pub use super::spend::spend;

/// The window of "due soon": renewals listed and summed.
pub const SOON_DAYS: u64 = 30;
/// How far ahead the schedule is walked for the day the credit runs short.
pub const HORIZON_DAYS: u64 = 365;
pub use super::spend::SPEND_MONTHS;

/// Where a renewal's price comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PriceSource {
    /// The service's own price (its detail).
    Service,
    /// Its product's catalogue price.
    Catalogue,
    /// An unpaid invoice already issued for it.
    Invoice,
}

impl PriceSource {
    pub fn as_str(self) -> &'static str {
        match self {
            PriceSource::Service => "service price",
            PriceSource::Catalogue => "catalogue price",
            PriceSource::Invoice => "unpaid invoice",
        }
    }
}

/// One amount owed on a day: a renewal, or an unpaid invoice.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Owed {
    pub date: NaiveDate,
    /// The service renewed, when it is one.
    pub service_id: Option<u64>,
    /// The unpaid invoice, when it is one.
    pub invoice_id: Option<u64>,
    /// Product name or invoice description, as the server sent it (sanitise to show).
    pub what: String,
    pub amount: f64,
    pub source: PriceSource,
}

/// The day the credit runs short, as far as it is known.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Short {
    /// The first day the credit does not cover what is owed by then.
    On(NaiveDate),
    /// The credit covers every renewal of the [`HORIZON_DAYS`].
    Never,
    /// Not known: the credit is not known, or an amount that cannot be read may fall
    /// before the day the known amounts reach (`by`, the latest the day can be; `None`
    /// when the known amounts do not run it short within the horizon).
    #[default]
    NotKnown,
    /// [`Short::NotKnown`], though the known amounts alone run it short on this day: it
    /// runs short then at the latest.
    ByAtLatest(NaiveDate),
}

/// What the account's records say of the money ahead.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Runway {
    pub today: NaiveDate,
    pub credit: Option<f64>,
    /// Owed within [`SOON_DAYS`] (today included), by date.
    pub soon: Vec<Owed>,
    /// Their sum (of the amounts known: see [`Runway::soon_is_complete`]).
    pub soon_total: f64,
    /// The day the credit runs short, when known ([`Short`]).
    pub short: Short,
    /// Live services whose renewal has no known price (not summed: see the module doc).
    pub unknown_prices: Vec<u64>,
    /// Whether the invoices were read: without them, what is owed today and the spend
    /// are not known.
    pub invoices_known: bool,
    /// Unpaid invoices whose amount the server did not send.
    pub unpaid_without_amount: Vec<u64>,
    /// Invoices of the list that could not be read ([`crate::api::Listed`]), and how
    /// many of them may be owed (their status unread, or Unpaid or Collections).
    pub invoices_skipped: usize,
    pub skipped_maybe_owed: usize,
    /// The first day an amount that cannot be read may be owed (within the horizon).
    pub first_unknown: Option<NaiveDate>,
    /// Live services whose billing cycle is not known, taken as `Monthly`.
    pub assumed_monthly: usize,
    /// Paid spend by month (first day of the month), oldest first, at most
    /// [`SPEND_MONTHS`] ending with the current month (empty when the invoices are not
    /// known; see [`Runway::spend_is_complete`]).
    pub spend: Vec<(NaiveDate, f64)>,
    /// What is owed each day within the horizon, by date: what [`Runway::short`] walked,
    /// kept to say what an order would change ([`Runway::after_order`]).
    #[serde(skip)]
    pub by_day: Vec<(NaiveDate, f64)>,
}

/// Where the runway finds a service's detail by its ID: the tabs' answers, the engine's
/// store, a test's map. Borrowed, never copied (a thousand details were cloned into a map
/// for each working out).
pub trait Details {
    fn detail(&self, id: u64) -> Option<&Service>;
}

impl Details for HashMap<u64, Service> {
    fn detail(&self, id: u64) -> Option<&Service> {
        self.get(&id)
    }
}

/// The records the runway reads.
#[derive(Clone, Copy, Default)]
pub struct Records<'a> {
    pub today: NaiveDate,
    pub credit: Option<f64>,
    /// The services list (endpoint 14); `None` until it arrived.
    pub services: Option<&'a [ServiceSummary]>,
    /// The services' details known, by ID.
    pub details: Option<&'a dyn Details>,
    /// The catalogue (endpoint 6).
    pub products: Option<&'a [ProductSummary]>,
    pub invoices: Option<&'a [Invoice]>,
    /// The invoices of the list that could not be read.
    pub invoices_unread: Unread<'a>,
}

/// Records of a list that could not be read ([`crate::api::Listed`]): how many, and the
/// first ones named.
#[derive(Clone, Copy, Debug, Default)]
pub struct Unread<'a> {
    pub count: usize,
    pub named: &'a [Skipped],
}

impl<'a> Unread<'a> {
    pub fn of<T>(listed: Option<&'a crate::api::Listed<T>>) -> Self {
        listed.map_or_else(Self::default, |l| Self {
            count: l.skipped_count,
            named: &l.skipped,
        })
    }

    /// How many may be owed: an invoice whose status could not be read, or reads as one
    /// owed (Unpaid, Collections) or one the spec does not list, is an amount not known.
    fn maybe_owed(&self) -> usize {
        let owed = |s: &&Skipped| {
            s.status.as_deref().is_none_or(|status| {
                matches!(
                    InvoiceStatus::parse(status.trim()),
                    InvoiceStatus::Unpaid | InvoiceStatus::Collections | InvoiceStatus::Other(_)
                )
            })
        };
        let unnamed = self.count.saturating_sub(self.named.len());
        self.named.iter().filter(owed).count() + unnamed
    }
}

/// The runway of `records` (see the module doc); `None` until the services list arrived.
pub fn runway(records: &Records<'_>) -> Option<Runway> {
    let services = records.services?;
    let today = records.today;
    let horizon = today.checked_add_days(chrono::Days::new(HORIZON_DAYS))?;
    let mut r = Runway {
        today,
        credit: records.credit,
        invoices_known: records.invoices.is_some(),
        ..Runway::default()
    };
    let mut unknown = Unknowns::default();
    r.invoices_skipped = records.invoices_unread.count;
    r.skipped_maybe_owed = records.invoices_unread.maybe_owed();
    if !r.invoices_known || r.skipped_maybe_owed > 0 {
        // What is owed today cannot be read.
        unknown.at(today);
    }
    let live: HashMap<u64, &ServiceSummary> = services
        .iter()
        .filter(|s| !s.status.has_ended())
        .map(|s| (s.service_id, s))
        .collect();
    let invoices = records.invoices.unwrap_or_default();
    let mut owed = Vec::new();
    let invoiced = owed_invoices(invoices, &live, &mut r, &mut unknown, &mut owed);
    renewals(
        records,
        &live,
        &invoiced,
        horizon,
        &mut r,
        &mut unknown,
        &mut owed,
    );
    // By date; on one day the invoices first, then by service.
    owed.sort_by(|a, b| {
        a.date
            .cmp(&b.date)
            .then(b.invoice_id.is_some().cmp(&a.invoice_id.is_some()))
            .then(a.service_id.cmp(&b.service_id))
            .then(a.invoice_id.cmp(&b.invoice_id))
    });
    r.first_unknown = unknown.first;
    r.by_day = by_day(&owed);
    r.short = short(records.credit, &r.by_day, unknown.first);
    let soon_end = today.checked_add_days(chrono::Days::new(SOON_DAYS))?;
    r.soon = owed.into_iter().filter(|o| o.date < soon_end).collect();
    r.soon_total = r.soon.iter().map(|o| o.amount).sum();
    if r.invoices_known {
        r.spend = spend(invoices, today);
    }
    Some(r)
}

/// The first day an amount that cannot be read may be owed.
#[derive(Default)]
struct Unknowns {
    first: Option<NaiveDate>,
}

impl Unknowns {
    fn at(&mut self, day: NaiveDate) {
        self.first = Some(self.first.map_or(day, |d| d.min(day)));
    }
}

/// The unpaid invoices, owed today, into `owed`; the live services whose next renewal
/// one of them, or one whose payment is on its way, stands for.
fn owed_invoices(
    invoices: &[Invoice],
    live: &HashMap<u64, &ServiceSummary>,
    r: &mut Runway,
    unknown: &mut Unknowns,
    owed: &mut Vec<Owed>,
) -> HashSet<u64> {
    let mut invoiced = HashSet::new();
    for i in invoices {
        let service = i.service_id.filter(|id| live.contains_key(id));
        match i.status {
            InvoiceStatus::Unpaid | InvoiceStatus::Collections => {}
            // The renewal is invoiced and a payment is on its way: not owed from the
            // credit, and not counted again as a renewal.
            InvoiceStatus::PaymentPending | InvoiceStatus::Pending => {
                invoiced.extend(service);
                continue;
            }
            _ => continue,
        }
        if let Some(id) = service {
            invoiced.insert(id);
        }
        // An amount the server did not send is owed all the same, not free.
        if !i.amount.is_finite() {
            r.unpaid_without_amount.push(i.id);
            unknown.at(r.today);
            continue;
        }
        // A negative amount is a credit note, not something owed.
        if i.amount < 0.0 {
            continue;
        }
        owed.push(Owed {
            date: r.today,
            service_id: service,
            invoice_id: Some(i.id),
            what: i.description.clone(),
            amount: i.amount,
            source: PriceSource::Invoice,
        });
    }
    invoiced
}

/// Each live service's renewals within the horizon, into `owed`.
fn renewals(
    records: &Records<'_>,
    live: &HashMap<u64, &ServiceSummary>,
    invoiced: &HashSet<u64>,
    horizon: NaiveDate,
    r: &mut Runway,
    unknown: &mut Unknowns,
    owed: &mut Vec<Owed>,
) {
    let today = r.today;
    let catalogue: HashMap<&str, f64> = records
        .products
        .into_iter()
        .flatten()
        .filter(|p| p.price.is_finite() && p.price >= 0.0)
        .map(|p| (p.product_name.as_str(), p.price))
        .collect();
    let mut ids: Vec<u64> = live.keys().copied().collect();
    ids.sort_unstable();
    for id in ids {
        let s = live[&id];
        let detail = records.details.and_then(|d| d.detail(id));
        let cycle = detail.map(|d| &d.billingcycle);
        if cycle == Some(&BillingCycle::Free) {
            continue;
        }
        let Some(due) = detail.and_then(|d| d.nextduedate).or(s.nextduedate) else {
            continue;
        };
        let invoiced = invoiced.contains(&id);
        let price = match detail
            .map(|d| d.price)
            .filter(|p| p.is_finite() && *p >= 0.0)
        {
            Some(p) => Some((p, PriceSource::Service)),
            None => catalogue
                .get(s.product_name.as_str())
                .map(|p| (*p, PriceSource::Catalogue)),
        };
        let Some((price, source)) = price else {
            r.unknown_prices.push(id);
            // Its first renewal not already invoiced may cost anything.
            let first = if invoiced {
                let months = cycle.and_then(BillingCycle::months).unwrap_or(1);
                due.checked_add_months(Months::new(months)).unwrap_or(due)
            } else {
                due
            };
            if first <= horizon {
                unknown.at(first.max(today));
            }
            continue;
        };
        let months = match cycle.and_then(BillingCycle::months) {
            Some(m) => m,
            None => {
                r.assumed_monthly += 1;
                1
            }
        };
        // The first renewal an unpaid invoice already stands for is not counted again;
        // of renewals already past, only the first is owed (today), once.
        let mut n = u32::from(invoiced);
        while let Some(date) = due.checked_add_months(Months::new(months.saturating_mul(n))) {
            if date > horizon || n > 1000 {
                break;
            }
            n += 1;
            if date < today && (n > 1 || invoiced) {
                continue;
            }
            owed.push(Owed {
                date: date.max(today),
                service_id: Some(id),
                invoice_id: None,
                what: s.product_name.clone(),
                amount: price,
                source,
            });
        }
    }
}

/// What `owed` (by date) comes to each day.
fn by_day(owed: &[Owed]) -> Vec<(NaiveDate, f64)> {
    let mut days: Vec<(NaiveDate, f64)> = Vec::new();
    for o in owed {
        match days.last_mut() {
            Some((day, sum)) if *day == o.date => *sum += o.amount,
            _ => days.push((o.date, o.amount)),
        }
    }
    days
}

/// The day the credit runs short of what is owed each day (by date), given the first
/// day an unknown amount may fall: known only when the known amounts run it short
/// before then.
pub(super) fn short(
    credit: Option<f64>,
    by_day: &[(NaiveDate, f64)],
    first_unknown: Option<NaiveDate>,
) -> Short {
    let Some(credit) = credit.filter(|c| c.is_finite()) else {
        return Short::NotKnown;
    };
    let mut total = 0.0;
    let walked = by_day.iter().find_map(|(day, amount)| {
        total += amount;
        // A cent of rounding is not a shortfall.
        (total > credit + 0.005).then_some(*day)
    });
    match (walked, first_unknown) {
        (Some(day), None) => Short::On(day),
        // An unknown amount on or after the day cannot make it later, nor earlier.
        (Some(day), Some(unknown)) if unknown >= day => Short::On(day),
        (Some(day), Some(_)) => Short::ByAtLatest(day),
        (None, None) => Short::Never,
        (None, Some(_)) => Short::NotKnown,
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
