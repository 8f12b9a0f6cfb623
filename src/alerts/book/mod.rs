//! [`AlertBook`]: observations of one sweep in, notifications ([`Transition`]s) out.
//!
//! Per alert key it counts consecutive sweeps (but for `api_unreachable` and the rules
//! that read a record, [`super::Rule::reads_a_record`], which take one): `debounce` sweeps
//! with a problem open the alert (at the lowest level seen in them, so a single sweep's spike does not decide the
//! level), `debounce` sweeps without one resolve it, `debounce` sweeps at another level
//! move it there (a notification when going up, quietly when going down). A critical
//! alert is announced again after `repeat_after`, then after twice as long each time, at
//! most once a day. Resolved alerts are kept in a short list of recent ones
//! ([`RECENT`]), so memory stays proportional to what is open.

pub use alert::{Alert, Change, Transition};

use super::{AlertKey, Level, Observation, Rule, Rules};
use chrono::{DateTime, Utc};
use std::collections::{BTreeMap, HashSet, VecDeque};
use std::time::Duration;

/// How many resolved alerts are remembered.
pub const RECENT: usize = 100;

/// The longest wait between two repeats of a critical alert.
const MAX_REPEAT: Duration = Duration::from_secs(24 * 3600);

mod alert;
mod shared;
mod sight;

#[derive(Clone, Debug)]
struct Track {
    open: Option<Alert>,
    /// Not open yet: consecutive sweeps with a problem, since when, the lowest level.
    on: u32,
    on_since: DateTime<Utc>,
    on_level: Level,
    /// Open: consecutive sweeps without a problem.
    off: u32,
    /// Open: consecutive sweeps at another level, and the level to move to.
    shift: u32,
    shift_level: Level,
    /// Its problem was first seen with its data (see [`sight`]): its opening is baseline.
    baseline: bool,
}

impl Track {
    fn new(now: DateTime<Utc>, level: Level) -> Self {
        Self {
            open: None,
            on: 0,
            on_since: now,
            on_level: level,
            off: 0,
            shift: 0,
            shift_level: level,
            baseline: false,
        }
    }
}

#[derive(Clone, Debug)]
pub struct AlertBook {
    debounce: u32,
    repeat_after: Duration,
    tracks: BTreeMap<AlertKey, Track>,
    recent: VecDeque<Alert>,
    sweeps: u64,
    sight: sight::Sight,
}

impl AlertBook {
    pub fn new(rules: &Rules) -> Self {
        Self {
            debounce: rules.debounce.max(1),
            repeat_after: rules.repeat_after,
            tracks: BTreeMap::new(),
            recent: VecDeque::new(),
            sweeps: 0,
            sight: sight::Sight::default(),
        }
    }

    /// Sweeps in which `rule` was checked in full so far (every subject's data known).
    pub fn checked(&self, rule: Rule) -> u32 {
        self.sight.checked(rule)
    }

    /// Consecutive sweeps a measurement must be seen in.
    pub fn debounce(&self) -> u32 {
        self.debounce
    }

    /// Takes back alerts that were open when the program last stopped: they are not
    /// announced again, and resolve (with a notification) like any other.
    pub fn restore(&mut self, open: Vec<Alert>) {
        for mut alert in open.into_iter().filter(|a| a.resolved.is_none()) {
            let mut track = Track::new(alert.first_seen, alert.level);
            if alert.level < Level::Critical {
                alert.next_repeat = None;
            }
            track.open = Some(alert.clone());
            self.tracks.insert(alert.key, track);
        }
    }

    /// Feeds one sweep's observations; answers the notifications it leads to, most
    /// severe first.
    pub fn sweep(&mut self, observations: &[Observation], now: DateTime<Utc>) -> Vec<Transition> {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        let mut covered: HashSet<Rule> = HashSet::new();
        for o in observations {
            match o {
                Observation::Seen {
                    key,
                    level,
                    message,
                } => {
                    if seen.insert(*key) {
                        self.observe(*key, *level, message, now, &mut out);
                    }
                }
                Observation::Covered(rule) => {
                    covered.insert(*rule);
                }
                Observation::Ended { key, message } => {
                    if seen.insert(*key) {
                        self.end(*key, message, now, &mut out);
                    }
                }
            }
        }
        let gone: Vec<AlertKey> = self
            .tracks
            .keys()
            .filter(|k| covered.contains(&k.rule) && !seen.contains(*k))
            .copied()
            .collect();
        for key in gone {
            self.observe(key, None, "", now, &mut out);
        }
        self.repeat(now, &mut out);
        self.sight.note(observations);
        self.sweeps += 1;
        out.sort_by(|a, b| {
            b.alert
                .level
                .cmp(&a.alert.level)
                .then(a.alert.key.cmp(&b.alert.key))
        });
        out
    }

    /// The subject of `key` ended: an open alert resolves now with `message`; one that
    /// was only counting is forgotten; with none open, an ending seen while watched is one
    /// notice (see [`sight`]).
    fn end(&mut self, key: AlertKey, message: &str, now: DateTime<Utc>, out: &mut Vec<Transition>) {
        let news = self.sight.ended(&key);
        let Some(mut alert) = self.tracks.remove(&key).and_then(|t| t.open) else {
            if news {
                out.push(Transition {
                    change: Change::Notice,
                    alert: Alert {
                        key,
                        level: Level::Info,
                        message: message.to_owned(),
                        first_seen: now,
                        last_seen: now,
                        resolved: Some(now),
                        repeats: 0,
                        next_repeat: None,
                        level_unsure: false,
                        unchecked_since: None,
                    },
                    at: now,
                    baseline: false,
                });
            }
            return;
        };
        alert.resolved = Some(now);
        alert.next_repeat = None;
        alert.message = message.to_owned();
        out.push(Transition {
            change: Change::Resolved,
            alert: alert.clone(),
            at: now,
            baseline: false,
        });
        self.recent.push_front(alert);
        self.recent.truncate(RECENT);
    }

