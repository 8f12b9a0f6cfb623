//! How history is drawn wherever it helps: sparklines as text (so they fit in a table cell
//! or a detail line), "since" times, and uptime. Data comes from the answers the app
//! keeps ([`crate::app::history::HistoryState`]); with history off these draw nothing.

use super::theme::Theme;
use crate::app::App;
use crate::history::ServiceOverview;
use chrono::{DateTime, Utc};
use ratatui::text::{Line, Span};

pub use crate::text::{span_text, spark, spark_counts};

/// `since 14:02, 3h 5m`; a time not today also names the day.
pub fn since(app: &App, at: DateTime<Utc>) -> String {
    crate::text::since(app.now(), app.utc_offset(), at)
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
