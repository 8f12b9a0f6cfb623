//! A scheduled round (`watch --probe-every`): a sample of each live service's proxies
//! checked in one run of the probe, counted per service as the results come, so a round
//! of many services holds counts, never every result.
//!
//! Choices:
//! - **One run for every service**: the judge is asked directly once and the TLS
//!   configuration built once ([`super::runner::prepare`]), then every sampled proxy of
//!   every service goes through the same bounded checks ([`super::runner::check_all`]:
//!   the probe's concurrency, its ramp and its per-proxy timeout). A judge that cannot be
//!   reached checks nothing: the round says so ([`Round::judge_down`]) and counts no
//!   proxy dead.
//! - **Sampling in turn** ([`sample`]): a list longer than the cap is checked `cap` entries
//!   a round from where the last round stopped, wrapping, so every entry is checked within
//!   `⌈listed / cap⌉` rounds and a round costs the same whatever the list's length.
//! - **Latency** is the probe's own ([`super::ProbeResult::latency`]: the check after its
//!   TCP connect), in [`LATENCY_BUCKETS`], which span a loopback proxy (milliseconds) to
//!   the probe's longest timeout.
//! - Stopping: dropping [`run`]'s future ends every check at once (`SIGTERM` ends a round).

use super::runner::{ProbeEvent, check_all, prepare};
use super::{DeadReason, ProbeConfig, ProbeResult, ProxyTarget, Verdict};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// The upper bounds, in seconds, of the latency histogram's buckets (`+Inf` after them).
pub const LATENCY_BUCKETS: [f64; 9] = [0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

/// Dead entries of a service kept by name (for the alert's message and the comparison
/// with the provider's lists); the rest are counted.
pub const DEAD_KEPT: usize = 1_000;

/// Latencies counted in [`LATENCY_BUCKETS`]: what a Prometheus histogram carries.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Latencies {
    /// Per bucket (not cumulative), the last one `+Inf`.
    pub counts: [u64; LATENCY_BUCKETS.len() + 1],
    /// Seconds, summed.
    pub sum: f64,
    pub count: u64,
}

impl Latencies {
    pub fn observe(&mut self, latency: Duration) {
        let secs = latency.as_secs_f64();
        let slot = LATENCY_BUCKETS
            .iter()
            .position(|upper| secs <= *upper)
            .unwrap_or(LATENCY_BUCKETS.len());
        self.counts[slot] += 1;
        self.sum += secs;
        self.count += 1;
    }

    /// `other`'s counts added to these (a service's counts over rounds).
    pub fn add(&mut self, other: &Latencies) {
        for (mine, theirs) in self.counts.iter_mut().zip(other.counts) {
            *mine += theirs;
        }
        self.sum += other.sum;
        self.count += other.count;
    }

    /// `(upper bound, count in it)` per bucket, `+Inf` last, as an exposition encodes them.
    pub fn buckets(&self) -> Vec<(f64, u64)> {
        LATENCY_BUCKETS
            .iter()
            .copied()
            .chain([f64::INFINITY])
            .zip(self.counts)
            .collect()
    }
}

/// Which entries of a list of `listed` a round checks, at most `cap`, from `offset` on
/// (wrapping), and where the next round starts.
pub fn sample(listed: usize, cap: usize, offset: usize) -> (Vec<usize>, usize) {
    if listed <= cap {
        return ((0..listed).collect(), 0);
    }
    let start = offset % listed;
    let picked = (0..cap).map(|k| (start + k) % listed).collect();
    (picked, (start + cap) % listed)
}

/// One service's part of a round: its sample of proxies, and how many its list holds.
#[derive(Clone, Debug)]
pub struct Sampled {
    pub service_id: u64,
    pub listed: usize,
    pub targets: Vec<ProxyTarget>,
}

/// A dead proxy of a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeadEntry {
    pub host: String,
    pub port: u16,
    pub reason: DeadReason,
}

impl DeadEntry {
    /// `host:port`.
    pub fn address(&self) -> String {
        ProxyTarget {
            host: self.host.clone(),
            port: self.port,
            scheme: super::Scheme::Http,
            login: None,
            password: None,
        }
        .address()
    }
}

/// What one service's part of a round found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ServiceRound {
    pub service_id: u64,
    /// Entries of its list.
    pub listed: usize,
    /// Proxies contacted: alive and dead.
    pub checked: u32,
    pub alive: u32,
    /// Dead by reason, in [`DeadReason::ALL`]'s order.
    pub dead: [u32; 4],
    /// The dead ones, in the order they were found (at most [`DEAD_KEPT`]).
    pub dead_entries: Vec<DeadEntry>,
    /// Not contacted (a documentation address, a private one not allowed, no port), and
    /// the first reason why.
    pub skipped: u32,
    pub skip_why: Option<String>,
    pub latencies: Latencies,
    /// The median latency of the alive ones, in whole milliseconds.
    pub p50_ms: Option<u32>,
}

impl ServiceRound {
    fn new(service_id: u64, listed: usize) -> Self {
        Self {
            service_id,
            listed,
            ..Self::default()
        }
    }

