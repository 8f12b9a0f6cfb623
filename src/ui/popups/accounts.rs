//! `o` in the All view: which account orders, each with its credit, its own price of the
//! product (or that it does not sell it) and whether it is read-only.

use crate::app::popups::accounts::AccountPicker;
use crate::ui::theme::Theme;
use crate::ui::{layout, text, widgets};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

pub fn draw(frame: &mut Frame, theme: &Theme, area: Rect, picker: &AccountPicker) {
    let mut lines = vec![
        Line::from(Span::styled(
            format!(
                "Order {} for which account?",
                text::sanitize(&picker.product)
            ),
            theme.title,
        )),
        Line::raw(""),
    ];
    let name_width = picker
        .offers
        .iter()
        .map(|o| o.name.chars().count())
        .max()
        .unwrap_or(0);
    for (i, offer) in picker.offers.iter().enumerate() {
        let mark = if i == picker.at { "▶ " } else { "  " };
        let credit = offer.credit.map_or_else(
            || "credit …".to_owned(),
            |c| format!("credit {}", text::money(c)),
        );
        let mut spans = vec![
            Span::styled(mark, theme.key),
            Span::styled(
                format!("{:<name_width$}  ", offer.name),
                theme.account(offer.colour),
            ),
        ];
        match offer.product {
            Some((id, price)) => spans.push(Span::raw(format!(
                "{:>10}  product {id}  ",
                text::money(price)
            ))),
            None if offer.listed => {
                spans.push(Span::styled("does not sell it  ", theme.warn));
            }
            None => spans.push(Span::styled("catalogue …  ", theme.dim)),
        }
        spans.push(Span::styled(credit, theme.dim));
        if offer.read_only {
            spans.push(Span::styled("  read-only: cannot order", theme.bad));
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::raw(""));
    lines.push(Line::from(Span::styled(
        "Enter: that account's order form at its own price (it confirms before sending) · Esc: cancel",
        theme.dim,
    )));
    let widest = lines.iter().map(Line::width).max().unwrap_or(0) as u16;
    let h = (lines.len() as u16 + 2).min(area.height);
    let r = layout::centered(area, (widest + 4).clamp(40, area.width), h);
    frame.render_widget(Clear, r);
    frame.render_widget(
        Paragraph::new(widgets::fitted(lines, r.width.saturating_sub(2))).block(widgets::pane(
            theme,
            "Order · which account".into(),
            Span::raw(""),
        )),
        r,
    );
}