    fn observe(
        &mut self,
        key: AlertKey,
        level: Option<Level>,
        message: &str,
        now: DateTime<Utc>,
        out: &mut Vec<Transition>,
    ) {
        // `api_unreachable` waited its own minute before it was seen, and a record (a
        // status, a due date, an invoice's state) does not blip: they open and resolve at
        // once.
        let debounce = if key.rule.reads_the_connection() || key.rule.reads_a_record() {
            1
        } else {
            self.debounce
        };
        let repeat_after = self.repeat_after;
        let Some(level) = level else {
            // Fine: count towards recovery, or forget a problem that never opened.
            let Some(track) = self.tracks.get_mut(&key) else {
                return;
            };
            let Some(alert) = track.open.as_mut() else {
                self.tracks.remove(&key);
                return;
            };
            track.off += 1;
            track.shift = 0;
            if track.off >= debounce {
                alert.resolved = Some(now);
                alert.next_repeat = None;
                let alert = alert.clone();
                self.tracks.remove(&key);
                out.push(Transition {
                    change: Change::Resolved,
                    alert: alert.clone(),
                    at: now,
                    baseline: false,
                });
                self.recent.push_front(alert);
                self.recent.truncate(RECENT);
            }
            return;
        };
        let sight = &self.sight;
        let track = self.tracks.entry(key).or_insert_with(|| Track {
            baseline: sight.is_baseline(&key),
            ..Track::new(now, level)
        });
        track.off = 0;
        let Some(alert) = track.open.as_mut() else {
            if track.on == 0 {
                track.on_since = now;
                track.on_level = level;
            }
            track.on += 1;
            track.on_level = track.on_level.min(level);
            if track.on >= debounce {
                let level = track.on_level;
                let alert = Alert {
                    key,
                    level,
                    message: message.to_owned(),
                    first_seen: track.on_since,
                    last_seen: now,
                    resolved: None,
                    repeats: 0,
                    next_repeat: (level == Level::Critical).then(|| later(now, repeat_after)),
                    level_unsure: false,
                    unchecked_since: None,
                };
                track.open = Some(alert.clone());
                out.push(Transition {
                    change: Change::Opened,
                    alert,
                    at: now,
                    baseline: track.baseline,
                });
            }
            return;
        };
        alert.last_seen = now;
        alert.unchecked_since = None;
        if alert.message != message {
            alert.message = message.to_owned();
        }
        if std::mem::take(&mut alert.level_unsure) {
            alert.level = level;
            alert.next_repeat = (level == Level::Critical).then(|| later(now, repeat_after));
            track.shift = 0;
            return;
        }
        if level == alert.level {
            track.shift = 0;
            return;
        }
        let up = level > alert.level;
        let same_way = track.shift > 0 && (track.shift_level > alert.level) == up;
        if same_way {
            track.shift += 1;
            // Towards the current level: the least change all the sweeps agree on.
            track.shift_level = if up {
                track.shift_level.min(level)
            } else {
                track.shift_level.max(level)
            };
        } else {
            track.shift = 1;
            track.shift_level = level;
        }
        if track.shift < debounce {
            return;
        }
        let from = alert.level;
        alert.level = track.shift_level;
        track.shift = 0;
        alert.next_repeat = (alert.level == Level::Critical).then(|| later(now, repeat_after));
        alert.repeats = 0;
        if alert.level > from {
            out.push(Transition {
                change: Change::Escalated { from },
                alert: alert.clone(),
                at: now,
                baseline: false,
            });
        }
    }

    fn repeat(&mut self, now: DateTime<Utc>, out: &mut Vec<Transition>) {
        for track in self.tracks.values_mut() {
            let Some(alert) = track.open.as_mut() else {
                continue;
            };
            if alert.level != Level::Critical || alert.next_repeat.is_none_or(|t| t > now) {
                continue;
            }
            alert.repeats = alert.repeats.saturating_add(1);
            let wait = self
                .repeat_after
                .saturating_mul(2u32.saturating_pow(alert.repeats.min(16)))
                .min(MAX_REPEAT);
            alert.next_repeat = Some(later(now, wait));
            out.push(Transition {
                change: Change::Repeated,
                alert: alert.clone(),
                at: now,
                baseline: false,
            });
        }
    }

    /// The open alerts, in key order.
    pub fn open(&self) -> impl Iterator<Item = &Alert> {
        self.tracks.values().filter_map(|t| t.open.as_ref())
    }

    pub fn open_count(&self) -> usize {
        self.open().count()
    }

    /// Resolved alerts, newest first.
    pub fn recent(&self) -> &VecDeque<Alert> {
        &self.recent
    }

    /// What the Alerts tab lists: open ones first (critical first, then the newest),
    /// then the recently resolved (newest first).
    pub fn listing(&self) -> Vec<&Alert> {
        let mut open: Vec<&Alert> = self.open().collect();
        open.sort_by(|a, b| {
            b.level
                .cmp(&a.level)
                .then(b.first_seen.cmp(&a.first_seen))
                .then(a.key.cmp(&b.key))
        });
        open.extend(self.recent.iter());
        open
    }

    /// Sweeps fed so far.
    pub fn sweeps(&self) -> u64 {
        self.sweeps
    }
}

fn later(now: DateTime<Utc>, wait: Duration) -> DateTime<Utc> {
    now + chrono::Duration::from_std(wait).unwrap_or(chrono::Duration::days(1))
}
