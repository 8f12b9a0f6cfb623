//! The dates of the seed file: `YYYY-MM-DD`, or relative to the start day (`today`,
//! `today-30d`, `today+5d`) so the demo account never goes stale; `""` and `"0000-00-00"`
//! mean "not set".

use chrono::{Days, NaiveDate, NaiveDateTime, NaiveTime};

/// `YYYY-MM-DD`, `today`, `today±Nd`; `""` and `"0000-00-00"` are "not set".
pub fn resolve_date(s: &str, today: NaiveDate) -> Result<Option<NaiveDate>, String> {
    let s = s.trim();
    if s.is_empty() || s == "0000-00-00" {
        return Ok(None);
    }
    let bad = || format!("seed: {s:?} is not a date (YYYY-MM-DD or today±Nd)");
    let Some(rest) = s.strip_prefix("today") else {
        return NaiveDate::parse_from_str(s, "%Y-%m-%d")
            .map(Some)
            .map_err(|_| bad());
    };
    if rest.is_empty() {
        return Ok(Some(today));
    }
    let (sign, n) = rest.split_at(1);
    let days: u64 = n
        .strip_suffix('d')
        .and_then(|n| n.parse().ok())
        .ok_or_else(bad)?;
    match sign {
        "+" => today.checked_add_days(Days::new(days)),
        "-" => today.checked_sub_days(Days::new(days)),
        _ => None,
    }
    .map(Some)
    .ok_or_else(bad)
}

/// A date expression, optionally followed by ` HH:MM:SS` (midnight when absent).
pub fn resolve_datetime(s: &str, today: NaiveDate) -> Result<Option<NaiveDateTime>, String> {
    let (day, time) = match s.trim().split_once(' ') {
        Some((d, t)) => (
            d,
            NaiveTime::parse_from_str(t.trim(), "%H:%M:%S")
                .map_err(|_| format!("seed: {s:?}: the time is not HH:MM:SS"))?,
        ),
        None => (s, NaiveTime::MIN),
    };
    Ok(resolve_date(day, today)?.map(|d| d.and_time(time)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 3, 15).expect("date")
    }

    #[test]
    fn relative_dates() {
        assert_eq!(resolve_date("today", today()), Ok(Some(today())));
        assert_eq!(
            resolve_date("today-15d", today()),
            Ok(NaiveDate::from_ymd_opt(2026, 2, 28))
        );
        assert_eq!(
            resolve_date("today+17d", today()),
            Ok(NaiveDate::from_ymd_opt(2026, 4, 1))
        );
        assert_eq!(
            resolve_date("2024-01-02", today()),
            Ok(NaiveDate::from_ymd_opt(2024, 1, 2))
        );
        assert_eq!(resolve_date("0000-00-00", today()), Ok(None));
        assert!(resolve_date("today*3d", today()).is_err());
        assert!(resolve_date("yesterday", today()).is_err());
        assert_eq!(
            resolve_datetime("today-1d 04:30:00", today()).map(|t| t.map(|t| t.to_string())),
            Ok(Some("2026-03-14 04:30:00".into()))
        );
    }
}
