//! A bordered table's areas: the whole block and where its data rows go, as the layout
//! cuts them and the tables draw into them.

use ratatui::layout::{Margin, Rect};

/// A bordered table: its outer area and where its data rows go (below the header line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pane {
    pub block: Rect,
    pub rows: Rect,
}

impl Pane {
    pub fn with_header(block: Rect) -> Self {
        let inner = block.inner(Margin::new(1, 1));
        let rows = Rect {
            y: inner.y.saturating_add(1),
            height: inner.height.saturating_sub(1),
            ..inner
        };
        Pane { block, rows }
    }

    /// The header line, inside the border.
    pub fn header(&self) -> Rect {
        let inner = self.block.inner(Margin::new(1, 1));
        Rect {
            height: 1.min(inner.height),
            ..inner
        }
    }
}
