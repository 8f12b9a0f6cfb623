//! What the book remembers of first sightings, for the baseline and the ending notice:
//! which rules have been checked in full so far, which keys were seen fine before their
//! rule was, and which services were seen live.
//!
//! - **Baseline**: a problem is part of the baseline when its key was never seen fine and
//!   its rule was never checked in full before the sweep that first saw it: it was
//!   already there the first time its data was read (what was true when watching
//!   started). A key seen fine before, or a subject that appears after its rule was
//!   checked (a new invoice, a new service), is a change. On a large account whose first
//!   round of reads takes longer than a sweep, a service's network status read for the
//!   first time at minute 20 is still baseline: it was never seen before.
//! - **Ending**: a service seen live (any status that has not ended) that is then seen
//!   ended gets one notice; one already ended when first seen gets none.
//!
//! Memory stays proportional to the account: the keys seen fine are kept only for rules
//! not yet checked in full, the services seen live only for `service_status`.

use crate::alerts::{AlertKey, Observation, Rule, Subject};
use std::collections::{HashMap, HashSet};

#[derive(Clone, Debug, Default)]
pub(super) struct Sight {
    /// Sweeps in which each rule was checked in full (every subject's data known).
    checked: HashMap<Rule, u32>,
    /// Keys seen fine while their rule had not been checked in full.
    fine_before: HashSet<AlertKey>,
    /// Services seen live by `service_status` (whose ending is news).
    live: HashSet<u64>,
}

impl Sight {
    /// Whether a problem first seen now for `key` is part of the baseline. The account's
    /// own state (unreachable, failing, credentials rejected, a kind of data failing) is
    /// never: it is how things are now, and what someone waits on goes at once.
    pub(super) fn is_baseline(&self, key: &AlertKey) -> bool {
        !key.rule.reads_the_connection()
            && !self.checked.contains_key(&key.rule)
            && !self.fine_before.contains(key)
    }

    /// Sweeps in which `rule` was checked in full.
    pub(super) fn checked(&self, rule: Rule) -> u32 {
        self.checked.get(&rule).copied().unwrap_or(0)
    }

    /// `key`'s subject ended: whether that is news (it was seen live). Forgets it, so the
    /// ending is news once.
    pub(super) fn ended(&mut self, key: &AlertKey) -> bool {
        match (key.rule, key.subject) {
            (Rule::ServiceStatus, Subject::Service(id)) => self.live.remove(&id),
            _ => false,
        }
    }

    /// After a sweep: what it saw and which rules it checked in full.
    pub(super) fn note(&mut self, observations: &[Observation]) {
        let mut checked_now = HashSet::new();
        for o in observations {
            match o {
                Observation::Covered(rule) => {
                    checked_now.insert(*rule);
                }
                Observation::Seen { key, level, .. } => {
                    // An alert about the account or a kind of data is its rule's whole
                    // subject: seen is checked in full.
                    if matches!(key.subject, Subject::Account | Subject::Data(_)) {
                        checked_now.insert(key.rule);
                    }
                    if let (Rule::ServiceStatus, Subject::Service(id)) = (key.rule, key.subject) {
                        self.live.insert(id);
                    }
                    if level.is_none() && !self.checked.contains_key(&key.rule) {
                        self.fine_before.insert(*key);
                    }
                }
                Observation::Ended { .. } => {}
            }
        }
        for rule in checked_now {
            *self.checked.entry(rule).or_default() += 1;
        }
        let checked = &self.checked;
        self.fine_before.retain(|k| !checked.contains_key(&k.rule));
    }
}
