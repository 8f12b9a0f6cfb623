//! The Billing tab: the credit (`Credit`), the invoices (`Invoices`) and each opened
//! invoice (`Invoice(id)`, which the API answers as an array; its first element is shown).

use crate::api::{Credit, Invoice};
use crate::app::remote::Remote;
use crate::app::table::{TableView, search_key};
use crate::text;
use std::collections::HashMap;

#[derive(Debug, Default)]
pub struct BillingTab {
    pub credit: Remote<Credit>,
    pub invoices: Remote<Vec<Invoice>>,
    pub table: TableView,
    pub opened: HashMap<u64, Remote<Vec<Invoice>>>,
}

impl BillingTab {
    pub fn rows(&self) -> &[Invoice] {
        self.invoices.value().map(Vec::as_slice).unwrap_or_default()
    }

    pub fn selected(&self) -> Option<&Invoice> {
        self.table.selected_row().and_then(|i| self.rows().get(i))
    }

    pub fn invoice(&self, id: u64) -> &Remote<Vec<Invoice>> {
        static NONE: Remote<Vec<Invoice>> = Remote::NotRequested;
        self.opened.get(&id).unwrap_or(&NONE)
    }

    pub fn rebuild(&mut self) {
        let rows = self.invoices.value().map(Vec::as_slice).unwrap_or_default();
        let keys = rows
            .iter()
            .map(|i| {
                let id = i.id.to_string();
                let amount = text::money(i.amount);
                let service = i.service_id.map(|s| s.to_string()).unwrap_or_default();
                search_key([
                    id.as_str(),
                    &text::sanitize(&i.description),
                    i.status.as_str(),
                    &amount,
                    &text::date(i.created_at),
                    &text::date(i.date_paid),
                    &text::date(i.date_refunded),
                    &text::sanitize(&i.payment_method),
                    &service,
                ])
            })
            .collect();
        let ids = rows.iter().map(|i| i.id).collect();
        self.table.set_rows(keys, ids);
    }
}
