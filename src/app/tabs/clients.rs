//! The Clients tab: the reseller's clients (`GET /api/clients`), by ID, with their
//! e-mail: the list the order form's client picker offers, to look up and filter.
//!
//! Enter opens the selected client's card ([`crate::app::popups::client`]).
//!
//! The list is read once the tab is shown and then kept fresh by the engine like the
//! catalogue (it rarely changes; `r` reads it now). The rows are rebuilt once per answer.

use super::{Listing, TabCx, TabData, TabPane};
use crate::account::Kind;
use crate::api::{Client, Request};
use crate::app::Popup;
use crate::app::columns::{self, CellText, Column};
use crate::app::table::TableView;
use chrono::{DateTime, Utc};

/// The columns, in the order drawn.
pub const COLUMNS: [Column; 2] = [Column::number("ID", 0), Column::text("E-mail", 1, 24)];

#[derive(Debug, Default)]
pub struct ClientsTab {
    pub table: TableView,
    /// The answer the rows were built from (when it arrived).
    built: Option<DateTime<Utc>>,
}

/// A client's cells, as drawn and searched.
fn cells(c: &Client) -> Vec<CellText> {
    vec![
        CellText::new(c.id.to_string()),
        CellText::new(crate::text::or_missing(&crate::text::sanitize(&c.email))),
    ]
}

fn listed<'a>(data: &TabData<'a>) -> &'a [Client] {
    data.store
        .clients_answer()
        .value()
        .map_or(&[], Vec::as_slice)
}

/// A plain list: the look's defaults.
impl super::TabLook for ClientsTab {}

impl TabPane for ClientsTab {
    fn kinds(&self) -> &'static [Kind] {
        &[Kind::Clients]
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
        listed(data).get(i).map(cells).unwrap_or_default()
    }
    fn listing(&self, data: &TabData<'_>) -> Option<Listing> {
        Some(Listing::of(
            data,
            "clients",
            data.store.clients_answer(),
            &Request::Clients,
        ))
    }

    /// The list, the first time the tab is shown (the engine keeps it fresh after).
    fn fetch_for_selection(&mut self, cx: &mut TabCx<'_>) {
        if !cx.store().clients_answer().is_requested() {
            cx.fetch(Request::Clients);
        }
    }
    fn sync(&mut self, cx: &mut TabCx<'_>) {
        let clients = cx.store().clients_answer();
        if clients.answered_at() == self.built {
            return;
        }
        self.built = clients.answered_at();
        let rows = clients.value().map_or(&[][..], Vec::as_slice);
        let all: Vec<Vec<CellText>> = rows.iter().map(cells).collect();
        self.table.set_natural(columns::natural_widths(
            &COLUMNS,
            all.iter().map(Vec::as_slice),
        ));
        let keys = all.iter().map(|c| columns::search_key(c)).collect();
        self.table
            .set_rows(keys, rows.iter().map(|c| c.id).collect());
    }
    /// Enter: the selected client's card.
    fn open(&mut self, cx: &mut TabCx<'_>) {
        if let Some(id) = self.table.selected_id() {
            cx.open_popup(Popup::client(id));
        }
    }
    fn command(&self) -> Option<&'static str> {
        Some("clients")
    }
}
