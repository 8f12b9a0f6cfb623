//! The Network tab's look: a summary line, then every proxy server in error or inactive.

use super::NetworkTab;
use crate::app::Freshness;
use crate::app::data::TabData;
use crate::app::look::pane::Pane;
use crate::app::look::theme::Theme;
use crate::app::look::{columns, widgets};
use crate::app::tabs::{Props, TabPane};
use crate::text;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// The summary line above the table.
pub fn areas(body: Rect) -> (Rect, Pane) {
    let [summary, table] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(body);
    (summary, Pane::with_header(table))
}

/// Draws the tab in `body`.
pub fn draw(net: &NetworkTab, frame: &mut Frame, body: Rect, props: &Props<'_>) {
    let (data, theme) = (props.data, props.theme);
    let (summary_area, pane) = areas(body);
    let list = data.store.services_answer();
    let s = net.summary;
    let summary = summary_line(net, data, theme, summary_area.width);
    frame.render_widget(Paragraph::new(summary), summary_area);

    let view = &net.table;
    // A per-service list whose refresh failed keeps its last good rows: mark the pane stale
    // from the oldest of them, as the other tabs do for their own data.
    let fresh = match s.stale_since {
        Some(at) => Freshness::Stale(at),
        None => list.freshness(),
    };
    let block = widgets::pane(
        theme,
        widgets::titled(
            "Proxy servers in error or inactive",
            list.value().is_some(),
            view,
            &net.sort.label(),
        ),
        widgets::freshness(data, theme, fresh),
    );
    let block = widgets::with_filter(block, view, theme);
    let placeholder = if list.value().is_none() {
        widgets::placeholder(
            data,
            theme,
            list,
            view,
            &crate::api::Request::Services,
            "services",
        )
    } else if list.value().is_some_and(Vec::is_empty) {
        Some((
            "No services, so no proxy servers to check.".to_owned(),
            theme.dim,
        ))
    } else if net.rows.is_empty() && s.checked < s.services {
        Some(("Checking proxy servers…".to_owned(), theme.dim))
    } else if net.rows.is_empty() {
        Some(("✓ Every proxy server is up.".to_owned(), theme.good))
    } else if view.is_empty() {
        Some(widgets::no_match(theme, view, "servers"))
    } else {
        None
    };
    if let Some((msg, style)) = placeholder {
        frame.render_widget(block, pane.block);
        widgets::message(frame, pane.header(), &msg, style);
        return;
    }
    // Beside the searched columns, what changes with time: when each service was checked
    // and, with history, since when each server is listed and its service's errors per
    // hour over 24 h (lowest priority: hidden first on a narrow screen).
    let columns = net.columns(data);
    columns::draw(
        frame,
        theme,
        pane,
        block,
        (&columns, net.table.natural()),
        view,
        |i| net.cells(data, i),
    );
}

/// The summary line: services checked, servers in error and inactive, what is on its way
/// (or held back by the budget), what cannot be checked and what failed. When the full
/// words do not fit `width`, the short ones are used, so that a wait keeps its seconds and
/// its reason (`⏸ server's limit, next in 23 s`) at 80 columns.
fn summary_line(net: &NetworkTab, data: &TabData<'_>, theme: &Theme, width: u16) -> Line<'static> {
    let full = summary_spans(net, data, theme, false);
    let fits = full.iter().map(Span::width).sum::<usize>() <= usize::from(width);
    Line::from(if fits {
        full
    } else {
        summary_spans(net, data, theme, true)
    })
}

fn summary_spans(
    net: &NetworkTab,
    data: &TabData<'_>,
    theme: &Theme,
    short: bool,
) -> Vec<Span<'static>> {
    let s = net.summary;
    let now = data.now;
    let oldest = s
        .oldest
        .filter(|at| !short && s.checked > 0 && (now - *at).num_seconds() >= 10)
        .map(|at| format!(" · oldest {}", crate::text::age(now, at)))
        .unwrap_or_default();
    let (checked, errors, inactive, gap) = if short {
        ("Checked", "In error", "Inactive", "  ")
    } else {
        ("Services checked", "Servers in error", "Inactive", "   ")
    };
    let mut summary = vec![
        Span::raw(format!(
            " {checked}: {} of {}{oldest}{gap}",
            text::count(s.checked as u64),
            text::count(s.services as u64)
        )),
        Span::styled(
            format!("{errors}: {}", text::count(s.errors as u64)),
            if s.errors > 0 { theme.bad } else { theme.base },
        ),
        Span::raw(gap),
        Span::styled(
            format!("{inactive}: {}", text::count(s.inactive as u64)),
            if s.inactive > 0 {
                theme.warn
            } else {
                theme.base
            },
        ),
    ];
    // Held back by the budget is not failing: the scheduler sends them when it allows.
    if let Some(held) = data.budget_held.filter(|_| s.loading > 0) {
        let waiting = if short {
            held.short_words(now)
        } else {
            held.words(now)
        };
        summary.push(Span::styled(format!("{gap}⏸ {waiting}"), theme.warn));
    } else if s.loading > 0 {
        summary.push(Span::styled(
            format!("{gap}checking {}…", s.loading),
            theme.dim,
        ));
    }
    if s.cannot_check > 0 {
        summary.push(Span::styled(
            format!("{gap}{} can't check", text::count(s.cannot_check as u64)),
            theme.dim,
        ));
    }
    if s.failed > 0 {
        summary.push(Span::styled(
            format!("{gap}✗ {} failed", s.failed),
            theme.bad,
        ));
    }
    summary
}
