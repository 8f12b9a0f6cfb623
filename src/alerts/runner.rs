//! The `on_alert` command's runner: one per profile, off the UI task, bounded in every
//! way, and never dropping a notice.
//!
//! - The command runs through `sh -c` (so pipes and quoting work as in a shell), with the
//!   notice as one JSON object on its standard input and as `PROXYDASH_ALERT_*`
//!   variables ([`super::payload`] makes both).
//! - At most [`MAX_RUNNING`] run at once, each notice its own command while there are
//!   slots for all that wait. When more wait than there are free slots, everything
//!   waiting goes as **one** digest ([`super::herald::Digest::merge`]): a flood of
//!   notices costs a few commands, and a critical among them is in the digest's counts
//!   and named first, never dropped.
//! - A run that outlives its timeout is killed with its whole process group (a shell's
//!   children too); what it printed is read up to [`OUTPUT_CAP`] bytes per stream, the
//!   rest drained and dropped. Its exit status and the start of its standard error come
//!   back for the status line (or `watch`'s log) when it fails.
//! - **Stopping** ([`OnAlert::finish`]): what waits is not started; the runs on their way
//!   get a bounded grace, then their process groups are killed; the caller is told how
//!   many notices were not delivered, so a stop never loses them silently.

use super::herald::{Digest, DigestKind, Notice};
use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::sync::{Semaphore, mpsc};

/// Commands running at once.
pub const MAX_RUNNING: usize = 3;
/// Bytes kept of each of the command's output streams.
pub const OUTPUT_CAP: usize = 4096;

/// What became of one run: `Err` says why it failed.
pub type Outcome = Result<(), String>;

/// Where a failed run's reason goes (the status line, `watch`'s log).
pub type Report = Arc<dyn Fn(String) + Send + Sync>;

/// What the runner and its runs share with the owner.
#[derive(Default)]
struct Shared {
    /// Notices not yet started (each digest counting as its notices).
    waiting: usize,
    /// Notices in the runs on their way.
    running: usize,
    /// The process groups of the runs on their way.
    groups: HashSet<i32>,
    /// Stopping: nothing more is started.
    stopping: bool,
}

/// The `on_alert` command of one profile (see the module docs). Cheap to clone.
#[derive(Clone)]
pub struct OnAlert {
    tx: mpsc::UnboundedSender<Notice>,
    shared: Arc<Mutex<Shared>>,
}

/// How many notices a notice stands for (a digest merged from several counts each).
fn weight(notice: &Notice) -> usize {
    match notice {
        Notice::One(_) => 1,
        Notice::Digest(d) => d.total.max(1),
    }
}

impl OnAlert {
    /// Starts the runner of `command` on the current runtime; `profile` names the
    /// account in what the command reads; failed runs go to `report`.
    pub fn start(command: String, timeout: Duration, profile: String, report: Report) -> Self {
        let (tx, rx) = mpsc::unbounded_channel();
        let shared = Arc::new(Mutex::new(Shared::default()));
        let runner = Runner {
            command,
            timeout,
            profile,
            report,
            shared: shared.clone(),
            slots: Arc::new(Semaphore::new(MAX_RUNNING)),
        };
        tokio::spawn(runner.run(rx));
        Self { tx, shared }
    }

    /// Hands a notice to the runner; never waits.
    pub fn submit(&self, notice: Notice) {
        let weight = weight(&notice);
        if let Ok(mut s) = self.shared.lock() {
            s.waiting += weight;
        }
        let _ = self.tx.send(notice);
    }

