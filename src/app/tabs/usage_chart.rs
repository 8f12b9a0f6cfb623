//! What the Usage chart draws for the selected rotating service: its use in the period
//! over a time range, the limit, and the projection (see [`crate::alerts::forecast`], the
//! `rate_forecast` alert's computation). Pure: the app's data in, the series out; the ui
//! draws it and the cursor keys are bounded by it.
//!
//! Choices where the issue leaves room:
//! - **Ranges** (`t` cycles): 24 h, 7 d (the default) and 30 d. The daily ranges show the
//!   use in the period at the end of each day, worked back from the use now (`rate`) by
//!   taking off each later day's use (the server's statistics, else the days the history
//!   kept); it never goes below 0 (a new period started). The 24-hour range shows the use
//!   as the history wrote it (on a change, at most every 15 minutes) and the use now.
//! - **The cursor** (←/→) reads any point: its day (or time) and the use then, and for a
//!   day also that day's own use.
//! - **The projection** is drawn from now at the pace, into a stretch of the future (a
//!   third of the range), up to the limit; where it meets the limit within that stretch
//!   is marked, and the date is in the detail whatever the stretch.

use crate::alerts::forecast::{self, Projection};
use crate::api::{RateEntry, StatEntry};
use chrono::{DateTime, NaiveDate, Utc};
use std::collections::BTreeMap;

/// The chart's time range.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Range {
    Day,
    #[default]
    Week,
    Month,
}

impl Range {
    pub fn label(self) -> &'static str {
        match self {
            Range::Day => "24 h",
            Range::Week => "7 d",
            Range::Month => "30 d",
        }
    }

    pub fn next(self) -> Self {
        match self {
            Range::Day => Range::Week,
            Range::Week => Range::Month,
            Range::Month => Range::Day,
        }
    }

    /// Its x unit in days: hours for 24 h, days otherwise.
    fn unit(self) -> f64 {
        match self {
            Range::Day => 1.0 / 24.0,
            _ => 1.0,
        }
    }

    /// How much of the future is drawn, in x units.
    fn ahead(self) -> f64 {
        match self {
            Range::Day => 8.0,
            Range::Week => 3.0,
            Range::Month => 10.0,
        }
    }
}

/// What the app knows of one service, for [`chart`].
pub struct Inputs<'a> {
    pub stats: &'a [StatEntry],
    /// The daily use the history kept (oldest first).
    pub kept: &'a [(NaiveDate, f64)],
    pub rate: Option<&'a RateEntry>,
    /// The history's use over the last 24 hours: (when, use, limit).
    pub rates_24h: &'a [(DateTime<Utc>, f64, f64)],
    pub today: NaiveDate,
    pub now: DateTime<Utc>,
    pub offset: chrono::FixedOffset,
}

/// The series of one range.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    pub range: Range,
    /// (x, use in the period); x from 0 (the range's start) to `now_x`.
    pub points: Vec<(f64, f64)>,
    /// Each point's day or time, and for a day its own use.
    pub labels: Vec<String>,
    pub own: Vec<Option<f64>>,
    pub now_x: f64,
    /// The right end of the x axis (the future drawn).
    pub end_x: f64,
    pub limit: Option<f64>,
    pub projection: Option<Projection>,
    /// The projection's line, from now to the end or the limit.
    pub ahead: Vec<(f64, f64)>,
    /// Where the projection meets the limit, when it does within the chart.
    pub reached_x: Option<f64>,
    /// The x axis's labels: its start, middle and end.
    pub axis: Vec<String>,
}

fn finite(x: f64) -> f64 {
    if x.is_finite() { x.max(0.0) } else { 0.0 }
}

