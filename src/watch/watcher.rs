//! One watched profile: its account engine ([`crate::account`]) and what `watch` does
//! with what the engine tells: alerts to the sink (JSON lines, `on_alert`), metrics to
//! the board, a line per sweep with `--verbose`, a line whenever the connection changes,
//! and keeping services bound (`--keep-bound`).
//!
//! - The engine decides what is read and when; `watch` asks nothing of the base sweep.
//!   Its only asks are keep-bound's reads and rebinds, which go through the engine (and
//!   so the account's one scheduler); their answers are taken here.
//! - **A sweep** is the engine's sweep of the alert rules; its transitions are delivered,
//!   the metrics published and, with `--verbose`, one line written. While the API does
//!   not answer, the line says so (with since when and the age of the data) instead of
//!   repeating old values as if they were fresh.
//! - **Stopping**: on the stop signal the loop ends, a rebind still on its way is waited
//!   for (its outcome logged), the history writer is asked a question so every read
//!   before it is written, and the output is flushed; each wait is bounded by
//!   [`FINISH_LIMIT`].

use super::collect;
use super::keep_bound::{Action, KeepBound};
use super::output::Output;
use crate::account::{AccountHandle, Clock, Connection, Event, Link, Summary};
use crate::alerts::AlertSink;
use crate::api::{Loaded, Request, ServiceUpdate};
use crate::history::{Answer, History};
use crate::metrics::{Board, ProfileMetrics};
use chrono::{DateTime, Utc};
use std::net::Ipv4Addr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, watch};

mod finish;
mod probing;

/// The longest a stop waits for writes to finish.
pub const FINISH_LIMIT: Duration = Duration::from_secs(10);
/// The longest a stop waits for the `on_alert` commands on their way before ending them.
pub const ON_ALERT_GRACE: Duration = Duration::from_secs(5);

/// The `on_alert` command's runner, and where (for which account) a stop keeps what it
/// did not deliver.
pub type OnAlertRunner = (
    crate::alerts::runner::OnAlert,
    Option<(crate::alerts::store::Undelivered, String)>,
);

/// `--keep-bound`'s settings.
#[derive(Clone, Debug)]
pub struct KeepOptions {
    pub services: Vec<u64>,
    pub every: Duration,
    pub dry_run: bool,
    /// Where the public IP is looked up, in order.
    pub urls: Vec<String>,
    /// Plain http:// lookups of hosts that are not loopback are allowed.
    pub allow_http: bool,
}

/// How a watcher runs beside its engine.
pub struct Options {
    pub clock: Clock,
    /// How much faster than real time `clock` runs (1 in real use; tests and the soak
    /// bench run a fake clock faster): real sleeps are the waits divided by it.
    pub speed: u32,
    /// `--verbose` given once (a line when it changes) or more (a line per sweep).
    pub verbose: u8,
    pub board: Option<Board>,
    pub keep: Option<KeepOptions>,
    /// The history writer and its answers: flushed on stop.
    pub history: Option<(History, mpsc::UnboundedReceiver<Answer>)>,
    /// The `on_alert` command's runner: its runs get a grace on stop, then are ended, and
    /// what it did not deliver is kept for the next start (in this file, for this account).
    pub on_alert: Option<OnAlertRunner>,
    /// `--probe-every`: the probe's rounds ([`super::probing`]).
    pub probe: Option<super::probing::ProbeOptions>,
}

pub struct Watcher {
    account: AccountHandle,
    events: mpsc::UnboundedReceiver<Event>,
    summary: watch::Receiver<Arc<Summary>>,
    sink: Box<dyn AlertSink + Send>,
    profile: String,
    output: Output,
    options: Options,
    keep: Option<KeepBound>,
    /// The public-IP lookups' answers (they run as tasks of their own).
    ips: (
        mpsc::UnboundedSender<Lookup>,
        mpsc::UnboundedReceiver<Lookup>,
    ),
    metrics: ProfileMetrics,
    /// The budget's changes, and what was last said of it.
    budget: watch::Receiver<Option<crate::scheduler::View>>,
    budget_told: Option<super::budget_news::BudgetNews>,
    swept: Swept,
    connection: Connection,
    /// `--probe-every`'s schedule, and the round running (see [`probing`]).
    rounds: probing::Rounds,
}

/// What the engine's sweeps of the alert rules have said so far.
#[derive(Default)]
struct Swept {
    /// Sweeps finished.
    count: u64,
    /// Whether a sweep's line is news (`--verbose` once).
    news: super::sweep_news::SweepNews,
    open_alerts: usize,
    /// The book and marks of the last sweep, for `/metrics`.
    book: Option<crate::alerts::AlertBook>,
    marks: crate::alerts::marks::Marks,
}

/// A public-IP lookup's answer.
type Lookup = Result<Ipv4Addr, String>;

// `Event` is the common one; boxing it would only move the allocation.
#[allow(clippy::large_enum_variant)]
enum Woke {
    Stop,
    Event(Event),
    EngineGone,
    Ip(Lookup),
    Timer,
    Budget,
    Round(crate::probe::round::Round),
}

