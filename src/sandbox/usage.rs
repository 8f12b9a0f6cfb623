//! Statistics (endpoint 2) and rate (endpoint 3) of ppr services, generated on request.
//!
//! Choices ("not shown" in the spec):
//! - The unit is MB of traffic for every ppr service (the spec's rule choosing between
//!   requests and MB is not shown); values have two decimals.
//! - Statistics are one entry per day, oldest first, for the last 30 days up to today
//!   (UTC), starting no earlier than the service's regdate.
//! - A day's value is the service's mean daily traffic times a factor in [0.8, 1.2) drawn
//!   from a hash of (service ID, days before today): the same every run, and the 30-day sum
//!   does not depend on the date, so a seed can promise "over its limit".
//! - The rate answers one entry: `limit` is the service's limit (0 = unlimited) and `rate`
//!   the sum of the statistics.
//!
//! Nothing is stored per day, so 100,000 scaled services cost nothing until asked for.

use super::records::ServiceRec;
use crate::api::model::{RateEntry, StatEntry};
use chrono::{Days, NaiveDate};

pub const WINDOW_DAYS: u64 = 30;

pub fn stats(service: &ServiceRec, today: NaiveDate) -> Vec<StatEntry> {
    (0..WINDOW_DAYS)
        .rev()
        .filter_map(|back| {
            let date = today.checked_sub_days(Days::new(back))?;
            (date >= service.regdate).then(|| StatEntry {
                date: Some(date),
                rate: round2(service.usage.daily_mb * factor(service.id, back)),
            })
        })
        .collect()
}

pub fn rate(service: &ServiceRec, today: NaiveDate) -> RateEntry {
    let used: f64 = stats(service, today).iter().map(|s| s.rate).sum();
    RateEntry {
        limit: service.usage.limit_mb,
        rate: round2(used),
    }
}

/// A deterministic factor in [0.8, 1.2) (splitmix64 of the pair).
pub fn factor(service_id: u64, back: u64) -> f64 {
    let mut z = service_id
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(back.wrapping_mul(0xD1B5_4A32_D192_ED03));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    0.8 + (z >> 11) as f64 / (1u64 << 53) as f64 * 0.4
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factor_stays_in_range() {
        for id in 0..200 {
            for back in 0..WINDOW_DAYS {
                let f = factor(id, back);
                assert!((0.8..1.2).contains(&f), "{f}");
            }
        }
    }
}
