//! The Services tab: the service list (`Services`), each service's detail (`Service(id)`,
//! cached, refreshed with the list) and whether the password is shown.

use crate::api::{ProductType, Service, ServiceSummary};
use crate::app::remote::Remote;
use crate::app::table::{TableView, search_key};
use std::collections::HashMap;

#[derive(Debug, Default)]
pub struct ServicesTab {
    pub list: Remote<Vec<ServiceSummary>>,
    pub table: TableView,
    pub details: HashMap<u64, Remote<Service>>,
    pub show_password: bool,
    /// Service ID → position in the list, so per-service results find their row in O(1).
    index: HashMap<u64, usize>,
}

impl ServicesTab {
    /// The services on screen (the last good list), in server order.
    pub fn rows(&self) -> &[ServiceSummary] {
        self.list.value().map(Vec::as_slice).unwrap_or_default()
    }

    pub fn ids(&self) -> Vec<u64> {
        self.rows().iter().map(|s| s.service_id).collect()
    }

    pub fn selected(&self) -> Option<&ServiceSummary> {
        self.table.selected_row().and_then(|i| self.rows().get(i))
    }

    pub fn detail(&self, id: u64) -> &Remote<Service> {
        static NONE: Remote<Service> = Remote::NotRequested;
        self.details.get(&id).unwrap_or(&NONE)
    }

    /// The product type of a service, once its detail has said it.
    pub fn product_type(&self, id: u64) -> Option<&ProductType> {
        self.details
            .get(&id)
            .and_then(Remote::value)
            .map(|s| &s.product_type)
    }

    pub fn knows(&self, id: u64) -> bool {
        self.index.contains_key(&id)
    }

    /// The listed service with this ID.
    pub fn get(&self, id: u64) -> Option<&ServiceSummary> {
        self.index.get(&id).and_then(|&i| self.rows().get(i))
    }

    /// Rebuilds the table's search keys from the list (after it changed).
    pub fn rebuild(&mut self) {
        let rows = self.list.value().map(Vec::as_slice).unwrap_or_default();
        let keys = rows
            .iter()
            .map(|s| {
                let id = s.service_id.to_string();
                let due = s.nextduedate.map(|d| d.to_string()).unwrap_or_default();
                let order = s.orderid.map(|o| o.to_string()).unwrap_or_default();
                search_key([
                    id.as_str(),
                    &crate::text::sanitize(&s.product_name),
                    s.status.as_str(),
                    &due,
                    &order,
                ])
            })
            .collect();
        let ids = rows.iter().map(|s| s.service_id).collect();
        self.index = rows
            .iter()
            .enumerate()
            .map(|(i, s)| (s.service_id, i))
            .collect();
        self.table.set_rows(keys, ids);
    }
}
