//! The desk's own popups over several accounts: which account orders (`o`), every
//! account's messages (`m`) and the All view's keys (`?`).

use super::keys::ALL_KEYS;
use super::{Desk, Seat};
use crate::ui::theme::Theme;
use crate::ui::{layout, text, widgets};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph};

pub fn draw_help(frame: &mut Frame, theme: &Theme, area: Rect) {
    let mut lines = vec![
        Line::from(Span::styled(
            "All accounts: every account's rows, each with its account",
            theme.title,
        )),
        Line::raw(""),
    ];
    for (key, _, what) in ALL_KEYS {
        lines.push(Line::from(vec![
            Span::styled(format!("{key:<12}"), theme.key),
            Span::raw(*what),
        ]));
    }
    let h = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX);
    let r = layout::centered(area, 90, h);
    frame.render_widget(Clear, r);
    frame.render_widget(
        Paragraph::new(lines).block(popup_block(theme, "Help (Esc closes)")),
        r,
    );
}

fn popup_block<'a>(theme: &Theme, title: &str) -> Block<'a> {
    Block::new()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .border_style(theme.border)
        .title(Span::styled(format!(" {title} "), theme.title))
}

pub fn draw_picker(frame: &mut Frame, desk: &Desk, theme: &Theme, area: Rect, at: usize) {
    let product = desk
        .all()
        .selected_product(desk.seats())
        .map(|(_, name)| name)
        .unwrap_or_default();
    let mut lines = vec![
        Line::from(Span::styled(
            format!("Order {} for which account?", text::sanitize(&product)),
            theme.title,
        )),
        Line::raw(""),
    ];
    for (i, seat) in desk.seats().iter().enumerate() {
        let credit = seat.app.billing().credit.value().map_or_else(
            || "credit …".to_owned(),
            |c| format!("credit {}", text::money(c.credit)),
        );
        let mark = if i == at { "▶ " } else { "  " };
        let mut spans = vec![
            Span::styled(mark, theme.key),
            Span::styled(format!("{} ", i + 1), theme.key),
            Span::styled(format!("{:<13}", seat.name), theme.account(seat.colour)),
            Span::raw(credit),
        ];
        if seat.app.settings().read_only {
            spans.push(Span::styled("  read-only: cannot order", theme.bad));
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::raw(""));
    lines.push(Line::from(Span::styled(
        "Enter: that account's order form (it confirms before sending) · Esc: cancel",
        theme.dim,
    )));
    let h = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX);
    let r = layout::centered(area, 76, h);
    frame.render_widget(Clear, r);
    frame.render_widget(Paragraph::new(lines).block(popup_block(theme, "Order")), r);
}

pub fn draw_log(frame: &mut Frame, desk: &Desk, theme: &Theme, area: Rect, scroll: usize) {
    let mut entries: Vec<(&Seat, &crate::app::messages::Entry)> = desk
        .seats()
        .iter()
        .flat_map(|s| {
            s.app
                .status()
                .messages()
                .newest_first()
                .map(move |e| (s, e))
        })
        .collect();
    entries.sort_by_key(|e| std::cmp::Reverse(e.1.at));
    let r = area.inner(ratatui::layout::Margin::new(2, 1));
    let room = usize::from(r.height.saturating_sub(2));
    let lines: Vec<Line> = if entries.is_empty() {
        vec![Line::from(Span::styled("No messages yet.", theme.dim))]
    } else {
        entries
            .iter()
            .skip(scroll.min(entries.len().saturating_sub(1)))
            .take(room)
            .map(|(seat, e)| {
                Line::from(vec![
                    Span::styled(widgets::clock_time(&seat.app, e.at), theme.dim),
                    Span::styled(format!(" {:<12} ", seat.name), theme.account(seat.colour)),
                    Span::styled(format!("{:<5} ", e.level.label()), theme.dim),
                    Span::raw(text::sanitize(&e.text).into_owned()),
                ])
            })
            .collect()
    };
    frame.render_widget(Clear, r);
    frame.render_widget(
        Paragraph::new(lines).block(popup_block(theme, "Messages · all accounts (Esc closes)")),
        r,
    );
}
