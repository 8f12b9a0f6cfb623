//! The Services table's cells: its columns, a service's cells as drawn and searched, its
//! problem mark, and what they read of the service's network lists and rate (looked up
//! once per row).

use crate::account::Answer;
use crate::account::store::Store;
use crate::api::{ApiError, RateEntry, ServiceStatus, ServiceSummary};
use crate::app::columns::{CellText, Column, Tone};
use crate::text::{self, MISSING};
use chrono::NaiveDate;

/// The columns, in the order drawn.
pub const COLUMNS: [Column; 7] = [
    Column::number("ID", 0),
    Column::text("Product", 1, 12).cut_in_the_middle(),
    Column::text("Status", 3, 10),
    Column::text("Due", 2, 10),
    Column::text("Proxies", 4, 8),
    Column::number("Next due", 5),
    Column::number("Order", 6),
];
/// Index of the Product column (the countdown is drawn after the name).
pub const PRODUCT: usize = 1;

/// What the Services table needs besides the service itself.
pub struct CellContext<'a> {
    pub today: NaiveDate,
    /// The account's answers (the network lists and rates the cells show).
    pub store: &'a Store,
}

/// A service's cells, as drawn and searched.
pub fn cells(s: &ServiceSummary, ctx: &CellContext) -> Vec<CellText> {
    cells_of(s, ctx.today, Looked::of(ctx.store, s.service_id))
}

pub(super) fn cells_of(s: &ServiceSummary, today: NaiveDate, looked: Looked) -> Vec<CellText> {
    let (due, due_tone) = if s.status.has_ended() {
        // Ended is not a problem: it will not be renewed, so it is not late.
        ("ended".to_owned(), Tone::Dim)
    } else {
        due_cell(s.nextduedate, today)
    };
    let mut status =
        CellText::new(text::sanitize(s.status.as_str())).tone(Tone::of_service(&s.status));
    if looked.over_limit() {
        status.text.push_str(" ⚠ over limit");
        status.tone = Tone::Bad;
    }
    vec![
        CellText::new(s.service_id.to_string()),
        CellText::new(text::or_missing(&s.product_name)),
        status,
        CellText::new(due).tone(due_tone),
        looked.proxies_cell(crate::app::is_swept(&s.status)),
        CellText::new(text::date(s.nextduedate)),
        CellText::new(text::id(s.orderid)),
    ]
}

/// `in 3d!`, `today!`, `10d late!`: the days left; due within 7 days or overdue is marked
/// with `!`.
pub fn due_cell(due: Option<NaiveDate>, today: NaiveDate) -> (String, Tone) {
    let Some(due) = due else {
        return (MISSING.to_owned(), Tone::Dim);
    };
    match due.signed_duration_since(today).num_days() {
        d if d < 0 => (format!("{}d late!", -d), Tone::Bad),
        0 => ("today!".to_owned(), Tone::Warn),
        d if d <= 7 => (format!("in {d}d!"), Tone::Warn),
        d => (format!("in {d}d"), Tone::Base),
    }
}

/// A service's network lists and rate as the store has them, looked up once for its row:
/// its cells and its problem mark read them several times each, over every row.
#[derive(Clone, Copy)]
pub(super) struct Looked<'a> {
    errors: Answer<'a, Vec<String>>,
    inactive: Answer<'a, Vec<String>>,
    rate: Option<&'a RateEntry>,
}

impl<'a> Looked<'a> {
    pub(super) fn of(store: &'a Store, id: u64) -> Self {
        Self {
            errors: store.network_answer(id, true),
            inactive: store.network_answer(id, false),
            rate: store.rate(id).and_then(|v| v.first()),
        }
    }

    /// (servers in error, inactive servers), once both lists are known.
    fn counts(self) -> Option<(usize, usize)> {
        Some((self.errors.value()?.len(), self.inactive.value()?.len()))
    }

    /// The server cannot give its network status (400 `ClientID not found`: its client
    /// is gone). It is marked once in its row, not reported as a failure.
    fn cannot_check(self) -> bool {
        [self.errors, self.inactive]
            .into_iter()
            .any(|r| matches!(r.error(), Some(ApiError::ClientIdNotFound { .. })))
    }

    /// A ppr service whose rate is above its limit (a limit of 0 means none).
    fn over_limit(self) -> bool {
        self.rate
            .is_some_and(|r| r.limit > 0.0 && r.rate.is_finite() && r.rate > r.limit)
    }

    pub(super) fn state(self) -> State {
        State {
            counts: self.counts(),
            cannot_check: self.cannot_check(),
            failed: self.failed(),
            over_limit: self.over_limit(),
        }
    }

    /// A network list failed and no good one is kept.
    fn failed(self) -> bool {
        [self.errors, self.inactive]
            .into_iter()
            .any(|r| r.error().is_some() && r.value().is_none())
    }

    /// See [`proxies_cell`].
    fn proxies_cell(self, swept: bool) -> CellText {
        if self.cannot_check() {
            return CellText::new("can't check").tone(Tone::Dim);
        }
        match self.counts() {
            None if !swept => CellText::new(text::MISSING).tone(Tone::Dim),
            Some((0, 0)) => CellText::new("ok").tone(Tone::Dim),
            Some((e, 0)) => CellText::new(format!("⚠ {e} err")).tone(Tone::Bad),
            Some((0, i)) => CellText::new(format!("⚠ {i} inactive")).tone(Tone::Warn),
            Some((e, i)) => CellText::new(format!("⚠ {e} err {i} inactive")).tone(Tone::Bad),
            None => {
                if self.failed() {
                    CellText::new("✗ unknown").tone(Tone::Bad)
                } else {
                    CellText::new("…").tone(Tone::Dim)
                }
            }
        }
    }
}

/// The proxy servers of a service in error or inactive, or why that is not known.
/// `swept`: whether the service's network status is checked at all (Terminated, Cancelled
/// and Fraud services are not, see `account/freshness.rs`); one that is not shows `—`,
/// not `…`.
pub fn proxies_cell(store: &Store, id: u64, swept: bool) -> CellText {
    Looked::of(store, id).proxies_cell(swept)
}

/// What a row's cells and problem mark are made from: the service as listed, the date,
/// and what they read of its network lists and rate.
#[derive(PartialEq)]
pub(super) struct RowInputs {
    pub(super) service: ServiceSummary,
    pub(super) today: NaiveDate,
    pub(super) state: State,
}

/// What a row reads of a service's network lists and rate ([`Looked`]), all of it.
#[derive(Clone, Copy, PartialEq)]
pub(super) struct State {
    counts: Option<(usize, usize)>,
    cannot_check: bool,
    failed: bool,
    over_limit: bool,
}

/// Whether a row needs a person (`!`), as the alert policy says: an ended service
/// (Terminated, Cancelled, Fraud) and a Pending one (every fresh order for a while) do
/// not; a due date counts for an Active service only, as `service_due`'s.
pub(super) fn is_problem(s: &ServiceSummary, today: NaiveDate, looked: Looked) -> bool {
    if s.status.has_ended() || s.status == ServiceStatus::Pending {
        return false;
    }
    let due_soon = s.status == ServiceStatus::Active
        && s.nextduedate
            .is_some_and(|d| d.signed_duration_since(today).num_days() <= 7);
    let servers = looked.counts().is_some_and(|(e, i)| e + i > 0);
    s.status != ServiceStatus::Active
        || due_soon
        || servers
        || looked.over_limit()
        || looked.cannot_check()
}
