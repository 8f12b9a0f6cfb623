//! Keeping static services bound to this machine's public IP (`watch --keep-bound`): a
//! state machine with no I/O and no clock of its own, so a test can run 10,000 checks
//! under a fake clock. The watcher carries out its [`Action`]s (the lookup off the loop,
//! reads and writes through the scheduler) and feeds the outcomes back.
//!
//! Choices where the issue leaves room:
//! - **A check** looks up the public IP every `every` (default 300 s). A failed lookup
//!   (every URL failed) backs off: the next check waits `every` × 2, × 4, … up to
//!   [`MAX_BACKOFF`], and the first success goes back to `every`.
//! - **Read before write**: when the public IP is not the one last seen bound to a
//!   service, the service is read first (`GET /api/service/{id}`); only if its `bindedip`
//!   still differs is the bind-IP write sent. An unchanged IP costs no API request at all,
//!   so a service rebound by hand meanwhile goes unnoticed until the IP changes (that is
//!   the user's choice to respect, not a fault to undo).
//! - **Once per change**: a rebind is attempted at most once per public IP and service.
//!   A refusal (422 `Invalid IPv4 format`, `IP already binded`, 400 `ClientID not found`,
//!   401) is logged and not tried again until the IP changes again.
//! - **A write is never retried blindly**: an answer that was lost (timeout, dropped
//!   connection, 5xx: [`ApiError::outcome_unknown`]) re-reads the service after a backoff;
//!   if the IP is bound by then, the rebind took; if not, it is sent once more. A write the
//!   server did not take on (the account's 429, 503) is tried again after a backoff, as
//!   the server asked nothing to be done.
//! - **`--dry-run`** logs what would be rebound (once per change, like a rebind) and
//!   sends no write; it still reads the service, which is only a read.
//! - **Log lines** go to standard error, one per rebind, refusal, lost answer, lookup
//!   failure and IP change, each starting with the profile (added by the caller).

use crate::api::ApiError;
use chrono::{DateTime, Utc};
use std::collections::BTreeMap;
use std::net::Ipv4Addr;
use std::time::Duration;

/// The longest wait after repeated failures.
pub const MAX_BACKOFF: Duration = Duration::from_secs(3600);

/// What the watcher is asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Look up this machine's public IP; answer with [`KeepBound::on_ip`].
    LookupIp,
    /// Read the service; answer with [`KeepBound::on_read`].
    Read(u64),
    /// Bind `ip` to the service; answer with [`KeepBound::on_rebind`].
    Rebind(u64, Ipv4Addr),
    /// A line for the log (standard error).
    Log(String),
}

#[derive(Clone, Debug, Default)]
struct Track {
    /// The service's `bindedip` as last read or written; `None` until known.
    bound: Option<Option<Ipv4Addr>>,
    reading: bool,
    writing: Option<Ipv4Addr>,
    /// The public IP a rebind (or a dry run) was done or refused for.
    tried: Option<Ipv4Addr>,
    /// The last read answered a question of this (a write may be decided on it).
    fresh: bool,
    /// Consecutive failures of this service's reads and writes, and when to go on.
    failures: u32,
    wait_until: Option<DateTime<Utc>>,
}

impl Track {
    /// One more failure: waits twice as long as the last before going on, and says how long.
    fn back_off(&mut self, every: Duration, now: DateTime<Utc>) -> Duration {
        self.failures += 1;
        let wait = backoff(every, self.failures);
        self.wait_until = Some(later(now, wait));
        wait
    }
}

#[derive(Debug)]
pub struct KeepBound {
    tracks: BTreeMap<u64, Track>,
    every: Duration,
    dry_run: bool,
    next_check: DateTime<Utc>,
    looking: bool,
    lookup_failures: u32,
    public_ip: Option<Ipv4Addr>,
    rebinds: u64,
}

/// `base` × 2^(failures - 1), at most [`MAX_BACKOFF`].
pub fn backoff(base: Duration, failures: u32) -> Duration {
    let factor = 1u32 << failures.saturating_sub(1).min(16);
    base.saturating_mul(factor).min(MAX_BACKOFF.max(base))
}

