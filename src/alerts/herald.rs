//! What is announced to people: a sweep's deliverable transitions become [`Notice`]s for
//! the status line and the `on_alert` command, by one policy for the dashboard and
//! `watch` (standard output still gets every transition, one JSON line each, marked
//! `baseline` or not: that is for machines).
//!
//! - **The baseline is one summary, not news.** What was already true when watching
//!   started (the book marks it, [`super::Transition::baseline`]) is gathered into one
//!   [`Digest`] of kind [`DigestKind::Baseline`]: counts by level and rule, the worst
//!   few named. It goes once every rule over the watched data has been checked in full
//!   (as often as its debounce asks; not `rate_forecast`, whose statistics come
//!   hourly), or at the latest [`BASELINE_WAIT`] after the first sweep, so a
//!   large account whose first round of reads takes half an hour is not silent that
//!   long. What its first round still finds after that (a service's network status read
//!   for the first time) is gathered again and goes when the round is complete, or at the
//!   latest [`BASELINE_EVERY`] after the last summary.
//! - **Changes go at once**: up to [`HANDFUL`] in a sweep one notice each, more as one
//!   digest of kind [`DigestKind::Changes`].
//! - Notices are never dropped: the `on_alert` runner merges what queues up while its
//!   commands run into the next digest ([`Digest::merge`], see [`super::deliver`]).
//!
//! A digest keeps every count but names at most [`KEPT`] alerts (the most severe), so a
//! sweep of thousands costs a bounded notice.

use super::{AlertBook, Change, Level, Rule, Rules, Transition};
use crate::text::{count, counted, truncate};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A sweep's changes announced one by one; more are one digest.
pub const HANDFUL: usize = 3;
/// The baseline's summary goes at the latest this long after the first sweep.
pub const BASELINE_WAIT: chrono::Duration = chrono::Duration::seconds(60);
/// What the first round still finds after that goes at most this often.
pub const BASELINE_EVERY: chrono::Duration = chrono::Duration::minutes(10);
/// Transitions a digest keeps whole (the most severe); the rest are counted.
pub const KEPT: usize = 50;
/// Alerts a digest's message names.
pub const NAMED: usize = 3;

/// One announcement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Notice {
    One(Transition),
    Digest(Digest),
}

impl Notice {
    /// The transitions it carries whole (a digest's kept ones).
    pub fn transitions(&self) -> &[Transition] {
        match self {
            Notice::One(t) => std::slice::from_ref(t),
            Notice::Digest(d) => &d.kept,
        }
    }

    /// How many transitions it speaks for.
    pub fn count(&self) -> usize {
        match self {
            Notice::One(_) => 1,
            Notice::Digest(d) => d.total,
        }
    }

    /// Several as one digest (a baseline when they all are, else changes).
    pub fn merged(notices: Vec<Notice>) -> Option<Notice> {
        if notices.len() <= 1 {
            return notices.into_iter().next();
        }
        let baseline = notices
            .iter()
            .all(|n| matches!(n, Notice::Digest(d) if d.kind == DigestKind::Baseline));
        let kind = if baseline {
            DigestKind::Baseline
        } else {
            DigestKind::Changes
        };
        let at = notices
            .iter()
            .map(|n| match n {
                Notice::One(t) => t.at,
                Notice::Digest(d) => d.at,
            })
            .max()
            .unwrap_or_default();
        let mut digest = Digest::new(kind, at);
        for n in notices {
            digest.merge(n);
        }
        Some(Notice::Digest(digest))
    }

    /// The most severe level it carries (a recovery or a notice is the least).
    pub fn level(&self) -> Level {
        match self {
            Notice::One(t) => t.alert.level,
            Notice::Digest(d) => d.worst_level(),
        }
    }
}

/// What a digest gathers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DigestKind {
    /// What was already true when watching started.
    Baseline,
    /// Changes, more than a handful at once (or merged while `on_alert` was busy).
    Changes,
}

impl DigestKind {
    /// The word of `PROXYDASH_ALERT_STATE` and of the JSON's `state`.
    pub fn as_str(self) -> &'static str {
        match self {
            DigestKind::Baseline => "baseline",
            DigestKind::Changes => "digest",
        }
    }
}

