//! What a worked-out [`Runway`] says: the day the credit runs short when it is known,
//! whether a sum is whole, seconds to export; over several accounts, the earliest day and
//! whose day is not known.

use super::runway::{Runway, SOON_DAYS, Short};
use super::spend::first_of_month;
use chrono::{Months, NaiveDate};

impl Runway {
    /// The day the credit runs short, when it is known.
    pub fn short_on(&self) -> Option<NaiveDate> {
        match self.short {
            Short::On(day) => Some(day),
            Short::Never | Short::NotKnown | Short::ByAtLatest(_) => None,
        }
    }

    /// The day before the credit runs short: "covers renewals until" (known days only).
    pub fn covers_until(&self) -> Option<NaiveDate> {
        self.short_on().and_then(|d| d.pred_opt())
    }

    /// Whether [`Runway::soon_total`] sums everything owed within [`SOON_DAYS`]: no
    /// amount that cannot be read may fall in that window.
    pub fn soon_is_complete(&self) -> bool {
        let end = self.today + chrono::Days::new(SOON_DAYS);
        self.first_unknown.is_none_or(|day| day >= end)
    }

    /// Whether the spend per month counts every paid invoice: the invoices were read,
    /// and none of them was skipped.
    pub fn spend_is_complete(&self) -> bool {
        self.invoices_known && self.invoices_skipped == 0
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
    /// 0 when that is today or past; `None` when it does not run short within the
    /// horizon, or the day is not known (an unknown figure is never exported).
    pub fn seconds_left(&self, now: chrono::DateTime<chrono::Utc>) -> Option<i64> {
        let day = self.short_on()?.and_hms_opt(0, 0, 0)?.and_utc();
        Some((day - now).num_seconds().max(0))
    }
}

/// The earliest day any of `runways` runs short, with its index: of the days known (the
/// callers say which accounts' day is not known, [`not_known`]).
pub fn earliest(runways: &[Option<&Runway>]) -> Option<(usize, NaiveDate)> {
    runways
        .iter()
        .enumerate()
        .filter_map(|(i, r)| Some((i, r.as_ref()?.short_on()?)))
        .min_by_key(|(i, d)| (*d, *i))
}

/// The indices of `runways` whose day is not known (or not worked out yet): an earliest
/// day over several accounts is only the earliest of the others.
pub fn not_known(runways: &[Option<&Runway>]) -> Vec<usize> {
    runways
        .iter()
        .enumerate()
        .filter(|(_, r)| {
            r.is_none_or(|r| matches!(r.short, Short::NotKnown | Short::ByAtLatest(_)))
        })
        .map(|(i, _)| i)
        .collect()
}
