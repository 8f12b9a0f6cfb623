//! The tabs' tables and their pages (from the view's [`super::geometry`]), and the
//! Services rows' rebuild (their cells read the network status, the usage and the date).

use super::geometry::Geometry;
use super::tabs::Tab;
use super::{Tabs, table};
use chrono::NaiveDate;

/// Accounts up to this many services have their Services rows rebuilt with every change.
pub const EAGER_ROWS: usize = 5_000;

impl Tabs {
    /// The main table of a tab.
    pub fn table(&self, tab: Tab) -> &table::TableView {
        match tab {
            Tab::Services => &self.services.table,
            Tab::Products => &self.products.table,
            Tab::Billing => &self.billing.table,
            Tab::Network => &self.network.table,
            Tab::Usage => &self.usage.table,
            Tab::Alerts => &self.alerts.table,
        }
    }

    pub(super) fn table_mut(&mut self, tab: Tab) -> &mut table::TableView {
        match tab {
            Tab::Services => &mut self.services.table,
            Tab::Products => &mut self.products.table,
            Tab::Billing => &mut self.billing.table,
            Tab::Network => &mut self.network.table,
            Tab::Usage => &mut self.usage.table,
            Tab::Alerts => &mut self.alerts.table,
        }
    }

    /// Tells every table how many rows fit, as the view last reported.
    pub(super) fn set_pages(&mut self, geometry: &Geometry) {
        for tab in Tab::ALL {
            self.table_mut(tab).set_page(geometry.page(tab));
        }
    }

    /// The Services rows' cells read the network status, the usage and today's date.
    pub(super) fn rebuild_services(&mut self, today: NaiveDate, geometry: &Geometry) {
        self.services_dirty = false;
        let ctx = crate::app::tabs::services::CellContext {
            today,
            network: &self.network,
            usage: &self.usage,
        };
        self.services.rebuild(&ctx);
        self.set_pages(geometry);
    }
}
