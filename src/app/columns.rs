//! One column spec per table: its header, how much it matters, how narrow it may get, and
//! (in each tab's module) the cell text of a row. The same cells feed the rendered row
//! and the filter's search key, so `/late` finds `10d late` because that is what is drawn.
//!
//! Choices the spec leaves open ("not shown"):
//! - A column's natural width is the widest of its header and every row's cell, measured
//!   when the rows change (and widened by the rows on screen, for text that changes by the
//!   second, like a countdown).
//! - Space goes by priority: columns join in priority order while their minimum fits, then
//!   grow towards their natural width in the same order. A little room left stays at the
//!   right; when more than a quarter of the table would be blank (a wide screen), the text
//!   columns share it, a name two shares, the others one (issue 26.2: the space of a
//!   200-column screen is used, not left blank). A column
//!   that does not fit at its minimum is hidden (the detail pane has it).
//! - A number column's minimum is its natural width: a number is never cut, it is hidden.
//!   A cut text cell ends with `…`; a name is cut in the middle (`Residen… 50 GB`), since
//!   product names often differ only at the end.
//! - Cells carry a [`Tone`], not a style: the theme turns it into colour.

use crate::api::{InvoiceStatus, ServiceStatus};
use unicode_width::UnicodeWidthStr;

/// What a cell's colour says (the theme maps it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tone {
    #[default]
    Base,
    Good,
    Warn,
    Bad,
    Dim,
    Stale,
    /// A heading's emphasis (what a form acts on).
    Title,
    /// An account's own colour (the dashboard over several accounts), by its place.
    Account(u8),
}

impl Tone {
    /// A service's status: active is good, pending a warning, suspended or fraud bad,
    /// terminated or cancelled dim (the Services rows, its detail and the viewers alike).
    pub fn of_service(status: &ServiceStatus) -> Tone {
        match status {
            ServiceStatus::Active => Tone::Good,
            ServiceStatus::Pending => Tone::Warn,
            ServiceStatus::Suspended | ServiceStatus::Fraud => Tone::Bad,
            ServiceStatus::Terminated | ServiceStatus::Cancelled => Tone::Dim,
            ServiceStatus::Other(_) => Tone::Base,
        }
    }

    /// An invoice's status: paid is good, owed or on its way a warning, in collections
    /// bad, cancelled or refunded dim (the Billing rows and the invoice popup alike).
    pub fn of_invoice(status: &InvoiceStatus) -> Tone {
        match status {
            InvoiceStatus::Paid => Tone::Good,
            InvoiceStatus::Unpaid | InvoiceStatus::PaymentPending | InvoiceStatus::Pending => {
                Tone::Warn
            }
            InvoiceStatus::Collections => Tone::Bad,
            InvoiceStatus::Cancelled | InvoiceStatus::Refunded => Tone::Dim,
            InvoiceStatus::Other(_) => Tone::Base,
        }
    }
}

/// One cell's text and tone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CellText {
    pub text: String,
    pub tone: Tone,
    /// Drawn after the text and never cut with it (the text gives way): a countdown after
    /// a product name. Not searched: it changes by the second.
    pub tail: Option<(String, Tone)>,
}

impl CellText {
    pub fn new(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            tone: Tone::Base,
            tail: None,
        }
    }

    pub fn with_tail(mut self, tail: String, tone: Tone) -> Self {
        self.tail = Some((tail, tone));
        self
    }

    /// Terminal cells the whole cell takes.
    pub fn width(&self) -> u16 {
        let tail = self.tail.as_ref().map_or(0, |(t, _)| width(t));
        width(&self.text).saturating_add(tail)
    }

    pub fn tone(mut self, tone: Tone) -> Self {
        self.tone = tone;
        self
    }
}

/// One column of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    pub header: &'static str,
    /// 0 matters most; higher priorities are hidden first when space is short.
    pub priority: u8,
    /// The narrowest a text cell may be cut to (numbers are never cut).
    pub min: u16,
    /// A number or an amount: right-aligned, never cut.
    pub number: bool,
    /// Cut in the middle: names that differ only at the end (`Residential 5 GB`,
    /// `Residential 50 GB`) stay apart.
    pub middle: bool,
    /// A short label (an account's name): it keeps its natural width when a wide table
    /// shares its room among its text columns, which it would only pad.
    pub snug: bool,
}

impl Column {
    pub const fn text(header: &'static str, priority: u8, min: u16) -> Self {
        Self {
            header,
            priority,
            min,
            number: false,
            middle: false,
            snug: false,
        }
    }

    pub const fn number(header: &'static str, priority: u8) -> Self {
        Self {
            header,
            priority,
            min: 0,
            number: true,
            middle: false,
            snug: false,
        }
    }

    pub const fn cut_in_the_middle(mut self) -> Self {
        self.middle = true;
        self
    }

    pub const fn snug(mut self) -> Self {
        self.snug = true;
        self
    }
}

