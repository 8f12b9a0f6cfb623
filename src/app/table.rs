//! `TableView`: selection, scrolling and filtering of one table, independent of what its
//! rows are.
//!
//! The rows themselves stay in the tab's data; this holds one precomputed lowercase search
//! key per row (every visible cell's text), one identity per row (so a refresh keeps the
//! selection on the same item), and the filtered view as a `Vec` of row indices. Filtering
//! 100,000 rows is one substring test per row; typing a further character only re-tests
//! the rows that matched before. The view draws only `visible()`, never every row.

/// Rows a page key moves when the view does not know its height yet.
const DEFAULT_PAGE: usize = 10;

/// The longest filter: longer than any value a row shows, short enough to test every row
/// against at every key.
pub const FILTER_MAX: usize = 256;

#[derive(Clone, Debug, Default)]
pub struct TableView {
    keys: Vec<String>,
    ids: Vec<u64>,
    filtered: Vec<usize>,
    /// Position in `filtered` of the selected row.
    selected: usize,
    /// Position in `filtered` of the first row drawn.
    offset: usize,
    filter: String,
    editing: bool,
    /// Rows that fit on screen, as last told by the app (from the terminal size).
    page: usize,
    /// The user chose a row: new rows keep it selected. Until then the first row is.
    touched: bool,
    /// The view order of the rows (a local sort); empty: the rows' own order.
    order: Vec<usize>,
    /// Which rows are problems (`!` shows only those); empty: none is.
    problems: Vec<bool>,
    problems_only: bool,
    /// Counts the times the rows were replaced: a reader that kept something derived from
    /// them (the All view over several accounts) knows when to derive it again.
    generation: u64,
    /// The natural width of each searched column over all the rows, as the tab measured
    /// them when it set the rows (the table's cells are the tab's, not kept here).
    natural: Vec<u16>,
    /// The rows marked with `space`, by their IDs: kept while their row is listed (a
    /// filter hides a mark, it does not drop it).
    marked: std::collections::HashSet<u64>,
}

impl TableView {
    /// Replaces the rows, keeping the selection on the same identity where it still exists.
    pub fn set_rows(&mut self, keys: Vec<String>, ids: Vec<u64>) {
        self.set_rows_with(keys, ids, Vec::new(), Vec::new());
    }

    /// Replaces the rows with a view order (a permutation of the rows, or empty for their
    /// own order) and which rows are problems (or empty).
    pub fn set_rows_with(
        &mut self,
        keys: Vec<String>,
        ids: Vec<u64>,
        order: Vec<usize>,
        problems: Vec<bool>,
    ) {
        debug_assert_eq!(keys.len(), ids.len());
        self.generation += 1;
        let keep = self.selected_id();
        self.keys = keys;
        self.ids = ids;
        self.order = if order.len() == self.keys.len() {
            order
        } else {
            Vec::new()
        };
        self.problems = problems;
        if !self.marked.is_empty() {
            let listed: std::collections::HashSet<u64> = self.ids.iter().copied().collect();
            self.marked.retain(|id| listed.contains(id));
        }
        self.refilter_all();
        self.selected = 0;
        if self.touched
            && let Some(id) = keep
            && let Some(pos) = self.filtered.iter().position(|&i| self.ids[i] == id)
        {
            self.selected = pos;
        }
        self.clamp();
    }

    /// `space`: the highlighted row marked, or unmarked; whether it is marked now.
    pub fn toggle_mark(&mut self) -> Option<bool> {
        let id = self.selected_id()?;
        if !self.marked.remove(&id) {
            self.marked.insert(id);
        }
        Some(self.marked.contains(&id))
    }

    /// Whether row `i` (an index into the rows) is marked.
    pub fn is_marked(&self, i: usize) -> bool {
        !self.marked.is_empty() && self.ids.get(i).is_some_and(|id| self.marked.contains(id))
    }

    pub fn marked_count(&self) -> usize {
        self.marked.len()
    }

    /// The marked rows' IDs, in the order the table shows its rows (hidden ones too).
    pub fn marked_ids(&self) -> Vec<u64> {
        if self.marked.is_empty() {
            return Vec::new();
        }
        (self.view_order())
            .map(|i| self.ids[i])
            .filter(|id| self.marked.contains(id))
            .collect()
    }

    /// Marks the rows `ids` (those listed) and no other.
    pub fn set_marks(&mut self, ids: &[u64]) {
        let listed: std::collections::HashSet<u64> = self.ids.iter().copied().collect();
        self.marked = ids
            .iter()
            .copied()
            .filter(|id| listed.contains(id))
            .collect();
    }

