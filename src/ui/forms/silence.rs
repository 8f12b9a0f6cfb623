//! Silence alerts: what it covers (`Ctrl-T` cycles), the length (↑/↓ for 1h, 8h, 24h, or
//! typed) and the reason, with the inline error under them.

use super::{draw_field, framed, inline_error, row, value_line};
use crate::app::App;
use crate::app::forms::silence::{SilenceField, SilenceForm};
use crate::ui::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Span;
use ratatui::widgets::Paragraph;

impl super::FormWidget for SilenceForm {
    fn render(&self, frame: &mut Frame, _app: &App, theme: &Theme, body: Rect) {
        let title = if self.editing.is_some() {
            "Edit silence"
        } else {
            "Silence alerts"
        };
        let inner = framed(frame, theme, body, (64, 9), title.into());
        let what = Span::styled(self.chosen().describe(), theme.title);
        frame.render_widget(
            Paragraph::new(value_line(theme, " What", what)),
            row(inner, 0),
        );
        let on = |f| self.focus == f;
        let fields = [
            ("For", &self.length, SilenceField::Length),
            ("Reason", &self.reason, SilenceField::Reason),
        ];
        for (i, (label, field, which)) in fields.into_iter().enumerate() {
            let area = row(inner, 2 + i as u16);
            draw_field(frame, theme, area, label, field, on(which), true);
        }
        let below = inline_error(theme, self.core.error.as_deref());
        frame.render_widget(Paragraph::new(below), row(inner, 4));
        let tip = "Ctrl-T: what · ↑/↓: 1h, 8h, 24h, or type 90m, 2h30m, 2d";
        frame.render_widget(Paragraph::new(Span::styled(tip, theme.dim)), row(inner, 6));
    }
}
