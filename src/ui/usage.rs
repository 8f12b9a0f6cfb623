//! The Usage tab: the rotating (ppr) services; for the selected one, a chart of the daily
//! statistics (dates on the x axis) and a gauge of its rate against its limit.

use super::columns;
use super::layout;
use super::text;
use super::theme::Theme;
use super::widgets;
use crate::api::{RateEntry, Request, StatEntry};
use crate::app::App;
use crate::app::remote::Remote;
use crate::app::tabs::usage::COLUMNS;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, Gauge, GraphType};

pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, body: Rect) {
    let services = app.services();
    if let Some((msg, style)) = widgets::placeholder(
        app,
        theme,
        &services.list,
        &services.table,
        &Request::Services,
        "services",
    )
    .filter(|_| services.list.value().is_none_or(Vec::is_empty))
    {
        let block = widgets::pane(theme, "Usage".into(), Span::raw(""));
        let inner = block.inner(body);
        frame.render_widget(block, body);
        widgets::message(frame, inner, &msg, style);
        return;
    }
    let usage = app.usage();
    if usage.services.is_empty() {
        let pending = services.ids().iter().any(|id| {
            services.product_type(*id).is_none() && services.detail(*id).error().is_none()
        });
        let (msg, style) = if pending {
            ("Finding the rotating (ppr) services…".to_owned(), theme.dim)
        } else {
            (
                "No rotating (ppr) services on this account: usage statistics exist for ppr services only."
                    .to_owned(),
                theme.base,
            )
        };
        let block = widgets::pane(theme, "Usage".into(), Span::raw(""));
        let inner = block.inner(body);
        frame.render_widget(block, body);
        widgets::message(frame, inner, &msg, style);
        return;
    }

    let (pane, chart_area, gauge_area) =
        layout::usage(body, columns::table_width(&app.usage().natural));
    let view = &usage.table;
    let block = widgets::pane(
        theme,
        widgets::titled("ppr services", true, view, "server order"),
        Span::raw(""),
    );
    let block = widgets::with_filter(block, view, theme);
    if view.is_empty() {
        frame.render_widget(block, pane.block);
        widgets::message(
            frame,
            pane.header(),
            "No services match the filter.",
            theme.dim,
        );
    } else {
        let rows = &usage.services;
        columns::draw(
            frame,
            theme,
            pane,
            block,
            (&COLUMNS, &usage.natural),
            view,
            |i| {
                let (id, name) = &rows[i];
                usage.cells(*id, name)
            },
        );
    }
    match usage.selected() {
        Some(id) => {
            let chart_area = draw_stored(frame, app, theme, chart_area, id);
            draw_chart(frame, app, theme, chart_area, id);
            draw_gauge(frame, app, theme, gauge_area, id);
        }
        None => {
            frame.render_widget(
                widgets::pane(theme, "Daily usage".into(), Span::raw("")),
                chart_area,
            );
            frame.render_widget(
                widgets::pane(theme, "Rate".into(), Span::raw("")),
                gauge_area,
            );
        }
    }
}

/// The daily usage the history store kept for the last 30 days (it outlives what the
/// server still reports), as a sparkline under the chart; answers the area left for the
/// chart.
fn draw_stored(frame: &mut Frame, app: &App, theme: &Theme, area: Rect, id: u64) -> Rect {
    let Some(days) = app
        .history()
        .overview()
        .and_then(|o| o.services.get(&id))
        .map(|s| &s.usage_30d)
        .filter(|d| !d.is_empty())
    else {
        return area;
    };
    if area.height < 12 {
        return area;
    }
    let [chart, stored] = ratatui::layout::Layout::vertical([
        ratatui::layout::Constraint::Min(0),
        ratatui::layout::Constraint::Length(3),
    ])
    .areas(area);
    // One cell per day of the 30, oldest first; days with nothing kept stay blank.
    let last = app.now().with_timezone(&app.utc_offset()).date_naive();
    let values: Vec<Option<f64>> = (0..30)
        .rev()
        .map(|back| {
            let day = last - chrono::Days::new(back);
            days.iter().find(|(d, _)| *d == day).map(|(_, v)| *v)
        })
        .collect();
    let total: f64 = days.iter().map(|(_, v)| v).sum();
    let line = Line::from(vec![
        Span::raw(" "),
        Span::styled(super::history::spark(&values, 30), theme.title),
        Span::styled(
            format!("  {} days kept, total {}", days.len(), text::number(total)),
            theme.dim,
        ),
    ]);
    let block = widgets::pane(theme, "Kept daily usage · 30 days".into(), Span::raw(""));
    frame.render_widget(ratatui::widgets::Paragraph::new(line).block(block), stored);
    chart
}

/// A failed or loading remote's message, or `None` when there is a value.
fn remote_message<T>(
    app: &App,
    theme: &Theme,
    remote: &Remote<T>,
    request: Request,
    what: &str,
) -> Option<(String, ratatui::style::Style)> {
    match (remote.value(), remote) {
        (Some(_), _) => None,
        (None, Remote::Failed { error, .. }) => Some((
            crate::app::status::error_line(&request, error, &app.settings().profile),
            theme.bad,
        )),
        (None, _) => Some((format!("Loading {what}…"), theme.dim)),
    }
}

