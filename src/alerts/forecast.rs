//! The usage projection: at the current pace, when a rotating service's use reaches its
//! limit. One computation for the `rate_forecast` alert ([`super::evaluate`]) and the
//! Usage chart and detail, so they never disagree.
//!
//! - **The pace** is the average daily use of the last [`PACE_DAYS`] days known (the
//!   server's statistics, oldest first), leaving out values that are not finite or are
//!   negative. Fewer days known: the average of those.
//! - **From** the use so far in the period (`rate`), **to** the limit: reached in
//!   `(limit − used) / pace` days; at a pace of 0 never; already at or over the limit, now.
//! - **The date** it is reached is the day that many days after today, rounded up (it is
//!   reached during that day).

use chrono::NaiveDate;

/// Days of statistics the pace averages.
pub const PACE_DAYS: usize = 7;

/// Where a service's use is heading.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Projection {
    /// Used so far in the period.
    pub used: f64,
    pub limit: f64,
    /// The average daily use of the last [`PACE_DAYS`] days.
    pub per_day: f64,
}

/// The projection from `used` of `limit`, at the pace of `daily` (oldest first); `None`
/// when there is no finite, positive limit or no day of use to go by.
pub fn project(used: f64, limit: f64, daily: &[f64]) -> Option<Projection> {
    if !(used.is_finite() && limit.is_finite() && limit > 0.0) {
        return None;
    }
    let recent: Vec<f64> = daily
        .iter()
        .rev()
        .take(PACE_DAYS)
        .copied()
        .filter(|x| x.is_finite() && *x >= 0.0)
        .collect();
    if recent.is_empty() {
        return None;
    }
    Some(Projection {
        used: used.max(0.0),
        limit,
        per_day: recent.iter().sum::<f64>() / recent.len() as f64,
    })
}

impl Projection {
    /// Days from now until the limit is reached: `Some(0.0)` at or over it, `None` at a
    /// pace of 0 (never).
    pub fn days_to_limit(&self) -> Option<f64> {
        if self.used >= self.limit {
            return Some(0.0);
        }
        (self.per_day > 0.0).then(|| (self.limit - self.used) / self.per_day)
    }

    /// The day the limit is reached, counted from `today` (see the module docs).
    pub fn reached_on(&self, today: NaiveDate) -> Option<NaiveDate> {
        let days = self.days_to_limit()?.ceil();
        // Far beyond any period: not a date worth naming (and no overflow).
        if days > 36_500.0 {
            return None;
        }
        today.checked_add_days(chrono::Days::new(days as u64))
    }

    /// The use `days` from now at this pace.
    pub fn used_after(&self, days: f64) -> f64 {
        self.used + self.per_day * days.max(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alerts::snapshot::{ServiceFacts, Snapshot};
    use crate::alerts::{Level, Observation, Rule, Rules, evaluate};

    fn day(d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 3, d).unwrap()
    }

    /// Eight days of use: the pace is the last seven, 200 + 300 + … + 800 = 3,500 over
    /// 7 = 500 a day; 6,000 of 10,000 used leaves 4,000, which is 8 days: March 9.
    const HISTORY: [f64; 8] = [100.0, 200.0, 300.0, 400.0, 500.0, 600.0, 700.0, 800.0];

    #[test]
    fn the_projection_matches_the_hand_computation() {
        let p = project(6_000.0, 10_000.0, &HISTORY).unwrap();
        assert_eq!(p.per_day, 500.0);
        assert_eq!(p.days_to_limit(), Some(8.0));
        assert_eq!(p.reached_on(day(1)), Some(day(9)));
        assert_eq!(p.used_after(2.0), 7_000.0);
        // 4,100 left is 8.2 days: reached during the ninth day.
        let p = project(5_900.0, 10_000.0, &HISTORY).unwrap();
        assert_eq!(p.reached_on(day(1)), Some(day(10)));
        // Values that are not use are left out: (100 + 300) / 2.
        let p = project(0.0, 1_000.0, &[100.0, f64::NAN, -5.0, 300.0]).unwrap();
        assert_eq!(p.per_day, 200.0);
        assert_eq!(
            project(0.0, 1_000.0, &[0.0; 3]).unwrap().days_to_limit(),
            None
        );
        assert_eq!(
            project(1_200.0, 1_000.0, &[1.0]).unwrap().days_to_limit(),
            Some(0.0)
        );
        assert_eq!(project(1.0, 0.0, &[1.0]), None, "no limit");
        assert_eq!(project(1.0, 10.0, &[]), None, "no pace");
    }

    /// The alert says what the chart draws: reached in 8 days, so a service due in 10 days
    /// is warned about and one due in 8 is not.
    #[test]
    fn the_forecast_alert_uses_the_same_computation() {
        let facts = |due_in: u64| ServiceFacts {
            rate: Some((6_000.0, 10_000.0)),
            daily: Some(HISTORY.to_vec()),
            usage_known: true,
            nextduedate: Some(day(1) + chrono::Days::new(due_in)),
            ..ServiceFacts::new(7, crate::api::ServiceStatus::Active)
        };
        let found = |due_in: u64| {
            let start = day(1).and_hms_opt(0, 0, 0).unwrap().and_utc();
            let snapshot = Snapshot {
                today: day(1),
                today_start: start,
                services: Some(vec![facts(due_in)]),
                ..Snapshot::default()
            };
            // Noon: the limit, 8 days away, is reached at noon of March 9.
            let now = start + chrono::Duration::hours(12);
            evaluate(&snapshot, &Rules::default(), now)
                .into_iter()
                .find_map(|o| match o {
                    Observation::Seen {
                        key,
                        level: Some(level),
                        message,
                    } if key.rule == Rule::RateForecast => Some((level, message)),
                    _ => None,
                })
        };
        let (level, message) = found(10).expect("warned");
        assert_eq!(level, Level::Warn);
        assert!(message.contains("at 500 a day"), "{message}");
        assert!(message.contains("in about 8 days"), "{message}");
        assert!(found(8).is_some(), "reached on its due date: warned");
        assert_eq!(found(7), None, "reached the day after its due date");
    }
}
