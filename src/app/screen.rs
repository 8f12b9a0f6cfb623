//! The tabs' tables and their pages (from the view's [`super::geometry`]), and the
//! Services rows' rebuild (their cells read the network status, the usage and the date).

use super::Tab;
use super::geometry::Geometry;
use super::{Tabs, table};
use crate::account::store::Store;
use chrono::NaiveDate;

impl Tabs {
    /// The main table of a tab.
    pub fn table(&self, tab: Tab) -> &table::TableView {
        tab.table(self)
    }

    pub(super) fn table_mut(&mut self, tab: Tab) -> &mut table::TableView {
        tab.table_mut(self)
    }

    /// Tells every table how many rows fit, as the view last reported.
    pub(super) fn set_pages(&mut self, geometry: &Geometry) {
        for tab in Tab::ALL {
            self.table_mut(tab).set_page(geometry.page(tab));
        }
    }

    /// The Services rows' cells read the network status, the usage and today's date.
    pub(super) fn rebuild_services(
        &mut self,
        store: &Store,
        today: NaiveDate,
        geometry: &Geometry,
    ) {
        self.services_dirty = false;
        let ctx = crate::app::tabs::services::CellContext { today, store };
        let rows = store.services().unwrap_or_default();
        self.services.rebuild(rows, &ctx);
        self.set_pages(geometry);
    }
}
