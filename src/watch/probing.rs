//! `watch --probe-every`: the schedule of the probe's rounds, as a state machine with no
//! I/O and no clock of its own (like [`super::keep_bound`]): the watcher carries out its
//! [`Action`]s (reads through the engine, the round on a task of its own) and feeds the
//! outcomes back. The round itself is [`crate::probe::round`]; what it found goes to the
//! engine (alerts, history, metrics).
//!
//! Choices:
//! - **Which services**: the live ones, `Active` with a known type (a Suspended service's
//!   proxies are stopped by the provider, its status alert says so; Pending ones have none
//!   yet), each from the list the probe reads for its type (`http-auth` for static,
//!   `ppr-http` for rotating: [`crate::probe::targets::default_type`]).
//! - **The IP lists are reads like any other**: through the engine and the account's one
//!   budget, in the sweep's lane, at most [`READS_AT_ONCE`] at a time so the engine's own
//!   sweep is not pushed back by a thousand of them; each is kept between rounds and read
//!   again after [`LIST_TTL`] (after [`LIST_TTL_DOUBTFUL`] when its last round found under
//!   half of it alive: a list refreshed meanwhile must not keep an alert open on proxies
//!   it no longer names). A failed read is tried again after a round, the list last read
//!   kept meanwhile. Nothing is ever sent to the API by the round itself.
//! - **A round never overlaps the next**: the next is due `every` after a round starts,
//!   and only once it ended; one that takes longer than `every` makes them run back to
//!   back, and says so once. A round due while lists are being read waits for them, at
//!   most one `every` (a large account's first lists take a while under its budget); what
//!   is not read by then is left for the next round.
//! - **A round is complete** when it read every live service's list: only then does a
//!   service it does not name count as having nothing to probe (the alert rule is
//!   checked in full).

use crate::alerts::snapshot::ServiceFacts;
use crate::api::{IpList, IpListFormat, ProductType, Request, ServiceStatus};
use crate::probe::round::{Round, Sampled, sample};
use crate::probe::targets;
use chrono::{DateTime, Utc};
use std::collections::{HashMap, HashSet};
use std::time::Duration;

/// IP-list reads of the rounds on their way at once.
pub const READS_AT_ONCE: usize = 2;
/// A list is read again this long after it was read.
pub const LIST_TTL: Duration = Duration::from_secs(6 * 3600);
/// …or this long after, when its last round found under half of it alive.
pub const LIST_TTL_DOUBTFUL: Duration = Duration::from_secs(15 * 60);
/// A read with no answer after this long is taken as failed (an answer lost on the way
/// must not hold one of the [`READS_AT_ONCE`] for good).
pub const READ_GIVE_UP: Duration = Duration::from_secs(10 * 60);

/// `--probe-every`'s settings for one profile.
#[derive(Clone, Debug)]
pub struct ProbeOptions {
    pub every: Duration,
    /// Proxies of a service checked per round.
    pub sample: usize,
    /// The probe's own bounds: concurrency, per-proxy timeout, judge, where it may connect.
    pub config: crate::probe::ProbeConfig,
}

/// What the watcher is asked to do.
#[derive(Debug)]
pub enum Action {
    /// Read an IP list through the engine; answer with [`Prober::on_list`].
    Read(Request),
    /// Run a round of these samples (`complete`: see the module docs); answer with
    /// [`Prober::done`].
    Start(Vec<Sampled>, bool),
    /// A line for the log (standard error).
    Log(String),
}

#[derive(Debug)]
struct Kept {
    list: IpList,
    read_at: DateTime<Utc>,
    /// Where the next round's sample starts.
    offset: usize,
    /// Its last round found under half alive: read again sooner.
    doubtful: bool,
}

