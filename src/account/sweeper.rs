//! When the alert rules run, and what a run may count: the engine's other job beside
//! deciding what to read, kept apart from it.
//!
//! - **A full sweep** evaluates every rule when a round of reads is in (the engine is
//!   idle), or when `refresh` has passed since the last one while reads still come (a
//!   budget too small for a round within `refresh` must not keep the rules blind).
//! - **A records sweep** runs as soon as the services list or the invoices (or a
//!   service's detail) arrive, at most every [`RECORDS_GAP`]: the rules that read a record
//!   ([`crate::alerts::Rule::reads_a_record`]: a Suspended status, a near due date, an
//!   unpaid invoice) open within seconds of start instead of after a whole round, and it
//!   counts nothing else (a measurement seen twice without being read again is not two
//!   sightings).
//! - **A probe round** (`watch --probe-every`) that comes in makes a sweep due at once,
//!   and only a sweep after a round counts `proxies_dead`: its debounce counts rounds.
//! - A sweep with no new successful read evaluates only `api_unreachable`: the same stale
//!   data seen again is not a second sighting. Nothing resolves because data is missing:
//!   the rules cover a rule's subjects only when every datum they read has arrived. An
//!   open alert a full sweep could not check is marked "not checked since" its last
//!   check ([`crate::alerts::Alert::unchecked_since`]) and stays open.

use super::config::Config;
use crate::alerts::herald::{Herald, Notice};
use crate::alerts::marks::{MarkChange, Marks};
use crate::alerts::{AlertBook, AlertKey, Observation, Rule, Snapshot, Transition, evaluate};
use crate::api::Request;
use chrono::{DateTime, Utc};

/// A sweep of the alert rules.
#[derive(Clone, Debug)]
pub struct Swept {
    /// What to deliver: acknowledged and silenced alerts' transitions are held back.
    pub transitions: Vec<Transition>,
    /// The same for people ([`crate::alerts::herald`]: the baseline gathered into one
    /// summary, many changes at once into one digest).
    pub notices: Vec<Notice>,
    pub book: AlertBook,
    pub marks: Marks,
    /// Acknowledgements ended by their alert's resolution (to be written).
    pub unacked: Vec<AlertKey>,
    /// Open alerts this (full) sweep could not check and the one before could: their
    /// data has not come since (said as "not checked since …", never resolved).
    pub unchecked: Vec<crate::alerts::Alert>,
}

/// The least time between two records sweeps.
pub const RECORDS_GAP: chrono::Duration = chrono::Duration::seconds(2);

/// What a sweep due now may count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Every rule.
    Full,
    /// The rules that read a record, and `api_unreachable`.
    Records,
}

pub struct Sweeper {
    book: AlertBook,
    /// Acknowledgements and silences, applied to each sweep's transitions.
    marks: Marks,
    herald: Herald,
    /// A successful read arrived since the last full sweep.
    new_data: bool,
    /// A record (the services list, invoices, a service's detail) arrived since the last
    /// sweep of any reach.
    new_records: bool,
    /// An answer of any kind arrived since the last full sweep.
    new_answer: bool,
    /// A probe round came in since the last sweep: `proxies_dead` counts a sighting.
    new_probes: bool,
    last_full: Option<DateTime<Utc>>,
    last_records: Option<DateTime<Utc>>,
    first_answer: Option<DateTime<Utc>>,
    sweeps: u64,
}

impl Sweeper {
    pub fn new(config: &Config) -> Self {
        let mut book = AlertBook::new(&config.rules);
        book.restore(config.open_alerts.clone());
        Self {
            book,
            marks: Marks::default(),
            herald: Herald::default(),
            new_data: false,
            new_records: false,
            new_answer: false,
            new_probes: false,
            last_full: None,
            last_records: None,
            first_answer: None,
            sweeps: 0,
        }
    }

    pub fn book(&self) -> &AlertBook {
        &self.book
    }

    pub fn marks(&self) -> &Marks {
        &self.marks
    }

    pub fn sweeps(&self) -> u64 {
        self.sweeps
    }

    pub fn adopt(&mut self, open: Vec<crate::alerts::Alert>) {
        self.book.adopt(open);
    }

    /// The marks as the file has them; whether they differ from those held.
    pub fn set_marks(&mut self, marks: Marks) -> bool {
        std::mem::replace(&mut self.marks, marks) != self.marks
    }

