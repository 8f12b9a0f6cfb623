//! Planning the per-service sweeps: which services, in which order, and when their data is
//! due again. The scheduler sends them in the order asked, after everything the user waits
//! on, so the order here is the order of the budget's spending.
//!
//! Choices:
//! - `--refresh` is the age at which a service's data is due again: a sweep (every refresh
//!   of the services list) asks only for data older than that, never asked, or failed; `r`
//!   on the Network or Usage tab asks for all of it.
//! - Order: Active services first, then the others; within each, the oldest data first
//!   (never checked counts as oldest), so a sweep cut short by the budget resumes where
//!   the data is stalest.
//! - Terminated, Cancelled and Fraud services are not swept at all (their proxies are
//!   gone); the Network tab counts only the services it sweeps. Their detail and usage
//!   are still read when the user selects them.
//! - The tab on screen goes first: on the Usage tab its calls are asked before the
//!   Network tab's, everywhere else after them.
//! - A service is checked once both its lists are answered, with the addresses or with an
//!   error: a service whose network status cannot be had (the server answers 400, 404 or
//!   422 for it, e.g. its client is gone) counts as checked with an error and is asked
//!   again when its data is due, like any other; only a failure that says nothing about the
//!   service (no answer, a 5xx, a timeout) is asked again at the next sweep. Otherwise a
//!   sweep with one such service never ends, and its two requests would be spent on every
//!   refresh.
//! - A service's type costs one request, made once: `Rate(id)` while the type is unknown
//!   (an answer means ppr, the generic 422 means fpr). (The detail tells it too, but is
//!   read only for the services looked at.) The Usage tab shows the rate and statistics of
//!   the selected service only, so only those are refreshed; the others' are read when
//!   selected.

use super::remote::Remote;
use super::tabs::Tab;
use super::{App, Command};
use crate::api::{ProductType, Request, ServiceStatus};
use chrono::{DateTime, Utc};

/// Whether a service of this status is swept.
pub fn is_swept(status: &ServiceStatus) -> bool {
    !matches!(
        status,
        ServiceStatus::Terminated | ServiceStatus::Cancelled | ServiceStatus::Fraud
    )
}

/// An error the server gave about this service (it cannot be checked), not a failure to
/// reach the server: asked again when due, not at every sweep.
fn is_about_the_service(e: &crate::api::ApiError) -> bool {
    matches!(e.status(), Some(400 | 404 | 422))
}

impl App {
    /// The listed services that are swept, in the services' order.
    pub(super) fn swept_ids(&self) -> Vec<u64> {
        self.services
            .rows()
            .iter()
            .filter(|s| is_swept(&s.status))
            .map(|s| s.service_id)
            .collect()
    }

    /// When a service's network status was last checked (the older of its two lists),
    /// with an answer or with an error the server gave for it.
    pub fn network_checked_at(&self, id: u64) -> Option<DateTime<Utc>> {
        let e = self.network.errors.get(&id)?.answered_at()?;
        let i = self.network.inactive.get(&id)?.answered_at()?;
        Some(e.min(i))
    }

    /// Whether data that arrived at `at` (or never) is due again.
    pub(super) fn is_due(&self, at: Option<DateTime<Utc>>, failed: bool) -> bool {
        let Some(at) = at else { return true };
        let every = self.settings.refresh.unwrap_or(super::DEFAULT_REFRESH);
        failed
            || self.now().signed_duration_since(at)
                >= chrono::Duration::from_std(every).unwrap_or(chrono::Duration::MAX)
    }

    /// Asks for the per-service data that is due (`force`: all of it), in sweep order: of
    /// the Network tab, the Usage tab, or (`None`) both.
    pub(super) fn plan_sweeps(&mut self, force: bool, only: Option<Tab>, out: &mut Vec<Command>) {
        let mut ids = self.swept_ids();
        let active = |app: &App, id: u64| {
            app.services
                .get(id)
                .is_some_and(|s| s.status == ServiceStatus::Active)
        };
        // Oldest first; never checked (None) sorts before any time.
        ids.sort_by_cached_key(|id| (!active(self, *id), self.network_checked_at(*id)));
        let network = only.is_none_or(|t| t == Tab::Network);
        let usage = only.is_none_or(|t| t == Tab::Usage);
        if usage && self.tab == Tab::Usage {
            self.sweep_usage(&ids, force, out);
        }
        if network {
            self.sweep_network(&ids, force, out);
        }
        if usage && self.tab != Tab::Usage {
            self.sweep_usage(&ids, force, out);
        }
    }

    fn sweep_network(&mut self, ids: &[u64], force: bool, out: &mut Vec<Command>) {
        for &id in ids {
            for request in [Request::NetworkErrors(id), Request::NetworkInactive(id)] {
                let remote = match request {
                    Request::NetworkErrors(_) => self.network.errors.get(&id),
                    _ => self.network.inactive.get(&id),
                };
                let at = remote.and_then(Remote::answered_at);
                let failed = remote
                    .and_then(Remote::error)
                    .is_some_and(|e| !is_about_the_service(e));
                if force || self.is_due(at, failed) {
                    self.fetch(request, out);
                }
            }
        }
    }

    /// The Usage tab lists the ppr services and shows the rate and statistics of the
    /// selected one only: the sweep probes the type of each service once (types do not
    /// change) and refreshes the usage of the selected service when it is due.
    fn sweep_usage(&mut self, ids: &[u64], force: bool, out: &mut Vec<Command>) {
        let selected = if self.tab == Tab::Usage {
            self.usage.selected()
        } else {
            None
        };
        for &id in ids {
            match self.service_type(id) {
                Some(ProductType::Fpr) => {}
                Some(_) if Some(id) == selected => {
                    let rate = self.usage.rate_of(id);
                    if force || self.is_due(rate.stamped().map(|(_, at)| at), false) {
                        self.fetch(Request::Rate(id), out);
                    }
                    let stats = self.usage.stats_of(id);
                    if force || self.is_due(stats.stamped().map(|(_, at)| at), false) {
                        self.fetch(Request::Stats(id), out);
                    }
                }
                Some(_) => {}
                // The type probe: one request.
                None => {
                    let rate = self.usage.rate_of(id);
                    if rate.value().is_none() && !rate.is_loading() {
                        self.fetch(Request::Rate(id), out);
                    }
                }
            }
        }
    }
}
