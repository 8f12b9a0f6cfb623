//! What a worked-out [`Runway`] says: the day the credit runs short when it is known,
//! whether a sum is whole, seconds to export; over several accounts, the earliest day and
//! whose day is not known.

use super::runway::{HORIZON_DAYS, Runway, SOON_DAYS, Short, short};
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

    /// The day the credit would run short after ordering a product at `price`: paid
    /// from the credit today, and renewed every month after (a product does not say its
    /// cycle: the shortest, so the runway is never overstated). `None` when the price
    /// or the credit is not known.
    pub fn after_order(&self, price: f64) -> Option<Short> {
        if !price.is_finite() || price < 0.0 {
            return None;
        }
        self.credit?;
        let horizon = self
            .today
            .checked_add_days(chrono::Days::new(HORIZON_DAYS))?;
        let mut extra: Vec<(NaiveDate, f64)> = (0..)
            .map_while(|n| self.today.checked_add_months(Months::new(n)))
            .take_while(|day| *day <= horizon)
            .map(|day| (day, price))
            .collect();
        extra.extend(self.by_day.iter().copied());
        extra.sort_by_key(|(day, _)| *day);
        Some(short(self.credit, &extra, self.first_unknown))
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
