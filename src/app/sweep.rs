//! What the views derive from the services' sweeps (which the account engine plans:
//! [`crate::account::planner`]): which services are swept, and when a service's network
//! status was last checked.

use super::App;
use chrono::{DateTime, Utc};

pub use crate::account::planner::is_swept;

impl App {
    /// The listed services that are swept, in the services' order.
    pub(super) fn swept_ids(&self) -> Vec<u64> {
        self.tabs
            .services
            .rows()
            .iter()
            .filter(|s| is_swept(&s.status))
            .map(|s| s.service_id)
            .collect()
    }

    /// When a service's network status was last checked (the older of its two lists),
    /// with an answer or with an error the server gave for it.
    pub fn network_checked_at(&self, id: u64) -> Option<DateTime<Utc>> {
        let e = self.tabs.network.errors.get(&id)?.answered_at()?;
        let i = self.tabs.network.inactive.get(&id)?.answered_at()?;
        Some(e.min(i))
    }

    /// Whether data that arrived at `at` (or never) is due again.
    pub(super) fn is_due(&self, at: Option<DateTime<Utc>>, failed: bool) -> bool {
        let Some(at) = at else { return true };
        let every = self
            .shell
            .settings
            .refresh
            .unwrap_or(super::DEFAULT_REFRESH);
        failed
            || self.now().signed_duration_since(at)
                >= chrono::Duration::from_std(every).unwrap_or(chrono::Duration::MAX)
    }
}
