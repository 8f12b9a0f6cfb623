//! Open an invoice by its number: the field, its inline error, and where the request is
//! (found, the invoice viewer takes the form's place, so there is no "done" to show).

use super::{draw_field, draw_message, framed, inline_error, row, rows_from, state_line};
use crate::app::App;
use crate::app::forms::invoice_number::InvoiceNumberForm;
use crate::ui::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

impl super::FormWidget for InvoiceNumberForm {
    fn render(&self, frame: &mut Frame, _app: &App, theme: &Theme, body: Rect) {
        draw(frame, theme, body, self);
    }
}

fn draw(frame: &mut Frame, theme: &Theme, body: Rect, form: &InvoiceNumberForm) {
    let inner = framed(frame, theme, body, (64, 9), "Open invoice".into());
    frame.render_widget(
        Paragraph::new(Span::styled(
            "The invoice number, as its e-mail gives it.",
            theme.dim,
        )),
        row(inner, 0),
    );
    let typing = form.core.state.is_editable();
    draw_field(
        frame,
        theme,
        row(inner, 2),
        "Number",
        &form.number,
        true,
        typing,
    );
    let below = match &form.core.error {
        Some(_) => inline_error(theme, form.core.error.as_deref()),
        None => Line::from(""),
    };
    frame.render_widget(Paragraph::new(below), row(inner, 3));
    let asked = form.asked.map(|id| format!(" {id}")).unwrap_or_default();
    let sending = format!("Fetching invoice{asked}…");
    if let Some((msg, style)) = state_line(theme, &form.core.state, &sending, |_| String::new()) {
        draw_message(frame, rows_from(inner, 4), &msg, style);
    }
}
