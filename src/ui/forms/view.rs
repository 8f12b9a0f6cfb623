//! Any form's look given as data ([`FormView`]), drawn with the pieces every form shares:
//! the framed popup, labelled fields (the terminal cursor in the focused one while it takes
//! typing), values, text, the inline error and where the request is.

use super::{LABEL, draw_field, draw_message, framed, row, rows_from, state_line, value_line};
use crate::app::App;
use crate::app::forms::{FormRow, FormView};
use crate::ui::columns::style;
use crate::ui::text;
use crate::ui::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

/// Draws `view` over the body: row `i` at row `i` of the popup's inside, in order, each
/// later row over what an earlier one wrapped into it.
pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, body: Rect, view: &FormView<'_>) {
    let inner = framed(frame, app, theme, body, view.size, view.title.clone());
    for (i, r) in view.rows.iter().enumerate() {
        let at = u16::try_from(i).unwrap_or(u16::MAX);
        draw_row(frame, theme, inner, at, r);
    }
}

fn draw_row(frame: &mut Frame, theme: &Theme, inner: Rect, at: u16, r: &FormRow<'_>) {
    let wrapped = |lines: Vec<Line<'static>>, trim| Paragraph::new(lines).wrap(Wrap { trim });
    match r {
        FormRow::Field {
            label,
            field,
            focused,
            typing,
        } => draw_field(
            frame,
            theme,
            row(inner, at),
            label,
            field,
            *focused,
            *typing,
        ),
        FormRow::Value { label, text, tone } => {
            let value = Span::styled(text::sanitize(text).into_owned(), style(theme, *tone));
            frame.render_widget(
                Paragraph::new(value_line(theme, label, value)),
                row(inner, at),
            );
        }
        FormRow::Text(lines) => {
            let lines = lines
                .iter()
                .map(|(t, tone)| {
                    Line::from(Span::styled(
                        text::sanitize(t).into_owned(),
                        style(theme, *tone),
                    ))
                })
                .collect();
            frame.render_widget(wrapped(lines, true), rows_from(inner, at));
        }
        // Under a field, at its text: a long one wraps there, inside the form's margin,
        // not back at the form's edge.
        FormRow::Hint(hint, tone) => {
            let line = Line::from(Span::styled(
                text::sanitize(hint).into_owned(),
                style(theme, *tone),
            ));
            frame.render_widget(wrapped(vec![line], true), under_field(inner, at));
        }
        FormRow::Error(error) => {
            let Some(error) = error else { return };
            let line = Line::from(Span::styled(
                format!("✗ {}", text::sanitize(error)),
                theme.bad,
            ));
            frame.render_widget(wrapped(vec![line], true), under_field(inner, at));
        }
        FormRow::Blank => {}
        FormRow::State {
            state,
            sending,
            done,
        } => {
            if let Some((msg, style)) = state_line(theme, state, sending, |_| done.clone()) {
                draw_message(frame, rows_from(inner, at), &msg, style);
            }
        }
    }
}

/// The rows from `at` down, from the column where a field's text starts.
fn under_field(inner: Rect, at: u16) -> Rect {
    let area = rows_from(inner, at);
    let indent = u16::try_from(LABEL + 3).unwrap_or(0).min(area.width);
    Rect {
        x: area.x + indent,
        width: area.width - indent,
        ..area
    }
}
