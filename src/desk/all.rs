//! The All view: one tab's rows of every account, merged, with the account before each.
//!
//! Each account's app keeps its own rows, sort and problem marks for the tab (the desk
//! shows every account the All view's tab, so they stay built); the All view holds only
//! the merged order, a search key per row (the account's name, then the row's own key)
//! and its own selection and filter. Rows go account by account in each account's own
//! order, except under a sort of Services, which orders all of them together (all
//! services due within 7 days first, whatever their account).

use super::Seat;
use crate::app::columns::{CellText, Column, Sort, Tone};
use crate::app::table::TableView;
use crate::app::tabs::Tab;
use crossterm::event::{KeyCode, KeyEvent};
use std::cmp::Ordering;

/// The Account column, first: never hidden before the others.
pub const ACCOUNT: Column = Column::text("Account", 0, 4);

pub struct AllView {
    pub tab: Tab,
    /// The sort of Services across accounts (`s`, `S`); other tabs sort in each account.
    pub sort: Sort,
    /// The merged rows of the tab shown: (seat, index into that seat's rows).
    rows: Vec<(usize, usize)>,
    table: TableView,
    /// Account, then the tab's columns, as wide as the widest account's.
    natural: Vec<u16>,
    /// The rows carry their search keys (built only while a filter or `!` reads them:
    /// ten accounts' rows are ten thousand strings to make at every change).
    keyed: bool,
    /// Each account's keys with its name, as made from its table's rows of that
    /// generation: made again only for an account whose rows changed.
    segments: Vec<Segment>,
}

#[derive(Default)]
struct Segment {
    tab: Option<Tab>,
    generation: u64,
    keys: Vec<String>,
}

impl Default for AllView {
    fn default() -> Self {
        Self {
            tab: Tab::Services,
            sort: Sort::default(),
            rows: Vec::new(),
            table: TableView::default(),
            natural: Vec::new(),
            keyed: false,
            segments: Vec::new(),
        }
    }
}

impl AllView {
    /// Merges the rows of [`AllView::tab`] from every seat, keeping the selection on the
    /// same row where it is still there.
    pub fn rebuild(&mut self, seats: &[Seat]) {
        let tab = self.tab;
        let keyed = self.reads_keys() || self.table.is_editing();
        let mut rows = Vec::new();
        let mut keys = Vec::new();
        let mut ids = Vec::new();
        let mut problems = Vec::new();
        for (s, seat) in seats.iter().enumerate() {
            // Unfiltered Services come straight from the list: an account beside others
            // defers its own rows' rebuild until something reads them (`eager_rows`).
            if tab == Tab::Services && !keyed {
                for (i, service) in seat.app.services().rows().iter().enumerate() {
                    rows.push((s, i));
                    keys.push(String::new());
                    ids.push(encode(s, service.service_id));
                }
                continue;
            }
            let table = seat.app.table(tab);
            let (own_keys, own_ids) = table.rows();
            if self.segments.len() <= s {
                self.segments.resize_with(s + 1, Segment::default);
            }
            let segment = &mut self.segments[s];
            if keyed && (segment.tab != Some(tab) || segment.generation != table.generation()) {
                let name = seat.name.to_lowercase();
                segment.keys = own_keys.iter().map(|k| format!("{name} {k}")).collect();
                segment.tab = Some(tab);
                segment.generation = table.generation();
            }
            for i in table.view_order() {
                let Some(&id) = own_ids.get(i) else {
                    continue;
                };
                rows.push((s, i));
                keys.push(match segment.keys.get(i) {
                    Some(key) if keyed => key.clone(),
                    _ => String::new(),
                });
                ids.push(encode(s, id));
                problems.push(table.is_problem(i));
            }
        }
        let order = if tab == Tab::Services {
            services_order(seats, &rows, self.sort)
        } else {
            Vec::new()
        };
        self.natural = natural(seats, tab);
        self.rows = rows;
        self.keyed = keyed;
        self.table.set_rows_with(keys, ids, order, problems);
    }

    /// The merged table (its selection, filter and view order).
    pub fn table(&self) -> &TableView {
        &self.table
    }

    /// The column widths every account's rows need, the account's name first.
    pub fn natural(&self) -> &[u16] {
        &self.natural
    }

    /// The (seat, row index) of a merged row.
    pub fn row(&self, i: usize) -> Option<(usize, usize)> {
        self.rows.get(i).copied()
    }

    /// The selected row's account and identity.
    pub fn selected(&self) -> Option<(usize, u64)> {
        let i = self.table.selected_row()?;
        let (seat, _) = self.rows.get(i)?;
        Some((*seat, decode(self.table.selected_id()?)))
    }

    /// The selected product's (ID, name), with Products shown.
    pub fn selected_product(&self, seats: &[Seat]) -> Option<(u64, String)> {
        let i = self.table.selected_row()?;
        let (seat, row) = *self.rows.get(i)?;
        let p = seats.get(seat)?.app.products().rows().get(row)?;
        Some((p.product_id, p.product_name.clone()))
    }

    /// Selects the row of account `seat` with this identity.
    pub fn select(&mut self, seat: usize, id: u64) {
        self.table.select_id(encode(seat, id));
    }

