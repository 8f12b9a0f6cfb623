//! Drawing the desk: with one account, the account's screen as it is; with several, a top
//! line naming each account with its connection state, then the account shown or the All
//! view. The desk prepares what the screen shows (the accounts, the merged rows the All
//! table draws, whose popups are open) and hands it down to [`crate::ui::all`] in one
//! call; nothing below calls back into the desk.

use super::{Desk, Scope};
use crate::app::App;
use crate::app::geometry::Geometry;
use crate::app::tabs::{Merged, Tab};
use crate::ui::all::{Account, Accounts, AllScreen, Shown};
use crate::ui::theme::Theme;
use crate::ui::{self, layout};
use ratatui::Frame;
use ratatui::layout::Rect;

/// What a frame measured (see [`crate::app::geometry`]), and for which account: the one
/// shown, or the one whose popup is open over the All view; and the rows the All view's
/// table showed. The driver hands it over after the frame ([`Desk::measured`]).
#[derive(Debug, Default)]
pub struct Measured {
    pub seat: Option<usize>,
    pub geometry: Geometry,
    pub all_rows: Option<u16>,
}

pub fn draw(desk: &Desk, frame: &mut Frame, measured: &mut Measured) {
    let seats = desk.seats();
    let accounts = accounts(desk);
    let shown = match desk.scope() {
        Scope::One(k) if !desk.is_multi() => {
            measured.seat = Some(k);
            Shown::Alone
        }
        Scope::One(k) => {
            measured.seat = Some(k);
            Shown::One(k)
        }
        Scope::All => {
            let (all, rows) = all_view(desk, ui::all::below_top(frame.area()));
            measured.all_rows = rows;
            // The account whose popups are open keeps its own layout; they measure theirs.
            if let Some(k) = desk.owner() {
                measured.seat = Some(k);
                measured.geometry = seats[k].app.geometry().clone();
            }
            Shown::All(all)
        }
    };
    let theme = Theme::of(seats[0].app.settings());
    ui::all::draw_desk(frame, &accounts, &shown, &theme, &mut measured.geometry);
}

/// The accounts as the screen names them.
fn accounts(desk: &Desk) -> Accounts<'_> {
    Accounts {
        all: desk.scope() == Scope::All,
        list: desk
            .seats()
            .iter()
            .enumerate()
            .map(|(i, seat)| Account {
                app: &seat.app,
                name: &seat.name,
                colour: seat.colour,
                shown: desk.scope() == Scope::One(i),
            })
            .collect(),
    }
}

/// What the All view shows in `area`: its merged table with the cells of the rows that
/// fit there (and how many do), every account, the selection's account, and whose keys
/// are the footer's.
fn all_view(desk: &Desk, area: Rect) -> (AllScreen<'_>, Option<u16>) {
    let all = desk.all();
    let seats = desk.seats();
    let table = all.table();
    let columns = all.columns(seats);
    let width = columns.len();
    let mut merged = Merged {
        tab: all.tab,
        table,
        columns,
        natural: all.natural(),
        cells: Vec::new(),
        sort: (all.tab == Tab::Services && all.sort.by.is_some()).then(|| all.sort.label()),
        members: (seats.iter())
            .map(|seat| seat.app.as_member(&seat.name, seat.colour))
            .collect(),
        selected: all.selected().map(|row| (row.seat, row.id)),
    };
    let rows = ui::all::table_pane(&seats[0].app, area, &merged).map(|pane| pane.rows.height);
    if let Some(rows) = rows {
        let (_, visible) = table.visible(usize::from(rows));
        merged.cells = (visible.iter())
            .map(|&i| all.cells(seats, i, width))
            .collect();
    }
    let view = AllScreen {
        merged,
        over: desk.owner(),
        context: desk.all_context(),
    };
    (view, rows)
}

/// The rows of the All view's table on a screen of `size` (its page until a frame
/// measures it), as `app` lays out the Network tab.
pub fn page_rows(app: &App, (w, h): (u16, u16)) -> usize {
    let area = Rect::new(0, 1, w, h.saturating_sub(1));
    layout::table_rows(app, Tab::Network, area).map_or(10, |r| usize::from(r.height))
}
