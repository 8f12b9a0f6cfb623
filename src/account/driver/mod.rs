//! The engine on a task of its own: one per account. It owns the account's scheduler
//! (the fetcher, with the budget), sends what the engine plans, takes the observers'
//! asks, feeds every successful read to the history writer, saves what the engine learns
//! (open alerts, service types) off the task, and tells observers:
//!
//! - every change, as an [`Event`] on the channel [`spawn`] returns (the dashboard
//!   mirrors the store from them: what was sent, what was answered, the connection, the
//!   types, each sweep of the alert rules);
//! - a [`Summary`] on a watch channel after every sweep and every change of the
//!   connection (`watch`'s lines and `/metrics` read only that).
//!
//! At most [`WINDOW`] planned reads of the sweep are handed to the scheduler at a time, so
//! the engine's order (the oldest first) is the order they go out in; the screen's reads
//! (bounded by the screen) are handed over as soon as they are planned, in the
//! scheduler's screen lane, and what a person asks goes at once in the person's lane,
//! ahead of both. A planned read still waiting in the scheduler that a person then asks
//! for, or that comes on screen, moves up to their lane.
//!
//! The task ends when every [`AccountHandle`] is dropped or the event receiver is.

use super::connection::Connection;
use super::engine::{Config, Engine, Swept};
use super::facts::Summary;
use super::freshness::Kind;
use super::planner::Focus;
use super::types::TypesFile;
use crate::alerts::marks::{MarkChange, Marks};
use crate::alerts::store::AlertFile;
use crate::api::{Loaded, ProductType, Request, Ticket};
use crate::history::marks::MarksFile;
use crate::history::{History, Sweep};
use crate::scheduler::fetcher::{self, Fetched, FetcherHandle};
use crate::scheduler::{Door, Lane, View};
use chrono::{DateTime, Utc};
use std::collections::HashMap;
use std::sync::Arc;
use tokio::sync::{mpsc, watch};

/// The source of the current time; tests inject a fake one.
pub type Clock = Arc<dyn Fn() -> DateTime<Utc> + Send + Sync>;

/// Planned reads of the sweep handed to the scheduler at once (its own polite
/// concurrency).
pub const WINDOW: usize = crate::scheduler::bucket::POLITE_CONCURRENCY;

/// The most answers taken in one step.
const BATCH: usize = 512;

/// What an engine tells its observer.
// `Loaded` is the big one and the common one.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Event {
    /// A read went out (mark it loading).
    Sent(Request),
    /// An answer, read or write, planned or asked, with the ticket it was asked with
    /// ([`AccountHandle::send`]).
    Loaded {
        loaded: Loaded,
        ticket: Option<Ticket>,
    },
    Connection(Connection),
    /// Every type known, when one was learnt.
    Types(HashMap<u64, ProductType>),
    /// A sweep of the alert rules: its transitions and the book after it.
    Swept(Swept),
    /// The acknowledgements and silences changed (asked here or read from the file).
    Marked(Marks),
    /// The money ahead changed: the engine's one working out ([`crate::account::money`]).
    Money(Option<Arc<crate::billing::Runway>>),
}

enum Ask {
    Fetch(Request, Option<Ticket>),
    /// A read an observer keeps fresh on its own schedule, in the sweep's lane.
    Background(Request),
    /// A probe round an observer ran (boxed: a round is wider than the other asks).
    Probed(Box<crate::probe::round::Round>),
    Focus(Focus),
    Refresh(Vec<Kind>),
    History(History),
    Mark(MarkChange),
}

/// An observer's side of an engine: cheap to clone, never blocks.
#[derive(Clone)]
pub struct AccountHandle {
    asks: mpsc::UnboundedSender<Ask>,
    /// Asks sent so far (the driver says how many it has taken, with its idle state).
    sent: Arc<std::sync::atomic::AtomicU64>,
    summary: watch::Receiver<Arc<Summary>>,
    budget: watch::Receiver<Option<View>>,
    idle: watch::Receiver<Idle>,
}

