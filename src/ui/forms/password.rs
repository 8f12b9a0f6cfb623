//! The password form: two masked fields, the inline error, the outcome.

use super::{draw_field, draw_message, framed, inline_error, row, rows_from, state_line};
use crate::app::App;
use crate::app::forms::password::{GENERATED_LENGTH, PasswordField, PasswordForm, weakness};
use crate::app::forms::update_message;
use crate::ui::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

impl super::FormWidget for PasswordForm {
    fn render(&self, frame: &mut Frame, app: &App, theme: &Theme, body: Rect) {
        draw(frame, app, theme, body, self);
    }
}

fn draw(frame: &mut Frame, _app: &App, theme: &Theme, body: Rect, form: &PasswordForm) {
    let inner = framed(
        frame,
        theme,
        body,
        (64, 10),
        format!("New proxy password · service {}", form.service_id),
    );
    let typing = form.core.state.is_editable();
    draw_field(
        frame,
        theme,
        row(inner, 0),
        "New",
        &form.new,
        form.focus == PasswordField::New,
        typing,
    );
    draw_field(
        frame,
        theme,
        row(inner, 1),
        "Repeat",
        &form.repeat,
        form.focus == PasswordField::Repeat,
        typing,
    );
    let indent = " ".repeat(super::LABEL + 3);
    let hint = |text: String, style| Line::from(Span::styled(format!("{indent}{text}"), style));
    let below = match &form.core.error {
        Some(_) => inline_error(theme, form.core.error.as_deref()),
        None if form.generated => hint(
            format!("✓ generated: {GENERATED_LENGTH} letters and digits"),
            theme.good,
        ),
        None if form.new.value().is_empty() => hint(
            "typed twice, shown as • · Ctrl-G generates one".into(),
            theme.dim,
        ),
        None => match weakness(form.new.value()) {
            Some(weak) => hint(weak, theme.warn),
            None => hint("strong enough".into(), theme.good),
        },
    };
    frame.render_widget(
        Paragraph::new(below).wrap(ratatui::widgets::Wrap { trim: false }),
        rows_from(inner, 2),
    );
    if let Some((msg, style)) =
        state_line(theme, &form.core.state, "Changing the password…", |r| {
            update_message(r, "Password updated successfully")
        })
    {
        draw_message(frame, rows_from(inner, 4), &msg, style);
    }
}
