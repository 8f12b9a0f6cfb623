//! The Usage tab's look: the rotating (ppr) services; for the selected one, a chart of its
//! use in the period over 24 h, 7 d or 30 d with the limit and the projection at this pace
//! ([`crate::app::tabs::usage_chart`]), and a gauge of its rate against its limit with
//! the projection in words (the All view draws the chart and the gauge too).

use super::UsageTab;
use crate::api::{RateEntry, Request};
use crate::app::data::TabData;
use crate::app::look::pane::Pane;
use crate::app::look::theme::Theme;
use crate::app::look::{columns, widgets};
use crate::app::tabs::usage_chart::{Chart as UsageChart, Range};
use crate::app::tabs::{Areas, Fit, Heading, Props, TabLook};
use crate::text;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, Gauge, GraphType};

/// What the tab says instead of its list: the services' list not there yet (or failed,
/// or empty), the ppr services still being found, or none on the account.
fn no_list(usage: &UsageTab, data: &TabData<'_>, theme: &Theme) -> Option<(String, Style)> {
    let list = data.store.services_answer();
    if let Some(said) = widgets::placeholder(
        data,
        theme,
        list,
        &usage.table,
        &Request::Services,
        "services",
    )
    .filter(|_| list.value().is_none_or(Vec::is_empty))
    {
        return Some(said);
    }
    if !usage.services.is_empty() {
        return None;
    }
    let pending = list.value().into_iter().flatten().any(|s| {
        let id = s.service_id;
        data.store.service(id).is_none() && data.store.service_answer(id).error().is_none()
    });
    Some(if pending {
        ("Finding the rotating (ppr) services…".to_owned(), theme.dim)
    } else {
        (
            "No rotating (ppr) services on this account: usage statistics exist for ppr services only."
                .to_owned(),
            theme.base,
        )
    })
}

/// The list of ppr services (as wide as it `wants`, within two fifths of the screen), the
/// chart and the gauge of the selected one.
impl TabLook for UsageTab {
    fn fit(&self, _data: &TabData<'_>) -> Fit {
        Fit {
            wants: columns::table_width(self.table.natural()),
            ..Fit::default()
        }
    }

    fn areas(&self, body: Rect, fit: Fit) -> Areas {
        let list_width = fit.wants.clamp(24, (body.width * 2 / 5).max(24));
        let [list, right] =
            Layout::horizontal([Constraint::Length(list_width), Constraint::Min(0)]).areas(body);
        let [chart, gauge] =
            Layout::vertical([Constraint::Min(0), Constraint::Length(3)]).areas(right);
        Areas {
            table: Pane::with_header(list),
            detail: [chart, gauge],
            ..Areas::default()
        }
    }

    fn nothing_to_show(&self, props: &Props<'_>) -> Option<(String, Style)> {
        no_list(self, props.data, props.theme)
    }

    fn heading(&self, props: &Props<'_>) -> Option<Heading> {
        let title = widgets::titled("ppr services", true, &self.table, "server order");
        let mut heading = Heading::new(title, Span::raw(""));
        if self.table.is_empty() {
            let said = "No services match the filter.";
            heading.instead = Some((said.to_owned(), props.theme.dim));
        }
        Some(heading)
    }

    fn draw_detail(&self, frame: &mut Frame, areas: &Areas, props: &Props<'_>, id: Option<u64>) {
        let ([chart, gauge], theme) = (areas.detail, props.theme);
        match id {
            Some(id) => draw_selected(frame, self, props.data, theme, (chart, gauge), id),
            None => {
                super::super::frame::empty(frame, props, chart, "Daily usage");
                super::super::frame::empty(frame, props, gauge, "Rate");
            }
        }
    }

    fn merged_noun(&self) -> Option<&'static str> {
        Some("Rotating (ppr)")
    }
}

/// The selected service's chart and gauge (the tab's, and the All view's), from one
/// chart of its use: the gauge says its projection in words.
pub fn draw_selected(
    frame: &mut Frame,
    usage: &UsageTab,
    data: &TabData<'_>,
    theme: &Theme,
    (chart_area, gauge_area): (Rect, Rect),
    id: u64,
) {
    let chart = usage.chart(data);
    draw_chart(frame, (usage, chart.as_ref()), data, theme, chart_area, id);
    draw_gauge(frame, chart.as_ref(), data, theme, gauge_area, id);
}