#[derive(Debug)]
pub struct Prober {
    every: Duration,
    sample: usize,
    lists: HashMap<u64, Kept>,
    /// Reads on their way, with when each was asked.
    reading: HashMap<u64, DateTime<Utc>>,
    /// When a service's last read failed, and whether that was said.
    failed: HashMap<u64, DateTime<Utc>>,
    next_round: DateTime<Utc>,
    running: bool,
    /// The last tick found no live service: nothing to wake for (the next sweep's tick
    /// sees one that comes), and a round stays due.
    nothing_live: bool,
    rounds: u64,
    said_sampled: bool,
    said_overrun: bool,
}

fn later(at: DateTime<Utc>, after: Duration) -> DateTime<Utc> {
    at + chrono::Duration::from_std(after).unwrap_or(chrono::Duration::days(1))
}

/// The services a round probes, with the list type it reads.
fn live(services: &[ServiceFacts]) -> impl Iterator<Item = (u64, &ProductType)> {
    services
        .iter()
        .filter_map(|s| match (&s.status, &s.product_type) {
            (ServiceStatus::Active, Some(t @ (ProductType::Fpr | ProductType::Ppr))) => {
                Some((s.id, t))
            }
            _ => None,
        })
}

impl Prober {
    /// Rounds every `every`, `sample` proxies a service at most; the first is due at `now`.
    pub fn new(every: Duration, sample: usize, now: DateTime<Utc>) -> Self {
        Self {
            every,
            sample: sample.max(1),
            lists: HashMap::new(),
            reading: HashMap::new(),
            failed: HashMap::new(),
            next_round: now,
            running: false,
            nothing_live: true,
            rounds: 0,
            said_sampled: false,
            said_overrun: false,
        }
    }

    /// Rounds started so far.
    pub fn rounds(&self) -> u64 {
        self.rounds
    }

    pub fn is_running(&self) -> bool {
        self.running
    }

    /// When [`Prober::tick`] has something to do by itself: the next round (at once when
    /// it is due and no list is awaited), or the end of a due round's wait for its lists;
    /// nothing while a round runs (its end wakes it).
    pub fn next_wakeup(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        if self.running || self.nothing_live {
            return None;
        }
        Some(if now < self.next_round || self.reading.is_empty() {
            self.next_round
        } else {
            later(self.next_round, self.every)
        })
    }

    /// Time passed or the services changed: lists to read, and a round when one is due.
    pub fn tick(&mut self, now: DateTime<Utc>, services: &[ServiceFacts]) -> Vec<Action> {
        let live: Vec<(u64, ProductType)> = live(services).map(|(id, t)| (id, t.clone())).collect();
        let ids: HashSet<u64> = live.iter().map(|(id, _)| *id).collect();
        self.lists.retain(|id, _| ids.contains(id));
        self.failed.retain(|id, _| ids.contains(id));
        self.nothing_live = live.is_empty();
        let mut out = self.reads(now, &live);
        if self.running || now < self.next_round || self.nothing_live {
            return out;
        }
        let waiting = live.iter().any(|(id, _)| self.reading.contains_key(id));
        if waiting && now < later(self.next_round, self.every) {
            return out;
        }
        let mut batch = Vec::new();
        for (id, _) in &live {
            if let Some(kept) = self.lists.get_mut(id) {
                batch.push(sampled(*id, kept, self.sample));
            }
        }
        let complete = batch.len() == live.len();
        self.next_round = later(now, self.every);
        if batch.is_empty() {
            return out;
        }
        if let Some(long) = batch.iter().find(|s| s.listed > self.sample)
            && !std::mem::replace(&mut self.said_sampled, true)
        {
            out.push(Action::Log(format!(
                "probe: lists longer than {n} are checked {n} proxies a round, in turn (service {} lists {}: each entry every {} rounds)",
                long.service_id,
                long.listed,
                long.listed.div_ceil(self.sample),
                n = self.sample,
            )));
        }
        self.running = true;
        self.rounds += 1;
        out.push(Action::Start(batch, complete));
        out
    }

