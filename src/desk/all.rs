//! The All view: one tab's rows of every account, merged, with the account before each.
//!
//! Each account's app keeps its own rows, sort and problem marks for the tab (the desk
//! shows every account the All view's tab, so they stay built); the All view holds only
//! the merged order, each row's identity ([`RowRef`]: its account and its own ID, never
//! an index into another list), a search key per row (the account's name, then the row's
//! own key) and its own selection, filter and problems toggle (one per tab, as in one
//! account). Rows go account by account in each account's own order, except under a sort
//! of Services, which orders all of them together (all due within 7 days first, whatever
//! their account), and on Alerts, ordered as one account's are (open first, worst first).

use super::Seat;
use super::all_sort::{Runs, alerts_order, services_order};
use crate::app::columns::{CellText, Column, Sort, Tone};
use crate::app::keymap::Action;
use crate::app::table::TableView;
use crate::app::tabs::Tab;
use crate::app::tabs::services::ServiceSort;

/// The Account column, first: never hidden before the others, never padded.
pub const ACCOUNT: Column = Column::text("Account", 0, 4).snug();

/// A row of the All view: its account (the seat) and its identity in that account's
/// table (a service ID, a product ID, an invoice ID, an alert's key). What acts on a row
/// takes this, and finds the row by it in its account.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RowRef {
    pub seat: usize,
    pub id: u64,
}

pub struct MergedRows {
    pub tab: Tab,
    /// The sort of Services across accounts (`s`, `S`); other tabs sort in each account.
    pub sort: Sort<ServiceSort>,
    /// The merged rows of the tab shown: (seat, index into that seat's rows).
    rows: Vec<(usize, usize)>,
    /// Each merged row's identity, beside `rows`.
    refs: Vec<RowRef>,
    /// The tabs whose rows `!` narrows to the problems (a toggle per tab, as in one
    /// account's view).
    problems: Vec<Tab>,
    table: TableView,
    /// Account, then the tab's columns, as wide as the widest account's.
    natural: Vec<u16>,
    /// The rows carry their search keys (built only while a filter or `!` reads them:
    /// ten accounts' rows are ten thousand strings to make at every change).
    keyed: bool,
    /// Each account's keys with its name, as made from its table's rows of that
    /// generation: made again only for an account whose rows changed.
    segments: Vec<Segment>,
    /// What the merged rows were made from: the same again makes the same rows.
    made_from: Option<MadeFrom>,
    /// Under a sort of Services, each account's rows sorted apart, to merge.
    runs: Runs,
}

/// What [`MergedRows::rebuild`] reads to merge the rows, bar the Services sort's ranks (the
/// runs say when those changed). An account's rows change only with its table's
/// generation (its keys, IDs, order and marks are replaced together), or for Services
/// listed straight from the list, with the list's. Every batch of answers redraws, and
/// ten accounts' rows are ten thousand: merging them again when none changed cost
/// milliseconds at every key and batch.
#[derive(PartialEq)]
struct MadeFrom {
    tab: Tab,
    keyed: bool,
    problems: bool,
    sort: Sort<ServiceSort>,
    /// Each account's generation of what its rows are merged from: its Services list when
    /// they come straight from it, else its table of the tab.
    seats: Vec<u64>,
}

impl MadeFrom {
    fn of(view: &MergedRows, seats: &[Seat], keyed: bool) -> Self {
        let seats = seats
            .iter()
            .map(|seat| {
                if view.tab == Tab::Services && !keyed {
                    seat.app.services().list_generation()
                } else {
                    seat.app.table(view.tab).generation()
                }
            })
            .collect();
        Self {
            tab: view.tab,
            keyed,
            problems: view.problems.contains(&view.tab),
            sort: view.sort,
            seats,
        }
    }
}

/// The merged rows as they are made, account by account.
struct Merging {
    rows: Vec<(usize, usize)>,
    refs: Vec<RowRef>,
    keys: Vec<String>,
    ids: Vec<u64>,
    problems: Vec<bool>,
}

impl Merging {
    fn with_capacity(n: usize) -> Self {
        Self {
            rows: Vec::with_capacity(n),
            refs: Vec::with_capacity(n),
            keys: Vec::with_capacity(n),
            ids: Vec::with_capacity(n),
            problems: Vec::with_capacity(n),
        }
    }

