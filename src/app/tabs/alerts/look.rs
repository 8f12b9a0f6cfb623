//! The Alerts tab's look: open alerts, then the recently resolved ones, and the selected
//! alert's whole message below the table. Times are short (`14:02` today, `11-21 14:02`
//! before); the full ones are in the detail.

use super::{AlertsTab, message};
use crate::alerts::{Alert, Level};
use crate::app::data::TabData;
use crate::app::look::pane::Pane;
use crate::app::look::theme::Theme;
use crate::app::look::widgets;
use crate::app::tabs::{Areas, Fit, Heading, Member, Props, TabLook};
use crate::text;
use chrono::{DateTime, Utc};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Cell, Paragraph, Row, Wrap};

/// Screens at least this wide show the subject and rule columns (the message names the
/// subject too, so narrower screens give its room to the message).
const RULE_COLUMN: u16 = 110;

/// The style of the tab title's count: the most severe open alert's.
pub fn count_style(tab: &AlertsTab, theme: &Theme) -> Style {
    match tab.worst_open() {
        Some(Level::Critical) => theme.bad,
        Some(Level::Warn) => theme.warn,
        _ => theme.bar.tab_inactive,
    }
}

fn level_cell(theme: &Theme, a: &Alert) -> (String, Style) {
    let style = match (a.resolved, a.level) {
        (Some(_), _) => theme.dim,
        (None, Level::Critical) => theme.bad,
        (None, Level::Warn) => theme.warn,
        (None, Level::Info) => theme.base,
    };
    let mark = if a.resolved.is_some() { "✓" } else { "●" };
    (format!("{mark} {}", a.level.as_str()), style)
}

fn short_time(data: &TabData<'_>, at: DateTime<Utc>) -> String {
    crate::text::short_time(data.now, data.offset, at)
}

/// The table, and the selected alert's whole message below it.
impl TabLook for AlertsTab {
    fn areas(&self, body: Rect, _fit: Fit) -> Areas {
        // Room for the acknowledgement and the silences in force where the screen has it.
        let detail = if body.height >= 20 { 8 } else { 4 };
        let [table, detail] =
            Layout::vertical([Constraint::Min(0), Constraint::Length(detail)]).areas(body);
        Areas::with_detail((Pane::with_header(table), detail))
    }

    /// What needs a person apart from what is being handled: `49 open · 2 acked · 1
    /// silenced`, as the All view counts them.
    fn heading(&self, props: &Props<'_>) -> Option<Heading> {
        let counts = self.counts(props.data.now);
        let mut heading = Heading::new(title(counts, &self.table), Span::raw(""));
        heading.instead = placeholder(self, props.theme);
        // The whole pane, not one line: the explanation wraps.
        heading.wraps = true;
        Some(heading)
    }

    fn own_rows(
        &self,
        frame: &mut Frame,
        pane: Pane,
        block: &Block<'_>,
        props: &Props<'_>,
    ) -> bool {
        draw_rows(self, frame, pane, block.clone(), props);
        true
    }

    fn draw_detail(&self, frame: &mut Frame, areas: &Areas, props: &Props<'_>, id: Option<u64>) {
        let alert = id.and_then(|id| self.rows.iter().find(|a| super::row_id(a) == id));
        draw_detail(frame, self, props.data, props.theme, areas.detail[0], alert);
    }

