//! The Products tab: the product list (`Products`, or `ProductsOrderedBy(field)` once `s`
//! chose a sort field) and each product's detail (`Product(pid)`, fetched on selection and
//! cached).
//!
//! `s` cycles through the six fields of `SortField::ALL` and wraps around; the server
//! decides the direction. A list that arrives for a sort no longer chosen is dropped.

use crate::api::{Product, ProductSummary, Request, SortField};
use crate::app::remote::Remote;
use crate::app::table::{TableView, search_key};
use std::collections::HashMap;

#[derive(Debug, Default)]
pub struct ProductsTab {
    pub list: Remote<Vec<ProductSummary>>,
    pub table: TableView,
    pub details: HashMap<u64, Remote<Product>>,
    /// `None`: the server's own order (`Products`).
    pub sort: Option<SortField>,
}

impl ProductsTab {
    pub fn rows(&self) -> &[ProductSummary] {
        self.list.value().map(Vec::as_slice).unwrap_or_default()
    }

    pub fn selected(&self) -> Option<&ProductSummary> {
        self.table.selected_row().and_then(|i| self.rows().get(i))
    }

    pub fn detail(&self, id: u64) -> &Remote<Product> {
        static NONE: Remote<Product> = Remote::NotRequested;
        self.details.get(&id).unwrap_or(&NONE)
    }

    /// The request that loads the list in the current sort.
    pub fn list_request(&self) -> Request {
        match &self.sort {
            None => Request::Products,
            Some(field) => Request::ProductsOrderedBy(field.clone()),
        }
    }

    /// Whether a list result answers the current sort.
    pub fn is_current(&self, request: &Request) -> bool {
        *request == self.list_request()
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

    pub fn rebuild(&mut self) {
        let rows = self.list.value().map(Vec::as_slice).unwrap_or_default();
        let keys = rows
            .iter()
            .map(|p| {
                let id = p.product_id.to_string();
                let price = crate::text::money(p.price);
                let group = p.group_id.map(|g| g.to_string()).unwrap_or_default();
                let created = p.created_at.map(|d| d.to_string()).unwrap_or_default();
                search_key([
                    id.as_str(),
                    &crate::text::sanitize(&p.product_name),
                    &price,
                    &group,
                    &crate::text::sanitize(&p.group_name),
                    &created,
                ])
            })
            .collect();
        let ids = rows.iter().map(|p| p.product_id).collect();
        self.table.set_rows(keys, ids);
    }
}