    /// Stops (see the module docs): waits at most `grace` for the runs on their way, then
    /// kills their process groups. Answers how many notices were not delivered.
    pub async fn finish(&self, grace: Duration) -> usize {
        if let Ok(mut s) = self.shared.lock() {
            s.stopping = true;
        }
        let until = tokio::time::Instant::now() + grace;
        loop {
            let running = self.shared.lock().map(|s| s.running).unwrap_or(0);
            if running == 0 || tokio::time::Instant::now() >= until {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let Ok(mut s) = self.shared.lock() else {
            return 0;
        };
        for group in s.groups.drain() {
            kill_group(group);
        }
        s.waiting + s.running
    }
}

struct Runner {
    command: String,
    timeout: Duration,
    profile: String,
    report: Report,
    shared: Arc<Mutex<Shared>>,
    slots: Arc<Semaphore>,
}

impl Runner {
    async fn run(self, mut rx: mpsc::UnboundedReceiver<Notice>) {
        let mut queue: VecDeque<Notice> = VecDeque::new();
        let mut open = true;
        loop {
            if queue.is_empty() {
                match rx.recv().await {
                    Some(n) => queue.push_back(n),
                    None => return,
                }
            }
            while let Ok(n) = rx.try_recv() {
                queue.push_back(n);
            }
            // A slot, or more notices to gather meanwhile.
            let permit = tokio::select! {
                permit = self.slots.clone().acquire_owned() => match permit {
                    Ok(p) => p,
                    Err(_) => return,
                },
                more = rx.recv(), if open => {
                    match more {
                        Some(n) => queue.push_back(n),
                        None => open = false,
                    }
                    // Bounded memory while every slot is busy: what waits is one digest.
                    if queue.len() > 64 {
                        let merged = merge(queue.drain(..));
                        queue.push_back(merged);
                    }
                    continue;
                }
            };
            // Everything waiting can start now: the first goes alone. More than the free
            // slots: everything waiting goes as one digest.
            let free = self.slots.available_permits() + 1;
            let notice = if queue.len() <= free {
                queue.pop_front().expect("one waits")
            } else {
                merge(queue.drain(..))
            };
            let weight = weight(&notice);
            {
                let Ok(mut s) = self.shared.lock() else {
                    return;
                };
                if s.stopping {
                    // Not started: counted as undelivered by `finish`.
                    continue;
                }
                s.waiting = s.waiting.saturating_sub(weight);
                s.running += weight;
            }
            let json = format!(
                "{}\n",
                super::payload::notice_payload(&notice, &self.profile)
            );
            let env = super::payload::notice_env(&notice, &self.profile);
            let (command, timeout) = (self.command.clone(), self.timeout);
            let (shared, report) = (self.shared.clone(), self.report.clone());
            tokio::spawn(async move {
                let outcome = run_tracked(&command, timeout, json.into_bytes(), env, &shared).await;
                drop(permit);
                if let Ok(mut s) = shared.lock() {
                    s.running = s.running.saturating_sub(weight);
                }
                if let Err(e) = outcome {
                    tracing::warn!("{e}");
                    report(e);
                }
            });
        }
    }
}

/// Several notices as one digest: a baseline if they all are, else changes.
fn merge(notices: impl Iterator<Item = Notice>) -> Notice {
    let notices: Vec<Notice> = notices.collect();
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
    Notice::Digest(digest)
}

/// One run of `command` (see the module docs).
pub async fn run(
    command: &str,
    timeout: Duration,
    stdin: Vec<u8>,
    env: Vec<(&'static str, String)>,
) -> Outcome {
    run_tracked(command, timeout, stdin, env, &Mutex::default()).await
}

/// [`run`], its process group kept in `shared` while it runs (for [`OnAlert::finish`]).
async fn run_tracked(
    command: &str,
    timeout: Duration,
    stdin: Vec<u8>,
    env: Vec<(&'static str, String)>,
    shared: &Mutex<Shared>,
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
    let group = child.id().and_then(|p| i32::try_from(p).ok());
    if let (Some(g), Ok(mut s)) = (group, shared.lock()) {
        s.groups.insert(g);
    }
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
    let outcome = match tokio::time::timeout(timeout, work).await {
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
            if let Some(g) = group {
                kill_group(g);
            }
            // kill_on_drop reaps the shell itself when `child` goes out of scope.
            Err(format!(
                "on_alert: still running after {} s; killed",
                timeout.as_secs()
            ))
        }
    };
    if let (Some(g), Ok(mut s)) = (group, shared.lock()) {
        s.groups.remove(&g);
    }
    outcome
}

/// Kills a command's whole process group (its shell and whatever that started).
fn kill_group(group: i32) {
    #[cfg(unix)]
    // SAFETY: kill(2) with a negative pid signals the process group the child leads
    // (it was started with process_group(0)); it touches no memory of ours.
    unsafe {
        libc::kill(-group, libc::SIGKILL);
    }
    #[cfg(not(unix))]
    let _ = group;
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
