//! One watched profile: the dashboard's [`App`] and [`Effects`] driven with no renderer,
//! ticking on the app's own wakeups (as `run::run_with` does, minus the terminal), plus
//! keeping services bound and publishing metrics.
//!
//! - A **sweep** ends when the app has no request left in flight after having had some:
//!   the moment its alert rules run. Then the metrics are published and, with
//!   `--verbose`, a summary line goes to standard error.
//! - The keep-bound reads and writes go through the same scheduler as the app's (the
//!   effects' fetcher); their answers are taken here. A bind write's answer is never
//!   handed to the app (it asked for none); a service read is, as it is news to it too.
//! - **Stopping**: on the stop signal the loop ends, a rebind still on its way is waited
//!   for (its outcome logged), the history writer is asked a question so every sweep
//!   before it is written, and the output is flushed; each wait is bounded by
//!   [`FINISH_LIMIT`].

use super::collect;
use super::keep_bound::{Action, KeepBound};
use super::output::Output;
use crate::api::{Loaded, Request, ServiceUpdate};
use crate::app::{App, Clock, Command, Msg};
use crate::effects::Effects;
use crate::metrics::{Board, ProfileMetrics};
use crate::run::step_all;
use chrono::{DateTime, Utc};
use std::net::Ipv4Addr;
use std::time::Duration;
use tokio::sync::{mpsc, watch};

/// The longest a stop waits for writes to finish.
pub const FINISH_LIMIT: Duration = Duration::from_secs(10);

/// The most outcomes handled in one step (as the dashboard's loop).
const BATCH: usize = 512;

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

/// How a watcher runs beside its app.
#[derive(Clone)]
pub struct Options {
    pub clock: Clock,
    /// How much faster than real time `clock` runs (1 in real use; tests and the soak
    /// bench run a fake clock faster): real sleeps are the app's waits divided by it.
    pub speed: u32,
    pub verbose: bool,
    pub board: Option<Board>,
    pub keep: Option<KeepOptions>,
    /// The history writer is attached: flush it on stop.
    pub history: bool,
}

pub struct Watcher {
    pub app: App,
    pub effects: Effects,
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
    busy: bool,
    sweeps: u64,
    sweep_failed: u64,
}

/// A public-IP lookup's answer.
type Lookup = Result<Ipv4Addr, String>;

// `Msg` is the big one and the common one, as in the dashboard's loop.
#[allow(clippy::large_enum_variant)]
enum Woke {
    Stop,
    Msg(Msg),
    Ip(Result<Ipv4Addr, String>),
    Timer,
}

impl Watcher {
    pub fn new(app: App, effects: Effects, output: Output, options: Options) -> Self {
        let now = (options.clock)();
        let keep = options
            .keep
            .as_ref()
            .map(|k| KeepBound::new(&k.services, k.every, k.dry_run, now));
        Self {
            profile: app.settings().profile.clone(),
            app,
            effects,
            output,
            options,
            keep,
            ips: mpsc::unbounded_channel(),
            metrics: ProfileMetrics::default(),
            busy: false,
            sweeps: 0,
            sweep_failed: 0,
        }
    }

