//! The Network tab's look: a summary line, then every proxy server in error or inactive.

use super::NetworkTab;
use crate::app::Freshness;
use crate::app::data::TabData;
use crate::app::look::pane::Pane;
use crate::app::look::theme::Theme;
use crate::app::look::widgets;
use crate::app::tabs::{Areas, Fit, Heading, Member, Props, Rows, TabLook};
use crate::text;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// The summary line above the table.
impl TabLook for NetworkTab {
    fn areas(&self, body: Rect, _fit: Fit) -> Areas {
        let [summary, table] =
            Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(body);
        Areas {
            table: Pane::with_header(table),
            above: [summary, Rect::default()],
            ..Areas::default()
        }
    }

    fn draw_above(&self, frame: &mut Frame, areas: &Areas, props: &Props<'_>, rows: &Rows) {
        let area = areas.above[0];
        let line = match rows {
            Rows::One => summary_line(self, props.data, props.theme, area.width),
            Rows::Merged(merged) => merged_summary(&merged.members, props.theme),
        };
        frame.render_widget(Paragraph::new(line), area);
    }

    fn heading(&self, props: &Props<'_>) -> Option<Heading> {
        let (data, theme) = (props.data, props.theme);
        let list = data.store.services_answer();
        let (s, view) = (self.summary, &self.table);
        // A per-service list whose refresh failed keeps its last good rows: mark the pane
        // stale from the oldest of them, as the other tabs do for their own data.
        let fresh = match s.stale_since {
            Some(at) => Freshness::Stale(at),
            None => list.freshness(),
        };
        let noun = "Proxy servers in error or inactive";
        let title = widgets::titled(noun, list.value().is_some(), view, &self.sort.label());
        let mut heading = Heading::new(title, widgets::freshness(data, theme, fresh));
        heading.instead = if list.value().is_none() {
            let request = crate::api::Request::Services;
            widgets::placeholder(data, theme, list, view, &request, "services")
        } else if list.value().is_some_and(Vec::is_empty) {
            let said = "No services, so no proxy servers to check.";
            Some((said.to_owned(), theme.dim))
        } else if self.rows.is_empty() && s.checked < s.services {
            Some(("Checking proxy servers…".to_owned(), theme.dim))
        } else if self.rows.is_empty() {
            Some(("✓ Every proxy server is up.".to_owned(), theme.good))
        } else if view.is_empty() {
            Some(widgets::no_match(theme, view, "servers"))
        } else {
            None
        };
        Some(heading)
    }

    fn merged_noun(&self) -> Option<&'static str> {
        Some("Proxy servers in error or inactive")
    }
}

/// The summary over every account of the All view.
fn merged_summary(members: &[Member<'_>], theme: &Theme) -> Line<'static> {
    let (mut checked, mut services, mut errors, mut inactive) = (0, 0, 0, 0);
    for member in members {
        let s = member.tabs.network.summary;
        checked += s.checked;
        services += s.services;
        errors += s.errors;
        inactive += s.inactive;
    }
    Line::from(vec![
        Span::raw(format!(
            " Services checked: {} of {}   ",
            text::count(checked as u64),
            text::count(services as u64)
        )),
        Span::styled(
            format!("Servers in error: {}", text::count(errors as u64)),
            if errors > 0 { theme.bad } else { theme.base },
        ),
        Span::styled(
            format!("   Inactive: {}", text::count(inactive as u64)),
            if inactive > 0 { theme.warn } else { theme.base },
        ),
    ])
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
