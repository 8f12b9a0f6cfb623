//! Spend per month from the paid invoices (see [`super::runway`]'s module doc).

use crate::api::{Invoice, InvoiceStatus};
use chrono::{Datelike, Months, NaiveDate};
use std::collections::BTreeMap;

/// Months of spend kept for the chart.
pub const SPEND_MONTHS: usize = 12;

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

pub(super) fn first_of_month(d: NaiveDate) -> NaiveDate {
    d.with_day(1).unwrap_or(d)
}