    /// Sweeps finished so far.
    pub fn sweeps(&self) -> u64 {
        self.sweeps
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
        let start = self.app.start();
        let effects = &mut self.effects;
        let known: Vec<Msg> = start
            .into_iter()
            .filter_map(|c| effects.execute(c))
            .collect();
        self.step(known);
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
            let now = self.now();
            let mut batch = Vec::new();
            match woke {
                Woke::Stop => break Ok(()),
                Woke::Msg(msg) => batch.push(msg),
                Woke::Ip(ip) => {
                    let actions = self.keep.as_mut().map(|k| k.on_ip(ip, now));
                    self.act(actions.unwrap_or_default());
                }
                Woke::Timer => {
                    batch.push(Msg::Tick);
                    let actions = self.keep.as_mut().map(|k| k.tick(now));
                    self.act(actions.unwrap_or_default());
                }
            }
            while batch.len() < BATCH
                && let Some(more) = self.effects.try_next_msg()
            {
                batch.push(more);
            }
            self.step(batch);
        };
        self.finish().await;
        outcome
    }

    async fn wait(&mut self, stop: &mut watch::Receiver<bool>) -> Woke {
        let wake = [
            self.app.next_wakeup(),
            self.keep.as_ref().and_then(KeepBound::next_wakeup),
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
            Some(msg) = self.effects.next_msg() => Woke::Msg(msg),
            Some(ip) = self.ips.1.recv() => Woke::Ip(ip),
            () = timer => Woke::Timer,
        }
    }

    /// Hands the messages the app should see to it, and notes when a sweep ended.
    fn step(&mut self, batch: Vec<Msg>) {
        let forwarded: Vec<Msg> = batch.into_iter().filter_map(|m| self.inspect(m)).collect();
        if !forwarded.is_empty() {
            step_all(&mut self.app, &mut self.effects, forwarded);
        }
        let busy = self.app.in_flight() > 0;
        if self.busy && !busy {
            self.sweep_done();
        }
        self.busy = busy;
    }

    /// Counts an answer, takes those of keep-bound; `None`: not for the app.
    fn inspect(&mut self, msg: Msg) -> Option<Msg> {
        let now = self.now();
        match &msg {
            Msg::Loaded(loaded) => {
                let request = loaded.request();
                let key = (collect::endpoint(&request), collect::status(loaded.error()));
                *self.metrics.requests.entry(key).or_default() += 1;
                if loaded.error().is_some() {
                    self.sweep_failed += 1;
                }
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
                        return None;
                    }
                    Loaded::Service(id, result)
                        if self.keep.as_ref().is_some_and(|k| k.keeps(*id)) =>
                    {
                        let read = result.as_ref().map(bound_ip);
                        let actions = self.keep.as_mut().map(|k| k.on_read(*id, read, now));
                        self.act(actions.unwrap_or_default());
                    }
                    _ => {}
                }
            }
            Msg::Budget(view) => self.metrics.budget_remaining = Some(view.left),
            _ => {}
        }
        Some(msg)
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
                Action::Read(id) => {
                    self.effects.execute(Command::Fetch(Request::Service(id)));
                }
                Action::Rebind(id, ip) => {
                    self.effects.execute(Command::Fetch(Request::UpdateService {
                        service_id: id,
                        update: Box::new(ServiceUpdate {
                            setip: Some(ip.to_string()),
                            ..ServiceUpdate::default()
                        }),
                    }));
                }
                Action::Log(line) => self.output.log(format!("{}: {line}", self.profile)),
            }
        }
    }

    fn sweep_done(&mut self) {
        self.sweeps += 1;
        self.publish();
        if self.options.verbose {
            let line = collect::summary(&self.profile, &self.app, &self.metrics, self.sweep_failed);
            self.output.log(line);
        }
        self.sweep_failed = 0;
    }

    fn publish(&mut self) {
        let now = self.now();
        collect::metrics(&self.app, now, &mut self.metrics);
        if let Some(board) = &self.options.board
            && let Ok(mut b) = board.write()
        {
            b.insert(self.profile.clone(), self.metrics.clone());
        }
    }

    /// Waits for what must not be cut short: a rebind's answer, the history's writes, the
    /// output. Bounded by [`FINISH_LIMIT`].
    async fn finish(&mut self) {
        let limit = tokio::time::Instant::now() + FINISH_LIMIT;
        let mut history = self.options.history;
        if history {
            let now = self.now();
            self.effects
                .execute(Command::AskHistory(crate::history::Query::Overview { now }));
        }
        let writing = |w: &Self| w.keep.as_ref().is_some_and(|k| k.rebinds_in_flight() > 0);
        while history || writing(self) {
            match tokio::time::timeout_at(limit, self.effects.next_msg()).await {
                Ok(Some(Msg::History(_))) => history = false,
                Ok(Some(msg @ Msg::Loaded(Loaded::UpdateService(..)))) => {
                    let _ = self.inspect(msg);
                }
                Ok(Some(_)) => {}
                Ok(None) | Err(_) => break,
            }
        }
        self.output.log(format!(
            "{}: stopped after {} sweeps",
            self.profile, self.sweeps
        ));
        self.output.flush(Duration::from_secs(2)).await;
    }
}

/// The bound IP a service read says (`None`: none bound, or not an IPv4 address).
fn bound_ip(service: &crate::api::Service) -> Option<Ipv4Addr> {
    service
        .bound_ip
        .as_deref()
        .and_then(|ip| ip.trim().parse().ok())
}
