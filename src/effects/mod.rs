//! Carrying out the app's [`Command`]s: requests go to the account engine, copies to the clipboard,
//! files to disk, the public-IP lookup to a task of its own. Every outcome comes back as a
//! [`Msg`]: at once for what is done on the spot (an OSC 52 copy, which is a write to the
//! terminal), later through [`Effects::next_msg`] for what waits on the network or may
//! block (the system clipboard, file writes and the state file, all on blocking tasks:
//! the UI task never waits on a disk or a display server).
//!
//! The real run loop and the headless session of the tests share this, and its one
//! driver ([`drive`]), so what a test drives is what the user runs.

mod drive;
pub mod user_action;

pub use drive::{drive, feed};

use crate::account::{AccountHandle, Event};
use crate::alerts::AlertSink;
use crate::alerts::deliver::Deliverer;
use crate::alerts::rules::Delivery;
use crate::app::{Command, Msg};
use crate::clipboard::{Clipboard, ClipboardError, Copied};
use crate::iplist_throttle::StateFile;
use std::net::Ipv4Addr;
use std::path::PathBuf;
use tokio::sync::mpsc;

pub use crate::net::myip::DEFAULT_MY_IP_URL;

type OffLoopCopy = (String, String, Result<Copied, ClipboardError>);

/// Both ends of a channel the effects send to from off the UI task and read on it.
struct Channel<T> {
    tx: mpsc::UnboundedSender<T>,
    rx: mpsc::UnboundedReceiver<T>,
}

impl<T> Channel<T> {
    fn new() -> Self {
        let (tx, rx) = mpsc::unbounded_channel();
        Self { tx, rx }
    }
}

/// Where this machine's public IP is looked up.
struct MyIpLookup {
    url: String,
    /// Plain `http://` lookups of a host that is not loopback are allowed
    /// (`--allow-insecure-http`).
    allow_http: bool,
}

pub struct Effects {
    account: AccountHandle,
    budget: tokio::sync::watch::Receiver<Option<crate::scheduler::View>>,
    events: mpsc::UnboundedReceiver<Event>,
    /// Outcomes done off the UI task (a file written, a lookup answered).
    later: Channel<Msg>,
    clipboard: Box<dyn Clipboard>,
    /// Copies done off the UI task: (what, text, outcome); a failure is handed to the
    /// clipboard's fallback on the UI task.
    copies: Channel<OffLoopCopy>,
    my_ip: MyIpLookup,
    /// The state file and the key of this account in it.
    throttles: Option<(StateFile, String)>,
    /// Failed log writes, watched until the first is said (once, in the status line).
    log_failures: Option<tokio::sync::watch::Receiver<u64>>,
    /// Where alert transitions go beyond the screen (bell, `on_alert`); none by default.
    alert_sink: Option<Box<dyn AlertSink + Send>>,
    /// The history writer, once [`Effects::attach_history`] started it.
    history: Option<crate::history::History>,
    /// How proxies are probed; loopback only until told otherwise, so a test or a
    /// forgotten setting never reaches the network.
    probe: crate::probe::ProbeConfig,
    /// Outcomes on their way off the loop (a file write, a copy, a lookup).
    outstanding: usize,
}

impl Effects {
    pub fn new(
        (account, events): (AccountHandle, mpsc::UnboundedReceiver<Event>),
        clipboard: Box<dyn Clipboard>,
        my_ip_url: String,
        throttles: Option<(StateFile, String)>,
    ) -> Self {
        Self {
            copies: Channel::new(),
            budget: account.budget(),
            account,
            events,
            later: Channel::new(),
            clipboard,
            my_ip: MyIpLookup {
                url: my_ip_url,
                allow_http: false,
            },
            throttles,
            log_failures: Some(crate::logging::file::watch_failures()),
            alert_sink: None,
            history: None,
            probe: crate::probe::ProbeConfig {
                loopback_only: true,
                probe_url: None,
                ..crate::probe::ProbeConfig::default()
            },
            outstanding: 0,
        }
    }

    /// Outcomes of commands still on their way off the loop.
    pub fn outstanding(&self) -> usize {
        self.outstanding
    }

    /// Counts an outcome that arrived.
    fn arrived(&mut self, msg: Msg) -> Msg {
        if matches!(
            msg,
            Msg::Written { .. }
                | Msg::FileExists { .. }
                | Msg::MyIp(_)
                | Msg::Copied { .. }
                | Msg::ActionDone { .. }
        ) {
            self.outstanding = self.outstanding.saturating_sub(1);
        }
        msg
    }

    /// Allows plain `http://` my-IP lookups of a host that is not loopback.
    pub fn with_my_ip_allow_http(mut self, allow: bool) -> Self {
        self.my_ip.allow_http = allow;
        self
    }

    /// Starts the history writer on `path` (opened on its own thread); its answers come
    /// back as [`Msg::History`]. The caller hands the same writer to the account engine,
    /// which records the reads.
    pub fn attach_history(
        &mut self,
        path: std::path::PathBuf,
        days: u32,
    ) -> crate::history::History {
        self.attach_history_telling(path, days, |_| {})
    }