/// The chart of `range` (see the module docs).
pub fn chart(range: Range, i: &Inputs) -> Chart {
    // The same daily series the alert's facts take: the server's statistics by date.
    let mut by_date: Vec<(NaiveDate, f64)> = i
        .stats
        .iter()
        .filter_map(|s| Some((s.date?, s.rate)))
        .collect();
    by_date.sort_by_key(|(d, _)| *d);
    let pace: Vec<f64> = by_date.iter().map(|(_, r)| *r).collect();
    let limit = i
        .rate
        .map(|r| r.limit)
        .filter(|l| l.is_finite() && *l > 0.0);
    let projection = i
        .rate
        .and_then(|r| forecast::project(finite(r.rate), r.limit, &pace));
    let (points, labels, own) = match range {
        Range::Day => hours(i),
        _ => days(range, i, &by_date),
    };
    let now_x = points.last().map_or(0.0, |p| p.0);
    let end_x = now_x + range.ahead();
    let (ahead, reached_x) = match (projection, points.last()) {
        (Some(p), Some(&(x0, y0))) if p.per_day > 0.0 => {
            let per_x = p.per_day * range.unit();
            let to_limit = ((p.limit - y0) / per_x).max(0.0);
            let stop = (x0 + to_limit).min(end_x);
            let reached = (x0 + to_limit <= end_x).then_some(x0 + to_limit);
            (vec![(x0, y0), (stop, y0 + per_x * (stop - x0))], reached)
        }
        _ => (Vec::new(), None),
    };
    let days_back = if range == Range::Month { 29 } else { 6 };
    let first = i.today - chrono::Days::new(days_back);
    let label_at = |x: f64| match range {
        Range::Day => {
            let at =
                i.now - chrono::Duration::hours(24) + chrono::Duration::minutes((x * 60.0) as i64);
            at.with_timezone(&i.offset).format("%H:%M").to_string()
        }
        _ => (first + chrono::Days::new(x.max(0.0).round() as u64))
            .format("%m-%d")
            .to_string(),
    };
    let axis = [0.0, end_x / 2.0, end_x].map(label_at).to_vec();
    Chart {
        range,
        axis,
        points,
        labels,
        own,
        now_x,
        end_x,
        limit,
        projection,
        ahead,
        reached_x,
    }
}

type Series = (Vec<(f64, f64)>, Vec<String>, Vec<Option<f64>>);

/// The daily ranges: the use at the end of each day (see the module docs).
fn days(range: Range, i: &Inputs, by_date: &[(NaiveDate, f64)]) -> Series {
    let n: u64 = if range == Range::Month { 30 } else { 7 };
    let mut daily: BTreeMap<NaiveDate, f64> = i.kept.iter().copied().collect();
    daily.extend(by_date.iter().copied());
    let first = i.today - chrono::Days::new(n - 1);
    let range_days: Vec<NaiveDate> = (0..n).map(|k| first + chrono::Days::new(k)).collect();
    let own: Vec<Option<f64>> = range_days
        .iter()
        .map(|d| daily.get(d).copied().map(finite))
        .collect();
    // Without a rate, the use summed over the range stands in for the use now.
    let now = match i.rate {
        Some(r) => finite(r.rate),
        None => own.iter().flatten().sum(),
    };
    let mut points = Vec::with_capacity(own.len());
    let mut later = 0.0;
    for (k, day_use) in own.iter().enumerate().rev() {
        points.push((k as f64, (now - later).max(0.0)));
        later += day_use.unwrap_or(0.0);
    }
    points.reverse();
    // In full under the chart (the axis has the short form).
    let labels = range_days.iter().map(|d| d.to_string()).collect();
    (points, labels, own)
}

/// The 24-hour range: the history's points and now, x in hours from 24 h ago.
fn hours(i: &Inputs) -> Series {
    let start = i.now - chrono::Duration::hours(24);
    let x = |at: DateTime<Utc>| (at - start).num_seconds() as f64 / 3600.0;
    let mut rows: Vec<(DateTime<Utc>, f64)> = i
        .rates_24h
        .iter()
        .filter(|(at, _, _)| *at > start && *at <= i.now)
        .map(|(at, rate, _)| (*at, finite(*rate)))
        .collect();
    if let Some(r) = i.rate {
        rows.push((i.now, finite(r.rate)));
    }
    let points = rows.iter().map(|(at, v)| (x(*at), *v)).collect();
    let labels = rows
        .iter()
        .map(|(at, _)| at.with_timezone(&i.offset).format("%H:%M").to_string())
        .collect();
    let own = vec![None; rows.len()];
    (points, labels, own)
}
