//! What the book shares with other processes on the account: the alerts they have open
//! (the shared alert file, [`crate::alerts::store`]) taken in, and which open alerts a
//! full sweep could not check ("not checked since …": absence of data resolves nothing).

use super::{AlertBook, Track};
use crate::alerts::{Alert, Observation};
use chrono::{DateTime, Utc};
use std::collections::HashSet;

impl AlertBook {
    /// Takes in the alerts another process (a dashboard, another `watch` on the same
    /// account) has open in the shared alert file: an alert one process saw first is one
    /// alert with one first-seen time, whoever sees it next. One open here too keeps the
    /// earlier first sighting; one only being counted here opens quietly (the other
    /// process announced it); one not known here is restored. One this book resolved
    /// after the other last saw it is left resolved.
    pub fn adopt(&mut self, open: Vec<Alert>) {
        for other in open.into_iter().filter(|a| a.resolved.is_none()) {
            let resolved_here = self
                .recent
                .iter()
                .any(|r| r.key == other.key && r.resolved.is_some_and(|t| t >= other.last_seen));
            if resolved_here {
                continue;
            }
            match self.tracks.get_mut(&other.key) {
                Some(Track {
                    open: Some(alert), ..
                }) => {
                    alert.first_seen = alert.first_seen.min(other.first_seen);
                }
                Some(track) => {
                    let mut alert = other;
                    alert.first_seen = alert.first_seen.min(track.on_since);
                    track.on = 0;
                    track.open = Some(alert);
                }
                None => self.restore(vec![other]),
            }
        }
    }

    /// After a full sweep: which open alerts it checked (their key seen, fine or not, or
    /// their rule covered) and which it could not; answers the alerts that became
    /// unchecked in this sweep.
    pub fn note_checked(&mut self, observations: &[Observation], now: DateTime<Utc>) -> Vec<Alert> {
        let mut seen = HashSet::new();
        let mut covered = HashSet::new();
        for o in observations {
            match o {
                Observation::Seen { key, .. } | Observation::Ended { key, .. } => {
                    seen.insert(*key);
                }
                Observation::Covered(rule) => {
                    covered.insert(*rule);
                }
            }
        }
        let mut became = Vec::new();
        for (key, track) in &mut self.tracks {
            let Some(alert) = track.open.as_mut() else {
                continue;
            };
            if seen.contains(key) || covered.contains(&key.rule) {
                alert.unchecked_since = None;
            } else if alert.unchecked_since.is_none() && alert.last_seen < now {
                alert.unchecked_since = Some(alert.last_seen);
                became.push(alert.clone());
            }
        }
        became
    }
}
