//! Delivery beyond the screen: the terminal bell and the `on_alert` command.
//!
//! The command runs through `sh -c` (so pipes and quoting work as in a shell), with the
//! transition as one JSON object on its standard input ([`payload`]) and as
//! `PROXYDASH_ALERT_*` environment variables ([`env_vars`]), so `notify-send`, a mail
//! command or `curl` to a chat webhook need no JSON parsing. It never runs on the UI
//! task: each run is a tokio task, at most [`MAX_RUNNING`] at once; more wait, and past
//! [`MAX_WAITING`] notifications' commands are dropped (and that said once) rather than
//! pile up.
//! A run that outlives its timeout is killed with its whole process group (a shell's
//! children too), and what it printed is read up to [`OUTPUT_CAP`] bytes per stream, the
//! rest drained and dropped, so a chatty command costs no memory. Its exit status and
//! the start of its standard error come back for the status line when it fails.

use super::rules::Delivery;
use super::{AlertSink, Transition};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::sync::Semaphore;

/// Commands running at once.
pub const MAX_RUNNING: usize = 3;
/// Commands waiting for a slot before new ones are dropped.
pub const MAX_WAITING: usize = 32;
/// Bytes kept of each of the command's output streams.
pub const OUTPUT_CAP: usize = 4096;

/// The alert as the command's standard input sees it.
pub fn payload(t: &Transition, profile: &str) -> serde_json::Value {
    let a = &t.alert;
    let (service_id, invoice_id) = match a.key.subject {
        super::Subject::Service(id) => (Some(id), None),
        super::Subject::Invoice(id) => (None, Some(id)),
        super::Subject::Account => (None, None),
    };
    serde_json::json!({
        "state": t.change.as_str(),
        "level": a.level.as_str(),
        "rule": a.key.rule.as_str(),
        "subject": a.key.subject.to_string(),
        "service_id": service_id,
        "invoice_id": invoice_id,
        "message": a.message,
        "profile": profile,
        "first_seen": a.first_seen.to_rfc3339(),
        "resolved": a.resolved.map(|t| t.to_rfc3339()),
        "at": t.at.to_rfc3339(),
        "repeats": a.repeats,
    })
}

/// The same as environment variables.
pub fn env_vars(t: &Transition, profile: &str) -> Vec<(&'static str, String)> {
    let a = &t.alert;
    let clean = |s: String| s.replace('\0', "");
    vec![
        ("PROXYDASH_ALERT_STATE", t.change.as_str().to_owned()),
        ("PROXYDASH_ALERT_LEVEL", a.level.as_str().to_owned()),
        ("PROXYDASH_ALERT_RULE", a.key.rule.as_str().to_owned()),
        ("PROXYDASH_ALERT_SUBJECT", a.key.subject.to_string()),
        ("PROXYDASH_ALERT_MESSAGE", clean(a.message.clone())),
        ("PROXYDASH_ALERT_PROFILE", clean(profile.to_owned())),
        ("PROXYDASH_ALERT_FIRST_SEEN", a.first_seen.to_rfc3339()),
        (
            "PROXYDASH_ALERT_RESOLVED",
            a.resolved.map(|t| t.to_rfc3339()).unwrap_or_default(),
        ),
        ("PROXYDASH_ALERT_AT", t.at.to_rfc3339()),
    ]
}

/// What became of one run: `Err` says why it failed, for the status line.
pub type Outcome = Result<(), String>;

/// Runs the `on_alert` command, bounded (see the module docs).
#[derive(Clone)]
pub struct OnAlert {
    command: String,
    timeout: Duration,
    slots: Arc<Semaphore>,
    waiting: Arc<AtomicUsize>,
    /// Notifications are being dropped (and that was said once).
    dropping: Arc<AtomicBool>,
}