    /// [`Effects::attach_history`], with why history is off (the file cannot be opened)
    /// also handed to `off`.
    pub fn attach_history_telling(
        &mut self,
        path: std::path::PathBuf,
        days: u32,
        off: impl Fn(&str) + Send + 'static,
    ) -> crate::history::History {
        let tx = self.later.tx.clone();
        let history = crate::history::History::spawn(
            path,
            days,
            Box::new(move |answer| {
                if let crate::history::Answer::Off(why) = &answer {
                    off(why);
                }
                let _ = tx.send(Msg::History(answer));
            }),
        );
        self.history = Some(history.clone());
        history
    }

    /// The account engine this session observes.
    pub fn account(&self) -> &AccountHandle {
        &self.account
    }

    /// Hands a sweep to the history writer (never waits; nothing without one).
    pub fn record(&mut self, sweep: crate::history::Sweep) {
        if let Some(history) = &self.history {
            history.record(sweep);
        }
    }

    /// Delivers alerts with the bell and the `on_alert` command as `delivery` says; a
    /// failed command comes back as [`Msg::AlertDeliveryFailed`].
    pub fn with_alert_delivery(self, delivery: &Delivery, profile: &str) -> Self {
        let tx = self.later.tx.clone();
        let report = std::sync::Arc::new(move |why: String| {
            let _ = tx.send(Msg::AlertDeliveryFailed(why));
        });
        self.with_alert_sink(Box::new(Deliverer::new(delivery, profile, report)))
    }

    /// Sends alert transitions to `sink` (tests record them; the history store will
    /// record them the same way).
    pub fn with_alert_sink(mut self, sink: Box<dyn AlertSink + Send>) -> Self {
        self.alert_sink = Some(sink);
        self
    }

    /// The probe settings of the account (see [`crate::config::ProbeSettings`]).
    pub fn set_probe(&mut self, config: crate::probe::ProbeConfig) {
        self.probe = config;
    }

    /// Carries out `command`; returns its outcome when it is known at once.
    pub fn execute(&mut self, command: Command) -> Option<Msg> {
        match command {
            Command::Fetch(request) => {
                self.account.fetch(request);
                None
            }
            Command::Write { request, ticket } => {
                self.account.send(request, ticket);
                None
            }
            Command::Focus(focus) => {
                self.account.focus(focus);
                None
            }
            Command::Refresh(kinds) => {
                self.account.refresh(kinds);
                None
            }
            Command::Mark(change) => {
                self.account.mark(change);
                None
            }
            // The app keeps its own quit flag; the loop checks `should_quit`.
            Command::Quit => None,
            Command::Copy { what, text } => self.copy(what, text),
            // Off the UI task: a slow or full disk must not stop the screen.
            Command::WriteFile { path, contents } => {
                self.outstanding += 1;
                let tx = self.later.tx.clone();
                tokio::task::spawn_blocking(move || {
                    let _ = tx.send(write_export(path, contents.as_bytes()));
                });
                None
            }
            // Off the UI task, bounded in time and output (see `user_action`).
            Command::RunAction(run) => {
                self.outstanding += 1;
                user_action::spawn(run, self.later.tx.clone());
                None
            }
            Command::LookupMyIp => {
                self.outstanding += 1;
                let (url, allow_http) = (self.my_ip.url.clone(), self.my_ip.allow_http);
                let tx = self.later.tx.clone();
                tokio::spawn(async move {
                    let _ = tx.send(Msg::MyIp(lookup_my_ip(&url, allow_http).await));
                });
                None
            }
            Command::Probe {
                service_id,
                run,
                targets,
            } => {
                // Off the UI task: each result comes back as a message of its own.
                let (tx, rx) = mpsc::unbounded_channel();
                let config = self.probe.clone();
                tokio::spawn(async move { crate::probe::probe_all(targets, &config, tx).await });
                self.forward_probe(service_id, run, rx);
                None
            }
            Command::Rotation {
                service_id,
                run,
                gateway,
                asks,
            } => {
                // Off the UI task, like a probe; the asks go one after the other.
                let (tx, rx) = mpsc::unbounded_channel();
                let config = self.probe.clone();
                tokio::spawn(async move {
                    crate::probe::rotation::audit(gateway, asks, &config, tx).await
                });
                self.forward_probe(service_id, run, rx);
                None
            }
            Command::SaveThrottles(throttles) => {
                // Losing a countdown on restart is harmless (the server still throttles), so
                // a state file that cannot be written is not worth interrupting the user.
                // Off the UI task, like every disk write.
                if let Some((file, account)) = self.throttles.clone() {
                    tokio::task::spawn_blocking(move || {
                        let _ = file.save(&account, &throttles);
                    });
                }
                None
            }
            Command::Alert(notice) => {
                if let Some(sink) = &mut self.alert_sink {
                    sink.announce(&notice);
                }
                None
            }
            Command::AskHistory(query) => {
                if let Some(history) = &self.history {
                    history.ask(query);
                }
                None
            }
        }
    }

