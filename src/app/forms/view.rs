//! A form's look as data: a [`FormView`] is a framed popup of rows (a labelled text field,
//! a value, text, a hint or the inline error under a field, where the request is), drawn
//! the same way for every form, the cursor in the focused field included. A form whose
//! look is no more than that builds one in its `render` and draws it; one whose look needs
//! more (the order's pickers, the IP-list viewer) draws with [`super::look`]'s pieces.

use super::core::FormState;
use super::field::TextField;
use super::look::{
    LABEL, draw_field, draw_message, framed, row, rows_from, state_line, value_line,
};
use crate::app::columns::Tone;
use crate::app::look::Seen;
use crate::app::look::columns::style;
use crate::app::look::theme::Theme;
use crate::text;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

/// A form's look: its popup's title and size, and what is in it, from the top.
#[derive(Debug)]
pub struct FormView<'a> {
    pub title: String,
    /// Width and height of the popup, frame included.
    pub size: (u16, u16),
    /// Row `i` starts at row `i` of the popup's inside. A field, a value and a blank take
    /// their row only; text, a hint, an error and the state wrap onto the rows below, and
    /// the rows after them are drawn over what ran into theirs.
    pub rows: Vec<FormRow<'a>>,
}

/// One row of a [`FormView`].
#[derive(Debug)]
pub enum FormRow<'a> {
    /// `›Label     [text      ]`: the marker and, while it takes typing, the terminal
    /// cursor, when `focused`.
    Field {
        label: &'a str,
        field: &'a TextField,
        focused: bool,
        typing: bool,
    },
    /// `Label     value`, the label dim, the value in its tone.
    Value {
        label: &'a str,
        text: String,
        tone: Tone,
    },
    /// Lines of text, each in its tone, wrapped as one paragraph.
    Text(Vec<(String, Tone)>),
    /// A line under a field, indented to the field's text.
    Hint(String, Tone),
    /// The inline error under a field (`✗ …`), or nothing.
    Error(Option<&'a str>),
    /// Nothing.
    Blank,
    /// Where the form's request is: `sending` while on its way, `done` once answered (the
    /// answer worded by the form), the server's words if it failed; nothing while editing.
    State {
        state: &'a FormState,
        sending: String,
        done: String,
    },
}

impl<'a> FormView<'a> {
    pub fn new(title: impl Into<String>, size: (u16, u16)) -> Self {
        Self {
            title: title.into(),
            size,
            rows: Vec::new(),
        }
    }

    /// The next row.
    pub fn row(mut self, row: FormRow<'a>) -> Self {
        self.rows.push(row);
        self
    }

    /// Blank rows up to row `at`, so the next row starts there.
    pub fn at(mut self, at: usize) -> Self {
        while self.rows.len() < at {
            self.rows.push(FormRow::Blank);
        }
        self
    }
}

impl FormRow<'_> {
    /// A line of text in one tone.
    pub fn text(text: impl Into<String>, tone: Tone) -> Self {
        FormRow::Text(vec![(text.into(), tone)])
    }
}

/// Draws the look over the body: row `i` at row `i` of the popup's inside, in order, each
/// later row over what an earlier one wrapped into it.
impl FormView<'_> {
    pub fn draw(&self, frame: &mut Frame, body: Rect, seen: &impl Seen, theme: &Theme) {
        let inner = framed(frame, seen, theme, body, self.size, self.title.clone());
        for (i, r) in self.rows.iter().enumerate() {
            let at = u16::try_from(i).unwrap_or(u16::MAX);
            draw_row(frame, theme, inner, at, r);
        }
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