/// Many transitions as one notice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Digest {
    pub kind: DigestKind,
    pub at: DateTime<Utc>,
    /// Transitions gathered.
    pub total: usize,
    /// Alerts still open among them, by level (openings, escalations, repeats).
    pub open: BTreeMap<Level, usize>,
    /// By rule.
    pub rules: BTreeMap<Rule, usize>,
    /// By change (`opened`, `resolved`, …).
    pub changes: BTreeMap<String, usize>,
    /// The most severe transitions, at most [`KEPT`], most severe first.
    pub kept: Vec<Transition>,
}

impl Digest {
    pub fn new(kind: DigestKind, at: DateTime<Utc>) -> Self {
        Self {
            kind,
            at,
            total: 0,
            open: BTreeMap::new(),
            rules: BTreeMap::new(),
            changes: BTreeMap::new(),
            kept: Vec::new(),
        }
    }

    pub fn add(&mut self, t: Transition) {
        self.total += 1;
        self.at = self.at.max(t.at);
        if !matches!(t.change, Change::Resolved | Change::Notice) {
            *self.open.entry(t.alert.level).or_default() += 1;
        }
        *self.rules.entry(t.alert.key.rule).or_default() += 1;
        *self
            .changes
            .entry(t.change.as_str().to_owned())
            .or_default() += 1;
        self.kept.push(t);
        if self.kept.len() > KEPT * 2 {
            self.trim();
        }
    }

    /// Another notice folded in (the `on_alert` runner's merge): its counts kept whole.
    pub fn merge(&mut self, notice: Notice) {
        match notice {
            Notice::One(t) => self.add(t),
            Notice::Digest(d) => {
                self.total += d.total;
                self.at = self.at.max(d.at);
                for (level, n) in d.open {
                    *self.open.entry(level).or_default() += n;
                }
                for (rule, n) in d.rules {
                    *self.rules.entry(rule).or_default() += n;
                }
                for (change, n) in d.changes {
                    *self.changes.entry(change).or_default() += n;
                }
                self.kept.extend(d.kept);
                self.trim();
            }
        }
    }

    /// Keeps the [`KEPT`] most severe, most severe first (openings before recoveries).
    fn trim(&mut self) {
        self.kept.sort_by_key(order);
        self.kept.truncate(KEPT);
    }

    /// The kept transitions, most severe first.
    pub fn worst(&self) -> Vec<&Transition> {
        let mut kept: Vec<&Transition> = self.kept.iter().collect();
        kept.sort_by_key(|t| order(t));
        kept
    }

    pub fn worst_level(&self) -> Level {
        self.open.keys().next_back().copied().unwrap_or(Level::Info)
    }

    /// One line for people, naming the account: `shop: 731 alerts already open at start
    /// (…)`.
    pub fn message(&self, profile: &str) -> String {
        format!("{profile}: {}", self.summary())
    }

    /// One line for people: what it gathers, counted by level and rule, the worst few
    /// named.
    pub fn summary(&self) -> String {
        let levels: Vec<String> = self
            .open
            .iter()
            .rev()
            .map(|(level, n)| format!("{} {}", count(*n as u64), level.as_str()))
            .collect();
        let open: usize = self.open.values().sum();
        let head = match self.kind {
            DigestKind::Baseline => format!(
                "{} already open at start",
                counted(open as u64, "alert", "alerts")
            ),
            DigestKind::Changes => {
                let changes: Vec<String> = self
                    .changes
                    .iter()
                    .map(|(change, n)| format!("{} {change}", count(*n as u64)))
                    .collect();
                format!(
                    "{} alert changes ({})",
                    count(self.total as u64),
                    changes.join(", ")
                )
            }
        };
        let mut rules: Vec<(&Rule, &usize)> = self.rules.iter().collect();
        rules.sort_by_key(|(rule, n)| (std::cmp::Reverse(**n), **rule));
        let rules: Vec<String> = rules
            .iter()
            .map(|(rule, n)| format!("{} {}", rule.as_str(), count(**n as u64)))
            .collect();
        let named: Vec<String> = self
            .worst()
            .iter()
            .take(NAMED)
            .map(|t| truncate(&t.alert.message, 80).into_owned())
            .collect();
        let more = self.total.saturating_sub(named.len());
        let more = if more > 0 {
            format!(" (+{} more)", count(more as u64))
        } else {
            String::new()
        };
        let levels = if levels.is_empty() {
            String::new()
        } else {
            format!(" ({})", levels.join(", "))
        };
        format!(
            "{head}{levels}: {}. Worst: {}{more}",
            rules.join(", "),
            named.join("; ")
        )
    }
}