/// The chart of service `id`'s use (`chart`, the tab's range), or why there is none.
fn draw_chart(
    frame: &mut Frame,
    (usage, chart): (&UsageTab, Option<&UsageChart>),
    data: &TabData<'_>,
    theme: &Theme,
    area: Rect,
    id: u64,
) {
    let remote = data.store.stats_answer(id);
    let block = widgets::pane(
        theme,
        widgets::of_account(data, format!("Usage · {id} · {}", usage.range.label())),
        widgets::freshness(data, theme, remote.freshness()),
    );
    let inner = block.inner(area);
    if let Some((msg, style)) =
        widgets::remote_message(data, theme, remote, &Request::Stats(id), "the statistics")
    {
        frame.render_widget(block, area);
        widgets::message(frame, inner, &msg, style);
        return;
    }
    let Some(c) = chart.filter(|c| !c.points.is_empty()) else {
        let msg = if usage.range == Range::Day {
            "No use kept for the last 24 hours yet: the history writes it while proxydash watches."
        } else {
            "No statistics yet."
        };
        frame.render_widget(block, area);
        widgets::message(frame, inner, msg, theme.dim);
        return;
    };
    let highest = c
        .points
        .iter()
        .chain(c.ahead.iter())
        .map(|p| p.1)
        .chain(c.limit)
        .fold(0.0_f64, f64::max);
    let top = nice_ceiling(highest * 1.05);
    // The cursor (←/→): a vertical mark on its point, its day and value under the chart.
    let cursor = usage.cursor(c.points.len()).unwrap_or(0);
    let (cx, cy) = c.points[cursor];
    let mark: Vec<(f64, f64)> = (0..=64).map(|k| (cx, top * f64::from(k) / 64.0)).collect();
    let own = c.own[cursor]
        .map(|v| format!(" (+{} that day)", text::number(v)))
        .unwrap_or_default();
    let block = block.title_bottom(Line::from(vec![
        Span::styled(" ◆ ", theme.key),
        Span::styled(
            format!("{}: {} used{own} ", c.labels[cursor], text::number(cy)),
            theme.title,
        ),
    ]));
    let limit_line: Vec<(f64, f64)> = c
        .limit
        .map(|l| vec![(0.0, l), (c.end_x, l)])
        .unwrap_or_default();
    let reached: Vec<(f64, f64)> = c.reached_x.zip(c.limit).into_iter().collect();
    let sets = datasets(c, (&mark, &limit_line, &reached), theme);
    let chart = Chart::new(sets)
        .block(block)
        .legend_position(Some(ratatui::widgets::LegendPosition::BottomRight))
        .x_axis(x_axis(c, theme))
        .y_axis(y_axis(top, theme));
    frame.render_widget(chart, area);
}

/// A point of the chart: x (the day or hour), y (the use).
type Point = (f64, f64);

/// The chart's lines: the cursor's mark, the limit, the projection at this pace, the use,
/// and where the limit is reached.
fn datasets<'a>(
    c: &'a UsageChart,
    (mark, limit_line, reached): (&'a [Point], &'a [Point], &'a [Point]),
    theme: &Theme,
) -> Vec<Dataset<'a>> {
    let mut sets = vec![
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Scatter)
            .style(theme.key)
            .data(mark),
        Dataset::default()
            .name("limit")
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.bad)
            .data(limit_line),
        Dataset::default()
            .name("at this pace")
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.warn)
            .data(&c.ahead),
        Dataset::default()
            .name("used")
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.chart.line)
            .data(&c.points),
    ];
    if !reached.is_empty() {
        sets.push(
            Dataset::default()
                .marker(Marker::Dot)
                .graph_type(GraphType::Scatter)
                .style(theme.bad)
                .data(reached),
        );
    }
    sets
}

/// The days (or hours) along the bottom.
fn x_axis<'a>(c: &UsageChart, theme: &Theme) -> Axis<'a> {
    Axis::default()
        .bounds([0.0, c.end_x.max(1.0)])
        .labels(
            c.axis
                .iter()
                .map(|l| Line::from(l.clone()))
                .collect::<Vec<_>>(),
        )
        .style(theme.dim)
}

/// From 0 to `top`, with its middle.
fn y_axis<'a>(top: f64, theme: &Theme) -> Axis<'a> {
    Axis::default()
        .title(Span::styled(UNIT, theme.dim))
        .bounds([0.0, top])
        .labels(vec![
            Line::from("0"),
            Line::from(text::number(top / 2.0)),
            Line::from(text::number(top)),
        ])
        .style(theme.dim)
}

/// The projection in words, for the detail: when the limit is reached at this pace.
pub fn projection_line(c: &UsageChart, today: chrono::NaiveDate) -> Option<String> {
    let p = c.projection?;
    let pace = text::number(p.per_day.round());
    // Short: the detail's frame is a third of an 80-column screen.
    Some(match (p.days_to_limit(), p.reached_on(today)) {
        (Some(d), _) if d <= 0.0 => "over the limit already".to_owned(),
        (None, _) => format!("at {pace}/day: limit not reached"),
        (Some(d), Some(on)) => format!(
            "limit on {on} ({} days at {pace}/day)",
            text::number(d.ceil())
        ),
        (Some(_), None) => format!("at {pace}/day: limit years away"),
    })
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

/// Service `id`'s rate against its limit, with the projection of `chart` in words.
fn draw_gauge(
    frame: &mut Frame,
    chart: Option<&UsageChart>,
    data: &TabData<'_>,
    theme: &Theme,
    area: Rect,
    id: u64,
) {
    let remote = data.store.rate_answer(id);
    let block = widgets::pane(
        theme,
        format!("Rate vs limit ({UNIT})"),
        widgets::freshness(data, theme, remote.freshness()),
    );
    let inner = block.inner(area);
    if let Some((msg, style)) =
        widgets::remote_message(data, theme, remote, &Request::Rate(id), "the rate")
    {
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
    let today = data.today();
    let block = match chart.and_then(|c| projection_line(c, today)) {
        Some(line) => {
            block.title_bottom(Line::from(Span::styled(format!(" {line} "), theme.title)))
        }
        None => block,
    };
    let gauge = Gauge::default()
        .block(block)
        .ratio(ratio)
        .label(Span::styled(label, theme.title))
        .gauge_style(if over {
            theme.chart.gauge_over
        } else {
            theme.chart.gauge
        })
        .use_unicode(true);
    frame.render_widget(gauge, area);
}