    /// A row: where it is in its account, its identity, its search key and whether it is a
    /// problem (`None`: rows straight from the list, which mark none).
    fn push(&mut self, at: (usize, usize), row: RowRef, key: String, problem: Option<bool>) {
        self.rows.push(at);
        self.keys.push(key);
        self.ids.push(row.key());
        self.refs.push(row);
        if let Some(problem) = problem {
            self.problems.push(problem);
        }
    }
}

#[derive(Default)]
struct Segment {
    tab: Option<Tab>,
    generation: u64,
    keys: Vec<String>,
}

impl Default for MergedRows {
    fn default() -> Self {
        Self {
            tab: Tab::Services,
            sort: Sort::default(),
            rows: Vec::new(),
            refs: Vec::new(),
            problems: Vec::new(),
            table: TableView::default(),
            natural: Vec::new(),
            keyed: false,
            segments: Vec::new(),
            made_from: None,
            runs: Runs::default(),
        }
    }
}

impl MergedRows {
    /// Merges the rows of [`MergedRows::tab`] from every seat, keeping the selection on the
    /// same row where it is still there.
    pub fn rebuild(&mut self, seats: &[Seat]) {
        let tab = self.tab;
        let keyed = self.reads_keys() || self.table.is_editing();
        // The column widths follow an account's silence too, which no generation counts.
        self.natural = natural(seats, tab);
        let made_from = Some(MadeFrom::of(self, seats, keyed));
        // Under a sort of Services the ranks change with answers no generation counts
        // (a health with its network lists): the runs say whether any did.
        let ranks_changed = match self.sort.by {
            Some(by) if tab == Tab::Services => self
                .runs
                .refresh(by, seats, |seat| seat_rows(seat, tab, keyed)),
            _ => {
                self.runs.clear();
                false
            }
        };
        if made_from == self.made_from && !ranks_changed {
            return;
        }
        self.made_from = made_from;
        let total = seats
            .iter()
            .map(|s| s.app.table(tab).total())
            .sum::<usize>();
        let mut merged = Merging::with_capacity(total);
        for (s, seat) in seats.iter().enumerate() {
            self.merge_seat(&mut merged, (s, seat), keyed);
        }
        let Merging {
            rows,
            refs,
            keys,
            ids,
            problems,
        } = merged;
        let order = match tab {
            Tab::Services => services_order(&self.runs, seats, &rows, self.sort),
            Tab::Alerts => alerts_order(seats, &rows),
            Tab::Products | Tab::Billing | Tab::Network | Tab::Usage | Tab::Clients => Vec::new(),
        };
        self.rows = rows;
        self.refs = refs;
        self.keyed = keyed;
        self.table.set_rows_with(keys, ids, order, problems);
        let on = self.problems.contains(&tab);
        self.table.set_problems_only(on);
    }

