//! Where things are on screen, as the view last drew them: the view's state, in the way
//! of ratatui's `TableState`. The app does not compute layout (it knows nothing of the
//! renderer): the draw gets a [`Geometry`] `&mut` and writes into it what it measured
//! (each tab's table rows, the tab titles, the IP-list view's lines, how far the service
//! popup can scroll), and the driver hands it to the app after the frame
//! ([`super::App::measured`]). The app pages its tables by it, tells the engine the rows
//! on screen by it, and hit-tests mouse clicks on it, so a click lands on the row that is
//! drawn there.
//!
//! The draw never waits for the app to learn the geometry: a table clamps its window to
//! the rows it measured in the same draw (`TableView::visible`), so the first frame after
//! a resize is already right and telling the app changes nothing on screen.
//!
//! Until the first frame every table pages by its default page and clicks hit nothing.

use super::Tab;
use ratatui::layout::{Position, Rect};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Geometry {
    /// Where each tab's main table draws its data rows (index: [`Tab::index`]); `None`
    /// when the screen is too small to draw it.
    pub rows: [Option<Rect>; Tab::ALL.len()],
    /// The tab titles on the tab line, to click on.
    pub tabs: Vec<(Tab, Rect)>,
    /// The lines an IP-list view shows (it pages by this).
    pub iplist_lines: u16,
    /// How far the service popup on top can scroll: its lines beyond the screen (it
    /// stops `j` there).
    pub service_last: u16,
}

impl Geometry {
    /// The data rows of a tab's main table.
    pub fn rows(&self, tab: Tab) -> Option<Rect> {
        self.rows[tab.index()]
    }

    /// How many rows of a tab's table are on screen (0 when none).
    pub fn page(&self, tab: Tab) -> usize {
        self.rows(tab).map_or(0, |r| usize::from(r.height))
    }

    /// The tab whose title is at `(x, y)`.
    pub fn tab_at(&self, x: u16, y: u16) -> Option<Tab> {
        let at = Position::new(x, y);
        self.tabs
            .iter()
            .find(|(_, r)| r.contains(at))
            .map(|(t, _)| *t)
    }

    /// The row of `tab`'s table at `(x, y)`, counted from the first row shown.
    pub fn row_at(&self, tab: Tab, x: u16, y: u16) -> Option<usize> {
        let rows = self.rows(tab)?;
        rows.contains(Position::new(x, y))
            .then(|| usize::from(y - rows.y))
    }
}
