//! The command log (`L`): one command line per line, oldest first, each after its time;
//! a `#` line (an outcome unknown) in the warning colour.

use super::palette::WIDEST;
use crate::app::App;
use crate::ui::theme::Theme;
use crate::ui::{layout, widgets};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

/// `L`: what was done this session as command lines, oldest first.
pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, area: Rect, scroll: usize) {
    let log = app.command_log();
    let r = layout::centered(area, area.width.saturating_sub(4).min(WIDEST), area.height);
    frame.render_widget(Clear, r);
    let title = if log.is_empty() {
        "Command log".to_owned()
    } else {
        format!(
            "Command log · {} line{} · y copies them all",
            log.len(),
            if log.len() == 1 { "" } else { "s" }
        )
    };
    let block = widgets::pane(theme, title, Span::raw(""));
    let inner = block.inner(r);
    frame.render_widget(block, r);
    let width = usize::from(inner.width);
    let mut lines: Vec<Line> = log
        .entries()
        .skip(scroll)
        .take(usize::from(inner.height))
        .map(|e| {
            let style = if e.line.starts_with('#') {
                theme.warn
            } else {
                theme.base
            };
            widgets::fit_line(
                Line::from(vec![
                    Span::styled(format!("{} ", widgets::clock_time(app, e.at)), theme.dim),
                    Span::styled(e.line.clone(), style),
                ]),
                width,
            )
        })
        .collect();
    if lines.is_empty() {
        lines.push(Line::from(Span::styled(
            "Nothing yet: binds, password changes, IP-list refreshes, orders, copies and probes are listed here as proxydash command lines.",
            theme.dim,
        )));
        frame.render_widget(
            Paragraph::new(lines).wrap(ratatui::widgets::Wrap { trim: true }),
            inner,
        );
        return;
    }
    frame.render_widget(Paragraph::new(lines), inner);
}
