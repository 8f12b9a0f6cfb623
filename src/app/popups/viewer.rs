//! What the viewers (a service, a product) share: their size, a section's title, a list
//! cut with `… and N more`, and the pane of what the other tabs know.

use crate::app::look::theme::Theme;
use crate::app::look::{self, widgets};
use crate::text;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// A popup as wide as an 80-column screen allows and `h` high at most.
pub fn popup_area(body: Rect, h: u16) -> Rect {
    look::centered(body, 76, h.saturating_add(2))
}

/// A section's title (the look kit's: the client card draws it from its own file).
pub use crate::app::look::widgets::section;

/// At most `max` lines, the rest counted.
pub fn capped<'a>(theme: &Theme, mut lines: Vec<Line<'a>>, max: usize) -> Vec<Line<'a>> {
    if lines.len() > max {
        let more = lines.len() - (max - 1);
        lines.truncate(max - 1);
        lines.push(Line::from(Span::styled(
            format!("  … and {} more", text::count(more as u64)),
            theme.dim,
        )));
    }
    lines
}

pub fn draw_rest(frame: &mut Frame, theme: &Theme, area: Rect, lines: Vec<Line>) {
    let block = widgets::pane(theme, "From the other tabs".into(), Span::raw(""));
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