    /// A copy: on the clipboard's blocking part off the UI task when it has one (answered
    /// later), else at once.
    /// Hands each event of a probe run or rotation audit back to the app, as it comes.
    fn forward_probe(
        &self,
        service_id: u64,
        run: u64,
        mut rx: mpsc::UnboundedReceiver<crate::probe::ProbeEvent>,
    ) {
        let later = self.later.tx.clone();
        tokio::spawn(async move {
            while let Some(event) = rx.recv().await {
                let msg = crate::app::probe::msg(service_id, run, event);
                if later.send(msg).is_err() {
                    break;
                }
            }
        });
    }

    fn copy(&mut self, what: String, text: String) -> Option<Msg> {
        let Some(copy) = self.clipboard.off_loop() else {
            let result = self.clipboard.copy(&text);
            return Some(Msg::Copied { what, result });
        };
        self.outstanding += 1;
        let tx = self.copies.tx.clone();
        tokio::task::spawn_blocking(move || {
            let result = copy(&text);
            let _ = tx.send((what, text, result));
        });
        None
    }

    /// The answer to a copy done off the UI task, with the fallback run here when it failed.
    fn copied(&mut self, (what, text, result): OffLoopCopy) -> Msg {
        let result = result.or_else(|failed| self.clipboard.fallback(&text, failed));
        Msg::Copied { what, result }
    }

    /// An outcome that has already arrived, without waiting.
    pub fn try_next_msg(&mut self) -> Option<Msg> {
        if let Ok(copy) = self.copies.rx.try_recv() {
            let msg = self.copied(copy);
            return Some(self.arrived(msg));
        }
        match self.events.try_recv() {
            Ok(event) => Some(msg_of(event)),
            Err(_) => match self.later.rx.try_recv() {
                Ok(msg) => Some(self.arrived(msg)),
                Err(_) => self.budget_changed(),
            },
        }
    }

    /// The next outcome that waited on the network. `None` only once nothing can come any
    /// more.
    pub async fn next_msg(&mut self) -> Option<Msg> {
        let log_failed = async {
            match self.log_failures.as_mut() {
                Some(rx) => rx.wait_for(|&n| n > 0).await.is_ok(),
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            Some(copy) = self.copies.rx.recv() => {
                let msg = self.copied(copy);
                Some(self.arrived(msg))
            }
            Some(event) = self.events.recv() => Some(msg_of(event)),
            Some(msg) = self.later.rx.recv() => Some(self.arrived(msg)),
            true = log_failed => {
                self.log_failures = None;
                Some(Msg::Diagnostic(
                    "Diagnostics are not being written: the log file cannot be written (disk full?); the dashboard goes on without them".into(),
                ))
            }
            Some(view) = async {
                // `changed` marks the value seen; a closed channel disables this branch.
                self.budget.changed().await.ok()?;
                *self.budget.borrow_and_update()
            } => Some(Msg::Budget(view)),
            else => None,
        }
    }

    /// The budget, if it changed since it was last taken.
    fn budget_changed(&mut self) -> Option<Msg> {
        if !self.budget.has_changed().unwrap_or(false) {
            return None;
        }
        (*self.budget.borrow_and_update()).map(Msg::Budget)
    }
}

/// What the app hears of an engine's event.
fn msg_of(event: Event) -> Msg {
    match event {
        Event::Sent(request) => Msg::Sent(request),
        Event::Loaded { loaded, ticket } => Msg::Loaded { loaded, ticket },
        Event::Connection(c) => Msg::Connection(c),
        Event::Types(types) => Msg::Types(types),
        Event::Swept(swept) => Msg::Swept(swept),
        Event::Marked(marks) => Msg::Marked(marks),
        Event::Money(runway) => Msg::Money(runway),
    }
}

/// Writes an exported file without overwriting (`~` expanded, a relative name in the
/// current folder) and answers with the full path written, or, when the file exists, a
/// free name beside it to offer.
fn write_export(path: PathBuf, contents: &[u8]) -> Msg {
    let full = match crate::files::resolve_typed(&path.to_string_lossy()) {
        Ok(full) => full,
        Err(e) => {
            return Msg::Written {
                path,
                result: Err(e),
            };
        }
    };
    let result = match crate::files::write_new(&full, contents) {
        Ok(()) => Ok(full),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let free = crate::files::free_name(&full);
            return Msg::FileExists { path: full, free };
        }
        Err(e) => Err(format!("cannot write {}: {e}", full.display())),
    };
    Msg::Written { path, result }
}

/// Asks `url` for this machine's public address (see [`crate::net::myip`]: one whole
/// public IPv4 address, read bounded). An empty `url` (`my_ip_url = ""` in the profile)
/// turns the lookup off: nothing is asked of any outside service.
pub async fn lookup_my_ip(url: &str, allow_http: bool) -> Result<Ipv4Addr, String> {
    crate::net::myip::lookup(url, allow_http).await
}

#[cfg(test)]
mod tests;
