//! The pieces every form's look is drawn with (the look kit of [`crate::app::look`] is
//! below them): the framed popup, a labelled value, a labelled text field (with the
//! terminal cursor in it while it takes typing), the inline error under a field, the line
//! that says where the form's request is, wrapped text, and the rows of a popup's inside.

use super::core::FormState;
use super::field::TextField;
use crate::api::Response;
use crate::app::look::theme::Theme;
use crate::app::look::{Seen, centered, widgets};
use crate::text;
use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

/// Width of the labels in front of fields and values.
pub const LABEL: usize = 10;

/// Clears a `w`×`h` popup centred in `body`, draws its frame and returns the inside.
/// Over several accounts the title names the form's account: IDs repeat across accounts.
pub fn framed(
    frame: &mut Frame,
    seen: &impl Seen,
    theme: &Theme,
    body: Rect,
    (w, h): (u16, u16),
    title: String,
) -> Rect {
    let area = centered(body, w, h);
    frame.render_widget(Clear, area);
    let block = widgets::pane(theme, widgets::of_account(seen, title), Span::raw(""));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    inner
}

/// `label     value`, dim label.
pub fn value_line<'a>(theme: &Theme, label: &'a str, value: Span<'a>) -> Line<'a> {
    widgets::field(theme, label, LABEL, value)
}

/// Draws `› label  [text      ]` on row `area`; while `typing`, the terminal cursor is put
/// in the field. The text scrolls so the cursor stays inside.
pub fn draw_field(
    frame: &mut Frame,
    theme: &Theme,
    area: Rect,
    label: &str,
    field: &TextField,
    focused: bool,
    typing: bool,
) {
    let marker = if focused { "›" } else { " " };
    let label_style = if focused { theme.key } else { theme.dim };
    let lead = format!("{marker}{label:<width$} [", width = LABEL);
    let lead_w = lead.chars().count() as u16;
    let box_w = area.width.saturating_sub(lead_w + 1).max(1);
    let (text, cursor) = field.display();
    let width = usize::from(box_w);
    let scroll = (cursor + 1).saturating_sub(width);
    let shown: String = text.chars().skip(scroll).take(width).collect();
    let pad = width.saturating_sub(shown.chars().count());
    let line = Line::from(vec![
        Span::styled(lead, label_style),
        // A prefilled value shows as selected: typing replaces it.
        Span::styled(
            shown,
            if field.is_selected() && focused {
                theme.selected
            } else {
                theme.base
            },
        ),
        Span::raw(" ".repeat(pad)),
        Span::styled("]", label_style),
    ]);
    frame.render_widget(Paragraph::new(line), area);
    if focused && typing {
        let x = area.x + lead_w + (cursor - scroll) as u16;
        frame.set_cursor_position(Position::new(x.min(area.right().saturating_sub(1)), area.y));
    }
}

/// The inline error under a field, indented to the field's text.
pub fn inline_error<'a>(theme: &Theme, error: Option<&str>) -> Line<'a> {
    match error {
        Some(e) => Line::from(vec![
            Span::raw(" ".repeat(LABEL + 3)),
            Span::styled(format!("✗ {}", text::sanitize(e)), theme.bad),
        ]),
        None => Line::from(""),
    }
}

/// Where the form's request is: sending, done (the answer worded by `done`), failed
/// (nothing while editing).
pub fn state_line(
    theme: &Theme,
    state: &FormState,
    sending: &str,
    done: impl FnOnce(&Response) -> String,
) -> Option<(String, Style)> {
    match state {
        FormState::Submitting => Some((
            format!("⟳ {sending} (Enter does nothing until the server answers)"),
            theme.warn,
        )),
        FormState::Done(r) => Some((format!("✓ {}", done(r)), theme.good)),
        FormState::Failed(m) => Some((format!("✗ {m}"), theme.bad)),
        FormState::Editing | FormState::Confirming => None,
    }
}

/// Wrapped text at the bottom of a form.
pub fn draw_message(frame: &mut Frame, area: Rect, text: &str, style: Style) {
    frame.render_widget(
        Paragraph::new(Span::styled(text::sanitize(text).into_owned(), style))
            .wrap(Wrap { trim: true }),
        area,
    );
}

/// Row `i` of `area` (empty past its end).
pub fn row(area: Rect, i: u16) -> Rect {
    if i >= area.height {
        return Rect::new(area.x, area.bottom(), area.width, 0);
    }
    Rect::new(area.x, area.y + i, area.width, 1)
}

/// Rows `from..` of `area`.
pub fn rows_from(area: Rect, from: u16) -> Rect {
    let from = from.min(area.height);
    Rect::new(area.x, area.y + from, area.width, area.height - from)
}
