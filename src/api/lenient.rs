//! Lenient field decoders for the way PHP backends of this API family really answer.
//!
//! Live servers send numbers as strings (`"12.50"`), `null` or nothing for missing values,
//! `"0000-00-00"` or `""` for a date that is not set, and `0`/`1` for booleans. Each decoder
//! here is a hand-written serde visitor rather than an untagged enum, so a field costs one
//! call and no buffering (decoding 10,000 services must stay close to plain serde speed).
//!
//! The rule: a value of a clearly wrong kind (an object where a number belongs) is still a
//! decode error, so a body of the wrong shape is reported instead of silently zeroed.

use chrono::{NaiveDate, NaiveDateTime};
use serde::Deserializer;
use serde::de::{self, Visitor};
use std::fmt;

/// A number that may arrive as a JSON number, a numeric string, `""` or `null` (both 0).
pub fn f64<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(d.deserialize_any(NumberVisitor)?.unwrap_or(0.0))
}

/// A money value (price, amount, credit): like [`f64`], but what the server did not send
/// (`null`, `""`) is NaN, which [`crate::text::money`] shows as `—`, not `$0.00`.
/// Use with `#[serde(default = "lenient::missing")]` for an absent member.
pub fn money<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(d.deserialize_any(NumberVisitor)?.unwrap_or(f64::NAN))
}

/// The value of a money member the server left out.
pub fn missing() -> f64 {
    f64::NAN
}

/// Like [`f64`] but `null`, `""` and a missing field give `None`.
pub fn opt_f64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    d.deserialize_any(NumberVisitor)
}

/// An ID or count: a whole number, possibly as a string. Negative or fractional values
/// are errors, since no ID of this API can be either.
pub fn u64<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    opt_u64(d)?.ok_or_else(|| de::Error::custom("missing number"))
}

/// Like [`u64`] but `null`, `""` and a missing field give `None`.
pub fn opt_u64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    match d.deserialize_any(NumberVisitor)? {
        None => Ok(None),
        Some(v) if v >= 0.0 && v.fract() == 0.0 && v <= u64::MAX as f64 => Ok(Some(v as u64)),
        Some(v) => Err(de::Error::custom(format!(
            "expected a whole number, got {v}"
        ))),
    }
}

struct NumberVisitor;