    fn merged_words(&self, members: &[Member<'_>]) -> String {
        let mut counts = super::Counts::default();
        for m in members {
            counts += m.tabs.alerts.counts(m.data.now);
        }
        counts.words()
    }
}

/// The alerts, each with its level, marks (while something is marked), subject and rule
/// (on a wide screen), message, since and resolved (while something resolved is listed).
fn draw_rows(tab: &AlertsTab, frame: &mut Frame, pane: Pane, block: Block<'_>, props: &Props<'_>) {
    let (data, theme) = (props.data, props.theme);
    let view = &tab.table;
    let wide = pane.block.width >= RULE_COLUMN;
    let rows = &tab.rows;
    let now = data.now;
    // Only while something is marked: the message keeps its room otherwise.
    let marked = rows.iter().any(|a| !tab.mark(a, now).is_empty());
    // Only while something resolved is listed: a column of `—` gives its room to the
    // message.
    let resolved = rows.iter().any(|a| a.resolved.is_some());
    let (header, widths) = header(marked, wide, resolved);
    // The message column's width (the highlight mark, the fixed columns and the gaps
    // taken off), so a long message ends in `…` rather than being clipped mid-word.
    let fixed: u16 = widths
        .iter()
        .map(|w| match w {
            Constraint::Length(n) => *n,
            _ => 0,
        })
        .sum();
    let gaps = widths.len().saturating_sub(1) as u16;
    let message_width = usize::from(pane.rows.width.saturating_sub(2 + fixed + gaps));
    widgets::table(frame, theme, pane, block, (&header, &widths), view, |i| {
        let a = &rows[i];
        let (level, style) = level_cell(theme, a);
        let dim = if a.resolved.is_some() {
            theme.dim
        } else {
            theme.base
        };
        let mut cells = vec![Cell::new(level).style(style)];
        if marked {
            cells.push(Cell::new(tab.mark(a, now)).style(theme.dim));
        }
        if wide {
            cells.push(Cell::new(a.key.subject.to_string()).style(dim));
            cells.push(Cell::new(a.key.rule.as_str()).style(dim));
        }
        cells.extend([
            Cell::new(text::truncate(&message(data.offset, a), message_width).into_owned())
                .style(dim),
            Cell::new(short_time(data, a.first_seen)).style(dim),
        ]);
        if resolved {
            cells.push(
                Cell::new(
                    a.resolved
                        .map_or_else(|| "—".to_owned(), |t| short_time(data, t)),
                )
                .style(dim),
            );
        }
        Row::new(cells)
    });
}

/// The selected alert's marks (who acknowledged it and when, the silence covering it),
/// then every silence in force: what, until when, why and by whom.
fn marks_lines(
    tab: &AlertsTab,
    data: &TabData<'_>,
    theme: &Theme,
    alert: Option<&Alert>,
) -> Vec<Line<'static>> {
    let now = data.now;
    let mut lines = Vec::new();
    if let Some(a) = alert.filter(|a| a.resolved.is_none())
        && let Some(ack) = tab.marks.ack(&a.key)
    {
        lines.push(Line::from(Span::styled(
            format!(
                "Acknowledged by {} at {}: not delivered again until it resolves.",
                ack.by,
                widgets::clock_time(data, ack.at)
            ),
            theme.good,
        )));
    }
    let active: Vec<_> = tab.marks.active(now).collect();
    if !active.is_empty() {
        lines.push(Line::from(Span::styled(
            format!("Silences ({}, s edits, u ends):", active.len()),
            theme.title,
        )));
    }
    for s in active {
        let covers = alert.is_some_and(|a| s.target.covers(&a.key));
        lines.push(Line::from(vec![
            Span::styled(if covers { "▸ " } else { "  " }, theme.key),
            Span::raw(format!("{} {}", s.id, s.target.describe())),
            Span::styled(
                format!(
                    " until {} ({} left) · {} · {}",
                    widgets::clock_time(data, s.until),
                    crate::alerts::marks::format_duration(s.until - now),
                    s.reason,
                    s.by
                ),
                theme.dim,
            ),
        ]));
    }
    lines
}