impl Watcher {
    pub fn new(
        profile: &str,
        (account, events): (AccountHandle, mpsc::UnboundedReceiver<Event>),
        sink: Box<dyn AlertSink + Send>,
        output: Output,
        options: Options,
    ) -> Self {
        let now = (options.clock)();
        let keep = options
            .keep
            .as_ref()
            .map(|k| KeepBound::new(&k.services, k.every, k.dry_run, now));
        let rounds = probing::Rounds::new(options.probe.as_ref(), now);
        Self {
            summary: account.summary(),
            budget: account.budget(),
            budget_told: None,
            account,
            events,
            sink,
            profile: profile.to_owned(),
            output,
            options,
            keep,
            ips: mpsc::unbounded_channel(),
            metrics: ProfileMetrics::default(),
            swept: Swept::default(),
            connection: Connection::default(),
            rounds,
        }
    }

    /// Sweeps finished so far.
    pub fn sweeps(&self) -> u64 {
        self.swept.count
    }

    pub fn keep_bound(&self) -> Option<&KeepBound> {
        self.keep.as_ref()
    }

    fn now(&self) -> DateTime<Utc> {
        (self.options.clock)()
    }

    /// Runs until `stop` says so (or its sender is gone); `Err` when standard output
    /// closed, so alerts can no longer be delivered.
    pub async fn run(mut self, mut stop: watch::Receiver<bool>) -> Result<(), String> {
        self.publish();
        let now = self.now();
        let first = self.keep.as_mut().map(|k| k.tick(now)).unwrap_or_default();
        self.act(first);
        let outcome = loop {
            if *stop.borrow() {
                break Ok(());
            }
            if self.output.is_broken() {
                break Err("standard output is closed: alerts cannot be delivered".into());
            }
            let woke = self.wait(&mut stop).await;
            // The time it woke, not the time it went to sleep: a timer's tick with the
            // earlier time finds nothing due and sleeps a whole round more.
            let now = self.now();
            match woke {
                Woke::Stop => break Ok(()),
                Woke::EngineGone => break Err("the account engine stopped".into()),
                Woke::Event(event) => self.on_event(event),
                Woke::Ip(ip) => {
                    let actions = self.keep.as_mut().map(|k| k.on_ip(ip, now));
                    self.act(actions.unwrap_or_default());
                }
                Woke::Timer => {
                    let actions = self.keep.as_mut().map(|k| k.tick(now));
                    self.act(actions.unwrap_or_default());
                    self.probe_tick(now);
                }
                Woke::Budget => self.on_budget(now),
                Woke::Round(round) => self.on_round(round, now),
            }
        };
        self.finish().await;
        outcome
    }

