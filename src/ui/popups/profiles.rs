//! `P`: the profiles of the config file, the current one marked, each with its base URL
//! and whether it is read-only.

use crate::app::App;
use crate::app::popups::profiles::ProfilePicker;
use crate::ui::theme::Theme;
use crate::ui::{layout, text, widgets};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

/// `P`: the profiles of the config file, the current one marked.
/// Each with its base URL and whether it is read-only.
pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, area: Rect, picker: &ProfilePicker) {
    if !picker.among.is_empty() {
        return draw_among(frame, app, theme, area, picker);
    }
    let selected = picker.selected;
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

/// `P` over several accounts: All, then each account with its connection, address and
/// read-only mark; what the screen shows is marked `(shown)`.
fn draw_among(frame: &mut Frame, app: &App, theme: &Theme, area: Rect, picker: &ProfilePicker) {
    let shown_all = app.context().accounts == crate::app::keymap::Accounts::All;
    let width = picker
        .among
        .iter()
        .map(|a| a.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(3);
    let cursor = |i: usize| if i == picker.selected { "▶ " } else { "  " };
    let style = |i: usize| {
        if i == picker.selected {
            theme.selected
        } else {
            theme.base
        }
    };
    let mut lines = vec![Line::from(vec![
        Span::styled(
            format!("{}{:<w$}", cursor(0), "All", w = width + 2),
            style(0),
        ),
        Span::styled("  every account's rows together", theme.dim),
        Span::styled(if shown_all { "  (shown)" } else { "" }, theme.dim),
    ])];
    for (i, a) in picker.among.iter().enumerate() {
        let (mark, words) = &a.link;
        let mark_style = match *mark {
            "✗" => theme.bad,
            "⏸" => theme.warn,
            "…" => theme.dim,
            _ => theme.good,
        };
        let name_style = if i + 1 == picker.selected {
            theme.selected
        } else {
            theme.account(a.colour)
        };
        let url = if a.base_url.is_empty() {
            "no base URL".to_owned()
        } else {
            text::sanitize(&a.base_url).into_owned()
        };
        let mut spans = vec![
            Span::styled(cursor(i + 1), style(i + 1)),
            Span::styled(format!("{mark} "), mark_style),
            Span::styled(format!("{:<width$}", a.name), name_style),
            Span::styled(format!("  {url}"), theme.dim),
        ];
        if a.read_only {
            spans.push(Span::styled("  read-only", theme.warn));
        }
        if !words.is_empty() {
            spans.push(Span::styled(format!("  {words}"), mark_style));
        }
        if !shown_all && a.profile == app.settings().profile {
            spans.push(Span::styled("  (shown)", theme.dim));
        }
        lines.push(Line::from(spans));
    }
    let h = (lines.len() as u16 + 2).min(area.height);
    let widest = lines.iter().map(Line::width).max().unwrap_or(0) as u16;
    let r = layout::centered(area, (widest + 2).clamp(40, area.width), h);
    frame.render_widget(Clear, r);
    frame.render_widget(
        Paragraph::new(widgets::fitted(lines, r.width.saturating_sub(2))).block(widgets::pane(
            theme,
            "Show which account (Enter)".into(),
            Span::raw(""),
        )),
        r,
    );
}
