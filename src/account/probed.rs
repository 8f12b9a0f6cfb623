//! What the probe's scheduled rounds (`watch --probe-every`, [`crate::probe::round`])
//! found, as the engine keeps it: the last round of each service for the `proxies_dead`
//! rule and the summary, its latencies over every round for the metrics' histogram, and a
//! history row per service and round.
//!
//! Choices:
//! - **The last round is the truth**: a round replaces what the one before said, so a
//!   service no longer probed (it ended, was suspended, left the list) leaves with it. A
//!   round whose judge could not be reached checked nothing and changes nothing: what
//!   was known ages (the metrics' round age says by how much).
//! - **Unknown is not zero**: a service none of whose proxies was checked (its list not
//!   read yet, every entry skipped) has no entry, so no metric and no observation.
//! - **The provider beside the probe**: a dead proxy the provider's network status lists
//!   in neither its error nor its inactive list is "listed as fine"; counted only when
//!   both lists of the service are known.

use super::store::Store;
use crate::alerts::snapshot::ProbeFacts;
use crate::history::Record;
use crate::probe::DeadReason;
use crate::probe::round::{Latencies, Round, ServiceRound};
use chrono::{DateTime, Utc};
use std::collections::HashMap;

/// Dead entries kept by name for the alert's message.
const NAMED: usize = 5;

/// One service's last round.
#[derive(Clone, Debug, PartialEq)]
pub struct ServiceProbe {
    pub service_id: u64,
    /// When the round ended.
    pub at: DateTime<Utc>,
    /// Entries of its list.
    pub listed: usize,
    pub checked: u32,
    pub alive: u32,
    /// Dead by reason, in [`DeadReason::ALL`]'s order.
    pub dead: [u32; 4],
    /// The first dead, `host:port` (sanitised).
    pub dead_named: Vec<String>,
    pub main_reason: Option<DeadReason>,
    /// Of the dead, how many the provider lists as fine (see the module docs).
    pub dead_listed_fine: Option<u32>,
    pub p50_ms: Option<u32>,
    /// Every round's latencies since the engine started (a cumulative histogram).
    pub latencies: Latencies,
}

/// The rounds' state.
#[derive(Clone, Debug, Default)]
pub struct Probed {
    by_service: HashMap<u64, ServiceProbe>,
    /// The last round read every live service's list.
    complete: bool,
}

impl Probed {
    /// Takes a round that ended at `now`; answers its history rows.
    pub fn take(&mut self, round: Round, store: &Store, now: DateTime<Utc>) -> Vec<Record> {
        if round.judge_down {
            return Vec::new();
        }
        let mut last = std::mem::take(&mut self.by_service);
        let mut records = Vec::with_capacity(round.services.len());
        for s in round.services.into_iter().filter(|s| s.checked > 0) {
            let mut latencies = last
                .remove(&s.service_id)
                .map(|p| p.latencies)
                .unwrap_or_default();
            latencies.add(&s.latencies);
            records.push(Record::ProbeRound {
                service_id: s.service_id,
                checked: s.checked,
                alive: s.alive,
                p50_ms: s.p50_ms,
            });
            let probe = service_probe(s, latencies, store, now);
            self.by_service.insert(probe.service_id, probe);
        }
        self.complete = round.complete;
        records
    }

    /// What the `proxies_dead` rule reads of `id`.
    pub fn facts(&self, id: u64) -> Option<ProbeFacts> {
        let p = self.by_service.get(&id)?;
        Some(ProbeFacts {
            checked: p.checked,
            alive: p.alive,
            main_reason: p.main_reason.map(DeadReason::as_str),
            dead: p.dead_named.clone(),
            dead_listed_fine: p.dead_listed_fine,
        })
    }

    /// The last round read every live service's list.
    pub fn complete(&self) -> bool {
        self.complete
    }

    /// Every service probed, by ID.
    pub fn all(&self) -> Vec<ServiceProbe> {
        let mut all: Vec<ServiceProbe> = self.by_service.values().cloned().collect();
        all.sort_by_key(|p| p.service_id);
        all
    }
}

fn service_probe(
    s: ServiceRound,
    latencies: Latencies,
    store: &Store,
    now: DateTime<Utc>,
) -> ServiceProbe {
    let id = s.service_id;
    let dead_listed_fine = match (store.network(id, true), store.network(id, false)) {
        (Some(errors), Some(inactive)) => Some(
            s.dead_entries
                .iter()
                .filter(|d| !errors.contains(&d.host) && !inactive.contains(&d.host))
                .count() as u32,
        ),
        _ => None,
    };
    let dead_named = s
        .dead_entries
        .iter()
        .take(NAMED)
        .map(|d| crate::text::truncate(&crate::text::sanitize(&d.address()), 60).into_owned())
        .collect();
    ServiceProbe {
        service_id: id,
        at: now,
        listed: s.listed,
        checked: s.checked,
        alive: s.alive,
        dead: s.dead,
        main_reason: s.main_reason(),
        dead_named,
        dead_listed_fine,
        p50_ms: s.p50_ms,
        latencies,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Loaded;
    use crate::probe::round::DeadEntry;

    fn round(services: Vec<ServiceRound>, complete: bool) -> Round {
        Round {
            services,
            complete,
            ..Round::default()
        }
    }

    fn dead(host: &str) -> DeadEntry {
        DeadEntry {
            host: host.into(),
            port: 8080,
            reason: DeadReason::Refused,
        }
    }

    #[test]
    fn a_round_replaces_the_last_keeps_latencies_and_compares_with_the_provider() {
        let now = chrono::Utc::now();
        let mut store = Store::default();
        store.answered(&Loaded::NetworkErrors(1, Ok(vec!["10.0.0.1".into()])), now);
        store.answered(&Loaded::NetworkInactive(1, Ok(Vec::new())), now);
        let mut first = ServiceRound {
            service_id: 1,
            listed: 3,
            checked: 3,
            alive: 1,
            dead: [2, 0, 0, 0],
            dead_entries: vec![dead("10.0.0.1"), dead("10.0.0.2")],
            ..ServiceRound::default()
        };
        first
            .latencies
            .observe(std::time::Duration::from_millis(40));
        let never = ServiceRound {
            service_id: 2,
            skipped: 4,
            ..ServiceRound::default()
        };
        let mut probed = Probed::default();
        let rows = probed.take(round(vec![first.clone(), never], true), &store, now);
        assert_eq!(
            rows.len(),
            1,
            "a service none of whose proxies was checked is unknown"
        );
        let facts = probed.facts(1).unwrap();
        assert_eq!(facts.dead_listed_fine, Some(1));
        assert_eq!(facts.dead, ["10.0.0.1:8080", "10.0.0.2:8080"]);
        assert_eq!(facts.main_reason, Some("refused"));
        assert!(probed.facts(2).is_none() && probed.complete());
        // A judge down changes nothing; the next round adds its latencies.
        let down = Round {
            judge_down: true,
            ..Round::default()
        };
        assert!(probed.take(down, &store, now).is_empty());
        assert!(probed.facts(1).is_some());
        probed.take(round(vec![first], false), &store, now);
        assert_eq!(probed.all()[0].latencies.count, 2);
        assert!(!probed.complete());
        probed.take(round(Vec::new(), true), &store, now);
        assert!(probed.all().is_empty(), "a service no longer probed leaves");
    }
}
