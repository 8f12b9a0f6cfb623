//! `m`: the message log, newest first: the local time (with the date when not today), the
//! level, and the text, wrapped so a long server message can be read whole. A line said
//! several times in a row shows how many times. Scrolls by entry (↑↓, PgUp/PgDn, g/G).

use crate::app::App;
use crate::app::messages::Level;
use crate::ui::layout;
use crate::ui::theme::Theme;
use crate::ui::widgets;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

pub fn draw(frame: &mut Frame, app: &App, theme: &Theme, area: Rect, scroll: usize) {
    let log = app.status().messages();
    let r = layout::centered(area, area.width.saturating_sub(4).min(110), area.height);
    frame.render_widget(Clear, r);
    let title = if log.is_empty() {
        "Messages".to_owned()
    } else {
        format!(
            "Messages · {} of {} · newest first",
            (scroll + 1).min(log.len()),
            log.len()
        )
    };
    let mut lines: Vec<Line> = log
        .newest_first()
        .skip(scroll)
        .take(usize::from(r.height))
        .map(|e| {
            let (mark, style) = match e.level {
                Level::Error => ("✗", theme.error_line),
                Level::Warn => ("⚠", theme.warn),
                Level::Info => ("•", theme.base),
                Level::Success => ("✓", theme.good),
            };
            let times = if e.count > 1 {
                format!("  (×{})", e.count)
            } else {
                String::new()
            };
            Line::from(vec![
                Span::styled(format!("{} ", widgets::clock_time(app, e.at)), theme.dim),
                Span::styled(format!("{mark} {:<7} ", e.level.label()), style),
                Span::styled(e.text.clone(), style),
                Span::styled(times, theme.dim),
            ])
        })
        .collect();
    if lines.is_empty() {
        lines.push(Line::from(Span::styled(
            "Nothing yet: failures, notices and order outcomes are listed here.",
            theme.dim,
        )));
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(widgets::pane(theme, title, Span::raw(""))),
        r,
    );
}
