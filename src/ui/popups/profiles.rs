//! `P`: the profiles of the config file, the current one marked, each with its base URL
//! and whether it is read-only.

use crate::app::App;
use crate::ui::theme::Theme;
use crate::ui::{layout, text, widgets};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

/// `P`: the profiles of the config file, the current one marked.
/// Each with its base URL and whether it is read-only.
pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, area: Rect, selected: usize) {
    let settings = app.settings();
    let name_width = settings
        .profiles
        .names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0);
    let lines: Vec<Line> = settings
        .profiles
        .names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let cursor = if i == selected { "▶ " } else { "  " };
            let current = if *name == settings.profile {
                "  (current)"
            } else {
                ""
            };
            let style = if i == selected {
                theme.selected
            } else {
                theme.base
            };
            let card = settings.profiles.cards.iter().find(|c| c.name == *name);
            let url = card.and_then(|c| c.base_url.as_deref()).map_or_else(
                || "no base URL".to_owned(),
                |u| text::sanitize(u).into_owned(),
            );
            let mut spans = vec![
                Span::styled(format!("{cursor}{name:<width$}", width = name_width), style),
                Span::styled(format!("  {url}"), theme.dim),
            ];
            if card.is_some_and(|c| c.read_only) {
                spans.push(Span::styled("  read-only", theme.warn));
            }
            spans.push(Span::styled(current, theme.dim));
            Line::from(spans)
        })
        .collect();
    let h = (lines.len() as u16 + 2).min(area.height);
    let widest = lines.iter().map(Line::width).max().unwrap_or(0) as u16;
    let r = layout::centered(area, (widest + 2).clamp(40, area.width), h);
    frame.render_widget(Clear, r);
    frame.render_widget(
        Paragraph::new(widgets::fitted(lines, r.width.saturating_sub(2))).block(widgets::pane(
            theme,
            "Switch profile".into(),
            Span::raw(""),
        )),
        r,
    );
}