    pub fn mark(&mut self, change: MarkChange) {
        self.marks.apply(change);
    }

    /// An answer arrived (`ok`: a successful read of `request`).
    pub fn answered(&mut self, request: &Request, ok: bool, now: DateTime<Utc>) {
        self.new_answer = true;
        self.first_answer.get_or_insert(now);
        if ok && affects_alerts(request) {
            self.new_data = true;
            self.new_records |= is_record(request);
        }
    }

    /// A probe round came in: a sweep counts it at once.
    pub fn probed(&mut self) {
        self.new_probes = true;
    }

    /// The sweep due now, if any (`idle`: a round of reads is in).
    pub fn due(&self, idle: bool, every: chrono::Duration, now: DateTime<Utc>) -> Option<Reach> {
        if self.new_answer {
            // Before the first sweep, counted from the first answer.
            let overdue = self
                .last_full
                .or(self.first_answer)
                .is_some_and(|at| now - at >= every);
            if idle || overdue {
                return Some(Reach::Full);
            }
        }
        let gap = self.last_records.is_none_or(|at| now - at >= RECORDS_GAP);
        // The baseline's summary falls due by its own clock: a records sweep (which
        // counts nothing twice) carries it out.
        let summary = self.herald.flush_at().is_some_and(|at| at <= now);
        ((self.new_records && gap) || summary || self.new_probes).then_some(Reach::Records)
    }

    /// When a sweep falls due by itself (reads keep coming, or records wait out their gap).
    pub fn next_due(&self, every: chrono::Duration) -> Option<DateTime<Utc>> {
        let full = self
            .new_answer
            .then(|| self.last_full.or(self.first_answer).map(|at| at + every))
            .flatten();
        let records = self
            .new_records
            .then(|| self.last_records.map(|at| at + RECORDS_GAP))
            .flatten();
        [full, records, self.herald.flush_at()]
            .into_iter()
            .flatten()
            .min()
    }

    /// Runs the rules over `snapshot` as far as `reach` allows.
    pub fn sweep(
        &mut self,
        reach: Reach,
        snapshot: &Snapshot,
        config: &Config,
        now: DateTime<Utc>,
    ) -> Swept {
        // Only a full sweep over new data can tell an alert its data did not come (one
        // after nothing but answers of no use, or the catalogue, says nothing of it).
        let over_data = reach == Reach::Full && self.new_data;
        let mut observations = evaluate(snapshot, &config.rules, now);
        let new_probes = std::mem::take(&mut self.new_probes);
        let counts = |rule: Rule| {
            if rule.reads_probe_rounds() {
                return new_probes;
            }
            rule.reads_the_connection()
                || match reach {
                    Reach::Full => self.new_data,
                    Reach::Records => rule.reads_a_record(),
                }
        };
        observations.retain(|o| match o {
            Observation::Seen { key, .. } => counts(key.rule),
            Observation::Covered(rule) => counts(*rule),
            // A service's end is read off a record (its status): it counts in any sweep.
            Observation::Ended { .. } => true,
        });
        self.new_records = false;
        self.last_records = Some(now);
        if reach == Reach::Full {
            self.new_data = false;
            self.new_answer = false;
            self.last_full = Some(now);
        }
        self.sweeps += 1;
        let transitions = self.book.sweep(&observations, now);
        let unchecked = if over_data {
            self.book.note_checked(&observations, now)
        } else {
            Vec::new()
        };
        let (transitions, mut unacked) = self.marks.deliverable(transitions, now);
        unacked.extend(self.marks.stale_acks(&self.book, &observations));
        for key in &unacked {
            self.marks.apply(MarkChange::Unack(*key));
        }
        let notices = self
            .herald
            .notices(&transitions, &self.book, &config.rules, now);
        Swept {
            transitions,
            notices,
            book: self.book.clone(),
            marks: self.marks.clone(),
            unacked,
            unchecked,
        }
    }
}

/// Whether a read brings data the alert rules read.
fn affects_alerts(request: &Request) -> bool {
    matches!(
        request,
        Request::Services
            | Request::Credit
            | Request::Invoices
            | Request::NetworkErrors(_)
            | Request::NetworkInactive(_)
            | Request::Stats(_)
            | Request::Rate(_)
            | Request::Service(_)
    )
}

/// Whether a read brings a record the record rules read.
fn is_record(request: &Request) -> bool {
    matches!(
        request,
        Request::Services | Request::Invoices | Request::Service(_)
    )
}