/// How many terminal cells a text takes.
pub fn width(text: &str) -> u16 {
    u16::try_from(UnicodeWidthStr::width(text)).unwrap_or(u16::MAX)
}

/// The natural width of each column: its header, widened by every row's cells.
pub fn natural_widths<'a>(
    columns: &[Column],
    rows: impl IntoIterator<Item = &'a [CellText]>,
) -> Vec<u16> {
    let mut widths: Vec<u16> = columns.iter().map(|c| width(c.header)).collect();
    for cells in rows {
        widen(&mut widths, cells);
    }
    widths
}

/// Widens `widths` to fit these cells.
pub fn widen(widths: &mut [u16], cells: &[CellText]) {
    for (w, c) in widths.iter_mut().zip(cells) {
        *w = (*w).max(c.width());
    }
}

/// The search key of a row: the text of its cells, as drawn.
pub fn search_key(cells: &[CellText]) -> String {
    super::table::search_key(cells.iter().map(|c| c.text.as_str()))
}

/// A table's sort choices, in the order `s` goes through them: an enum per table (as
/// bottom's `SortType`), so a comparison matches on names, never on an index.
pub trait SortKey: Copy + PartialEq + 'static {
    /// Every choice, in turn.
    const ALL: &'static [Self];
    /// The pane title's words after "by".
    fn name(self) -> &'static str;
}

/// A local sort of a table: which choice and which way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sort<K> {
    /// `None`: the server's order.
    pub by: Option<K>,
    pub reversed: bool,
}

impl<K> Default for Sort<K> {
    fn default() -> Self {
        Self {
            by: None,
            reversed: false,
        }
    }
}

impl<K: SortKey> Sort<K> {
    /// `s`: the next choice, after the last back to the server's order.
    pub fn cycle(&mut self) {
        self.by = match self.by {
            None => K::ALL.first().copied(),
            Some(by) => {
                let at = K::ALL.iter().position(|&k| k == by);
                at.and_then(|i| K::ALL.get(i + 1)).copied()
            }
        };
    }

    /// `S`: the other way round.
    pub fn reverse(&mut self) {
        self.reversed = !self.reversed;
    }

    /// The pane title's words: `server order`, `by due date`, `by due date ↓`.
    pub fn label(&self) -> String {
        let arrow = if self.reversed { " ↓" } else { "" };
        match self.by {
            None if self.reversed => "server order ↓".to_owned(),
            None => "server order".to_owned(),
            Some(by) => format!("by {}{arrow}", by.name()),
        }
    }

    /// The view order of `n` rows compared by `cmp` (stable: equal rows keep the server's
    /// order), reversed when asked.
    pub fn order(
        &self,
        n: usize,
        cmp: impl Fn(K, usize, usize) -> std::cmp::Ordering,
    ) -> Vec<usize> {
        let mut order: Vec<usize> = (0..n).collect();
        if let Some(by) = self.by {
            order.sort_by(|&a, &b| cmp(by, a, b));
        }
        if self.reversed {
            order.reverse();
        }
        order
    }

    /// [`Sort::order`], then the rows `last` picks moved after all the others (in the
    /// order they had), whatever the direction: ended services under a due-date sort.
    pub fn order_with_last(
        &self,
        n: usize,
        cmp: impl Fn(K, usize, usize) -> std::cmp::Ordering,
        last: impl Fn(usize) -> bool,
    ) -> Vec<usize> {
        let (mut first, tail): (Vec<usize>, Vec<usize>) =
            self.order(n, cmp).into_iter().partition(|&i| !last(i));
        first.extend(tail);
        first
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_width_is_the_widest_cell_or_header() {
        let cols = [Column::text("Product", 0, 6), Column::number("ID", 0)];
        let rows = [
            vec![CellText::new("Datacenter US 100"), CellText::new("7")],
            vec![CellText::new("ISP"), CellText::new("1001")],
        ];
        let w = natural_widths(&cols, rows.iter().map(Vec::as_slice));
        assert_eq!(w, vec![17, 4]);
    }

    #[derive(Clone, Copy, Debug, PartialEq)]
    enum By {
        Due,
        Status,
    }

    impl SortKey for By {
        const ALL: &'static [Self] = &[By::Due, By::Status];
        fn name(self) -> &'static str {
            match self {
                By::Due => "due date",
                By::Status => "status",
            }
        }
    }

    #[test]
    fn sort_cycles_back_to_the_server_order_and_reverses() {
        let mut s = Sort::<By>::default();
        s.cycle();
        assert_eq!(s.label(), "by due date");
        s.cycle();
        s.reverse();
        assert_eq!(s.label(), "by status ↓");
        s.cycle();
        assert_eq!(s.by, None);
        let keys = [3, 1, 2];
        s.reversed = false;
        s.by = Some(By::Due);
        assert_eq!(s.order(3, |_, a, b| keys[a].cmp(&keys[b])), vec![1, 2, 0]);
    }
}
