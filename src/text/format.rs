//! Values as text: money as `$1,234.50`, counts with thousands separators, dates
//! `YYYY-MM-DD`, `—` for a missing value.
//!
//! Choices for what a server may send (spec 2: "numeric", no range given):
//! - A money value the server did not send (`null`, `""`, no member) is decoded as NaN
//!   ([`crate::api::lenient::money`]) and shows as `—`, never as `$0.00`.
//! - Money at or beyond a trillion dollars ([`MONEY_LIMIT`]) is out of range and shows as
//!   `>$1T` (`<-$1T` below): a real account holds no such sum, and digits past `u64`
//!   cents would be invented (`1e300` used to show `$184,467,440,737,095,516.15`). So a
//!   money text is at most 19 characters (`$999,999,999,999.99`).
//! - Measured amounts (requests, MB) at or beyond 10¹⁵ show as `>1e15` (`<-1e15`).
//! - A cell never cuts a number: [`fit`] gives `…` for a number wider than its column.

use super::sanitize;
use chrono::NaiveDate;
use std::borrow::Cow;

/// What a missing value shows.
pub const MISSING: &str = "—";

/// `s` cut to at most `width` characters, ending in `…` when cut.
pub fn truncate(s: &str, width: usize) -> Cow<'_, str> {
    if s.chars().count() <= width {
        return Cow::Borrowed(s);
    }
    let mut out: String = s.chars().take(width.saturating_sub(1)).collect();
    out.push('…');
    Cow::Owned(out)
}

/// `1234567` → `1,234,567`.
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `1 renewal`, `1,234 renewals`: a count and its noun, singular or plural.
pub fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", count(n), if n == 1 { one } else { many })
}

/// A measured amount (requests or MB): whole numbers with separators, else one decimal.
pub fn number(x: f64) -> String {
    if x.is_nan() {
        return MISSING.to_owned();
    }
    if x >= NUMBER_LIMIT {
        return ">1e15".to_owned();
    }
    if x <= -NUMBER_LIMIT {
        return "<-1e15".to_owned();
    }
    let sign = if x < 0.0 { "-" } else { "" };
    let a = x.abs();
    if (a - a.round()).abs() < 1e-9 {
        format!("{sign}{}", count(a.round() as u64))
    } else {
        let tenths = (a * 10.0).round() as u64;
        format!("{sign}{}.{}", count(tenths / 10), tenths % 10)
    }
}

/// Money from this value on is out of range (see the module docs).
pub const MONEY_LIMIT: f64 = 1e12;

/// Measured amounts from this value on are out of range.
pub const NUMBER_LIMIT: f64 = 1e15;

/// The widest text [`money`] gives: `$999,999,999,999.99`.
pub const MONEY_WIDTH: usize = 19;

/// A number as it fits a cell `width` columns wide: whole, or `…` when it does not fit
/// (cutting digits off would show another number).
pub fn fit(number: &str, width: usize) -> Cow<'_, str> {
    use unicode_width::UnicodeWidthStr;
    if number.width() <= width {
        Cow::Borrowed(number)
    } else {
        Cow::Borrowed("…")
    }
}

/// USD: `$12.50`, `$1,234.00`, `-$3.10`; `—` when missing, `>$1T` when out of range.
pub fn money(x: f64) -> String {
    if x.is_nan() {
        return MISSING.to_owned();
    }
    if x >= MONEY_LIMIT {
        return ">$1T".to_owned();
    }
    if x <= -MONEY_LIMIT {
        return "<-$1T".to_owned();
    }
    let sign = if x < 0.0 { "-" } else { "" };
    let cents = (x.abs() * 100.0).round() as u64;
    format!("{sign}${}.{:02}", count(cents / 100), cents % 100)
}

pub fn date(d: Option<NaiveDate>) -> String {
    d.map_or_else(|| MISSING.to_owned(), |d| d.format("%Y-%m-%d").to_string())
}

/// An ID, or `—`. IDs of this API start at 1; servers send `0` for "none" (an "Add Funds"
/// invoice has `serviceid` 0), so 0 is shown as missing too.
pub fn id(id: Option<u64>) -> String {
    id.filter(|i| *i != 0)
        .map_or_else(|| MISSING.to_owned(), |i| i.to_string())
}

/// Server text, or `—` when empty.
pub fn or_missing(s: &str) -> Cow<'_, str> {
    if s.trim().is_empty() {
        Cow::Borrowed(MISSING)
    } else {
        sanitize(s)
    }
}

/// A span of time for people: `12 s`, `4 min`, `3 h`, `11 days`.
pub fn ago(d: chrono::Duration) -> String {
    let s = d.num_seconds().max(0);
    match s {
        0..120 => format!("{s} s"),
        120..7200 => format!("{} min", s / 60),
        7200..172_800 => format!("{} h", s / 3600),
        _ => format!("{} days", s / 86_400),
    }
}

/// [`ago`] of a number of seconds.
pub fn span_words(secs: u64) -> String {
    ago(chrono::Duration::seconds(
        secs.min(u64::from(u32::MAX)) as i64
    ))
}

/// `09:41:05` for a time today, `Dec 9 09:41:05` another day (local time).
pub fn clock_time(at: chrono::DateTime<chrono::Local>) -> String {
    if at.date_naive() == chrono::Local::now().date_naive() {
        at.format("%H:%M:%S").to_string()
    } else {
        at.format("%b %-d %H:%M:%S").to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1000), "1,000");
        assert_eq!(count(1234567), "1,234,567");
        assert_eq!(money(12.5), "$12.50");
        assert_eq!(money(1234.0), "$1,234.00");
        assert_eq!(money(-3.1), "-$3.10");
        assert_eq!(number(3200.0), "3,200");
        assert_eq!(number(12.25), "12.3");
        assert_eq!(date(None), "—");
    }

    #[test]
    fn out_of_range_and_missing_money_say_so() {
        assert_eq!(money(1e300), ">$1T");
        assert_eq!(money(f64::INFINITY), ">$1T");
        assert_eq!(money(-1e13), "<-$1T");
        assert_eq!(money(f64::NAN), "—");
        assert_eq!(money(999_999_999_999.99), "$999,999,999,999.99");
        assert_eq!(money(999_999_999_999.99).len(), MONEY_WIDTH);
        assert_eq!(number(1e300), ">1e15");
        assert_eq!(number(f64::NAN), "—");
        assert_eq!(fit("$1,234.00", 10), "$1,234.00");
        assert_eq!(fit("$12,345,678.00", 10), "…");
    }
}
