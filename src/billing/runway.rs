//! The money ahead: what the coming renewals cost, and the day the credit runs short of
//! them at their schedule. Pure: the account's records in, figures out.
//!
//! Choices where the issue leaves room (the README's "The money ahead" says the same):
//! - **Which services renew**: every live one (not Terminated, Cancelled or Fraud); a
//!   `Free` cycle renews for nothing. A due date already past counts as due today (the
//!   renewal is owed now).
//! - **What a renewal costs**: the service's own `price` where its detail is known, else
//!   its product's catalogue price (matched by product name), saying which
//!   ([`PriceSource`]); a service with neither is left out and counted
//!   ([`Runway::unknown_prices`]), never taken as free.
//! - **The schedule**: each renewal after the next is one billing cycle later (the
//!   spec's cycles, in calendar months, the day clamped to the month's end). A cycle not
//!   known (no detail read, or a value the spec does not list) is taken as `Monthly`,
//!   the shortest, so the runway is never overstated; such services are counted
//!   ([`Runway::assumed_monthly`]).
//! - **Unpaid invoices** (`Unpaid`, `Collections`) are owed today. One for a live
//!   service is that service's next renewal already invoiced: its amount stands for the
//!   renewal (priced [`PriceSource::Invoice`]), so nothing is counted twice.
//!   `Payment Pending` and `Pending` are not owed from the credit (a payment is on its
//!   way).
//! - **Runs short**: walking the owed amounts by date (the unpaid invoices first), the
//!   first day whose total passes the credit. The credit covers renewals until the day
//!   before. Nothing short within [`HORIZON_DAYS`] is "covers every renewal for a year".
//! - **Spend per month** is the paid invoices' amounts by the month they were paid (their
//!   creation month when no payment date is given); refunded and cancelled ones are not
//!   spend, nor is a top-up ("Add Funds": an invoice for no service), which is credit
//!   the renewals are then paid from.

use crate::api::{BillingCycle, Invoice, InvoiceStatus, ProductSummary, Service, ServiceSummary};
use chrono::{Datelike, Months, NaiveDate};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// The window of "due soon": renewals listed and summed.
pub const SOON_DAYS: u64 = 30;
/// How far ahead the schedule is walked for the day the credit runs short.
pub const HORIZON_DAYS: u64 = 365;
/// Months of spend kept for the chart.
pub const SPEND_MONTHS: usize = 12;

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

/// What the account's records say of the money ahead.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Runway {
    pub today: NaiveDate,
    pub credit: Option<f64>,
    /// Owed within [`SOON_DAYS`] (today included), by date.
    pub soon: Vec<Owed>,
    /// Their sum.
    pub soon_total: f64,
    /// The first day the credit does not cover what is owed by then, within
    /// [`HORIZON_DAYS`]; `None` when it covers all of it (or the credit is not known).
    pub short_on: Option<NaiveDate>,
    /// Live services whose renewal has no known price (left out of the sums).
    pub unknown_prices: Vec<u64>,
    /// Live services whose billing cycle is not known, taken as `Monthly`.
    pub assumed_monthly: usize,
    /// Paid spend by month (first day of the month), oldest first, at most
    /// [`SPEND_MONTHS`] ending with the current month.
    pub spend: Vec<(NaiveDate, f64)>,
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
}

impl Runway {
    /// The day before the credit runs short: "covers renewals until".
    pub fn covers_until(&self) -> Option<NaiveDate> {
        self.short_on.and_then(|d| d.pred_opt())
    }

    /// This month's spend and last month's.
    pub fn this_and_last_month(&self) -> (f64, f64) {
        let month = first_of_month(self.today);
        let last = month.checked_sub_months(Months::new(1)).unwrap_or(month);
        let of = |m: NaiveDate| {
            self.spend
                .iter()
                .find(|(d, _)| *d == m)
                .map_or(0.0, |(_, v)| *v)
        };
        (of(month), of(last))
    }

    /// Seconds from `now` to the start (UTC midnight) of the day the credit runs short,
    /// 0 when that is today or past; `None` when it does not run short.
    pub fn seconds_left(&self, now: chrono::DateTime<chrono::Utc>) -> Option<i64> {
        let day = self.short_on?.and_hms_opt(0, 0, 0)?.and_utc();
        Some((day - now).num_seconds().max(0))
    }

    /// One line for people: `covers renewals until 2026-12-14; $182.50 due in 30 days`.
    pub fn line(&self) -> String {
        let covers = match (self.credit, self.short_on, self.covers_until()) {
            (None, ..) => "credit not known".to_owned(),
            (Some(_), Some(short), _) if short <= self.today => {
                "does not cover what is owed today".to_owned()
            }
            (Some(_), Some(_), Some(until)) => format!("covers renewals until {until}"),
            (Some(_), _, _) => "covers every renewal for a year".to_owned(),
        };
        let mut line = format!(
            "{covers}; {} due in {SOON_DAYS} days",
            crate::text::money(self.soon_total)
        );
        let catalogue = self
            .soon
            .iter()
            .filter(|o| o.source == PriceSource::Catalogue)
            .count();
        if catalogue > 0 {
            line.push_str(&format!(" ({catalogue} at the catalogue price)"));
        }
        if !self.unknown_prices.is_empty() {
            line.push_str(&format!(
                "; {} with no known price left out",
                self.unknown_prices.len()
            ));
        }
        if self.assumed_monthly > 0 {
            line.push_str(&format!(
                "; {} with the cycle unknown taken as Monthly",
                self.assumed_monthly
            ));
        }
        line
    }
}

