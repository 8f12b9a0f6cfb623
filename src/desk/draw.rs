//! Drawing the desk: with one account, the account's screen as it is; with several, a top
//! line naming each account with its connection state, then the account shown or the All
//! view. The desk prepares what the screen shows (the accounts, the merged rows the All
//! table draws, whose popups are open) and hands it down to [`crate::ui::all`] once;
//! nothing below calls back into the desk.

use super::{Desk, Scope};
use crate::app::geometry::Geometry;
use crate::app::tabs::{DetailPane, Tab};
use crate::ui::all::{Account, Accounts, AllView};
use crate::ui::theme::Theme;
use crate::ui::{self, columns, layout};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};

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
    let theme = Theme::for_look(seats[0].app.settings().look);
    let area = frame.area();
    if !desk.is_multi() {
        measured.seat = Some(0);
        ui::draw_in(&seats[0].app, frame, &theme, area, &mut measured.geometry);
        return;
    }
    let [top, rest] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    let accounts = accounts(desk);
    ui::all::draw_accounts(frame, &accounts, &theme, top);
    match desk.scope() {
        Scope::One(k) => {
            measured.seat = Some(k);
            ui::draw_in(&seats[k].app, frame, &theme, rest, &mut measured.geometry);
        }
        Scope::All => {
            let all = all_view(desk, rest);
            // The account whose popups are open keeps its own layout; they measure theirs.
            if let Some(k) = desk.owner() {
                measured.seat = Some(k);
                measured.geometry = seats[k].app.geometry().clone();
            }
            measured.all_rows =
                ui::all::table_pane(rest, all.tab, columns::table_width(all.natural))
                    .map(|pane| pane.rows.height);
            ui::all::draw(frame, &accounts, &all, &theme, rest, &mut measured.geometry);
        }
    }
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
/// fit there, the selection's account, and whose keys are the footer's.
fn all_view(desk: &Desk, area: Rect) -> AllView<'_> {
    let all = desk.all();
    let seats = desk.seats();
    let table = all.table();
    let columns = all.columns(seats);
    let width = columns.len();
    let cells = match ui::all::table_pane(area, all.tab, columns::table_width(all.natural())) {
        Some(pane) => table
            .visible(usize::from(pane.rows.height))
            .1
            .iter()
            .map(|&i| all.cells(seats, i, width))
            .collect(),
        None => Vec::new(),
    };
    let alert = table
        .selected_row()
        .and_then(|i| all.row(i))
        .filter(|_| all.tab == Tab::Alerts);
    AllView {
        tab: all.tab,
        table,
        columns,
        natural: all.natural(),
        cells,
        sort: (all.tab == Tab::Services && all.sort.by.is_some()).then(|| all.sort.label()),
        selected: all.selected().map(|row| (row.seat, row.id)),
        alert,
        over: desk.owner(),
        context: desk.all_context(),
    }
}

/// The rows of the All view's table on a screen of `size` (its page until a frame
/// measures it).
pub fn page_rows((w, h): (u16, u16)) -> usize {
    let area = Rect::new(0, 1, w, h.saturating_sub(1));
    layout::table_rows(Tab::Network, area, 0, false, DetailPane::Shown)
        .map_or(10, |r| usize::from(r.height))
}
