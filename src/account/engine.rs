//! The engine as a pure state machine: answers and asks in, the next request to send and
//! the sweeps' outcomes out; no I/O, no async, the time always given. The driver
//! ([`super::driver`]) runs it on a task of its own; tests drive it directly.

use super::connection::Connection;
use super::facts::{self, Summary};
use super::freshness::Kind;
use super::planner::{self, Due, Focus};
use super::store::Store;
use super::types::Types;
use crate::alerts::marks::{MarkChange, Marks};
use crate::alerts::{AlertBook, AlertKey, Observation, Rule, Transition, evaluate};
use crate::api::{ApiError, Loaded, ProductType, Request};
use chrono::{DateTime, Utc};
use std::collections::{HashMap, HashSet, VecDeque};
use std::time::Duration;

pub use super::config::Config;

/// What one answer changed, for the driver to tell.
#[derive(Debug, Default)]
pub struct Answered {
    pub connection: Option<Connection>,
    pub types: Option<HashMap<u64, ProductType>>,
}

/// A sweep of the alert rules.
#[derive(Clone, Debug)]
pub struct Swept {
    /// What to deliver: acknowledged and silenced alerts' transitions are held back.
    pub transitions: Vec<Transition>,
    pub book: AlertBook,
    pub marks: Marks,
    /// Acknowledgements ended by their alert's resolution (to be written).
    pub unacked: Vec<AlertKey>,
}

/// The least time between two replans while the queue still has work (a burst of answers
/// that each teach something costs one plan a second, not one per answer).
const REPLAN_EVERY: chrono::Duration = chrono::Duration::seconds(1);

pub struct Engine {
    config: Config,
    store: Store,
    types: Types,
    connection: Connection,
    focus: Focus,
    /// Kinds `r`/`R` asked for, with the store's count of sends at the press.
    forced: HashMap<Kind, u64>,
    /// The plan in hand: what is on screen, and everything due (the screen's too), each
    /// oldest first.
    shown: VecDeque<Due>,
    rest: VecDeque<Due>,
    /// What is neither watched nor shown, oldest first (see [`planner::SLOW_SHARE`]).
    slow: VecDeque<Due>,
    /// Picks since the slow data last had one.
    since_slow: u32,
    planned_at: Option<DateTime<Utc>>,
    /// Something changed what would be planned.
    dirty: bool,
    /// The last pick jumped the queue for the screen (so the next one goes by age alone).
    last_shown: bool,
    next_due: Option<DateTime<Utc>>,
    book: AlertBook,
    /// Acknowledgements and silences, applied to each sweep's transitions.
    marks: Marks,
    /// A successful read arrived since the last sweep / an answer of any kind did.
    new_data: bool,
    new_answer: bool,
    last_sweep: Option<DateTime<Utc>>,
    first_answer: Option<DateTime<Utc>>,
    sweeps: u64,
}

