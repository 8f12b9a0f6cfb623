//! The Products tab: the product list (`Products`, or `ProductsOrderedBy(field)` once `s`
//! chose a sort field) and each product's detail (`Product(pid)`, fetched on selection and
//! cached).
//!
//! `s` cycles through the six fields of `SortField::ALL` and wraps around; the server
//! decides the direction. A list that arrives for a sort no longer chosen is dropped. Its
//! look is [`look`].

pub mod look;

use super::{Intent, TabCx, TabData, TabPane};
use crate::account::Answer;
use crate::account::store::Store;
use crate::account::{Focus, Kind};
use crate::api::{Product, ProductSummary, Request, SortField};
use crate::app::columns::{self, CellText, Column};
use crate::app::keymap::Action;
use crate::app::table::TableView;
use crate::app::{Popup, RefreshGroup};
use crate::text;

/// The columns, in the order drawn (the name and price are in the detail too).
pub const COLUMNS: [Column; 6] = [
    Column::number("ID", 0),
    Column::text("Name", 1, 10).cut_in_the_middle(),
    Column::number("Price", 2),
    Column::text("Group", 3, 6),
    Column::number("Created", 4),
    Column::number("Group ID", 5),
];

/// A product's cells, as drawn and searched.
pub fn cells(p: &ProductSummary) -> Vec<CellText> {
    vec![
        CellText::new(p.product_id.to_string()),
        CellText::new(text::or_missing(&p.product_name)),
        CellText::new(text::money(p.price)),
        CellText::new(text::or_missing(&p.group_name)),
        CellText::new(text::date(p.created_at)),
        CellText::new(text::id(p.group_id)),
    ]
}

#[derive(Debug, Default)]
pub struct ProductsTab {
    pub table: TableView,
    /// Shown, hidden or zoomed (`z`).
    pub detail_pane: super::DetailPane,
    /// `None`: the server's own order (`Products`).
    pub sort: Option<SortField>,
    /// The list the table was built from: the current sort's once it came, until then
    /// the last one shown.
    shown: Option<Request>,
}

/// The Products tab over the account's answers (see [`super::services::ServicesView`]).
pub type ProductsView<'a> = super::TabView<'a, ProductsTab>;

impl<'a> super::TabView<'a, ProductsTab> {
    /// The list in the current sort; while it has not come (a sort just chosen), the list
    /// still shown, as what is kept meanwhile.
    pub fn list(self) -> Answer<'a, Vec<ProductSummary>> {
        let asked = self.store.products_answer(&self.tab.list_request());
        let shown = self.shown();
        if asked.value().is_some() || shown.is_none() {
            return asked;
        }
        match asked {
            Answer::Loading { .. } => Answer::Loading { last_good: shown },
            Answer::Failed {
                error,
                at,
                failures,
                ..
            } => Answer::Failed {
                error,
                at,
                last_good: shown,
                failures,
            },
            _ => shown.map_or(asked, |(value, at)| Answer::Ready { value, at }),
        }
    }

    fn shown(self) -> Option<(&'a Vec<ProductSummary>, chrono::DateTime<chrono::Utc>)> {
        let shown = self.tab.shown.as_ref()?;
        self.store.products_answer(shown).stamped()
    }

    /// The rows of the table, in the order the server listed them.
    pub fn rows(self) -> &'a [ProductSummary] {
        self.shown().map(|(v, _)| v.as_slice()).unwrap_or_default()
    }

    pub fn selected(self) -> Option<&'a ProductSummary> {
        self.tab
            .table
            .selected_row()
            .and_then(|i| self.rows().get(i))
    }

    pub fn detail(self, id: u64) -> Answer<'a, Product> {
        self.store.product_answer(id)
    }
}

impl ProductsTab {
    pub fn view<'a>(&'a self, store: &'a Store) -> ProductsView<'a> {
        super::TabView { tab: self, store }
    }

    /// The request that loads the list in the current sort.
    pub fn list_request(&self) -> Request {
        match &self.sort {
            None => Request::Products,
            Some(field) => Request::ProductsOrderedBy(field.clone()),
        }
    }

    /// The next sort field: the first after none, then round the six.
    pub fn cycle_sort(&mut self) {
        let all = SortField::ALL;
        let next = match &self.sort {
            None => 0,
            Some(f) => all
                .iter()
                .position(|x| x == f)
                .map_or(0, |i| (i + 1) % all.len()),
        };
        self.sort = Some(all[next].clone());
    }

    /// The header's words for the sort: `server order` or `sorted by price`.
    pub fn sort_label(&self) -> String {
        match &self.sort {
            None => "server order".to_owned(),
            Some(f) => format!("sorted by {f}"),
        }
    }

    /// Builds the table from the list in the current sort, once it came (a list for a
    /// sort no longer chosen stays unseen). Whether it did.
    pub fn rebuild(&mut self, store: &Store) -> bool {
        let request = self.list_request();
        let Some(rows) = store.products_answer(&request).value() else {
            return false;
        };
        self.shown = Some(request);
        let all: Vec<Vec<CellText>> = rows.iter().map(cells).collect();
        self.table.set_natural(columns::natural_widths(
            &COLUMNS,
            all.iter().map(Vec::as_slice),
        ));
        let keys = all.iter().map(|c| columns::search_key(c)).collect();
        let ids = rows.iter().map(|p| p.product_id).collect();
        self.table.set_rows(keys, ids);
        true
    }
}

impl TabPane for ProductsTab {
    fn kinds(&self) -> &'static [Kind] {
        &[Kind::Products]
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
    /// The server sorts the catalogue: the next order is asked for.
    fn cycle_sort(&mut self, cx: &mut TabCx<'_>) {
        ProductsTab::cycle_sort(self);
        // A sort chosen before shows its last list at once, while it is asked again.
        self.rebuild(cx.store());
        cx.fetch(self.list_request());
    }
    /// `z` cycles the detail pane.
    fn toggle(&mut self, action: Action) {
        if action == Action::CycleDetail {
            self.detail_pane = self.detail_pane.next();
        }
    }
    fn open(&mut self, cx: &mut TabCx<'_>) {
        if let Some(id) = self.table.selected_id() {
            cx.open_popup(Popup::product(id));
        }
    }

    fn refresh(&mut self, cx: &mut TabCx<'_>) {
        cx.intend(Intent::Refresh(RefreshGroup::Products));
    }
    fn focus(&self, focus: &mut Focus) {
        focus.kinds = self.kinds().to_vec();
        focus.requests.push(self.list_request());
        if let Some(id) = self.table.selected_id() {
            focus.requests.push(Request::Product(id));
        }
    }
    fn fetch_for_selection(&mut self, cx: &mut TabCx<'_>) {
        if let Some(id) = self.table.selected_id()
            && !cx.store().product_answer(id).is_requested()
        {
            cx.fetch(Request::Product(id));
        }
    }
    fn command(&self) -> Option<&'static str> {
        Some("products")
    }
}