    pub fn set_page(&mut self, rows: usize) {
        self.table.set_page(rows);
    }

    /// Whether the filter, the problems or a sort read the accounts' search keys.
    pub fn reads_keys(&self) -> bool {
        !self.table.filter().is_empty() || self.table.problems_only()
    }

    /// A filter is being typed or `!` is on, and the rows have no keys yet.
    pub fn needs_keys(&self) -> bool {
        !self.keyed && (self.reads_keys() || self.table.is_editing())
    }

    pub fn is_editing(&self) -> bool {
        self.table.is_editing()
    }

    pub fn start_editing(&mut self) {
        self.table.start_editing();
    }

    pub fn toggle_problems(&mut self) {
        self.table.toggle_problems();
    }

    pub fn clear_filter(&mut self) {
        self.table.clear_filter();
    }

    /// A key while the filter is typed: Enter keeps it, Esc clears it.
    pub fn filter_key(&mut self, key: KeyEvent) {
        match key.code {
            KeyCode::Enter => self.table.stop_editing(),
            KeyCode::Esc => self.table.clear_filter(),
            KeyCode::Backspace => self.table.pop_filter(),
            KeyCode::Down => self.table.move_by(1),
            KeyCode::Up => self.table.move_by(-1),
            KeyCode::Char(c) => {
                self.table.push_filter(c.encode_utf8(&mut [0; 4]));
            }
            _ => {}
        }
    }

    /// The moving keys; whether `key` was one.
    pub fn move_key(&mut self, key: KeyEvent) -> bool {
        match key.code {
            KeyCode::Char('j') | KeyCode::Down => self.table.move_by(1),
            KeyCode::Char('k') | KeyCode::Up => self.table.move_by(-1),
            KeyCode::Char('g') | KeyCode::Home => self.table.top(),
            KeyCode::Char('G') | KeyCode::End => self.table.bottom(),
            KeyCode::PageDown => self.table.page_down(),
            KeyCode::PageUp => self.table.page_up(),
            _ => return false,
        }
        true
    }

    /// The merged table's columns: the Account column, then the tab's as the account with
    /// the most shows them (a Health column once any was probed).
    pub fn columns(&self, seats: &[Seat]) -> Vec<Column> {
        let tab_columns = seats
            .iter()
            .map(|s| s.app.tab_columns(self.tab))
            .max_by_key(Vec::len)
            .unwrap_or_default();
        std::iter::once(ACCOUNT).chain(tab_columns).collect()
    }

    /// The cells of merged row `i`: the account's name in its colour, then its own cells.
    pub fn cells(&self, seats: &[Seat], i: usize, width: usize) -> Vec<CellText> {
        let Some((s, row)) = self.row(i) else {
            return Vec::new();
        };
        let Some(seat) = seats.get(s) else {
            return Vec::new();
        };
        let mut cells = vec![CellText::new(seat.name.clone()).tone(Tone::Account(seat.colour))];
        cells.extend(seat.app.tab_cells(self.tab, row));
        cells.resize(width, CellText::default());
        cells
    }
}

/// A merged row's identity: the seat in the top bits, the row's own below (service and
/// product IDs stay far below 2^48).
fn encode(seat: usize, id: u64) -> u64 {
    ((seat as u64) << 48) | (id & ((1 << 48) - 1))
}

fn decode(id: u64) -> u64 {
    id & ((1 << 48) - 1)
}

fn natural(seats: &[Seat], tab: Tab) -> Vec<u16> {
    let name = seats
        .iter()
        .map(|s| crate::app::columns::width(&s.name))
        .max()
        .unwrap_or(0)
        .max(ACCOUNT.header.len() as u16);
    let mut out = vec![name];
    for seat in seats {
        for (i, w) in seat.app.tab_natural(tab).iter().enumerate() {
            match out.get_mut(i + 1) {
                Some(x) => *x = (*x).max(*w),
                None => out.push(*w),
            }
        }
    }
    out
}

/// Under a sort of Services, every account's services in one order; else none (account
/// by account).
fn services_order(seats: &[Seat], rows: &[(usize, usize)], sort: Sort) -> Vec<usize> {
    let Some(by) = sort.by else {
        return Vec::new();
    };
    let cmp = |a: usize, b: usize| -> Ordering {
        let (sa, ra) = rows[a];
        let (sb, rb) = rows[b];
        let (Some(x), Some(y)) = (
            seats[sa].app.services().rows().get(ra),
            seats[sb].app.services().rows().get(rb),
        ) else {
            return Ordering::Equal;
        };
        crate::app::tabs::services::compare(
            by,
            (x, seats[sa].app.network()),
            (y, seats[sb].app.network()),
        )
    };
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    if sort.reversed {
        order.reverse();
    }
    // By due date, an ended service never falls due: last either way (as in one account).
    if by == 0 {
        let ended = |i: usize| {
            let (s, r) = rows[i];
            seats[s]
                .app
                .services()
                .rows()
                .get(r)
                .is_some_and(|x| !crate::app::is_swept(&x.status))
        };
        let (first, last): (Vec<usize>, Vec<usize>) = order.into_iter().partition(|&i| !ended(i));
        return first.into_iter().chain(last).collect();
    }
    order
}