impl<'de> Visitor<'de> for NumberVisitor {
    type Value = Option<f64>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a number or a numeric string")
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Ok(Some(v as f64))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(Some(v as f64))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        Ok(Some(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        let t = v.trim();
        if t.is_empty() {
            return Ok(None);
        }
        t.parse::<f64>()
            .ok()
            .filter(|n| n.is_finite())
            .map(Some)
            .ok_or_else(|| E::custom(format!("expected a number, got {v:?}")))
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        Ok(Some(if v { 1.0 } else { 0.0 }))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

/// A boolean that may arrive as `true`/`false`, `1`/`0`, `"1"`/`"0"`, `"true"`/`"false"`,
/// `"yes"`/`"no"`, `"on"`/`"off"`; `null`, `""` and missing mean false.
pub fn bool<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    d.deserialize_any(BoolVisitor)
}

struct BoolVisitor;

impl<'de> Visitor<'de> for BoolVisitor {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a boolean, 0/1 or a boolean string")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<bool, E> {
        Ok(v)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<bool, E> {
        Ok(v != 0)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<bool, E> {
        Ok(v != 0)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<bool, E> {
        Ok(v != 0.0)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<bool, E> {
        match v.trim().to_ascii_lowercase().as_str() {
            "1" | "true" | "yes" | "on" | "y" => Ok(true),
            "" | "0" | "false" | "no" | "off" | "n" => Ok(false),
            _ => Err(E::custom(format!("expected a boolean, got {v:?}"))),
        }
    }
    fn visit_unit<E: de::Error>(self) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_none<E: de::Error>(self) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_any(self)
    }
}

/// A string that may be missing or `null` (both give `""`), or sent as a number.
pub fn string<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(opt_string(d)?.unwrap_or_default())
}

/// A string where `null`, `""` and a missing field give `None`; numbers become their text.
pub fn opt_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    d.deserialize_any(StringVisitor)
}

struct StringVisitor;

impl<'de> Visitor<'de> for StringVisitor {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok((!v.is_empty()).then(|| v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok((!v.is_empty()).then_some(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Ok(Some(v.to_string()))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(Some(v.to_string()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        Ok(Some(v.to_string()))
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        Ok(Some(v.to_string()))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

/// A `YYYY-MM-DD` date; `"0000-00-00"`, `""`, `null` and missing mean none. A value with a
/// time part (`"2026-01-02 10:00:00"`) keeps its date. Anything else unparseable is also
/// none rather than an error: a bad date in one invoice must not hide the whole list.
pub fn opt_date<'de, D: Deserializer<'de>>(d: D) -> Result<Option<NaiveDate>, D::Error> {
    with_str(d, |s| s.and_then(parse_date))
}

/// The due date of a service that never falls due (the Free billing cycle). The spec
/// lists `nextduedate` as a `YYYY-MM-DD` date for every service and has no "never"; the
/// sandbox sends the last four-digit date, 9999-12-31, and [`opt_due_date`] reads it back as none, like
/// the `"0000-00-00"` of live servers.
pub const NEVER_DUE: NaiveDate = match NaiveDate::from_ymd_opt(9999, 12, 31) {
    Some(d) => d,
    None => panic!("9999-12-31 is a date"),
};

/// A `nextduedate`: [`opt_date`], with [`NEVER_DUE`] (or any date in year 9999, a
/// "never" sentinel) meaning none.
pub fn opt_due_date<'de, D: Deserializer<'de>>(d: D) -> Result<Option<NaiveDate>, D::Error> {
    use chrono::Datelike;
    Ok(opt_date(d)?.filter(|date| date.year() < 9999))
}

/// A `YYYY-MM-DD HH:MM:SS` time, with the same rules as [`opt_date`].
pub fn opt_datetime<'de, D: Deserializer<'de>>(d: D) -> Result<Option<NaiveDateTime>, D::Error> {
    with_str(d, |s| s.and_then(parse_datetime))
}

/// Reads a string-ish value (a string, a number as its text, `null`/missing as `None`) and
/// hands it to `f` borrowed, so a value that is parsed right away (a date, an enum) costs
/// no allocation.
pub fn with_str<'de, D, T, F>(d: D, f: F) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    F: FnOnce(Option<&str>) -> T,
{
    d.deserialize_any(BorrowVisitor(f))
}

struct BorrowVisitor<F>(F);

impl<'de, T, F: FnOnce(Option<&str>) -> T> Visitor<'de> for BorrowVisitor<F> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        Ok((self.0)((!v.is_empty()).then_some(v)))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        Ok((self.0)(Some(&v.to_string())))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        Ok((self.0)(Some(&v.to_string())))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
        Ok((self.0)(Some(&v.to_string())))
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<T, E> {
        Ok((self.0)(Some(if v { "true" } else { "false" })))
    }
    fn visit_unit<E: de::Error>(self) -> Result<T, E> {
        Ok((self.0)(None))
    }
    fn visit_none<E: de::Error>(self) -> Result<T, E> {
        Ok((self.0)(None))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        d.deserialize_any(self)
    }
}

pub fn parse_date(s: &str) -> Option<NaiveDate> {
    let s = s.trim();
    let day = s.get(..10).unwrap_or(s);
    NaiveDate::parse_from_str(day, "%Y-%m-%d").ok()
}

pub fn parse_datetime(s: &str) -> Option<NaiveDateTime> {
    let s = s.trim();
    NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S")
        .or_else(|_| NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S"))
        .ok()
        .or_else(|| parse_date(s).and_then(|d| d.and_hms_opt(0, 0, 0)))
}

/// A list that may come as `null` (empty) or, from some backends, as an object keyed by
/// index (`{"0": {...}, "1": {...}}`) instead of an array.
pub fn vec<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    vec_capped(d, usize::MAX)
}

/// Like [`vec`], keeping at most `cap` entries: the ones after are read past without being
/// built (`IgnoredAny`), so a list of millions costs only what is kept
/// (see [`super::limits`]).
pub fn vec_capped<'de, D, T>(d: D, cap: usize) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    d.deserialize_any(VecVisitor(cap, std::marker::PhantomData))
}

struct VecVisitor<T>(usize, std::marker::PhantomData<T>);

impl<'de, T: serde::Deserialize<'de>> Visitor<'de> for VecVisitor<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list")
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let cap = self.0;
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096).min(cap));
        while out.len() < cap {
            match seq.next_element()? {
                Some(item) => out.push(item),
                None => return Ok(out),
            }
        }
        while seq.next_element::<de::IgnoredAny>()?.is_some() {}
        Ok(out)
    }
    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Vec<T>, A::Error> {
        let cap = self.0;
        let mut out = Vec::new();
        while out.len() < cap {
            match map.next_entry::<de::IgnoredAny, T>()? {
                Some((_, item)) => out.push(item),
                None => return Ok(out),
            }
        }
        while map
            .next_entry::<de::IgnoredAny, de::IgnoredAny>()?
            .is_some()
        {}
        Ok(out)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Vec<T>, E> {
        Ok(Vec::new())
    }
    fn visit_none<E: de::Error>(self) -> Result<Vec<T>, E> {
        Ok(Vec::new())
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Vec<T>, D::Error> {
        d.deserialize_any(self)
    }
}
