//! The Billing tab: the credit (`Credit`), the invoices (`Invoices`) and each opened
//! invoice (`Invoice(id)`, which the API answers as an array; its first element is shown).
//!
//! "Unpaid" (the total beside the credit, and what `!` keeps) means the statuses
//! `Unpaid` and `Collections`: money still owed. `Payment Pending` is on its way and
//! `Pending` is not billed yet, so they are shown but not counted. `s` sorts locally by
//! [`InvoiceSort`]. Its look is [`look`], the money ahead [`ahead`].

pub mod ahead;
pub mod look;

use super::{Intent, TabCx, TabData, TabPane};
use crate::account::Answer;
use crate::account::Kind;
use crate::account::store::Store;
use crate::api::{Credit, Invoice, InvoiceStatus, Request};
use crate::app::columns::{self, CellText, Column, Sort, SortKey, Tone};
use crate::app::table::TableView;
use crate::app::{Popup, RefreshGroup};
use crate::text;
use std::cmp::Ordering;

/// The columns, in the order drawn.
pub const COLUMNS: [Column; 9] = [
    Column::number("ID", 0),
    Column::text("Description", 1, 16),
    Column::text("Status", 2, 15),
    Column::number("Amount", 3),
    Column::number("Created", 4),
    Column::number("Paid", 5),
    Column::number("Service", 6),
    Column::text("Method", 7, 6),
    Column::number("Refunded", 8),
];

/// What `s` sorts by, in turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InvoiceSort {
    Status,
    Amount,
    Date,
}

impl SortKey for InvoiceSort {
    const ALL: &'static [Self] = &[Self::Status, Self::Amount, Self::Date];
    fn name(self) -> &'static str {
        match self {
            Self::Status => "status",
            Self::Amount => "amount",
            Self::Date => "date",
        }
    }
}

/// Money still owed.
pub fn is_unpaid(status: &InvoiceStatus) -> bool {
    matches!(status, InvoiceStatus::Unpaid | InvoiceStatus::Collections)
}

/// Owed first, then on its way, then the rest.
fn status_rank(status: &InvoiceStatus) -> u8 {
    match status {
        InvoiceStatus::Collections => 0,
        InvoiceStatus::Unpaid => 1,
        InvoiceStatus::PaymentPending => 2,
        InvoiceStatus::Pending => 3,
        InvoiceStatus::Other(_) => 4,
        InvoiceStatus::Paid => 5,
        InvoiceStatus::Refunded => 6,
        InvoiceStatus::Cancelled => 7,
    }
}

/// An invoice's cells, as drawn and searched.
pub fn cells(i: &Invoice) -> Vec<CellText> {
    vec![
        CellText::new(i.id.to_string()),
        CellText::new(text::or_missing(&i.description)),
        CellText::new(text::sanitize(i.status.as_str())).tone(Tone::of_invoice(&i.status)),
        CellText::new(text::money(i.amount)),
        CellText::new(text::date(i.created_at)),
        CellText::new(text::date(i.date_paid)),
        CellText::new(text::id(i.service_id)),
        CellText::new(text::or_missing(&i.payment_method)),
        CellText::new(text::date(i.date_refunded)),
    ]
}

#[derive(Debug, Default)]
pub struct BillingTab {
    pub table: TableView,
    pub sort: Sort<InvoiceSort>,
    /// The money ahead, as the engine last worked it out ([`crate::account::money`]; never
    /// in a draw: over ten accounts of 1,000 services, working it out at each frame took
    /// 35 ms of a key's frame).
    pub runway: Option<std::sync::Arc<crate::billing::Runway>>,
}

impl BillingTab {
    pub fn view<'a>(&'a self, store: &'a Store) -> BillingView<'a> {
        super::TabView { tab: self, store }
    }
}

/// The Billing tab over the account's answers (see [`super::services::ServicesView`]).
pub type BillingView<'a> = super::TabView<'a, BillingTab>;