/// The driver's state for waiting observers: whether it is idle, and how many asks it
/// had taken then.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Idle {
    pub idle: bool,
    pub taken: u64,
}

impl std::fmt::Debug for AccountHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AccountHandle")
    }
}

impl AccountHandle {
    /// A one-off read or a write; its answer comes as [`Event::Loaded`].
    fn ask(&self, ask: Ask) {
        // A closed channel means the engine is gone because the program is ending.
        if self.asks.send(ask).is_ok() {
            self.sent.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
    }

    pub fn fetch(&self, request: Request) {
        self.ask(Ask::Fetch(request, None));
    }

    /// A read an observer keeps fresh itself (`watch`'s probe rounds read the IP lists
    /// so): through the account's budget in the sweep's lane, behind what a person waits
    /// on; its answer comes as [`Event::Loaded`].
    pub fn fetch_background(&self, request: Request) {
        self.ask(Ask::Background(request));
    }

    /// A probe round ended ([`crate::probe::round`]): the engine keeps it for the rules,
    /// the summary and the history, and sweeps.
    pub fn probed(&self, round: crate::probe::round::Round) {
        self.ask(Ask::Probed(Box::new(round)));
    }

    /// A write sent as the attempt `ticket`: sent exactly once, its answer told with that
    /// ticket (see [`Ticket`]), so it is never taken for another attempt's.
    pub fn send(&self, request: Request, ticket: Ticket) {
        self.ask(Ask::Fetch(request, Some(ticket)));
    }

    /// What the observer shows now (it goes first, within its share).
    pub fn focus(&self, focus: Focus) {
        self.ask(Ask::Focus(focus));
    }

    /// `r`/`R`: these kinds now.
    pub fn refresh(&self, kinds: Vec<Kind>) {
        self.ask(Ask::Refresh(kinds));
    }

    /// From now on, every successful read is recorded by `history` (the dashboard makes
    /// its writer after the engine, with its own answers' sink).
    pub fn record_to(&self, history: History) {
        self.ask(Ask::History(history));
    }

    /// Acknowledge an alert, or silence (or end a silence of) alerts: applied from the
    /// next sweep, written to the profile's history file, told as [`Event::Marked`].
    pub fn mark(&self, change: MarkChange) {
        self.ask(Ask::Mark(change));
    }

    /// Whether the engine is idle with every ask sent so far taken.
    pub fn is_settled(&self) -> bool {
        let state = *self.idle.borrow();
        state.idle && state.taken >= self.sent.load(std::sync::atomic::Ordering::SeqCst)
    }

    pub fn summary(&self) -> watch::Receiver<Arc<Summary>> {
        self.summary.clone()
    }

    pub fn budget(&self) -> watch::Receiver<Option<View>> {
        self.budget.clone()
    }

    /// The engine's idle state (nothing in flight, nothing due now, every event of what
    /// it did already sent) with the asks it had taken: with [`AccountHandle::is_settled`],
    /// a state tests wait for instead of a stretch of quiet.
    pub fn idle(&self) -> watch::Receiver<Idle> {
        self.idle.clone()
    }
}

/// How an engine runs beside its configuration.
pub struct Setup {
    pub config: Config,
    /// The account's client and request budget.
    pub door: Door,
    pub clock: Clock,
    /// How much faster than real time `clock` runs (1 in real use).
    pub speed: u32,
    pub history: Option<History>,
    pub alert_file: Option<(AlertFile, String)>,
    pub types_file: Option<(TypesFile, String)>,
    /// Where acknowledgements and silences are kept (the profile's history file); none:
    /// in memory for the run.
    pub marks_file: Option<MarksFile>,
    /// The profile whose lists read are kept for the shell's completion ([`crate::seen`]).
    pub seen: Option<String>,
}

/// An engine with no state files and no history (tests, benches, the headless session):
/// on `door`, or on a client alone with a budget that knows nothing yet.
pub fn start(
    config: Config,
    door: impl Into<Door>,
    clock: Clock,
) -> (AccountHandle, mpsc::UnboundedReceiver<Event>) {
    spawn(Setup {
        config,
        door: door.into(),
        clock,
        speed: 1,
        history: None,
        alert_file: None,
        types_file: None,
        marks_file: None,
        seen: None,
    })
}

/// Starts the engine of one account on the current runtime.
pub fn spawn(setup: Setup) -> (AccountHandle, mpsc::UnboundedReceiver<Event>) {
    let (fetcher, results) = fetcher::spawn(setup.door.clone(), fetcher::DEFAULT_CONCURRENCY);
    let (asks_tx, asks_rx) = mpsc::unbounded_channel();
    let (events_tx, events_rx) = mpsc::unbounded_channel();
    let now = (setup.clock)();
    let engine = Engine::new(setup.config.clone());
    let (summary_tx, summary_rx) = watch::channel(Arc::new(engine.summary(now)));
    let (idle_tx, idle_rx) = watch::channel(Idle::default());
    let handle = AccountHandle {
        asks: asks_tx,
        sent: Arc::default(),
        summary: summary_rx,
        budget: fetcher.budget(),
        idle: idle_rx,
    };
    let driver = Driver {
        engine,
        fetcher,
        results,
        asks: asks_rx,
        events: events_tx,
        summary: summary_tx,
        idle: idle_tx,
        taken: 0,
        planned: HashMap::new(),
        setup,
    };
    tokio::spawn(driver.run());
    (handle, events_rx)
}

struct Driver {
    engine: Engine,
    fetcher: FetcherHandle,
    results: mpsc::UnboundedReceiver<Fetched>,
    asks: mpsc::UnboundedReceiver<Ask>,
    events: mpsc::UnboundedSender<Event>,
    summary: watch::Sender<Arc<Summary>>,
    idle: watch::Sender<Idle>,
    /// Asks taken so far.
    taken: u64,
    /// Planned reads with the scheduler, and whether each went in the sweep's lane.
    planned: HashMap<Request, bool>,
    setup: Setup,
}

impl Driver {
    fn now(&self) -> DateTime<Utc> {
        (self.setup.clock)()
    }

