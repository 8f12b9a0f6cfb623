//! The Alerts tab: the alert book (open alerts and the recently resolved ones) and the
//! rows it lists, rebuilt after each sweep.
//!
//! Order: open alerts first, critical first, then the newest; then resolved ones, the
//! most recently resolved first (see [`AlertBook::listing`]). The selection follows its
//! alert across rebuilds.

use crate::alerts::marks::Marks;
use crate::alerts::{Alert, AlertBook, Rules};
use crate::app::table::{TableView, search_key};
use std::hash::{Hash, Hasher};

#[derive(Debug)]
pub struct AlertsTab {
    pub rules: Rules,
    pub book: AlertBook,
    /// Acknowledgements and silences, as the engine applies them.
    pub marks: Marks,
    /// What the table lists, in its order.
    pub rows: Vec<Alert>,
    pub table: TableView,
    /// Data the rules read arrived since the last sweep: sweep once nothing is in flight.
    pub sweep_due: bool,
}

impl Default for AlertsTab {
    fn default() -> Self {
        Self::new(Rules::default(), Vec::new())
    }
}

impl AlertsTab {
    pub fn new(rules: Rules, open: Vec<Alert>) -> Self {
        let mut book = AlertBook::new(&rules);
        book.restore(open);
        let mut tab = Self {
            rules,
            book,
            marks: Marks::default(),
            rows: Vec::new(),
            table: TableView::default(),
            sweep_due: false,
        };
        tab.rebuild();
        tab
    }

    pub fn selected(&self) -> Option<&Alert> {
        self.table.selected_row().and_then(|i| self.rows.get(i))
    }

    pub fn open_count(&self) -> usize {
        self.book.open_count()
    }

    pub fn rebuild(&mut self) {
        self.rows = self.book.listing().into_iter().cloned().collect();
        let keys = self
            .rows
            .iter()
            .map(|a| {
                let state = if a.resolved.is_some() {
                    "resolved"
                } else if self.marks.ack(&a.key).is_some() {
                    "open acknowledged"
                } else {
                    "open"
                };
                search_key([
                    a.level.as_str(),
                    a.key.rule.as_str(),
                    &a.key.subject.to_string(),
                    &a.message,
                    state,
                ])
            })
            .collect();
        let ids = self.rows.iter().map(row_id).collect();
        self.table.set_rows(keys, ids);
    }
}

/// An alert's identity in the table: its key and when it began.
fn row_id(a: &Alert) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (a.key, a.first_seen).hash(&mut h);
    h.finish()
}