/// Most severe first: by level, openings before recoveries, then what stops the proxies
/// or the account before what warns of it, then by subject.
fn order(t: &Transition) -> (std::cmp::Reverse<(Level, bool)>, u8, super::Subject) {
    let open = !matches!(t.change, Change::Resolved | Change::Notice);
    let urgency = match t.alert.key.rule {
        Rule::ApiUnauthorized | Rule::ApiUnreachable | Rule::ApiFailing => 0,
        Rule::ServiceStatus => 1,
        Rule::CreditLow => 2,
        Rule::UnpaidInvoice => 3,
        Rule::ServiceDue => 4,
        Rule::ServersInError => 5,
        Rule::RateLimit => 6,
        Rule::RateForecast => 7,
        Rule::ProxiesDead => 6,
        Rule::DatumFailing => 8,
    };
    (
        std::cmp::Reverse((t.alert.level, open)),
        urgency,
        t.alert.key.subject,
    )
}

/// The announcing policy's state (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct Herald {
    /// The first sweep.
    started: Option<DateTime<Utc>>,
    /// The last baseline summary sent.
    said: Option<DateTime<Utc>>,
    pending: Option<Digest>,
}

impl Herald {
    /// A sweep's deliverable transitions as notices, with the baseline gathered (see the
    /// module docs); `book` and `rules` tell whether every rule has been checked.
    pub fn notices(
        &mut self,
        transitions: &[Transition],
        book: &AlertBook,
        rules: &Rules,
        now: DateTime<Utc>,
    ) -> Vec<Notice> {
        self.started.get_or_insert(now);
        let (baseline, changes): (Vec<&Transition>, Vec<&Transition>) =
            transitions.iter().partition(|t| t.baseline);
        for t in baseline {
            self.pending
                .get_or_insert_with(|| Digest::new(DigestKind::Baseline, now))
                .add(t.clone());
        }
        let mut out = Vec::new();
        let due = self.flush_at().is_some_and(|at| at <= now);
        if self.pending.is_some() && (due || complete(book, rules)) {
            self.said = Some(now);
            out.extend(self.pending.take().map(Notice::Digest));
        }
        if changes.len() > HANDFUL {
            let mut digest = Digest::new(DigestKind::Changes, now);
            for t in changes {
                digest.add(t.clone());
            }
            out.push(Notice::Digest(digest));
        } else {
            out.extend(changes.into_iter().cloned().map(Notice::One));
        }
        out
    }

    /// Baseline findings gathered and not said yet.
    pub fn pending(&self) -> Option<&Digest> {
        self.pending.as_ref()
    }

    /// When the baseline's findings gathered go at the latest, while some wait (the
    /// engine sweeps then, whether or not reads came).
    pub fn flush_at(&self) -> Option<DateTime<Utc>> {
        self.pending.as_ref()?;
        match self.said {
            None => Some(self.started? + BASELINE_WAIT),
            Some(said) => Some(said + BASELINE_EVERY),
        }
    }
}

/// Whether every rule that reads the account's watched data has been checked in full as
/// often as it takes to open (once for a record, `debounce` sweeps for a measurement):
/// the first full picture is in. `rate_forecast` reads the statistics, which are read
/// hourly when nothing shows them, and `proxies_dead` the probe's rounds, on their own
/// schedule (or none): what they find later goes in a later summary.
fn complete(book: &AlertBook, rules: &Rules) -> bool {
    Rule::ALL
        .into_iter()
        .filter(|r| {
            rules.enabled(*r)
                && !r.reads_the_connection()
                && !r.reads_probe_rounds()
                && *r != Rule::RateForecast
        })
        .all(|r| {
            let need = if r.reads_a_record() {
                1
            } else {
                book.debounce()
            };
            book.checked(r) >= need
        })
}
