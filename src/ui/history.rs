//! How history is drawn wherever it helps: sparklines as text (so they fit in a table cell
//! or a detail line), "since" times, and uptime. Data comes from the answers the app
//! keeps ([`crate::app::history::HistoryState`]); with history off these draw nothing.

use super::theme::Theme;
use crate::app::App;
use crate::history::ServiceOverview;
use chrono::{DateTime, Utc};
use ratatui::symbols::bar::NINE_LEVELS;
use ratatui::text::{Line, Span};

/// `values` as block characters, at most `width` of them (neighbouring values merged by
/// their maximum), scaled to the largest; `None` (no data) is a blank. Zero is the
/// lowest bar, so "watched, nothing wrong" and "not watched" look different.
pub fn spark(values: &[Option<f64>], width: usize) -> String {
    scaled(values, width, false)
}

/// A count per bucket (errors per hour) as a sparkline scaled from zero: a steady one
/// error must not look like a row of nothing.
pub fn spark_counts(values: &[u64], width: usize) -> String {
    let v: Vec<Option<f64>> = values.iter().map(|&n| Some(n as f64)).collect();
    scaled(&v, width, true)
}

fn scaled(values: &[Option<f64>], width: usize, from_zero: bool) -> String {
    if values.is_empty() || width == 0 {
        return String::new();
    }
    let per = values.len().div_ceil(width);
    let merged: Vec<Option<f64>> = values
        .chunks(per)
        .map(|c| c.iter().flatten().copied().reduce(f64::max))
        .collect();
    let known = merged.iter().flatten().copied().filter(|v| v.is_finite());
    let (mut lo, hi) = known.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if from_zero {
        lo = lo.min(0.0);
    }
    let symbols = [
        NINE_LEVELS.one_eighth,
        NINE_LEVELS.one_quarter,
        NINE_LEVELS.three_eighths,
        NINE_LEVELS.half,
        NINE_LEVELS.five_eighths,
        NINE_LEVELS.three_quarters,
        NINE_LEVELS.seven_eighths,
        NINE_LEVELS.full,
    ];
    merged
        .iter()
        .map(|v| match v {
            Some(v) if v.is_finite() => {
                let level = if hi > lo {
                    ((v - lo) / (hi - lo) * 7.0).round() as usize
                } else if hi > 0.0 {
                    7
                } else {
                    0
                };
                symbols[level.min(7)]
            }
            _ => " ",
        })
        .collect()
}

/// `since 14:02, 3h 5m`; a time not today also names the day.
pub fn since(app: &App, at: DateTime<Utc>) -> String {
    let offset = app.utc_offset();
    let local = at.with_timezone(&offset);
    let now = app.now();
    let when = if local.date_naive() == now.with_timezone(&offset).date_naive() {
        local.format("%H:%M").to_string()
    } else {
        local.format("%b %-d %H:%M").to_string()
    };
    format!("since {when}, {}", span_text(now - at))
}

/// `3h 5m`, `2d 4h`, `45s`.
pub fn span_text(d: chrono::TimeDelta) -> String {
    let s = d.num_seconds().max(0);
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m", s / 60),
        3600..86_400 => format!("{}h {}m", s / 3600, s % 3600 / 60),
        _ => format!("{}d {}h", s / 86_400, s % 86_400 / 3600),
    }
}

fn percent(x: Option<f64>) -> String {
    match x {
        Some(x) if x >= 0.9995 => "100%".into(),
        Some(x) => format!("{:.1}%", x * 100.0),
        None => "—".into(),
    }
}

/// `uptime 24h 99.2% · 7d 97.1%`.
pub fn uptime(o: &ServiceOverview) -> String {
    format!(
        "24h {} · 7d {}",
        percent(o.uptime_24h),
        percent(o.uptime_7d)
    )
}

/// The lines of a service's history for its detail pane: uptime, errors per hour over
/// 24 h (or 7 days when asked and answered), and since when it is in error.
pub fn detail_lines(app: &App, theme: &Theme, id: u64, width: usize) -> Vec<Line<'static>> {
    let h = app.history();
    if !h.is_on() {
        return Vec::new();
    }
    let w = 13;
    let label = |l: &str| Span::styled(format!("{l:<w$} "), theme.dim);
    let overview = h
        .service(id)
        .map(|s| &s.overview)
        .or_else(|| h.overview().and_then(|o| o.services.get(&id)));
    let Some(o) = overview else {
        return vec![Line::from(vec![
            label("History"),
            Span::styled("none yet", theme.dim),
        ])];
    };
    let mut lines = vec![Line::from(vec![label("Uptime"), Span::raw(uptime(o))])];
    let room = width.saturating_sub(w + 1 + 6).clamp(8, 48);
    let (errors, span) = match h.service(id) {
        Some(s) if room >= 28 => (spark_counts(&s.errors_7d, room), "7d"),
        _ => (spark_counts(&o.errors_24h, room.min(24)), "24h"),
    };
    let worst = o.errors_24h.iter().max().copied().unwrap_or(0);
    lines.push(Line::from(vec![
        label("Errors"),
        Span::styled(errors, if worst > 0 { theme.bad } else { theme.good }),
        Span::styled(format!(" {span}"), theme.dim),
    ]));
    if let Some(at) = o.in_error_since {
        lines.push(Line::from(vec![
            label("In error"),
            Span::styled(since(app, at), theme.bad),
        ]));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spark_scales_between_the_lowest_and_highest_and_leaves_gaps_blank() {
        assert_eq!(spark(&[Some(1.0), Some(2.0), None, Some(3.0)], 10), "▁▅ █");
        assert_eq!(spark(&[Some(5.0), Some(5.0)], 10), "██");
        assert_eq!(spark(&[Some(0.0), Some(0.0)], 10), "▁▁");
        assert_eq!(spark(&[Some(f64::NAN), Some(1e308)], 10), " █");
    }

    #[test]
    fn spark_merges_buckets_to_fit_by_their_maximum() {
        let v: Vec<Option<f64>> = (0..24)
            .map(|i| Some(if i == 23 { 8.0 } else { 0.0 }))
            .collect();
        let s = spark(&v, 12);
        assert_eq!(s.chars().count(), 12);
        assert!(s.ends_with('█'), "{s}");
    }

    #[test]
    fn counts_scale_from_zero() {
        assert_eq!(spark_counts(&[1, 1, 1], 3), "███");
        assert_eq!(spark_counts(&[0, 0, 2], 3), "▁▁█");
        assert_eq!(spark_counts(&[0; 24], 12).chars().count(), 12);
    }

    #[test]
    fn spans_read_naturally() {
        let d = chrono::TimeDelta::seconds;
        assert_eq!(span_text(d(59)), "59s");
        assert_eq!(span_text(d(3 * 3600 + 300)), "3h 5m");
        assert_eq!(span_text(d(2 * 86_400 + 4 * 3600)), "2d 4h");
        assert_eq!(span_text(d(-5)), "0s");
    }
}
