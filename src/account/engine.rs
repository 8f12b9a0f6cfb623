//! The engine as a pure state machine: answers and asks in, the next request to send and
//! the sweeps' outcomes out; no I/O, no async, the time always given. The driver
//! ([`super::driver`]) runs it on a task of its own; tests drive it directly.

use super::connection::Connection;
use super::facts::{self, Summary};
use super::freshness::Kind;
use super::health::Health;
use super::money::Money;
use super::planner::{self, Focus, Pick};
use super::queue::Queue;
use super::store::Store;
pub use super::sweeper::Swept;
use super::sweeper::{Reach, Sweeper};
use super::types::Types;
use crate::alerts::AlertBook;
use crate::alerts::marks::{MarkChange, Marks};
use crate::api::{ApiError, Loaded, ProductType, Request};
use crate::scheduler::Lane;
use chrono::{DateTime, Utc};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

pub use super::config::Config;

/// What one answer changed, for the driver to tell.
#[derive(Debug, Default)]
pub struct Answered {
    pub connection: Option<Connection>,
    pub types: Option<HashMap<u64, ProductType>>,
}

/// The least time between two replans while the queue still has work (a burst of answers
/// that each teach something costs one plan a second, not one per answer). A change of
/// what is on screen, `r`/`R` and the first services list replan at once: a person waits.
const REPLAN_EVERY: chrono::Duration = chrono::Duration::seconds(1);

pub struct Engine {
    config: Config,
    store: Store,
    types: Types,
    connection: Connection,
    /// Each kind of data's own health (an endpoint failing alone).
    health: Health,
    focus: Focus,
    /// Kinds `r`/`R` asked for, with the store's count of sends at the press.
    forced: HashMap<Kind, u64>,
    /// The plan in hand, in its lines.
    queue: Queue,
    planned_at: Option<DateTime<Utc>>,
    /// Something changed what would be planned.
    dirty: bool,
    /// …and a person waits on it: plan again now, not within [`REPLAN_EVERY`].
    urgent: bool,
    next_due: Option<DateTime<Utc>>,
    sweeper: Sweeper,
    /// What the probe's scheduled rounds found.
    probed: super::probed::Probed,
    money: Money,
}

