//! The IP-list refresh: the question, then the outcome, and the countdown while the
//! server throttles the service.

use super::{draw_message, framed, rows_from, state_line};
use crate::app::App;
use crate::app::forms::refresh::RefreshForm;
use crate::app::forms::{FormState, update_message};
use crate::ui::text;
use crate::ui::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

impl super::FormWidget for RefreshForm {
    fn render(&self, frame: &mut Frame, app: &App, theme: &Theme, body: Rect) {
        draw(frame, app, theme, body, self);
    }
}

fn draw(frame: &mut Frame, app: &App, theme: &Theme, body: Rect, form: &RefreshForm) {
    let id = form.service_id;
    let inner = framed(
        frame,
        theme,
        body,
        (64, 10),
        format!("Refresh IP list · service {id}"),
    );
    let product = app
        .services()
        .get(id)
        .map(|s| format!(" ({})", text::or_missing(&s.product_name)))
        .unwrap_or_default();
    let mut lines = vec![
        Line::from(format!("Refresh the IP list of service {id}{product}?")),
        Line::from(Span::styled(
            "The server allows this only so often.",
            theme.dim,
        )),
    ];
    if let Some(countdown) = app.countdown(id) {
        lines.push(Line::from(""));
        lines.push(Line::from(Span::styled(countdown, theme.warn)));
        if matches!(form.core.state, FormState::Failed(_)) {
            // The server's message below names its own clock, without a zone.
            lines.push(Line::from(Span::styled(
                format!(
                    "Times in the server's message are server time ({}).",
                    app.settings().server_zone
                ),
                theme.dim,
            )));
        }
    }
    frame.render_widget(
        Paragraph::new(lines.clone()).wrap(Wrap { trim: true }),
        inner,
    );
    let rest = rows_from(inner, inner.height.saturating_sub(3));
    match (
        &form.core.state,
        state_line(theme, &form.core.state, "Refreshing…", |r| {
            update_message(r, "IP list updated successfully")
        }),
    ) {
        (_, Some((msg, style))) => draw_message(frame, rest, &msg, style),
        (FormState::Confirming, None) => {
            draw_message(frame, rest, "Enter refreshes, Esc cancels.", theme.dim)
        }
        _ => {}
    }
}