    async fn wait(&mut self, stop: &mut watch::Receiver<bool>) -> Woke {
        let now = self.now();
        let wake = [
            self.keep.as_ref().and_then(KeepBound::next_wakeup),
            self.rounds.next_wakeup(now),
        ]
        .into_iter()
        .flatten()
        .min();
        let speed = self.options.speed.max(1);
        let after = wake.map(|at| (at - self.now()).to_std().unwrap_or_default() / speed);
        let timer = async {
            match after {
                Some(d) => tokio::time::sleep(d).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            _ = stop.changed() => Woke::Stop,
            event = self.events.recv() => match event {
                Some(event) => Woke::Event(event),
                None => Woke::EngineGone,
            },
            Some(ip) = self.ips.1.recv() => Woke::Ip(ip),
            Some(round) = self.rounds.ended() => Woke::Round(round),
            Ok(()) = self.budget.changed() => Woke::Budget,
            () = timer => Woke::Timer,
        }
    }

    /// A change of the budget worth a line (see [`BudgetNews`]), whatever `--verbose`
    /// says: an unattended watcher held back by its server must say so, and why.
    fn on_budget(&mut self, now: DateTime<Utc>) {
        let Some(view) = *self.budget.borrow_and_update() else {
            return;
        };
        let news = super::budget_news::BudgetNews::of(&view);
        let first = self.budget_told.is_none();
        if self.budget_told.replace(news) == Some(news) {
            return;
        }
        // The assumed figure at start is no news.
        if first && news.is_the_default() {
            return;
        }
        if let Some(line) = news.line(&view, now) {
            self.output.log(format!("{}: {line}", self.profile));
        }
    }

    fn on_event(&mut self, event: Event) {
        match event {
            Event::Loaded { loaded, .. } => {
                self.on_loaded(&loaded);
                self.on_ip_list(&loaded);
            }
            Event::Swept(swept) => {
                for t in &swept.transitions {
                    self.sink.record(t);
                }
                for n in &swept.notices {
                    if let crate::alerts::Notice::Digest(d) = n {
                        self.output.log(d.message(&self.profile));
                    }
                    self.sink.announce(n);
                }
                // Absence of data resolves nothing: an open alert whose data did not come
                // is said once as not checked, and stays open.
                let utc = chrono::FixedOffset::east_opt(0).expect("zero offset");
                for a in &swept.unchecked {
                    if let Some(when) = a.not_checked(utc) {
                        self.output.log(format!(
                            "{}: {} {} still open, {when} (its data has not come since)",
                            self.profile,
                            a.key.rule.as_str(),
                            a.key.subject
                        ));
                    }
                }
                self.swept.open_alerts = swept.book.open_count();
                self.swept.book = Some(swept.book);
                self.swept.marks = swept.marks;
                self.sweep_done();
                self.probe_tick(self.now());
            }
            Event::Marked(marks) => {
                self.swept.marks = marks;
                self.publish();
            }
            Event::Connection(c) => self.on_connection(c),
            // The money ahead reaches `/metrics` through the engine's summary.
            Event::Sent(_) | Event::Types(_) | Event::Money(_) => {}
        }
    }

    /// Counts an answer; takes those of keep-bound.
    fn on_loaded(&mut self, loaded: &Loaded) {
        let now = self.now();
        let request = loaded.request();
        let key = (collect::endpoint(&request), collect::status(loaded.error()));
        *self.metrics.requests.entry(key).or_default() += 1;
        match loaded {
            Loaded::UpdateService(service_id, update, result)
                if update.setip.is_some()
                    && self
                        .keep
                        .as_ref()
                        .is_some_and(|k| k.is_writing(*service_id)) =>
            {
                let result = result.as_ref().map(|_| ());
                let actions = self
                    .keep
                    .as_mut()
                    .map(|k| k.on_rebind(*service_id, result, now));
                self.act(actions.unwrap_or_default());
            }
            Loaded::Service(id, result) if self.keep.as_ref().is_some_and(|k| k.keeps(*id)) => {
                let read = result.as_ref().map(bound_ip);
                let actions = self.keep.as_mut().map(|k| k.on_read(*id, read, now));
                self.act(actions.unwrap_or_default());
            }
            _ => {}
        }
    }

    /// The connection changed: one line, whatever `--verbose` says (an unattended
    /// watcher that stops seeing its account must say so).
    fn on_connection(&mut self, c: Connection) {
        let was_down = self.connection.down().is_some();
        let went_down = c.down().map(|(state, _)| state) != self.connection.down().map(|(s, _)| s);
        self.connection = c;
        let now = self.now();
        let offset = chrono::FixedOffset::east_opt(0).expect("zero offset");
        match c.link {
            Link::Unreachable { .. } | Link::Failing { .. } | Link::Unauthorized { .. }
                if went_down =>
            {
                self.output.log(format!(
                    "{}: the API is {}",
                    self.profile,
                    c.describe(now, offset)
                ));
            }
            Link::Online if was_down => self
                .output
                .log(format!("{}: the API answers again", self.profile)),
            _ => {}
        }
        self.publish();
    }

    fn act(&mut self, actions: Vec<Action>) {
        for action in actions {
            match action {
                Action::LookupIp => {
                    let (urls, allow_http) = self
                        .options
                        .keep
                        .as_ref()
                        .map(|k| (k.urls.clone(), k.allow_http))
                        .unwrap_or_default();
                    let tx = self.ips.0.clone();
                    tokio::spawn(async move {
                        let _ = tx.send(super::myip::lookup(&urls, allow_http).await);
                    });
                }
                Action::Read(id) => self.account.fetch(Request::Service(id)),
                Action::Rebind(id, ip) => self.account.fetch(Request::UpdateService {
                    service_id: id,
                    update: Box::new(ServiceUpdate {
                        setip: Some(ip.to_string()),
                        ..ServiceUpdate::default()
                    }),
                }),
                Action::Log(line) => self.output.log(format!("{}: {line}", self.profile)),
            }
        }
    }

    fn sweep_done(&mut self) {
        self.swept.count += 1;
        self.publish();
        if self.options.verbose == 0 {
            return;
        }
        let summary = self.summary.borrow().clone();
        let now = self.now();
        let line = |m: &ProfileMetrics| {
            collect::summary(&self.profile, &summary, m, self.swept.open_alerts, now)
        };
        // The budget left moves with every request, and an outage's age with every
        // sweep: neither is news.
        let news = match summary.connection.down() {
            Some((state, since)) => {
                format!("{state} since {since}, {} open", self.swept.open_alerts)
            }
            None => line(&ProfileMetrics {
                budget_remaining: None,
                ..self.metrics.clone()
            }),
        };
        if self.options.verbose > 1 || self.swept.news.worth_a_line(&news, now) {
            self.output.log(line(&self.metrics));
        }
    }

    fn publish(&mut self) {
        let summary = self.summary.borrow().clone();
        collect::metrics(&summary, self.now(), &mut self.metrics);
        if let Some(book) = &self.swept.book {
            collect::alerts(book, &self.swept.marks, self.now(), &mut self.metrics);
        }
        self.metrics.budget_remaining = self.account.budget().borrow().map(|v| v.left);
        if let Some(board) = &self.options.board
            && let Ok(mut b) = board.write()
        {
            b.insert(self.profile.clone(), self.metrics.clone());
        }
    }
}

/// The bound IP a service read says (`None`: none bound, or not an IPv4 address).
fn bound_ip(service: &crate::api::Service) -> Option<Ipv4Addr> {
    service
        .bound_ip
        .as_deref()
        .and_then(|ip| ip.trim().parse().ok())
}