fn later(now: DateTime<Utc>, after: Duration) -> DateTime<Utc> {
    now + chrono::Duration::from_std(after).unwrap_or(chrono::Duration::MAX / 2)
}

impl KeepBound {
    /// Keeps `services` bound, checking every `every`; the first check is at `now`.
    pub fn new(services: &[u64], every: Duration, dry_run: bool, now: DateTime<Utc>) -> Self {
        Self {
            tracks: services.iter().map(|&id| (id, Track::default())).collect(),
            every,
            dry_run,
            next_check: now,
            looking: false,
            lookup_failures: 0,
            public_ip: None,
            rebinds: 0,
        }
    }

    /// Whether this service is kept bound (its reads and writes are answered here).
    pub fn keeps(&self, service_id: u64) -> bool {
        self.tracks.contains_key(&service_id)
    }

    /// The rebind writes sent so far (dry runs not counted).
    pub fn rebinds(&self) -> u64 {
        self.rebinds
    }

    pub fn public_ip(&self) -> Option<Ipv4Addr> {
        self.public_ip
    }

    /// Whether a rebind of this service is on its way.
    pub fn is_writing(&self, service_id: u64) -> bool {
        self.tracks
            .get(&service_id)
            .is_some_and(|t| t.writing.is_some())
    }

    /// Rebinds sent and not answered yet.
    pub fn rebinds_in_flight(&self) -> usize {
        self.tracks.values().filter(|t| t.writing.is_some()).count()
    }

    /// When [`KeepBound::tick`] has something to do next.
    pub fn next_wakeup(&self) -> Option<DateTime<Utc>> {
        let check = (!self.looking).then_some(self.next_check);
        let waits = self.tracks.values().filter_map(|t| t.wait_until);
        check.into_iter().chain(waits).min()
    }

    /// Time passed: a check when one is due, and the services whose backoff ended.
    pub fn tick(&mut self, now: DateTime<Utc>) -> Vec<Action> {
        let mut out = Vec::new();
        if !self.looking && now >= self.next_check {
            self.looking = true;
            out.push(Action::LookupIp);
        }
        let ids: Vec<u64> = self.tracks.keys().copied().collect();
        for id in ids {
            let track = self.tracks.get_mut(&id).expect("listed");
            if track.wait_until.is_some_and(|w| now >= w) {
                track.wait_until = None;
                self.advance(id, now, &mut out);
            }
        }
        out
    }

    /// The public-IP lookup's answer.
    pub fn on_ip(&mut self, result: Result<Ipv4Addr, String>, now: DateTime<Utc>) -> Vec<Action> {
        self.looking = false;
        let mut out = Vec::new();
        let ip = match result {
            Ok(ip) => ip,
            Err(e) => {
                self.lookup_failures += 1;
                let wait = backoff(self.every, self.lookup_failures + 1);
                self.next_check = later(now, wait);
                out.push(Action::Log(format!(
                    "keep-bound: {e}; next check in {} s",
                    wait.as_secs()
                )));
                return out;
            }
        };
        self.lookup_failures = 0;
        self.next_check = later(now, self.every);
        // The bind rule of the form and `proxydash bind`, whatever the lookups agreed on.
        if let Some(why) = crate::net::addr::bind_refusal(ip) {
            out.push(Action::Log(format!("keep-bound: not bound: {why}")));
            return out;
        }
        match self.public_ip.replace(ip) {
            Some(old) if old != ip => {
                out.push(Action::Log(format!(
                    "keep-bound: this machine's public IP is now {ip} (was {old})"
                )));
            }
            None => out.push(Action::Log(format!(
                "keep-bound: this machine's public IP is {ip}"
            ))),
            _ => {}
        }
        let ids: Vec<u64> = self.tracks.keys().copied().collect();
        for id in ids {
            self.advance(id, now, &mut out);
        }
        out
    }

