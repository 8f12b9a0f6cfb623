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
//!   get a bounded grace, then their process groups are killed; the caller gets back the
//!   notices that were not delivered (`watch` counts them on standard error and keeps them
//!   for its next start: [`super::store::Undelivered`]), so a stop never loses one
//!   silently.

use super::herald::{Digest, DigestKind, Notice};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::sync::{Notify, Semaphore};

/// Commands running at once.
pub const MAX_RUNNING: usize = 3;
/// Bytes kept of each of the command's output streams.
pub const OUTPUT_CAP: usize = 4096;
/// Notices that may wait before what waits is merged into one (bounded memory while every
/// slot is busy).
const MAX_WAITING: usize = 64;

/// What became of one run: `Err` says why it failed.
pub type Outcome = Result<(), String>;

/// Where a failed run's reason goes (the status line, `watch`'s log).
pub type Report = Arc<dyn Fn(String) + Send + Sync>;

/// One run on its way: its notice and, once started, its process group.
struct Running {
    notice: Notice,
    group: Option<i32>,
}

/// What the runner, its runs and the owner share.
#[derive(Default)]
struct Shared {
    /// Notices not yet started.
    queue: VecDeque<Notice>,
    /// The runs on their way, by number.
    running: HashMap<u64, Running>,
    next: u64,
    /// Stopping: nothing more is started.
    stopping: bool,
}

/// The `on_alert` command of one profile (see the module docs). Cheap to clone.
#[derive(Clone)]
pub struct OnAlert {
    shared: Arc<Mutex<Shared>>,
    wake: Arc<Notify>,
}

impl OnAlert {
    /// Starts the runner of `command` on the current runtime; `profile` names the
    /// account in what the command reads; failed runs go to `report`.
    pub fn start(command: String, timeout: Duration, profile: String, report: Report) -> Self {
        let shared = Arc::new(Mutex::new(Shared::default()));
        let wake = Arc::new(Notify::new());
        let runner = Runner {
            command,
            timeout,
            profile,
            report,
            shared: shared.clone(),
            wake: wake.clone(),
            slots: Arc::new(Semaphore::new(MAX_RUNNING)),
        };
        tokio::spawn(runner.run());
        Self { shared, wake }
    }

    /// Hands a notice to the runner; never waits.
    pub fn submit(&self, notice: Notice) {
        if let Ok(mut s) = self.shared.lock() {
            s.queue.push_back(notice);
            if s.queue.len() > MAX_WAITING {
                let merged = merge(s.queue.drain(..));
                s.queue.push_back(merged);
            }
        }
        self.wake.notify_one();
    }

    /// Stops (see the module docs): waits at most `grace` for the runs on their way, then
    /// kills their process groups. Answers the notices that were not delivered (those
    /// waiting, and those whose command was ended).
    pub async fn finish(&self, grace: Duration) -> Vec<Notice> {
        if let Ok(mut s) = self.shared.lock() {
            s.stopping = true;
        }
        self.wake.notify_one();
        let until = tokio::time::Instant::now() + grace;
        loop {
            let running = self.shared.lock().map(|s| s.running.len()).unwrap_or(0);
            if running == 0 || tokio::time::Instant::now() >= until {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let Ok(mut s) = self.shared.lock() else {
            return Vec::new();
        };
        let mut lost: Vec<Notice> = s.queue.drain(..).collect();
        for (_, run) in s.running.drain() {
            if let Some(group) = run.group {
                kill_group(group);
            }
            lost.push(run.notice);
        }
        lost
    }
}

struct Runner {
    command: String,
    timeout: Duration,
    profile: String,
    report: Report,
    shared: Arc<Mutex<Shared>>,
    wake: Arc<Notify>,
    slots: Arc<Semaphore>,
}

impl Runner {
    async fn run(self) {
        loop {
            // Something to send, or the stop.
            loop {
                let (waiting, stopping) = match self.shared.lock() {
                    Ok(s) => (!s.queue.is_empty(), s.stopping),
                    Err(_) => return,
                };
                if stopping {
                    return;
                }
                if waiting {
                    break;
                }
                self.wake.notified().await;
            }
            let Ok(permit) = self.slots.clone().acquire_owned().await else {
                return;
            };
            // Everything waiting can start now: the first goes alone. More than the free
            // slots: everything waiting goes as one digest.
            let free = self.slots.available_permits() + 1;
            let (notice, id) = {
                let Ok(mut s) = self.shared.lock() else {
                    return;
                };
                if s.stopping {
                    return;
                }
                let notice = if s.queue.len() <= free {
                    s.queue.pop_front()
                } else {
                    let all: Vec<Notice> = s.queue.drain(..).collect();
                    Some(merge(all.into_iter()))
                };
                let Some(notice) = notice else {
                    continue;
                };
                let id = s.next;
                s.next += 1;
                s.running.insert(
                    id,
                    Running {
                        notice: notice.clone(),
                        group: None,
                    },
                );
                (notice, id)
            };
            let json = format!(
                "{}\n",
                super::payload::notice_payload(&notice, &self.profile)
            );
            let env = super::payload::notice_env(&notice, &self.profile);
            let (command, timeout) = (self.command.clone(), self.timeout);
            let (shared, report) = (self.shared.clone(), self.report.clone());
            tokio::spawn(async move {
                let track = Track {
                    shared: &shared,
                    id,
                };
                let outcome =
                    run_tracked(&command, timeout, json.into_bytes(), env, Some(track)).await;
                drop(permit);
                if let Ok(mut s) = shared.lock() {
                    s.running.remove(&id);
                }
                if let Err(e) = outcome {
                    tracing::warn!("{e}");
                    report(e);
                }
            });
        }
    }
}

/// Where a run keeps its process group while it runs (for [`OnAlert::finish`]).
struct Track<'a> {
    shared: &'a Mutex<Shared>,
    id: u64,
}

/// Several notices as one digest (see [`Notice::merged`]).
fn merge(notices: impl Iterator<Item = Notice>) -> Notice {
    let all: Vec<Notice> = notices.collect();
    Notice::merged(all)
        .unwrap_or_else(|| Notice::Digest(Digest::new(DigestKind::Changes, Default::default())))
}

/// One run of `command` (see the module docs).
pub async fn run(
    command: &str,
    timeout: Duration,
    stdin: Vec<u8>,
    env: Vec<(&'static str, String)>,
) -> Outcome {
    run_tracked(command, timeout, stdin, env, None).await
}

/// [`run`], its process group kept where `track` says while it runs.
async fn run_tracked(
    command: &str,
    timeout: Duration,
    stdin: Vec<u8>,
    env: Vec<(&'static str, String)>,
    track: Option<Track<'_>>,
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
    if let Some(t) = &track
        && let Ok(mut s) = t.shared.lock()
        && let Some(run) = s.running.get_mut(&t.id)
    {
        run.group = group;
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
            if let Some(g) = group {
                kill_group(g);
            }
            // kill_on_drop reaps the shell itself when `child` goes out of scope.
            Err(format!(
                "on_alert: still running after {} s; killed",
                timeout.as_secs()
            ))
        }
    }
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