    /// Esc: every mark cleared; whether there was any.
    pub fn clear_marks(&mut self) -> bool {
        let had = !self.marked.is_empty();
        self.marked.clear();
        had
    }

    /// Number of rows before filtering.
    pub fn total(&self) -> usize {
        self.keys.len()
    }

    /// The natural width of each searched column over all the rows.
    pub fn natural(&self) -> &[u16] {
        &self.natural
    }

    pub fn set_natural(&mut self, natural: Vec<u16>) {
        self.natural = natural;
    }

    /// How many times the rows were replaced.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Each row's search key and identity, in the rows' own order.
    pub fn rows(&self) -> (&[String], &[u64]) {
        (&self.keys, &self.ids)
    }

    /// The rows' view order (the local sort), before filtering: row indices.
    pub fn view_order(&self) -> impl Iterator<Item = usize> + '_ {
        let own = self.order.is_empty().then_some(0..self.keys.len());
        self.order.iter().copied().chain(own.into_iter().flatten())
    }

    /// Whether row `i` is a problem (what `!` keeps).
    pub fn is_problem(&self, i: usize) -> bool {
        self.problems.get(i).copied().unwrap_or(false)
    }

    /// Number of rows that pass the filter.
    pub fn len(&self) -> usize {
        self.filtered.len()
    }

    pub fn is_empty(&self) -> bool {
        self.filtered.is_empty()
    }

    /// Index (into the tab's rows) of the selected row.
    pub fn selected_row(&self) -> Option<usize> {
        self.filtered.get(self.selected).copied()
    }

    pub fn selected_id(&self) -> Option<u64> {
        self.selected_row().map(|i| self.ids[i])
    }

    /// Position of the selection within the filtered rows.
    pub fn selected_position(&self) -> usize {
        self.selected
    }

    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The row indices in view order (after filtering).
    pub fn filtered(&self) -> &[usize] {
        &self.filtered
    }

    /// Rows `offset .. offset + height` of the filtered view, the offset clamped for
    /// `height` rows as the table keeps it (the selection visible, no blank rows below
    /// the last): (first position, row indices). The view draws this with the height it
    /// measured, so a frame drawn before the app knows the new page (the first, or the
    /// first after a resize) already shows what the app will page by.
    pub fn visible(&self, height: usize) -> (usize, &[usize]) {
        let height = height.max(1);
        let offset = self.window(height);
        let end = (offset + height).min(self.filtered.len());
        (offset, &self.filtered[offset.min(end)..end])
    }

    /// The first row shown in `page` rows: the offset moved as little as it takes for the
    /// selection to be visible, and no further down than leaves the page full.
    fn window(&self, page: usize) -> usize {
        let mut offset = self.offset;
        if self.selected < offset {
            offset = self.selected;
        } else if self.selected >= offset + page {
            offset = self.selected + 1 - page;
        }
        offset.min(self.filtered.len().saturating_sub(page))
    }

    pub fn set_page(&mut self, rows: usize) {
        self.page = rows;
        self.clamp();
    }

    /// The identities of the rows on screen (the page the view was last told of), for the
    /// engine: their cells are read first while never shown.
    pub fn on_screen(&self) -> impl Iterator<Item = u64> + '_ {
        self.visible(self.page_rows())
            .1
            .iter()
            .map(|i| self.ids[*i])
    }

    /// Rows that fit on screen (as last told; a default before).
    pub fn page_rows(&self) -> usize {
        self.page()
    }

    fn page(&self) -> usize {
        if self.page == 0 {
            DEFAULT_PAGE
        } else {
            self.page
        }
    }

    /// Moves the selection by `delta` rows, stopping at the ends.
    pub fn move_by(&mut self, delta: isize) {
        self.touched = true;
        let last = self.filtered.len().saturating_sub(1);
        self.selected = self.selected.saturating_add_signed(delta).min(last);
        self.clamp();
    }

    pub fn page_down(&mut self) {
        self.move_by(self.page() as isize);
    }

    pub fn page_up(&mut self) {
        self.move_by(-(self.page() as isize));
    }

    pub fn top(&mut self) {
        self.touched = true;
        self.selected = 0;
        self.clamp();
    }

    pub fn bottom(&mut self) {
        self.touched = true;
        self.selected = self.filtered.len().saturating_sub(1);
        self.clamp();
    }

    /// Selects the row at this position of the view (a mouse click).
    pub fn select_position(&mut self, position: usize) {
        if position < self.filtered.len() {
            self.touched = true;
            self.selected = position;
            self.clamp();
        }
    }

    /// Selects the row with this identity, if it passes the filter.
    pub fn select_id(&mut self, id: u64) -> bool {
        match self.filtered.iter().position(|&i| self.ids[i] == id) {
            Some(pos) => {
                self.touched = true;
                self.selected = pos;
                self.clamp();
                true
            }
            None => false,
        }
    }

    pub fn filter(&self) -> &str {
        &self.filter
    }

    /// Whether `!` narrowed the view to the problem rows.
    pub fn problems_only(&self) -> bool {
        self.problems_only
    }

    /// `!`: only the problem rows, or all again.
    pub fn toggle_problems(&mut self) {
        self.set_problems_only(!self.problems_only);
    }

    /// Only the problem rows (`true`), or all.
    pub fn set_problems_only(&mut self, on: bool) {
        if self.problems_only != on {
            self.problems_only = on;
            self.refilter_keeping_selection(false);
        }
    }

    pub fn is_editing(&self) -> bool {
        self.editing
    }

    pub fn start_editing(&mut self) {
        self.editing = true;
    }

    /// Enter: keep the filter, leave the input.
    pub fn stop_editing(&mut self) {
        self.editing = false;
    }

    /// Esc: drop the filter and leave the input.
    pub fn clear_filter(&mut self) {
        self.editing = false;
        if !self.filter.is_empty() {
            self.filter.clear();
            self.refilter_keeping_selection(false);
        }
    }

    /// Adds typed or pasted text to the filter, which holds at most [`FILTER_MAX`]
    /// characters; `Some(FILTER_MAX)` when the text was cut to fit.
    pub fn push_filter(&mut self, text: &str) -> Option<usize> {
        let room = FILTER_MAX.saturating_sub(self.filter.chars().count());
        // A paste far longer than any filter is cut before it is sanitized, so a megabyte
        // costs nothing.
        let mut cut = false;
        let head = match text.char_indices().nth(room * 4 + 64) {
            Some((i, _)) => {
                cut = true;
                &text[..i]
            }
            None => text,
        };
        // Whole escape sequences go, not just their ESC: a pasted `ESC[2J` must not leave
        // `[2J` in the filter.
        let clean = crate::text::sanitize(head);
        let mut chars = clean.chars().filter(|c| !c.is_control());
        let text: String = chars.by_ref().take(room).collect();
        cut |= chars.next().is_some();
        if !text.is_empty() {
            self.filter.push_str(&text);
            // A longer filter only narrows: test just the rows that matched before.
            self.refilter_keeping_selection(true);
        }
        cut.then_some(FILTER_MAX)
    }

    pub fn pop_filter(&mut self) {
        if self.filter.pop().is_some() {
            self.refilter_keeping_selection(false);
        }
    }

    fn refilter_keeping_selection(&mut self, narrowing: bool) {
        let keep = self.selected_id();
        if narrowing {
            let needle = self.filter.to_lowercase();
            let keys = &self.keys;
            self.filtered.retain(|&i| matches(&keys[i], &needle));
            // (the problems test already held for these rows)
        } else {
            self.refilter_all();
        }
        self.selected = keep
            .and_then(|id| self.filtered.iter().position(|&i| self.ids[i] == id))
            .unwrap_or(0);
        self.clamp();
    }

    fn refilter_all(&mut self) {
        let needle = self.filter.to_lowercase();
        let passes = |i: usize| {
            matches(&self.keys[i], &needle)
                && (!self.problems_only || self.problems.get(i).copied().unwrap_or(false))
        };
        self.filtered = if self.order.is_empty() {
            (0..self.keys.len()).filter(|&i| passes(i)).collect()
        } else {
            self.order.iter().copied().filter(|&i| passes(i)).collect()
        };
    }

    /// Keeps the selection inside the rows and the offset such that it is visible.
    fn clamp(&mut self) {
        self.selected = self.selected.min(self.filtered.len().saturating_sub(1));
        self.offset = self.window(self.page());
    }
}

/// The search key of a row: its visible cells, lowercased, joined by a separator that no
/// filter can type (so a filter never matches across two cells).
pub fn search_key<'a>(cells: impl IntoIterator<Item = &'a str>) -> String {
    let mut key = String::new();
    for cell in cells {
        if !key.is_empty() {
            key.push('\u{1f}');
        }
        key.push_str(&cell.to_lowercase());
    }
    key
}

/// Whether a row's search key passes the filter: every word of it (space-separated, so
/// `globex late` is a row of globex that is late), each anywhere in the key. A longer
/// filter only narrows: a further character makes a word longer or adds one.
fn matches(key: &str, needle: &str) -> bool {
    needle.split_whitespace().all(|word| key.contains(word))
}

#[cfg(test)]
#[path = "table_tests.rs"]
mod tests;