    async fn run(mut self) {
        loop {
            let now = self.now();
            self.send_planned(now);
            // After each batch of answers, and when the day changes.
            if self.engine.refresh_money(now) {
                let _ = self.events.send(Event::Money(self.engine.money().cloned()));
            }
            if self.engine.sweep_due(now).is_some() {
                self.read_marks().await;
                self.read_alerts().await;
            }
            if let Some(swept) = self.engine.sweep(now) {
                self.swept(swept, now);
            }
            if self.events.is_closed() {
                return;
            }
            // After the events of this step: an observer that sees idle has them all.
            let idle = Idle {
                idle: self.engine.in_flight() == 0 && self.planned.is_empty(),
                taken: self.taken,
            };
            self.idle
                .send_if_modified(|was| std::mem::replace(was, idle) != idle);
            let room = self.background() < WINDOW;
            let after = self
                .engine
                .next_wakeup(room)
                .map(|at| (at - self.now()).to_std().unwrap_or_default() / self.setup.speed.max(1));
            let timer = async {
                match after {
                    Some(d) => tokio::time::sleep(d).await,
                    None => std::future::pending().await,
                }
            };
            // A person's asks before the answers: what they wait on goes to the scheduler
            // before the plan's window is refilled.
            tokio::select! {
                biased;
                ask = self.asks.recv() => match ask {
                    Some(ask) => self.ask(ask),
                    None => return,
                },
                Some(first) = self.results.recv() => {
                    let mut batch = vec![first];
                    while batch.len() < BATCH && let Ok(more) = self.results.try_recv() {
                        batch.push(more);
                    }
                    self.answered(batch);
                }
                () = timer => {
                    let now = self.now();
                    if let Some(c) = self.engine.tick(now) {
                        self.connection_changed(c, now);
                    }
                }
            }
        }
    }

