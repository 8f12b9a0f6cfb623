//! The command log (`L`): one command line per line, oldest first, each after its time;
//! a `#` line (an outcome unknown) in the warning colour.

use super::palette::WIDEST;
use crate::app::App;
use crate::app::cmdlog::Entry;
use crate::app::popups::command_log::CommandLogPopup;
use crate::ui::theme::Theme;
use crate::ui::{layout, widgets};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

/// A line as listed: its account's name and colour (in All), and the entry.
type Listed<'a> = (Option<(&'a str, u8)>, &'a Entry);

/// `L`: what was done this session as command lines, oldest first.
pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, area: Rect, popup: &CommandLogPopup) {
    let scroll = popup.scroll;
    let log = app.command_log();
    let r = layout::centered(area, area.width.saturating_sub(4).min(WIDEST), area.height);
    frame.render_widget(Clear, r);
    // In All, every account's lines, each after its account; else this account's.
    let (noun, entries): (&str, Vec<Listed>) = match &popup.all {
        Some(all) => (
            "Command log · every account",
            all.iter()
                .map(|a| (Some((a.name.as_str(), a.colour)), &a.entry))
                .collect(),
        ),
        None => ("Command log", log.entries().map(|e| (None, e)).collect()),
    };
    let title = if entries.is_empty() {
        noun.to_owned()
    } else {
        format!(
            "{noun} · {} line{} · y copies them all",
            entries.len(),
            if entries.len() == 1 { "" } else { "s" }
        )
    };
    let name_width = entries
        .iter()
        .filter_map(|(a, _)| a.map(|(n, _)| n.chars().count()))
        .max()
        .unwrap_or(0);
    let block = widgets::pane(theme, title, Span::raw(""));
    let inner = block.inner(r);
    frame.render_widget(block, r);
    let width = usize::from(inner.width);
    let mut lines: Vec<Line> = entries
        .iter()
        .skip(scroll)
        .take(usize::from(inner.height))
        .map(|(account, e)| {
            let style = if e.line.starts_with('#') {
                theme.warn
            } else {
                theme.base
            };
            let mut spans = vec![Span::styled(
                format!("{} ", widgets::clock_time(app, e.at)),
                theme.dim,
            )];
            if let Some((name, colour)) = account {
                spans.push(Span::styled(
                    format!("{name:<name_width$} "),
                    theme.account(*colour),
                ));
            }
            spans.push(Span::styled(e.line.clone(), style));
            widgets::fit_line(Line::from(spans), width)
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