    /// Seat `s`'s rows of the tab, after those of the seats before it.
    fn merge_seat(&mut self, merged: &mut Merging, (s, seat): (usize, &Seat), keyed: bool) {
        let tab = self.tab;
        // Unfiltered Services come straight from the list: an account beside others
        // defers its own rows' rebuild until something reads them (`eager_rows`).
        if tab == Tab::Services && !keyed {
            for (i, service) in seat.app.services().rows().iter().enumerate() {
                let row = RowRef {
                    seat: s,
                    id: service.service_id,
                };
                merged.push((s, i), row, String::new(), None);
            }
            return;
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
            let key = match segment.keys.get(i) {
                Some(key) if keyed => key.clone(),
                _ => String::new(),
            };
            let row = RowRef { seat: s, id };
            merged.push((s, i), row, key, Some(table.is_problem(i)));
        }
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

    /// The identity of merged row `i` (in the rows' own order, before filter and sort).
    pub fn row_ref(&self, i: usize) -> Option<RowRef> {
        self.refs.get(i).copied()
    }

    /// The highlighted row's account and identity.
    pub fn selected(&self) -> Option<RowRef> {
        self.refs.get(self.table.selected_row()?).copied()
    }

    /// The highlighted product, with Products shown: its account's own.
    pub fn selected_product<'a>(
        &self,
        seats: &'a [Seat],
    ) -> Option<&'a crate::api::ProductSummary> {
        let row = self.selected()?;
        seats
            .get(row.seat)?
            .app
            .products()
            .rows()
            .iter()
            .find(|p| p.product_id == row.id)
    }

    /// Highlights this row (of its account), if it is listed.
    pub fn select(&mut self, row: RowRef) -> bool {
        self.table.select_id(row.key())
    }

    /// `!` on the tab shown: its problem rows only, or all again.
    pub fn toggle_problems(&mut self) {
        let tab = self.tab;
        if let Some(at) = self.problems.iter().position(|&t| t == tab) {
            self.problems.remove(at);
        } else {
            self.problems.push(tab);
        }
        self.table.set_problems_only(self.problems.contains(&tab));
    }

    pub fn set_page(&mut self, rows: usize) {
        self.table.set_page(rows);
    }

    /// Whether the filter, the problems or a sort read the accounts' search keys.
    pub fn reads_keys(&self) -> bool {
        !self.table.filter().is_empty() || self.problems.contains(&self.tab)
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

    /// Esc: the marks cleared; whether there were any.
    pub fn clear_marks(&mut self) -> bool {
        self.table.clear_marks()
    }

    /// The marked rows, in the order shown.
    pub fn marked(&self) -> Vec<RowRef> {
        let marked: std::collections::HashSet<u64> = self.table.marked_ids().into_iter().collect();
        (self.refs.iter())
            .filter(|r| marked.contains(&r.key()))
            .copied()
            .collect()
    }

    pub fn clear_filter(&mut self) {
        self.table.clear_filter();
    }

    /// A character typed into the filter.
    pub fn type_filter(&mut self, c: char) {
        self.table.push_filter(c.encode_utf8(&mut [0; 4]));
    }

    /// The keys of the merged table itself (the key map's actions): moving, the filter
    /// input; whether `action` was one.
    pub fn table_action(&mut self, action: Action) -> bool {
        let t = &mut self.table;
        match action {
            Action::Down => t.move_by(1),
            Action::Up => t.move_by(-1),
            Action::Top => t.top(),
            Action::Bottom => t.bottom(),
            Action::PageDown => t.page_down(),
            Action::PageUp => t.page_up(),
            Action::FilterAccept => t.stop_editing(),
            Action::FilterBackspace => t.pop_filter(),
            Action::Mark => {
                let _ = t.toggle_mark();
            }
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
        // An account that does not answer: its rows are its last, marked as such (one
        // account's view marks its panes with their age).
        let name = if seat.app.no_answer_since().is_some() {
            format!("{} ✗", seat.name)
        } else {
            seat.name.clone()
        };
        let mut cells = vec![CellText::new(name).tone(Tone::Account(seat.colour))];
        cells.extend(seat.app.tab_cells(self.tab, row));
        cells.resize(width, CellText::default());
        cells
    }
}

impl RowRef {
    /// The merged table's key of the row, which keeps the selection on it across
    /// rebuilds. It is a hash of the whole identity (an alert's ID is a hash already, so
    /// no bits of it can be spared); the identity itself is [`MergedRows::selected`]'s,
    /// never worked back from this.
    fn key(self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.hash(&mut h);
        h.finish()
    }
}

fn natural(seats: &[Seat], tab: Tab) -> Vec<u16> {
    let name = seats
        .iter()
        .map(|s| {
            let mark = if s.app.no_answer_since().is_some() {
                2
            } else {
                0
            };
            crate::app::columns::width(&s.name) + mark
        })
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

/// The rows the merged table takes from an account, in its order (indices into its rows
/// of `tab`): unfiltered Services straight from the list, else its table's view order.
fn seat_rows(seat: &Seat, tab: Tab, keyed: bool) -> Vec<usize> {
    if tab == Tab::Services && !keyed {
        return (0..seat.app.services().rows().len()).collect();
    }
    let table = seat.app.table(tab);
    let listed = table.rows().1.len();
    table.view_order().filter(|&i| i < listed).collect()
}