    /// Planned reads of the sweep's lane with the scheduler.
    fn background(&self) -> usize {
        self.planned.values().filter(|sweep| **sweep).count()
    }

    fn send_planned(&mut self, now: DateTime<Utc>) {
        let mut background = self.background();
        while let Some((request, lane)) = self.engine.next_request(now, background < WINDOW) {
            let sweep = lane == Lane::Background;
            background += usize::from(sweep);
            self.planned.insert(request.clone(), sweep);
            self.fetcher.fetch(request.clone(), lane);
            let _ = self.events.send(Event::Sent(request));
        }
    }

    /// What the screen now waits on, still waiting in the sweep's lane, moves up (the
    /// scheduler keeps its one place in the line).
    fn promote(&mut self, now: DateTime<Utc>) {
        let background = self
            .planned
            .iter()
            .filter(|(_, sweep)| **sweep)
            .map(|(r, _)| r);
        for request in self.engine.wanted_on_screen(background, now) {
            self.planned.insert(request.clone(), false);
            self.fetcher.fetch(request, Lane::Screen);
        }
    }

    fn ask(&mut self, ask: Ask) {
        self.taken += 1;
        let now = self.now();
        match ask {
            Ask::Fetch(request, ticket) => {
                let planned = self.planned.contains_key(&request);
                if self.engine.ask(&request, now) || planned {
                    // A planned read already waiting moves up (one answer serves both).
                    self.fetcher.send(request.clone(), Lane::Person, ticket);
                    if !request.is_write() && !planned {
                        let _ = self.events.send(Event::Sent(request));
                    }
                }
            }
            Ask::Background(request) => {
                if self.engine.ask(&request, now) {
                    self.fetcher.fetch(request.clone(), Lane::Background);
                    let _ = self.events.send(Event::Sent(request));
                }
            }
            Ask::Probed(round) => {
                let records = self.engine.probed(*round, now);
                if let Some(history) = &self.setup.history
                    && !records.is_empty()
                {
                    history.record(Sweep { at: now, records });
                }
            }
            Ask::Focus(focus) => {
                self.engine.set_focus(focus);
                self.promote(now);
            }
            Ask::Refresh(kinds) => self.engine.refresh(&kinds),
            Ask::History(history) => self.setup.history = Some(history),
            Ask::Mark(change) => {
                self.engine.mark(change.clone());
                if let Some(file) = &self.setup.marks_file {
                    file.apply(change);
                }
                let _ = self.events.send(Event::Marked(self.engine.marks().clone()));
            }
        }
    }

    fn answered(&mut self, batch: Vec<Fetched>) {
        let now = self.now();
        let mut records = Vec::new();
        for Fetched { loaded, ticket } in batch {
            self.planned.remove(&loaded.request());
            let answered = self.engine.answered(&loaded, now);
            if self.setup.history.is_some() {
                records.extend(crate::history::records(&loaded));
            }
            self.keep_seen(&loaded);
            if let Some(c) = answered.connection {
                self.connection_changed(c, now);
            }
            if let Some(types) = answered.types {
                self.save_types(&types);
                let _ = self.events.send(Event::Types(types));
            }
            let _ = self.events.send(Event::Loaded { loaded, ticket });
        }
        if let Some(history) = &self.setup.history {
            history.record(Sweep { at: now, records });
        }
        // An answer may tell what the screen waits on (the catalogue names the products
        // whose details tell the visible rows' types).
        self.promote(now);
    }

    fn connection_changed(&mut self, connection: Connection, now: DateTime<Utc>) {
        let _ = self.events.send(Event::Connection(connection));
        self.publish(now);
    }

    fn publish(&self, now: DateTime<Utc>) {
        self.summary
            .send_replace(Arc::new(self.engine.summary(now)));
    }
}

mod files;