impl Engine {
    pub fn new(config: Config) -> Self {
        let mut book = AlertBook::new(&config.rules);
        book.restore(config.open_alerts.clone());
        let types = Types::default().with_saved(config.saved_types.clone());
        Self {
            config,
            store: Store::default(),
            types,
            connection: Connection::default(),
            focus: Focus::default(),
            forced: HashMap::new(),
            shown: VecDeque::new(),
            rest: VecDeque::new(),
            slow: VecDeque::new(),
            since_slow: 0,
            planned_at: None,
            dirty: true,
            last_shown: false,
            next_due: None,
            book,
            marks: Marks::default(),
            new_data: false,
            new_answer: false,
            last_sweep: None,
            first_answer: None,
            sweeps: 0,
        }
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn types(&self) -> &Types {
        &self.types
    }

    pub fn connection(&self) -> &Connection {
        &self.connection
    }

    pub fn book(&self) -> &AlertBook {
        &self.book
    }

    pub fn marks(&self) -> &Marks {
        &self.marks
    }

    /// The marks as the file has them (another process may have changed them); whether
    /// they differ from those held.
    pub fn set_marks(&mut self, marks: Marks) -> bool {
        std::mem::replace(&mut self.marks, marks) != self.marks
    }

    /// An acknowledgement or silence an observer asks for; it holds from the next sweep.
    pub fn mark(&mut self, change: MarkChange) {
        self.marks.apply(change);
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// What observers show now; what they show goes first (see [`planner`]).
    pub fn set_focus(&mut self, focus: Focus) {
        if focus != self.focus {
            self.focus = focus;
            self.dirty = true;
        }
    }

    /// `r`/`R`: these kinds are due now, whatever their age.
    pub fn refresh(&mut self, kinds: &[Kind]) {
        for kind in kinds {
            self.forced.insert(*kind, self.store.sends());
        }
        self.dirty = true;
        // Now, not at the next replan: a person is waiting.
        self.planned_at = None;
    }

    /// A one-off read or a write an observer asks for; whether it is to be sent (a read
    /// already on its way is not sent twice: its one answer serves both).
    pub fn ask(&mut self, request: &Request, now: DateTime<Utc>) -> bool {
        if !self.store.may_send(request, now) {
            return false;
        }
        self.store.sent(request, now);
        true
    }

    /// The next planned read to send now, if any is due (marked in flight).
    pub fn next_request(&mut self, now: DateTime<Utc>) -> Option<Request> {
        loop {
            let stale_plan = self
                .planned_at
                .is_none_or(|at| now - at >= REPLAN_EVERY || at > now);
            let watched_empty = self.shown.is_empty() && self.rest.is_empty();
            let empty = watched_empty && self.slow.is_empty();
            let due_again = self.next_due.is_some_and(|n| n <= now);
            // Watched data fallen due goes ahead of the slow data still in hand; and data
            // fallen due since the plan was made joins it within a second, even behind a
            // long backlog (else the screen's list waited for a whole first sweep).
            if ((self.dirty || due_again) && (empty || stale_plan)) || (watched_empty && due_again)
            {
                self.replan(now);
            }
            // A list or a detail on screen jumps the queue every other pick (the others go
            // by age alone, which may pick the screen's too) when it has waited as long as
            // the oldest (a first load, `r`/`R`), or once it is a whole refresh overdue,
            // before its pane would show its age. In between it goes by age: on an account
            // whose budget keeps up that is at once, and on a budget-bound one the screen
            // takes no more than one extra read of each per two refreshes, so every list
            // is still read once a sweep. Per-service data (every network list, rate,
            // statistics) never jumps (see [`planner::Due::single`]).
            let jump = self
                .shown
                .front()
                .zip(self.rest.front())
                .is_some_and(|(s, r)| {
                    let overdue = self
                        .config
                        .refresh
                        .and_then(|r| chrono::Duration::from_std(r).ok())
                        .is_some_and(|r| now - s.since >= r);
                    s.since <= r.since || overdue
                });
            let take_shown =
                !self.shown.is_empty() && (self.rest.is_empty() || (!self.last_shown && jump));
            let take_slow = !self.slow.is_empty()
                && ((self.shown.is_empty() && self.rest.is_empty())
                    || self.since_slow + 1 >= planner::SLOW_SHARE);
            let due = if take_slow {
                self.slow.pop_front()
            } else if take_shown {
                self.shown.pop_front()
            } else {
                self.rest.pop_front()
            }?;
            // Answered or sent since it was planned: no longer due. (Not a pick: the slow
            // data's share counts only what is sent.)
            let stale = self.store.get(&due.request).is_some_and(|e| {
                e.is_in_flight(now)
                    || e.answered_at()
                        .zip(self.planned_at)
                        .is_some_and(|(answered, planned)| answered > planned)
            });
            if stale {
                continue;
            }
            self.since_slow = if take_slow { 0 } else { self.since_slow + 1 };
            self.last_shown = take_shown && !take_slow;
            self.store.sent(&due.request, now);
            return Some(due.request);
        }
    }

    fn replan(&mut self, now: DateTime<Utc>) {
        let plan = planner::plan(&planner::Input {
            store: &self.store,
            types: &self.types,
            focus: &self.focus,
            refresh: self.config.refresh,
            forced: &self.forced,
            link: self.connection.link,
            now,
        });
        let (slow, watched): (Vec<Due>, Vec<Due>) = plan.due.into_iter().partition(|d| d.slow);
        self.shown = watched.iter().filter(|d| d.single).cloned().collect();
        self.rest = watched.into();
        self.slow = slow.into();
        self.next_due = plan.next;
        self.planned_at = Some(now);
        self.dirty = false;
    }

    /// When the engine next has something to do by itself: a read falls due (`room`:
    /// the caller can send one now; without room an answer wakes it anyway), or a sweep
    /// of the rules is due while reads keep coming.
    pub fn next_wakeup(&self, room: bool) -> Option<DateTime<Utc>> {
        let sweep = self
            .new_answer
            .then(|| {
                self.last_sweep
                    .or(self.first_answer)
                    .map(|at| at + self.sweep_every())
            })
            .flatten();
        let due = self.next_due.filter(|_| room);
        [due, sweep].into_iter().flatten().min()
    }

    /// Takes an answer in.
    pub fn answered(&mut self, loaded: &Loaded, now: DateTime<Utc>) -> Answered {
        let mut out = Answered::default();
        let request = loaded.request();
        if self.connection.observe(loaded, now) {
            out.connection = Some(self.connection);
            // The plan in hand was made for another connection (nothing is sent into
            // the void once the API stops answering): plan again now.
            self.shown.clear();
            self.rest.clear();
            self.slow.clear();
            self.planned_at = None;
            self.dirty = true;
        }
        self.new_answer = true;
        self.first_answer.get_or_insert(now);
        // A 422 to a usage read says "not a rotating service": learnt, not a failure.
        if let (Request::Rate(id) | Request::Stats(id), Some(ApiError::Unprocessable { .. })) =
            (&request, loaded.error())
            && self.types.learn(*id, &ProductType::Fpr)
        {
            self.dirty = true;
        }
        self.store.answered(loaded, now);
        // When this datum is due again: the engine wakes for it then.
        if let Some(kind) = Kind::of(&request) {
            let cadence = kind.cadence(self.config.refresh, self.focus.shows(&request));
            if let Some(at) = self
                .store
                .get(&request)
                .and_then(|e| e.due_at(cadence, self.config.refresh, now))
            {
                self.next_due = Some(self.next_due.map_or(at, |n| n.min(at)));
            }
        }
        if loaded.error().is_some() {
            return out;
        }
        self.new_data |= affects_alerts(&request);
        match &request {
            Request::Services => {
                if let Some(list) = self.store.services() {
                    let listed: HashSet<u64> = list.iter().map(|s| s.service_id).collect();
                    self.store.retain_services(&listed);
                }
                self.types.learn_from(&self.store);
                self.dirty = true;
            }
            // What the types still need changes with each of these, learnt or not.
            Request::Products | Request::Product(_) | Request::Service(_) => {
                self.types.learn_from(&self.store);
                self.dirty = true;
            }
            _ => {}
        }
        out.types = self.types.take_changed();
        out
    }

    /// Reads still on their way.
    pub fn in_flight(&self) -> usize {
        self.store.in_flight()
    }

    fn sweep_every(&self) -> chrono::Duration {
        let every = self.config.refresh.unwrap_or(Duration::from_secs(30));
        chrono::Duration::from_std(every).unwrap_or(chrono::Duration::MAX)
    }

    /// Evaluates the rules when a sweep is due: the reads of a round are all in (nothing
    /// planned is left and nothing is in flight), or `refresh` has passed since the last
    /// sweep while reads still come (a budget that cannot do a whole round within
    /// `refresh` must not keep the rules blind). A sweep with no new successful read
    /// evaluates only `api_unreachable`: the same stale data seen again is not a second
    /// sighting.
    pub fn sweep(&mut self, now: DateTime<Utc>) -> Option<Swept> {
        if !self.sweep_due(now) {
            return None;
        }
        let snapshot = self.snapshot(now);
        let mut observations = evaluate(&snapshot, &self.config.rules, now);
        if !self.new_data {
            observations.retain(|o| match o {
                Observation::Seen { key, .. } => key.rule == Rule::ApiUnreachable,
                Observation::Covered(rule) => *rule == Rule::ApiUnreachable,
            });
        }
        self.new_data = false;
        self.new_answer = false;
        self.last_sweep = Some(now);
        self.sweeps += 1;
        let transitions = self.book.sweep(&observations, now);
        let (transitions, mut unacked) = self.marks.deliverable(transitions, now);
        unacked.extend(self.marks.stale_acks(&self.book, &observations));
        for key in &unacked {
            self.marks.apply(MarkChange::Unack(*key));
        }
        Some(Swept {
            transitions,
            book: self.book.clone(),
            marks: self.marks.clone(),
            unacked,
        })
    }

    /// Whether [`Engine::sweep`] would sweep now (the driver reads the marks first).
    pub fn sweep_due(&self, now: DateTime<Utc>) -> bool {
        if !self.new_answer {
            return false;
        }
        let idle = self.store.in_flight() == 0
            && self.shown.is_empty()
            && self.rest.is_empty()
            && self.slow.is_empty();
        // Before the first sweep, counted from the first answer.
        let overdue = self
            .last_sweep
            .or(self.first_answer)
            .is_some_and(|at| now - at >= self.sweep_every());
        idle || overdue
    }

    fn snapshot(&self, now: DateTime<Utc>) -> crate::alerts::Snapshot {
        facts::snapshot(
            &self.store,
            &self.types,
            &self.connection,
            &self.config.base_url,
            self.config.offset,
            now,
        )
    }

    /// What read-only observers see (see [`Summary`]).
    pub fn summary(&self, now: DateTime<Utc>) -> Summary {
        Summary {
            profile: self.config.profile.clone(),
            base_url: self.config.base_url.clone(),
            connection: self.connection,
            snapshot: self.snapshot(now),
            oldest: facts::oldest(&self.store, &self.types, now),
            sweeps: self.sweeps,
            failing: self
                .store
                .entries()
                .filter(|(_, e)| e.error.is_some())
                .count(),
            at: Some(now),
        }
    }

    /// A throttle whose time is over ends (the timer fired).
    pub fn tick(&mut self, now: DateTime<Utc>) -> Option<Connection> {
        if self.connection.tick(now) {
            self.dirty = true;
            return Some(self.connection);
        }
        None
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