impl OnAlert {
    pub fn new(command: String, timeout: Duration) -> Self {
        Self {
            command,
            timeout,
            slots: Arc::new(Semaphore::new(MAX_RUNNING)),
            waiting: Arc::new(AtomicUsize::new(0)),
            dropping: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Starts a run for `t` on the tokio runtime; `done` gets its outcome. Must be called
    /// from within a runtime. Past [`MAX_WAITING`] waiting runs nothing is spawned: the
    /// first notification dropped in a burst is reported, the rest of the burst quietly
    /// (a thousand alerts opening at once must not become a thousand status lines).
    pub fn spawn(
        &self,
        t: &Transition,
        profile: &str,
        done: impl FnOnce(Outcome) + Send + 'static,
    ) -> Option<tokio::task::JoinHandle<()>> {
        if self.waiting.load(Ordering::SeqCst) >= MAX_WAITING {
            if !self.dropping.swap(true, Ordering::SeqCst) {
                done(Err(format!(
                    "on_alert: {MAX_WAITING} commands already waiting; notifications are dropped until they have run"
                )));
            }
            return None;
        }
        // One line, so `cat >> alerts.jsonl` keeps one alert per line.
        let json = format!("{}\n", payload(t, profile)).into_bytes();
        let env = env_vars(t, profile);
        let this = self.clone();
        self.waiting.fetch_add(1, Ordering::SeqCst);
        Some(tokio::spawn(async move {
            let permit = this.slots.clone().acquire_owned().await;
            if this.waiting.fetch_sub(1, Ordering::SeqCst) <= MAX_WAITING / 2 {
                this.dropping.store(false, Ordering::SeqCst);
            }
            let outcome = match permit {
                Ok(_permit) => run(&this.command, this.timeout, json, env).await,
                Err(_) => Err("on_alert: shutting down".into()),
            };
            done(outcome);
        }))
    }
}

/// One run of `command` (see the module docs).
pub async fn run(
    command: &str,
    timeout: Duration,
    stdin: Vec<u8>,
    env: Vec<(&'static str, String)>,
) -> Outcome {
    let mut cmd = tokio::process::Command::new("sh");
    cmd.arg("-c")
        .arg(command)
        .envs(env)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true);
    #[cfg(unix)]
    cmd.process_group(0);
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("on_alert: cannot start sh: {e}"))?;
    let pid = child.id();
    let input = child.stdin.take();
    let out = child.stdout.take();
    let err = child.stderr.take();
    let work = async {
        let feed = async {
            if let Some(mut input) = input {
                // A command that does not read its input closes the pipe: not an error.
                let _ = input.write_all(&stdin).await;
                let _ = input.shutdown().await;
            }
        };
        let ((), out, err) = tokio::join!(feed, read_capped(out), read_capped(err));
        (child.wait().await, out, err)
    };
    match tokio::time::timeout(timeout, work).await {
        Ok((Ok(status), out, err)) => {
            tracing::debug!(
                status = %status,
                stdout = %String::from_utf8_lossy(&out),
                "on_alert command finished"
            );
            if status.success() {
                Ok(())
            } else {
                let first = String::from_utf8_lossy(&err)
                    .lines()
                    .find(|l| !l.trim().is_empty())
                    .map(|l| format!(": {}", crate::text::truncate(l.trim(), 120)))
                    .unwrap_or_default();
                Err(crate::text::sanitize(&format!("on_alert: {status}{first}")).into_owned())
            }
        }
        Ok((Err(e), _, _)) => Err(format!("on_alert: {e}")),
        Err(_) => {
            kill_group(pid);
            // kill_on_drop reaps the shell itself when `child` goes out of scope.
            Err(format!(
                "on_alert: still running after {} s; killed",
                timeout.as_secs()
            ))
        }
    }
}

/// Kills the command's whole process group (its shell and whatever that started).
fn kill_group(pid: Option<u32>) {
    #[cfg(unix)]
    if let Some(pid) = pid.and_then(|p| i32::try_from(p).ok()) {
        // SAFETY: kill(2) with a negative pid signals the process group the child leads
        // (it was started with process_group(0)); it touches no memory of ours.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = pid;
}

/// Up to [`OUTPUT_CAP`] bytes of a stream; the rest is read and dropped, so the command
/// never blocks on a full pipe.
async fn read_capped(stream: Option<impl AsyncRead + Unpin>) -> Vec<u8> {
    let mut kept = Vec::new();
    let Some(mut stream) = stream else {
        return kept;
    };
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf).await {
            Ok(0) | Err(_) => return kept,
            Ok(n) => {
                let room = OUTPUT_CAP.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
            }
        }
    }
}

/// The dashboard's delivery: the bell and the `on_alert` command, outcomes of failed runs
/// handed to `report` (the status line).
pub struct Deliverer {
    bell: bool,
    on_alert: Option<OnAlert>,
    profile: String,
    report: Arc<dyn Fn(String) + Send + Sync>,
}

impl Deliverer {
    pub fn new(
        delivery: &Delivery,
        profile: &str,
        report: Arc<dyn Fn(String) + Send + Sync>,
    ) -> Self {
        Self {
            bell: delivery.bell,
            on_alert: delivery
                .on_alert
                .clone()
                .map(|c| OnAlert::new(c, delivery.timeout)),
            profile: profile.to_owned(),
            report,
        }
    }
}

impl AlertSink for Deliverer {
    fn record(&mut self, t: &Transition) {
        // The bell calls for attention; a recovery does not need it.
        if self.bell && t.change != super::Change::Resolved {
            use std::io::Write;
            let mut out = std::io::stdout();
            let _ = out.write_all(b"\x07").and_then(|()| out.flush());
        }
        if let Some(on_alert) = &self.on_alert {
            let report = self.report.clone();
            on_alert.spawn(t, &self.profile, move |outcome| {
                if let Err(e) = outcome {
                    tracing::warn!("{e}");
                    report(e);
                }
            });
        }
    }
}