/// The selected alert in full: what, since when, and the whole message.
pub fn draw_detail(
    frame: &mut Frame,
    tab: &AlertsTab,
    data: &TabData<'_>,
    theme: &Theme,
    area: Rect,
    alert: Option<&Alert>,
) {
    let block = widgets::pane(theme, "Alert".to_owned(), Span::raw(""));
    let Some(a) = alert else {
        let tip = "Rules: credit_low, service_due, service_status, servers_in_error, \
                   rate_limit, rate_forecast, unpaid_invoice (thresholds in [alerts] of the \
                   config file).";
        let mut lines = vec![Line::from(Span::styled(tip, theme.dim))];
        lines.extend(marks_lines(tab, data, theme, None));
        frame.render_widget(
            Paragraph::new(lines).wrap(Wrap { trim: true }).block(block),
            area,
        );
        return;
    };
    let (level, style) = level_cell(theme, a);
    let mut head = vec![
        Span::styled(level, style),
        Span::styled(format!("  {}  ", a.key.rule.as_str()), theme.dim),
        Span::raw(a.key.subject.to_string()),
        Span::styled(
            format!("  since {}", widgets::clock_time(data, a.first_seen)),
            theme.dim,
        ),
    ];
    if let Some(at) = a.resolved {
        head.push(Span::styled(
            format!(", resolved {}", widgets::clock_time(data, at)),
            theme.dim,
        ));
    }
    if a.repeats > 0 {
        head.push(Span::styled(
            format!(", repeated {}×", a.repeats),
            theme.dim,
        ));
    }
    head.push(Span::styled(
        format!("  ID {}", crate::alerts::marks::alert_id(&a.key)),
        theme.dim,
    ));
    let mut lines = vec![Line::from(head), Line::from(message(data.offset, a))];
    lines.extend(marks_lines(tab, data, theme, Some(a)));
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: true }).block(block),
        area,
    );
}

/// What the pane says instead of rows: no alerts yet (and why none may be announced so
/// soon), none, or nothing matching the filter.
fn placeholder(tab: &AlertsTab, theme: &Theme) -> Option<(String, Style)> {
    let view = &tab.table;
    if tab.rows.is_empty() && tab.book.sweeps() < u64::from(tab.rules.debounce) {
        Some((
            format!(
                "No alerts yet: a service's status, a due date or an unpaid invoice is \
                 announced as soon as it is read; other problems must be seen {} in a row \
                 (one refresh each) before they are announced.",
                match tab.rules.debounce {
                    1 => "once".to_owned(),
                    2 => "twice".to_owned(),
                    n => format!("{n} times"),
                }
            ),
            theme.dim,
        ))
    } else if tab.rows.is_empty() {
        Some(("✓ No alerts.".to_owned(), theme.good))
    } else if view.is_empty() {
        Some(widgets::no_match(theme, view, "alerts"))
    } else {
        None
    }
}

/// The table's header and widths: the Marked column while something is marked, the
/// subject and rule on a wide screen.
fn header(marked: bool, wide: bool, resolved: bool) -> (Vec<&'static str>, Vec<Constraint>) {
    let mut header: Vec<&'static str> = vec!["Level"];
    let mut widths = vec![Constraint::Length(10)];
    if marked {
        header.push("Marked");
        widths.push(Constraint::Length(8));
    }
    if wide {
        header.extend(["Subject", "Rule"]);
        widths.extend([Constraint::Length(13), Constraint::Length(16)]);
    }
    header.extend(["Message", "Since"]);
    widths.extend([Constraint::Fill(1), Constraint::Length(11)]);
    if resolved {
        header.push("Resolved");
        widths.push(Constraint::Length(11));
    }
    (header, widths)
}

/// `Alerts · 9 open`; the rows listed when they are not just those counted (resolved ones
/// listed too, or a filter): `Alerts · 9 open · 12 listed`, `… · 3 of 12 listed`.
fn title(counts: super::Counts, view: &crate::app::table::TableView) -> String {
    let words = counts.words();
    let counted = counts.open + counts.acked + counts.silenced;
    let filtered = !view.filter().is_empty() || view.problems_only();
    let listed = format!("{} listed", widgets::count_label(view));
    let marked = match view.marked_count() {
        0 => String::new(),
        n => format!(" · {} marked", text::count(n as u64)),
    };
    match (words.is_empty(), !filtered && view.total() == counted) {
        (true, _) if view.total() == 0 => "Alerts".to_owned(),
        (true, _) => format!("Alerts · {listed}"),
        (false, true) => format!("Alerts · {words}{marked}"),
        (false, false) => format!("Alerts · {words} · {listed}"),
    }
}