impl Engine {
    pub fn new(config: Config) -> Self {
        let types = Types::default().with_saved(config.saved_types.clone());
        Self {
            sweeper: Sweeper::new(&config),
            config,
            store: Store::default(),
            types,
            connection: Connection::default(),
            health: Health::default(),
            focus: Focus::default(),
            forced: HashMap::new(),
            queue: Queue::default(),
            planned_at: None,
            dirty: true,
            urgent: true,
            next_due: None,
            probed: super::probed::Probed::default(),
            money: Money::default(),
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
        self.sweeper.book()
    }

    pub fn marks(&self) -> &Marks {
        self.sweeper.marks()
    }

    /// The marks as the file has them (another process may have changed them); whether
    /// they differ from those held.
    /// Alerts other processes on the account have open (see [`crate::alerts::AlertBook::adopt`]).
    pub fn adopt_alerts(&mut self, open: Vec<crate::alerts::Alert>) {
        self.sweeper.adopt(open);
    }

    pub fn set_marks(&mut self, marks: Marks) -> bool {
        self.sweeper.set_marks(marks)
    }

    /// An acknowledgement or silence an observer asks for; it holds from the next sweep.
    pub fn mark(&mut self, change: MarkChange) {
        self.sweeper.mark(change);
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// What observers show now: what they show and have not shown yet goes first (see
    /// [`planner`]).
    pub fn set_focus(&mut self, focus: Focus) {
        if focus != self.focus {
            self.focus = focus;
            self.dirty = true;
            self.urgent = true;
        }
    }

    /// `r`/`R`: these kinds are due now, whatever their age.
    pub fn refresh(&mut self, kinds: &[Kind]) {
        for kind in kinds {
            self.forced.insert(*kind, self.store.sends());
        }
        self.dirty = true;
        self.urgent = true;
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

    /// The next planned read to send now, if any is due (marked in flight), with the
    /// scheduler's lane it goes in. `background`: the caller takes a read of the sweep's
    /// lines now (the screen's line is always taken: it is bounded by the screen).
    pub fn next_request(
        &mut self,
        now: DateTime<Utc>,
        background: bool,
    ) -> Option<(Request, Lane)> {
        let stale_plan = self
            .planned_at
            .is_none_or(|at| now - at >= REPLAN_EVERY || at > now);
        let due_again = self.next_due.is_some_and(|n| n <= now);
        // Watched data fallen due goes ahead of the slow data still in hand; and data
        // fallen due since the plan was made joins it within a second, even behind a
        // long backlog.
        if ((self.dirty || due_again) && (self.queue.is_empty() || stale_plan || self.urgent))
            || (self.queue.watched_empty() && due_again)
        {
            self.replan(now);
        }
        if !background && !self.queue.screen_next() {
            return None;
        }
        let (store, planned_at) = (&self.store, self.planned_at);
        // Answered or sent since it was planned: no longer due.
        let due = self.queue.pick(|due| {
            store.get(&due.request).is_some_and(|e| {
                e.is_in_flight(now)
                    || e.answered_at()
                        .zip(planned_at)
                        .is_some_and(|(answered, planned)| answered > planned)
            })
        })?;
        self.store.sent(&due.request, now);
        let lane = if due.pick == Pick::Screen {
            Lane::Screen
        } else {
            Lane::Background
        };
        Some((due.request, lane))
    }

    /// Of `planned` (reads on their way in the sweep's lane), those the screen now waits
    /// on and never had (see [`planner::for_the_screen`]): the driver asks the scheduler
    /// to move them up.
    pub fn wanted_on_screen<'a>(
        &self,
        planned: impl IntoIterator<Item = &'a Request>,
        now: DateTime<Utc>,
    ) -> Vec<Request> {
        let needs = planner::type_needs_on_screen(&self.planner_input(now));
        planned
            .into_iter()
            .filter(|r| planner::for_the_screen(&self.focus, &needs, r))
            .filter(|r| self.store.get(r).is_none_or(|e| e.answered_at().is_none()))
            .cloned()
            .collect()
    }

    fn planner_input(&self, now: DateTime<Utc>) -> planner::Input<'_> {
        planner::Input {
            store: &self.store,
            types: &self.types,
            focus: &self.focus,
            refresh: self.config.refresh,
            forced: &self.forced,
            link: self.connection.link,
            no_answer_since: self.connection.no_answer_since(),
            now,
        }
    }

    fn replan(&mut self, now: DateTime<Utc>) {
        let plan = planner::plan(&self.planner_input(now));
        self.queue.fill(plan.due);
        self.next_due = plan.next;
        self.planned_at = Some(now);
        self.dirty = false;
        self.urgent = false;
    }

    /// When the engine next has something to do by itself: a read falls due (`room`:
    /// the caller can send one now; without room an answer wakes it anyway), or a sweep
    /// of the rules falls due.
    pub fn next_wakeup(&self, room: bool) -> Option<DateTime<Utc>> {
        let sweep = self.sweeper.next_due(self.sweep_every());
        let due = self.next_due.filter(|_| room);
        [due, sweep].into_iter().flatten().min()
    }

    /// Takes an answer in.
    pub fn answered(&mut self, loaded: &Loaded, now: DateTime<Utc>) -> Answered {
        let mut out = Answered::default();
        let request = loaded.request();
        let was_silent = self.connection.no_answer_since().is_some();
        let was_unreachable = self.connection.unreachable_since().is_some();
        self.health.observe(loaded, now);
        let changed = self.connection.observe(loaded, now);
        if !was_silent && self.connection.no_answer_since().is_some() {
            // Nothing answered since this failure: the plan in hand was made for an API that
            // answers; from now the ten-second check (see the planner).
            self.queue.clear();
            self.planned_at = None;
            self.dirty = true;
        }
        if was_unreachable && self.connection.unreachable_since().is_none() {
            // Back after an outage: what got no answer meanwhile is due now, the screen's
            // first (the next plan is made at once). Not after one endpoint's failure
            // while others answered: that one is asked again at its own retry, not
            // hammered at each other answer.
            self.health.reconnected();
            self.store.forgive_silence();
            self.dirty = true;
            self.urgent = true;
        }
        if changed {
            out.connection = Some(self.connection);
            // The plan in hand was made for another connection (nothing is sent into
            // the void once the API stops answering): plan again now.
            self.queue.clear();
            self.planned_at = None;
            self.dirty = true;
        }
        self.sweeper
            .answered(&request, loaded.error().is_none(), now);
        // A 422 to a usage read says "not a rotating service": learnt, not a failure.
        if let (Request::Rate(id) | Request::Stats(id), Some(ApiError::Unprocessable { .. })) =
            (&request, loaded.error())
            && self.types.learn(*id, &ProductType::Fpr)
        {
            self.dirty = true;
        }
        self.store.answered(loaded, now);
        self.money.answered(&request);
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
        match &request {
            // The list tells what the screen's rows are, and the catalogue what the types
            // need next: both are planned now, not within a second (a first screen is a
            // chain of these).
            Request::Services => {
                if let Some(list) = self.store.services() {
                    let listed: HashSet<u64> = list.iter().map(|s| s.service_id).collect();
                    self.store.retain_services(&listed);
                }
                self.types.learn_from(&self.store);
                self.dirty = true;
                self.urgent = true;
            }
            // What the types still need changes with each of these, learnt or not; a type
            // learnt tells whether the rows on screen have a rate to read.
            Request::Products | Request::Product(_) | Request::Service(_) => {
                let learnt = self.types.learn_from(&self.store);
                self.dirty = true;
                self.urgent |= learnt || request == Request::Products;
            }
            _ => {}
        }
        out.types = self.types.take_changed();
        out
    }

    /// A probe round an observer ran (`watch --probe-every`) ended: kept for the rules
    /// (the next sweep counts it) and the summary; answers its history rows.
    pub fn probed(
        &mut self,
        round: crate::probe::round::Round,
        now: DateTime<Utc>,
    ) -> Vec<crate::history::Record> {
        let judged = !round.judge_down;
        let records = self.probed.take(round, &self.store, now);
        if judged {
            self.sweeper.probed();
        }
        records
    }

    /// Reads still on their way.
    pub fn in_flight(&self) -> usize {
        self.store.in_flight()
    }

    fn sweep_every(&self) -> chrono::Duration {
        let every = self.config.refresh.unwrap_or(Duration::from_secs(30));
        chrono::Duration::from_std(every).unwrap_or(chrono::Duration::MAX)
    }

    /// Evaluates the rules when a sweep is due (see [`super::sweeper`]).
    pub fn sweep(&mut self, now: DateTime<Utc>) -> Option<Swept> {
        let reach = self.sweep_due(now)?;
        self.refresh_money(now);
        let snapshot = self.snapshot(self.money.runway().map(|r| &**r), now);
        Some(self.sweeper.sweep(reach, &snapshot, &self.config, now))
    }

    /// The sweep [`Engine::sweep`] would run now (the driver reads the marks first).
    pub fn sweep_due(&self, now: DateTime<Utc>) -> Option<Reach> {
        let idle = self.store.in_flight() == 0 && self.queue.is_empty();
        self.sweeper.due(idle, self.sweep_every(), now)
    }

    fn snapshot(
        &self,
        runway: Option<&crate::billing::Runway>,
        now: DateTime<Utc>,
    ) -> crate::alerts::Snapshot {
        let sources = facts::Sources {
            store: &self.store,
            types: &self.types,
            connection: &self.connection,
            health: &self.health,
            probed: &self.probed,
            base_url: &self.config.base_url,
            offset: self.config.offset,
        };
        facts::snapshot(&sources, runway, now)
    }

    /// Works the money ahead out again if an answer or the day changed what it reads
    /// ([`super::money`]); whether it changed (observers are then told).
    pub fn refresh_money(&mut self, now: DateTime<Utc>) -> bool {
        self.money.refresh(&self.store, self.config.offset, now)
    }

    /// The money ahead as last worked out ([`Engine::refresh_money`]).
    pub fn money(&self) -> Option<&Arc<crate::billing::Runway>> {
        self.money.runway()
    }

    /// What read-only observers see (see [`Summary`]).
    /// The money ahead in it is the one last worked out ([`Engine::refresh_money`]).
    pub fn summary(&self, now: DateTime<Utc>) -> Summary {
        let runway = self.money.runway().cloned();
        Summary {
            profile: self.config.profile.clone(),
            base_url: self.config.base_url.clone(),
            connection: self.connection,
            snapshot: self.snapshot(runway.as_deref(), now),
            oldest: facts::oldest(&self.store, &self.types, now),
            sweeps: self.sweeper.sweeps(),
            // A documented answer (a service's permanent `ClientID not found`) is the
            // server's word, checked: not a read that fails.
            failing: self
                .store
                .entries()
                .filter(|(_, e)| {
                    e.error
                        .as_ref()
                        .is_some_and(|(err, _)| !super::connection::is_documented(err))
                })
                .count(),
            runway,
            skipped: facts::skipped(&self.store),
            at: Some(now),
            probes: self.probed.all(),
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
