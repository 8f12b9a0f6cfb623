//! A watcher's probe rounds (`--probe-every`): the schedule's actions carried out (the
//! IP lists read through the engine, the round run on a task of its own) and each round
//! handed to the engine, which keeps it for the alert rules, the history and the metrics.
//! A stop ends a round at once (its task is aborted: every check with it).

use super::Watcher;
use crate::api::Loaded;
use crate::probe::round::Round;
use crate::watch::probing::{Action, ProbeOptions, Prober};
use chrono::{DateTime, Utc};
use tokio::sync::mpsc;

/// The schedule and the round on its way.
pub(in crate::watch) struct Rounds {
    prober: Option<Prober>,
    options: Option<ProbeOptions>,
    tx: mpsc::UnboundedSender<Round>,
    rx: mpsc::UnboundedReceiver<Round>,
    task: Option<tokio::task::JoinHandle<()>>,
    /// What was last said of the rounds (a line with `-v` only when it changes), and of
    /// the whole round's note (said once until it changes).
    said: Option<String>,
    note: Option<String>,
}

impl Rounds {
    pub(super) fn new(options: Option<&ProbeOptions>, now: DateTime<Utc>) -> Self {
        let (tx, rx) = mpsc::unbounded_channel();
        Self {
            prober: options.map(|o| Prober::new(o.every, o.sample, now)),
            options: options.cloned(),
            tx,
            rx,
            task: None,
            said: None,
            note: None,
        }
    }

    pub(super) fn next_wakeup(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.prober.as_ref()?.next_wakeup(now)
    }

    /// The next round that ended (pending while none runs: the sender is kept here).
    pub(super) async fn ended(&mut self) -> Option<Round> {
        self.rx.recv().await
    }
}

impl Watcher {
    /// Time passed or the services changed: what the schedule asks now.
    pub(super) fn probe_tick(&mut self, now: DateTime<Utc>) {
        let summary = self.summary.borrow().clone();
        let services = summary.snapshot.services.as_deref().unwrap_or_default();
        let Some(prober) = self.rounds.prober.as_mut() else {
            return;
        };
        let actions = prober.tick(now, services);
        self.probe_act(actions);
    }

    fn probe_act(&mut self, actions: Vec<Action>) {
        for action in actions {
            match action {
                Action::Read(request) => self.account.fetch_background(request),
                Action::Log(line) => self.output.log(format!("{}: {line}", self.profile)),
                Action::Start(batch, complete) => {
                    let Some(options) = self.rounds.options.clone() else {
                        continue;
                    };
                    let tx = self.rounds.tx.clone();
                    self.rounds.task = Some(tokio::spawn(async move {
                        let mut round = crate::probe::round::run(batch, &options.config).await;
                        round.complete = complete;
                        let _ = tx.send(round);
                    }));
                }
            }
        }
    }

    /// An IP list came back: the schedule takes the one it asked for.
    pub(super) fn on_ip_list(&mut self, loaded: &Loaded) {
        let (Loaded::IpList(service_id, _, result), Some(prober)) =
            (loaded, self.rounds.prober.as_mut())
        else {
            return;
        };
        let now = (self.options.clock)();
        let actions = prober.on_list(*service_id, result.as_ref().map_err(|e| e.to_string()), now);
        self.probe_act(actions);
        self.probe_tick(now);
    }

    /// A round ended: said, handed to the engine, and the next one considered.
    pub(super) fn on_round(&mut self, round: Round, now: DateTime<Utc>) {
        self.rounds.task = None;
        let actions = match self.rounds.prober.as_mut() {
            Some(p) => p.done(&round),
            None => Vec::new(),
        };
        self.probe_act(actions);
        if round.note != self.rounds.note {
            self.rounds.note = round.note.clone();
            if let Some(note) = &round.note {
                self.output.log(format!("{}: probe: {note}", self.profile));
            }
        }
        let line = round_line(&round);
        let changed = self.rounds.said.as_deref() != Some(line.as_str());
        if self.options.verbose > 1 || (self.options.verbose == 1 && changed) {
            let took = round.took.as_secs_f64();
            self.output
                .log(format!("{}: {line} (in {took:.1} s)", self.profile));
        }
        self.rounds.said = Some(line);
        self.account.probed(round);
        self.probe_tick(now);
    }

    /// A stop: the round running ends at once; whether one did.
    pub(super) fn stop_round(&mut self) -> bool {
        match self.rounds.task.take() {
            Some(task) => {
                task.abort();
                true
            }
            None => false,
        }
    }
}

/// `probe round: 12 services, 180 of 240 proxies alive`.
fn round_line(round: &Round) -> String {
    if round.judge_down {
        return "probe round: nothing checked (the judge cannot be reached)".into();
    }
    let probed = round.services.iter().filter(|s| s.checked > 0).count();
    let checked: u32 = round.services.iter().map(|s| s.checked).sum();
    let alive: u32 = round.services.iter().map(|s| s.alive).sum();
    let skipped: u32 = round.services.iter().map(|s| s.skipped).sum();
    let mut line = format!(
        "probe round: {}, {alive} of {} alive",
        crate::text::counted(probed as u64, "service", "services"),
        crate::text::counted(u64::from(checked), "proxy", "proxies")
    );
    if skipped > 0 {
        let why = round
            .services
            .iter()
            .find_map(|s| s.skip_why.as_deref())
            .unwrap_or("not contacted");
        line.push_str(&format!(", {skipped} skipped ({why})"));
    }
    line
}