    /// The reads to send now: lists missing or stale, a few at a time.
    fn reads(&mut self, now: DateTime<Utc>, live: &[(u64, ProductType)]) -> Vec<Action> {
        let mut out = Vec::new();
        let lost: Vec<u64> = self
            .reading
            .iter()
            .filter(|(_, asked)| now >= later(**asked, READ_GIVE_UP))
            .map(|(id, _)| *id)
            .collect();
        for id in lost {
            self.reading.remove(&id);
            self.failed.insert(id, now);
        }
        for (id, product_type) in live {
            if self.reading.len() >= READS_AT_ONCE {
                break;
            }
            let fresh = self.lists.get(id).is_some_and(|k| {
                let ttl = if k.doubtful {
                    LIST_TTL_DOUBTFUL
                } else {
                    LIST_TTL
                };
                now < later(k.read_at, ttl)
            });
            let resting = self
                .failed
                .get(id)
                .is_some_and(|at| now < later(*at, self.every));
            if fresh || resting || self.reading.contains_key(id) {
                continue;
            }
            self.reading.insert(*id, now);
            let list_type = targets::default_type(product_type);
            out.push(Action::Read(Request::ip_list(
                *id,
                list_type,
                IpListFormat::Txt,
            )));
        }
        out
    }

    /// A list this asked for came back (`Err`: why it could not be read).
    pub fn on_list(
        &mut self,
        service_id: u64,
        result: Result<&IpList, String>,
        now: DateTime<Utc>,
    ) -> Vec<Action> {
        if self.reading.remove(&service_id).is_none() {
            return Vec::new();
        }
        match result {
            Ok(list) => {
                self.failed.remove(&service_id);
                let offset = self.lists.get(&service_id).map_or(0, |k| k.offset);
                let kept = Kept {
                    list: list.clone(),
                    read_at: now,
                    offset,
                    doubtful: false,
                };
                self.lists.insert(service_id, kept);
                Vec::new()
            }
            Err(why) => {
                let first = self.failed.insert(service_id, now).is_none();
                let kept = if self.lists.contains_key(&service_id) {
                    "; the list read before is probed meanwhile"
                } else {
                    ""
                };
                first
                    .then(|| {
                        Action::Log(format!(
                            "probe: cannot read the IP list of service {service_id} ({why}); again after a round{kept}"
                        ))
                    })
                    .into_iter()
                    .collect()
            }
        }
    }

    /// The round ended: the next may start when due.
    pub fn done(&mut self, round: &Round) -> Vec<Action> {
        self.running = false;
        for s in &round.services {
            if let Some(kept) = self.lists.get_mut(&s.service_id) {
                kept.doubtful = s.checked > 0 && s.alive * 2 < s.checked;
            }
        }
        let mut out = Vec::new();
        if round.took > self.every && !std::mem::replace(&mut self.said_overrun, true) {
            out.push(Action::Log(format!(
                "probe: a round took {} s, longer than --probe-every ({} s): rounds run back to back",
                round.took.as_secs(),
                self.every.as_secs()
            )));
        }
        out
    }
}

/// The sample of `kept`'s list a round checks, moving its offset on.
fn sampled(service_id: u64, kept: &mut Kept, cap: usize) -> Sampled {
    let mut all = targets::from_list(&kept.list, None);
    let (picked, next) = sample(all.len(), cap, kept.offset);
    kept.offset = next;
    let listed = all.len();
    let targets = if picked.len() == listed {
        all
    } else {
        // `picked` holds distinct indices, in the order to check them.
        let mut slots: Vec<Option<crate::probe::ProxyTarget>> = all.drain(..).map(Some).collect();
        picked
            .iter()
            .filter_map(|i| slots.get_mut(*i)?.take())
            .collect()
    };
    Sampled {
        service_id,
        listed,
        targets,
    }
}

#[cfg(test)]
#[path = "probing_tests.rs"]
mod tests;