    /// The reason most of the dead died of (the first in [`DeadReason::ALL`] on a tie).
    pub fn main_reason(&self) -> Option<DeadReason> {
        let most = *self.dead.iter().max()?;
        if most == 0 {
            return None;
        }
        let at = self.dead.iter().position(|n| *n == most)?;
        Some(DeadReason::ALL[at])
    }

    fn take(&mut self, result: ProbeResult, alive_ms: &mut Vec<u32>) {
        match result.verdict {
            Verdict::Alive => {
                self.checked += 1;
                self.alive += 1;
                if let Some(latency) = result.latency {
                    self.latencies.observe(latency);
                    alive_ms.push(latency.as_millis().min(u128::from(u32::MAX)) as u32);
                }
            }
            Verdict::Dead(reason, _) => {
                self.checked += 1;
                self.dead[reason.index()] += 1;
                if self.dead_entries.len() < DEAD_KEPT {
                    self.dead_entries.push(DeadEntry {
                        host: result.target.host,
                        port: result.target.port,
                        reason,
                    });
                }
            }
            Verdict::Skipped(why) | Verdict::NotChecked(why) => {
                self.skipped += 1;
                self.skip_why.get_or_insert(why);
            }
        }
    }
}

/// What a round found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Round {
    /// One entry per service sampled, in the order given.
    pub services: Vec<ServiceRound>,
    /// What the user should know about the whole round (the judge, the target's URL).
    pub note: Option<String>,
    /// The judge could not be asked: nothing was checked, and nothing is known.
    pub judge_down: bool,
    /// How long the round took.
    pub took: Duration,
    /// Set by whoever scheduled it: the round read every live service's list, so a
    /// service it does not name had nothing to probe.
    pub complete: bool,
}

/// Checks every service's sample (see the module docs).
pub async fn run(services: Vec<Sampled>, config: &ProbeConfig) -> Round {
    let started = tokio::time::Instant::now();
    let (ctx, note) = prepare(config).await;
    if ctx.judge_down {
        return Round {
            note,
            judge_down: true,
            took: started.elapsed(),
            ..Round::default()
        };
    }
    let mut found: Vec<ServiceRound> = services
        .iter()
        .map(|s| ServiceRound::new(s.service_id, s.listed))
        .collect();
    // Which service each proxy of the one run belongs to.
    let mut owner = Vec::new();
    let mut flat = Vec::new();
    for (slot, s) in services.into_iter().enumerate() {
        for target in s.targets {
            flat.push((owner.len(), target));
            owner.push(slot);
        }
    }
    let mut alive_ms: Vec<Vec<u32>> = vec![Vec::new(); found.len()];
    let (tx, mut rx) = mpsc::unbounded_channel();
    let checks = async move {
        check_all(Arc::new(ctx), flat, config.concurrency, &tx).await;
    };
    let collect = async {
        while let Some(event) = rx.recv().await {
            if let ProbeEvent::Checked { index, result } = event
                && let Some(&slot) = owner.get(index)
            {
                found[slot].take(result, &mut alive_ms[slot]);
            }
        }
    };
    tokio::join!(checks, collect);
    for (service, mut ms) in found.iter_mut().zip(alive_ms) {
        ms.sort_unstable();
        service.p50_ms = (!ms.is_empty()).then(|| ms[(ms.len() - 1) / 2]);
    }
    Round {
        services: found,
        note,
        judge_down: false,
        took: started.elapsed(),
        complete: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_list_is_checked_in_turn_and_every_entry_within_its_rounds() {
        assert_eq!(sample(3, 5, 7), (vec![0, 1, 2], 0));
        let mut offset = 0;
        let mut seen = vec![0; 7];
        for _ in 0..3 {
            let (picked, next) = sample(7, 3, offset);
            assert_eq!(picked.len(), 3);
            for i in picked {
                seen[i] += 1;
            }
            offset = next;
        }
        // ⌈7 / 3⌉ = 3 rounds see every entry; the ninth check wraps to the start.
        assert!(seen.iter().all(|n| *n >= 1), "{seen:?}");
        assert_eq!(seen.iter().sum::<usize>(), 9);
        // A list that shrank under the offset starts within it.
        assert_eq!(sample(4, 2, 9).0, vec![1, 2]);
    }

    #[test]
    fn latencies_fall_in_their_buckets_and_add_up() {
        let mut l = Latencies::default();
        l.observe(Duration::from_millis(20));
        l.observe(Duration::from_millis(300));
        l.observe(Duration::from_secs(60));
        let buckets = l.buckets();
        assert_eq!(buckets.len(), LATENCY_BUCKETS.len() + 1);
        assert_eq!(buckets[0], (0.025, 1));
        assert_eq!(buckets[4], (0.5, 1));
        assert_eq!(buckets.last().copied(), Some((f64::INFINITY, 1)));
        let mut twice = l.clone();
        twice.add(&l);
        assert_eq!(twice.count, 6);
        assert!((twice.sum - 2.0 * 60.32).abs() < 1e-9);
    }

    #[test]
    fn the_main_reason_is_the_commonest() {
        let mut s = ServiceRound::new(1, 10);
        assert_eq!(s.main_reason(), None);
        s.dead = [1, 3, 3, 0];
        assert_eq!(s.main_reason(), Some(DeadReason::AuthFailed));
    }
}