fn draw_chart(frame: &mut Frame, app: &App, theme: &Theme, area: Rect, id: u64) {
    let remote = app.usage().stats_of(id);
    let block = widgets::pane(
        theme,
        format!("Daily usage · {id}"),
        widgets::freshness(app, theme, remote.freshness()),
    );
    let inner = block.inner(area);
    if let Some((msg, style)) =
        remote_message(app, theme, remote, Request::Stats(id), "the statistics")
    {
        frame.render_widget(block, area);
        widgets::message(frame, inner, &msg, style);
        return;
    }
    let stats: &[StatEntry] = remote.value().map(Vec::as_slice).unwrap_or_default();
    if stats.is_empty() {
        frame.render_widget(block, area);
        widgets::message(frame, inner, "No statistics yet.", theme.dim);
        return;
    }
    let points: Vec<(f64, f64)> = stats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            (
                i as f64,
                if s.rate.is_finite() {
                    s.rate.max(0.0)
                } else {
                    0.0
                },
            )
        })
        .collect();
    let max = points.iter().map(|p| p.1).fold(0.0_f64, f64::max);
    let top = nice_ceiling(max * 1.05);
    let last = (stats.len() - 1) as f64;
    let date = |i: usize| text::date(stats[i].date);
    let x_labels: Vec<Line> = if stats.len() >= 3 {
        vec![
            date(0).into(),
            date(stats.len() / 2).into(),
            date(stats.len() - 1).into(),
        ]
    } else {
        stats
            .iter()
            .map(|s| Line::from(text::date(s.date)))
            .collect()
    };
    // The cursor (←/→): a vertical mark on its day, its date and value in the title.
    let cursor = app.usage().cursor(stats.len()).unwrap_or(0);
    let mark: Vec<(f64, f64)> = (0..=64)
        .map(|k| (cursor as f64, top * f64::from(k) / 64.0))
        .collect();
    // On the bottom edge: the top one has the title and the freshness.
    let block = block.title_bottom(Line::from(vec![
        Span::styled(" ◆ ", theme.key),
        Span::styled(
            format!(
                "{}: {} ",
                text::date(stats[cursor].date),
                text::number(points[cursor].1)
            ),
            theme.title,
        ),
    ]));
    let dataset = Dataset::default()
        .marker(Marker::Braille)
        .graph_type(GraphType::Line)
        .style(theme.chart)
        .data(&points);
    let cursor_set = Dataset::default()
        .marker(Marker::Braille)
        .graph_type(GraphType::Scatter)
        .style(theme.key)
        .data(&mark);
    let chart = Chart::new(vec![cursor_set, dataset])
        .block(block)
        .x_axis(
            Axis::default()
                .bounds([0.0, last.max(1.0)])
                .labels(x_labels)
                .style(theme.dim),
        )
        .y_axis(
            Axis::default()
                .title(Span::styled(UNIT, theme.dim))
                .bounds([0.0, top])
                .labels(vec![
                    Line::from("0"),
                    Line::from(text::number(top / 2.0)),
                    Line::from(text::number(top)),
                ])
                .style(theme.dim),
        );
    frame.render_widget(chart, area);
}

/// What the statistics and the rate count. The spec says "count of requests or used
/// traffic in MB" and "the rule that selects between requests and MB: not shown", so the
/// unit is named as both rather than guessed.
pub const UNIT: &str = "requests or MB";

/// A round number at or above `x` (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of
/// ten), so the y axis reads 0 / 750 / 1,500 rather than 0 / 693 / 1,386.
pub fn nice_ceiling(x: f64) -> f64 {
    if !x.is_finite() || x <= 0.0 {
        return 1.0;
    }
    let magnitude = 10f64.powf(x.log10().floor());
    let steps = [1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0];
    let step = steps
        .iter()
        .find(|s| *s * magnitude >= x)
        .copied()
        .unwrap_or(10.0);
    step * magnitude
}

/// The gauge's ratio (always within 0..=1), label, and whether the limit is exceeded.
pub fn rate_gauge(r: &RateEntry) -> (f64, String, bool) {
    let rate = if r.rate.is_finite() {
        r.rate.max(0.0)
    } else {
        0.0
    };
    if !r.limit.is_finite() || r.limit <= 0.0 {
        return (
            0.0,
            format!("no limit — {} used", text::number(rate)),
            false,
        );
    }
    let ratio = rate / r.limit;
    let percent = (ratio * 100.0).round();
    if rate > r.limit {
        (
            1.0,
            format!(
                "{percent}% — {} of {}, over limit by {}",
                text::number(rate),
                text::number(r.limit),
                text::number(rate - r.limit)
            ),
            true,
        )
    } else {
        (
            ratio.clamp(0.0, 1.0),
            format!(
                "{percent}% — {} of {}",
                text::number(rate),
                text::number(r.limit)
            ),
            false,
        )
    }
}

fn draw_gauge(frame: &mut Frame, app: &App, theme: &Theme, area: Rect, id: u64) {
    let remote = app.usage().rate_of(id);
    let block = widgets::pane(
        theme,
        format!("Rate vs limit ({UNIT})"),
        widgets::freshness(app, theme, remote.freshness()),
    );
    let inner = block.inner(area);
    if let Some((msg, style)) = remote_message(app, theme, remote, Request::Rate(id), "the rate") {
        frame.render_widget(block, area);
        widgets::message(frame, inner, &msg, style);
        return;
    }
    let Some(entry) = remote.value().and_then(|v| v.first()) else {
        frame.render_widget(block, area);
        widgets::message(frame, inner, "No rate data.", theme.dim);
        return;
    };
    let (ratio, label, over) = rate_gauge(entry);
    let gauge = Gauge::default()
        .block(block)
        .ratio(ratio)
        .label(Span::styled(label, theme.title))
        .gauge_style(if over { theme.gauge_over } else { theme.gauge })
        .use_unicode(true);
    frame.render_widget(gauge, area);
}
