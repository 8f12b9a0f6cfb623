//! Snapshot tests of `ui::draw` on ratatui's `TestBackend`, stored with insta.

mod alerts;
mod budget;
mod forms;
mod history;
mod marks;
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

/// The screen as text, at `w`×`h`, drawn once; what it measured then goes to the app (its
/// tables page by it), as the run loop does after a frame.
pub fn render(app: &mut App, w: u16, h: u16) -> String {
    let _ = app.update(Msg::Resize(w, h));
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    let mut view = crate::app::geometry::Geometry::default();
    let theme = super::theme::Theme::of(app.settings());
    terminal
        .draw(|f| super::draw_in(app, f, &theme, f.area(), &mut view))
        .unwrap();
    let _ = app.measured(view);
    terminal.backend().to_string()
}