impl<'a> super::TabView<'a, BillingTab> {
    pub fn credit(self) -> Answer<'a, Credit> {
        self.store.credit_answer()
    }

    pub fn invoices(self) -> Answer<'a, Vec<Invoice>> {
        self.store.invoices_answer()
    }

    pub fn rows(self) -> &'a [Invoice] {
        self.invoices()
            .value()
            .map(Vec::as_slice)
            .unwrap_or_default()
    }

    pub fn selected(self) -> Option<&'a Invoice> {
        self.tab
            .table
            .selected_row()
            .and_then(|i| self.rows().get(i))
    }

    pub fn invoice(self, id: u64) -> Answer<'a, Vec<Invoice>> {
        self.store.invoice_answer(id)
    }

    /// The unpaid invoices: how many, and their total (finite amounts only).
    pub fn unpaid(self) -> (usize, f64) {
        self.rows()
            .iter()
            .filter(|i| is_unpaid(&i.status))
            .fold((0, 0.0), |(n, sum), i| {
                let amount = if i.amount.is_finite() { i.amount } else { 0.0 };
                (n + 1, sum + amount)
            })
    }
}

impl BillingTab {
    pub fn rebuild(&mut self, store: &Store) {
        let rows = store
            .invoices_answer()
            .value()
            .map(Vec::as_slice)
            .unwrap_or_default();
        let all: Vec<Vec<CellText>> = rows.iter().map(cells).collect();
        self.table.set_natural(columns::natural_widths(
            &COLUMNS,
            all.iter().map(Vec::as_slice),
        ));
        let keys = all.iter().map(|c| columns::search_key(c)).collect();
        let problems = rows.iter().map(|i| is_unpaid(&i.status)).collect();
        let order = self.sort.order(rows.len(), |by, a, b| {
            let (a, b) = (&rows[a], &rows[b]);
            match by {
                InvoiceSort::Status => status_rank(&a.status).cmp(&status_rank(&b.status)),
                // Largest first; a NaN sorts as equal.
                InvoiceSort::Amount => b.amount.partial_cmp(&a.amount).unwrap_or(Ordering::Equal),
                // Newest first, no date last.
                InvoiceSort::Date => b.created_at.cmp(&a.created_at),
            }
        });
        let ids = rows.iter().map(|i| i.id).collect();
        self.table.set_rows_with(keys, ids, order, problems);
    }
}

impl TabPane for BillingTab {
    fn kinds(&self) -> &'static [Kind] {
        &[Kind::Credit, Kind::Invoices]
    }

    fn table(&self) -> &TableView {
        &self.table
    }
    fn table_mut(&mut self) -> &mut TableView {
        &mut self.table
    }
    fn columns(&self, _data: &TabData<'_>) -> Vec<Column> {
        COLUMNS.to_vec()
    }
    fn cells(&self, data: &TabData<'_>, i: usize) -> Vec<CellText> {
        self.view(data.store)
            .rows()
            .get(i)
            .map(cells)
            .unwrap_or_default()
    }
    fn cycle_sort(&mut self, _cx: &mut TabCx<'_>) {
        self.sort.cycle();
    }
    fn reverse_sort(&mut self) {
        self.sort.reverse();
    }
    fn resort(&mut self, cx: &mut TabCx<'_>) {
        self.rebuild(cx.store());
    }
    /// The invoice, read afresh.
    fn open(&mut self, cx: &mut TabCx<'_>) {
        if let Some(id) = self.table.selected_id() {
            cx.open_popup(Popup::invoice(id));
            cx.fetch(Request::Invoice(id));
        }
    }
    fn refresh(&mut self, cx: &mut TabCx<'_>) {
        cx.intend(Intent::Refresh(RefreshGroup::Billing));
    }
    fn command(&self) -> Option<&'static str> {
        Some("invoices")
    }
}
