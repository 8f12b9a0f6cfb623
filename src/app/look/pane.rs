//! A bordered table's areas: the whole block and where its data rows go, as the layout
//! cuts them and the tables draw into them.

use ratatui::layout::{Constraint, Layout, Margin, Rect};

/// A bordered table: its outer area and where its data rows go (below the header line).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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

/// How a tab shares its body: what its table `wants` (its natural width, 0 if unknown),
/// its detail pane's mode, and whether the detail has the history's lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fit {
    pub wants: u16,
    pub detail: DetailPane,
    pub history: bool,
}

/// A tab's areas in its body: its table, what goes above it (Billing's credit and money
/// ahead, Network's summary) and its detail (Usage: the chart and the gauge). What a tab
/// does not use stays empty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Areas {
    pub table: Pane,
    pub above: [Rect; 2],
    pub detail: [Rect; 2],
}

impl Areas {
    /// A plain list: the table takes the body.
    pub fn list(body: Rect) -> Self {
        Self {
            table: Pane::with_header(body),
            ..Self::default()
        }
    }

    /// A table with its detail beside or below it.
    pub fn with_detail((table, detail): (Pane, Rect)) -> Self {
        Self {
            table,
            detail: [detail, Rect::default()],
            ..Self::default()
        }
    }
}

/// Rows a table keeps before a detail pane below it gets any: border, header and three.
const TABLE_FIRST: u16 = 6;

/// Screens at least this wide show details beside the table instead of below it.
pub const WIDE: u16 = 120;

/// How a tab's detail pane (Services, Products) shares the body with its table; `z`
/// cycles it: shown → hidden (the table takes the whole body) → zoomed (the detail takes
/// all but the selected row) → shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DetailPane {
    #[default]
    Shown,
    Hidden,
    Zoomed,
}

impl DetailPane {
    pub fn next(self) -> Self {
        match self {
            DetailPane::Shown => DetailPane::Hidden,
            DetailPane::Hidden => DetailPane::Zoomed,
            DetailPane::Zoomed => DetailPane::Shown,
        }
    }
}

/// A table with a detail pane beside it, or below it when the screen is narrow or the
/// table `wants` (its natural width, 0 if unknown) more than the room beside the detail:
/// the table's columns come first, the detail then takes the full width below.
pub fn table_and_detail(
    body: Rect,
    (side_width, below_height): (u16, u16),
    wants: u16,
    mode: DetailPane,
) -> (Pane, Rect) {
    match mode {
        DetailPane::Hidden => return (Pane::with_header(body), Rect { height: 0, ..body }),
        DetailPane::Zoomed => {
            // The table keeps its header and the selected row, so it is clear whose
            // detail this is.
            let [t, d] = Layout::vertical([Constraint::Length(4), Constraint::Min(0)]).areas(body);
            return (Pane::with_header(t), d);
        }
        DetailPane::Shown => {}
    }
    // On a wide screen the detail beside grows with it: a third of the width, or what the
    // table leaves beyond half again its natural width (its columns stretch into that
    // much), up to half the screen.
    let roomy = body.width.saturating_sub(wants.saturating_add(wants / 2));
    let side_width = side_width
        .max(body.width / 3)
        .max(roomy.min(body.width / 2));
    if body.width >= WIDE && body.width.saturating_sub(side_width) >= wants {
        let [t, d] =
            Layout::horizontal([Constraint::Min(0), Constraint::Length(side_width)]).areas(body);
        (Pane::with_header(t), d)
    } else {
        // A short screen gives the list its rows first; a detail with no room for two
        // lines gives way entirely (`z` zooms it).
        let room = body.height.saturating_sub(TABLE_FIRST);
        let below_height = if room < 4 { 0 } else { below_height.min(room) };
        let [t, d] =
            Layout::vertical([Constraint::Min(0), Constraint::Length(below_height)]).areas(body);
        (Pane::with_header(t), d)
    }
}

/// The IP-list view, and the probe's: nearly the whole body.
pub fn iplist_view(body: Rect) -> Rect {
    body.inner(Margin::new(2, 1))
}

/// Where the IP-list view draws its lines (the app pages by this height).
pub fn iplist_lines(body: Rect) -> Rect {
    iplist_view(body).inner(Margin::new(1, 1))
}