    /// A read of a kept service came back (whoever asked for it).
    pub fn on_read(
        &mut self,
        service_id: u64,
        result: Result<Option<Ipv4Addr>, &ApiError>,
        now: DateTime<Utc>,
    ) -> Vec<Action> {
        let mut out = Vec::new();
        let every = self.every;
        let Some(track) = self.tracks.get_mut(&service_id) else {
            return out;
        };
        let asked = std::mem::take(&mut track.reading);
        match result {
            Ok(bound) => {
                track.bound = Some(bound);
                track.fresh = asked;
                if asked {
                    self.advance(service_id, now, &mut out);
                }
            }
            Err(e) if asked => {
                let wait = track.back_off(every, now);
                out.push(Action::Log(format!(
                    "keep-bound: cannot read service {service_id}: {e}; again in {} s",
                    wait.as_secs()
                )));
            }
            Err(_) => {}
        }
        out
    }

    /// The answer to a rebind this sent.
    pub fn on_rebind(
        &mut self,
        service_id: u64,
        result: Result<(), &ApiError>,
        now: DateTime<Utc>,
    ) -> Vec<Action> {
        let mut out = Vec::new();
        let every = self.every;
        let Some(track) = self.tracks.get_mut(&service_id) else {
            return out;
        };
        let Some(ip) = track.writing.take() else {
            return out;
        };
        match result {
            Ok(()) => {
                let was = track.bound.flatten();
                track.bound = Some(Some(ip));
                track.failures = 0;
                let was = was.map_or("none".to_owned(), |w| w.to_string());
                out.push(Action::Log(format!(
                    "keep-bound: rebound service {service_id} to {ip} (was {was})"
                )));
            }
            Err(e) if e.outcome_unknown() => {
                // It may have been carried out: forget what was known and read again
                // before anything else is sent.
                track.bound = None;
                track.tried = None;
                let wait = track.back_off(every, now);
                out.push(Action::Log(format!(
                    "keep-bound: the answer to rebinding service {service_id} to {ip} was lost ({e}); reading it again in {} s before anything else",
                    wait.as_secs()
                )));
            }
            Err(e) if e.is_rate_limited() || e.status() == Some(503) => {
                // Not taken on by the server: safe to send again later.
                track.tried = None;
                let wait = track.back_off(every, now);
                out.push(Action::Log(format!(
                    "keep-bound: rebinding service {service_id} to {ip} was not taken on ({e}); again in {} s",
                    wait.as_secs()
                )));
            }
            Err(e) => {
                // The sandbox and live servers say this when another service holds the
                // IP: one address binds one service.
                let why = match e.unprocessable() {
                    Some(crate::api::Unprocessable::IpAlreadyBound) => {
                        format!("{e} (another service holds this IP)")
                    }
                    _ => e.to_string(),
                };
                out.push(Action::Log(format!(
                    "keep-bound: rebinding service {service_id} to {ip} was refused: {why}; not tried again until the IP changes"
                )));
            }
        }
        out
    }

    /// What one service needs now that something changed.
    fn advance(&mut self, id: u64, now: DateTime<Utc>, out: &mut Vec<Action>) {
        let Some(ip) = self.public_ip else { return };
        let dry_run = self.dry_run;
        let track = self.tracks.get_mut(&id).expect("kept");
        let waiting = track.wait_until.is_some_and(|w| now < w);
        if track.reading || track.writing.is_some() || waiting {
            return;
        }
        let fresh = std::mem::take(&mut track.fresh);
        if track.bound == Some(Some(ip)) {
            track.failures = 0;
            return;
        }
        if track.tried == Some(ip) {
            return;
        }
        if !fresh {
            // The write is decided on what the server says now, not on what it said
            // before: read first.
            track.reading = true;
            out.push(Action::Read(id));
            return;
        }
        track.tried = Some(ip);
        let was = track
            .bound
            .flatten()
            .map_or("none".to_owned(), |b| b.to_string());
        if dry_run {
            out.push(Action::Log(format!(
                "keep-bound: would rebind service {id} to {ip} (bound to {was}; --dry-run)"
            )));
        } else {
            track.writing = Some(ip);
            self.rebinds += 1;
            out.push(Action::Rebind(id, ip));
        }
    }
}

#[cfg(test)]
#[path = "keep_bound_tests.rs"]
mod tests;