/// The earliest day any of `runways` runs short, with its index.
pub fn earliest(runways: &[Option<&Runway>]) -> Option<(usize, NaiveDate)> {
    runways
        .iter()
        .enumerate()
        .filter_map(|(i, r)| Some((i, r.as_ref()?.short_on?)))
        .min_by_key(|(i, d)| (*d, *i))
}

/// The runway of `records` (see the module doc); `None` until the services list arrived.
pub fn runway(records: &Records<'_>) -> Option<Runway> {
    let services = records.services?;
    let today = records.today;
    let horizon = today.checked_add_days(chrono::Days::new(HORIZON_DAYS))?;
    let catalogue: HashMap<&str, f64> = records
        .products
        .into_iter()
        .flatten()
        .filter(|p| p.price.is_finite() && p.price >= 0.0)
        .map(|p| (p.product_name.as_str(), p.price))
        .collect();
    let invoices = records.invoices.unwrap_or_default();
    let owed_now = |i: &&Invoice| {
        matches!(i.status, InvoiceStatus::Unpaid | InvoiceStatus::Collections)
            && i.amount.is_finite()
            && i.amount >= 0.0
    };
    let live: HashMap<u64, &ServiceSummary> = services
        .iter()
        .filter(|s| !s.status.has_ended())
        .map(|s| (s.service_id, s))
        .collect();
    let mut owed = Vec::new();
    // Services whose next renewal an unpaid invoice already stands for.
    let mut invoiced: HashMap<u64, ()> = HashMap::new();
    for i in invoices.iter().filter(owed_now) {
        let service = i.service_id.filter(|id| live.contains_key(id));
        if let Some(id) = service {
            invoiced.insert(id, ());
        }
        owed.push(Owed {
            date: today,
            service_id: service,
            invoice_id: Some(i.id),
            what: i.description.clone(),
            amount: i.amount,
            source: PriceSource::Invoice,
        });
    }
    let mut unknown_prices = Vec::new();
    let mut assumed_monthly = 0;
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
            unknown_prices.push(id);
            continue;
        };
        let months = match cycle.and_then(BillingCycle::months) {
            Some(m) => m,
            None => {
                assumed_monthly += 1;
                1
            }
        };
        // The first renewal an unpaid invoice already stands for is not counted again;
        // of renewals already past, only the first is owed (today), once.
        let invoiced = invoiced.contains_key(&id);
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
    // By date; on one day the invoices first, then by service.
    owed.sort_by(|a, b| {
        a.date
            .cmp(&b.date)
            .then(b.invoice_id.is_some().cmp(&a.invoice_id.is_some()))
            .then(a.service_id.cmp(&b.service_id))
            .then(a.invoice_id.cmp(&b.invoice_id))
    });
    let short_on = records.credit.filter(|c| c.is_finite()).and_then(|credit| {
        let mut total = 0.0;
        owed.iter().find_map(|o| {
            total += o.amount;
            // A cent of rounding is not a shortfall.
            (total > credit + 0.005).then_some(o.date)
        })
    });
    let soon_end = today.checked_add_days(chrono::Days::new(SOON_DAYS))?;
    let soon: Vec<Owed> = owed.into_iter().filter(|o| o.date < soon_end).collect();
    let soon_total = soon.iter().map(|o| o.amount).sum();
    Some(Runway {
        today,
        credit: records.credit,
        soon,
        soon_total,
        short_on,
        unknown_prices,
        assumed_monthly,
        spend: spend(invoices, today),
    })
}

/// Paid spend by month, the last [`SPEND_MONTHS`] months ending with `today`'s (months
/// with nothing paid are there, at 0).
pub fn spend(invoices: &[Invoice], today: NaiveDate) -> Vec<(NaiveDate, f64)> {
    let this = first_of_month(today);
    let mut months: BTreeMap<NaiveDate, f64> = (0..SPEND_MONTHS as u32)
        .filter_map(|back| this.checked_sub_months(Months::new(back)))
        .map(|m| (m, 0.0))
        .collect();
    for i in invoices {
        // A top-up ("Add Funds") has no service: it is credit, not spend.
        let for_a_service = i.service_id.is_some_and(|id| id != 0);
        if i.status != InvoiceStatus::Paid
            || !for_a_service
            || !i.amount.is_finite()
            || i.amount < 0.0
        {
            continue;
        }
        let Some(day) = i.date_paid.or(i.created_at) else {
            continue;
        };
        if let Some(sum) = months.get_mut(&first_of_month(day)) {
            *sum += i.amount;
        }
    }
    months.into_iter().collect()
}

fn first_of_month(d: NaiveDate) -> NaiveDate {
    d.with_day(1).unwrap_or(d)
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
