//! Snapshot tests of `ui::draw` on ratatui's `TestBackend`, stored with insta.

mod alerts;
mod budget;
mod forms;
mod history;
mod palette;
mod probe;
mod screen;
mod states;
mod styled;
mod tabs;
mod usage;

use crate::app::App;
use crate::app::Msg;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// The screen as text, at `w`×`h`.
pub fn render(app: &mut App, w: u16, h: u16) -> String {
    let _ = app.update(Msg::Resize(w, h));
    if let Some(geometry) = super::layout::report(app, ratatui::layout::Rect::new(0, 0, w, h)) {
        let _ = app.update(geometry);
    }
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| super::draw(app, f)).unwrap();
    terminal.backend().to_string()
}
