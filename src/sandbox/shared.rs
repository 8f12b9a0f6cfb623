//! The state every request to the sandbox shares: its data, the request log, the faults
//! and the latency asked for, and the parts the middleware reads (authentication, the
//! rate limit, the public-IP stub, the proxy fixtures).

use super::RecordedRequest;
use super::auth::AuthConfig;
use super::faults::{FaultKind, FaultSpec};
use super::myip::PublicIp;
use super::proxies::ProxyFarm;
use super::ratelimit::Limiter;
use super::state::Store;
use chrono::{DateTime, TimeDelta, Utc};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;
use tokio::sync::watch;

pub struct Shared {
    pub(super) store: Mutex<Store>,
    pub auth: Arc<AuthConfig>,
    pub throttle: TimeDelta,
    pub rate_limit: Arc<Limiter>,
    pub(super) latency: Mutex<Duration>,
    pub(super) faults: Mutex<Option<(FaultSpec, fastrand::Rng)>>,
    pub(super) log: Mutex<Vec<RecordedRequest>>,
    pub(super) stop: watch::Receiver<bool>,
    /// `--proxies`: the fixtures the IP lists point at.
    pub farm: std::sync::OnceLock<ProxyFarm>,
    /// What `GET /myip` answers (see [`super::myip`]).
    pub public_ip: Arc<PublicIp>,
    /// The wall time at the start and tokio's instant then: see [`Shared::now`].
    pub(super) started: (DateTime<Utc>, tokio::time::Instant),
}

/// A poisoned lock only means another request panicked mid-way; the data is still the
/// best there is, and the server must keep answering.
pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Shared {
    /// The sandbox's "now" (orders' dates, the IP-list throttle, today's usage): the wall
    /// time at its start plus tokio's time since. A test on tokio's paused clock steps past
    /// the throttle's five minutes by advancing that clock, not by waiting five minutes;
    /// on a running clock it is the wall time.
    pub fn now(&self) -> DateTime<Utc> {
        let (wall, at) = self.started;
        wall + TimeDelta::from_std(at.elapsed()).unwrap_or(TimeDelta::MAX)
    }

    pub fn store(&self) -> MutexGuard<'_, Store> {
        lock(&self.store)
    }

    pub fn latency(&self) -> Duration {
        *lock(&self.latency)
    }

    /// Appends to the log; returns the entry's index for [`Self::set_status`].
    pub fn record(&self, entry: RecordedRequest) -> usize {
        let mut log = lock(&self.log);
        log.push(entry);
        log.len() - 1
    }

    pub fn set_status(&self, index: usize, status: u16) {
        if let Some(entry) = lock(&self.log).get_mut(index) {
            entry.status = status;
        }
    }

    /// The fault for this request, if any, with the `slow` delay of the spec.
    pub fn draw_fault(&self, method: &str, path: &str) -> Option<(FaultKind, Duration)> {
        let mut faults = lock(&self.faults);
        let (spec, rng) = faults.as_mut()?;
        if !spec.applies_to(method, path) {
            return None;
        }
        spec.pick(rng).map(|kind| (kind, spec.slow))
    }

    /// Sleeps `d`, or less if the sandbox is stopping (so no sleeper holds up shutdown).
    pub async fn pause(&self, d: Duration) {
        if d.is_zero() {
            return;
        }
        tokio::select! {
            _ = tokio::time::sleep(d) => {}
            _ = self.until_shutdown() => {}
        }
    }

    pub async fn until_shutdown(&self) {
        let mut stop = self.stop.clone();
        // An error means the handle is gone: that is a shutdown too.
        let _ = stop.wait_for(|stopping| *stopping).await;
    }
}
