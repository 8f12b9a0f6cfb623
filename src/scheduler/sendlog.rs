//! The send log one profile's processes share (issue 46.4): a dashboard, `watch`es and
//! every scripting command on one account keep **one** budget, not one each. Each counted
//! only its own sends: 8 script loops sent 3.4 times the limit, two `watch`es and a
//! dashboard met 14 answers 429 in their first minute.
//!
//! - **One file per account**, keyed as the other state files are (profile and base URL):
//!   `$XDG_STATE_HOME/proxydash/sends/<profile>-<hash>.log`, created `0600` in a `0700`
//!   folder. One line per request sent: `<unix ms> <writer> <seq> <lane> <METHOD> <path
//!   pattern>` (the writer is the process and its budget; nothing secret, no ID).
//! - **Taken under an advisory lock** (`flock`, exclusive): a process reads what the others
//!   appended since it last looked, counts it in its budget ([`super::Scopes::count_elsewhere`]:
//!   the log and the lanes' pace, so together they keep one burst and one even pace),
//!   decides, and appends its own send before letting go. No two processes spend the
//!   same token.
//! - **Never blocking**: the lock is only tried (`LOCK_NB`); when another process holds it
//!   the caller asks again a few milliseconds later ([`RETRY`]), so the dashboard's engine
//!   task never sleeps on a lock (and its UI loop never touches the file). A lock held for
//!   longer than [`LOCK_PATIENCE`] (a process stopped while holding it) is given up.
//! - **Bounded**: past [`PRUNE_AT`] the file is written anew with the sends still inside
//!   the window (a new file renamed over the name; a process whose lock is on the old one
//!   sees the name moved and opens the new one). A file past [`MAX_FILE`] (not written by
//!   proxydash) is started afresh. When a new account's log is made, the logs nobody
//!   wrote for [`STALE`] are removed.
//! - **Refused like every state file**: a link, a FIFO, a device or a folder at the name
//!   is not opened (`files::check_state`, then `O_NOFOLLOW | O_NONBLOCK` and `fstat`).
//! - **Fail neither closed nor silent**: when the file cannot be used (refused, unreadable,
//!   the lock held too long), the process says so once ([`SendLog::problem`], the log) and
//!   goes on with its own budget.
//!
//! Times in the file are wall-clock milliseconds; each becomes an instant of the reader's
//! clock when read (a send from the future is taken as now).

use super::bucket::{Lane, MARGIN, Token, WINDOW};
use crate::api::gate::Route;
use std::collections::HashMap;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How soon to ask again while another process holds the lock.
pub const RETRY: Duration = Duration::from_millis(5);
/// The longest the lock may stay held by others before this process goes on alone.
pub const LOCK_PATIENCE: Duration = Duration::from_secs(2);
/// The size past which the file is written anew with only the sends inside the window.
pub const PRUNE_AT: u64 = 64 << 10;
/// The most of the file read: far past what the sends of a window take.
pub const MAX_FILE: u64 = 1 << 20;
/// A log nobody has written for this long is removed when a new one is made.
pub const STALE: Duration = Duration::from_secs(24 * 3600);

/// One send another process made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sent {
    pub at: Instant,
    pub lane: Lane,
    pub route: Option<Route>,
}

/// What [`SendLog::take`] did.
#[derive(Debug)]
pub enum Took<T> {
    /// Decided under the lock (or without the log, when it is off).
    Decided(T),
    /// Another process holds the lock: ask again after [`RETRY`].
    Busy,
}

/// The shared send log of one account.
#[derive(Debug)]
pub struct SendLog {
    path: PathBuf,
    span: Duration,
    writer: String,
    /// A fixed pairing of the wall clock and this process's instants (tests on a paused
    /// clock); `None`: the wall clock as it is at each use.
    anchor: Option<(Instant, i64)>,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// The file as opened, with its identity (device, inode).
    file: Option<(File, (u64, u64))>,
    /// How far the file has been read.
    offset: u64,
    /// Sends already counted, by writer and number (with their time, to forget them).
    seen: HashMap<(String, u64), i64>,
    seq: u64,
    busy_since: Option<Instant>,
    /// Why the log is not used, once it is not.
    off: Option<String>,
    said: bool,
}

impl SendLog {
    /// The log at `path`, counting in the server's window.
    pub fn new(path: PathBuf) -> Self {
        Self::with_window(path, WINDOW)
    }

    /// The log at `path` for a budget counting in `window` (tests against a sandbox of a
    /// shorter window).
    pub fn with_window(path: PathBuf, window: Duration) -> Self {
        use std::sync::atomic::{AtomicU64, Ordering};
        static WRITERS: AtomicU64 = AtomicU64::new(0);
        let n = WRITERS.fetch_add(1, Ordering::Relaxed);
        Self {
            path,
            span: window + MARGIN,
            writer: format!("{}.{n}", std::process::id()),
            anchor: None,
            state: Mutex::default(),
        }
    }

    /// The log of `account` (the state files' key: profile and base URL) in the state
    /// folder.
    pub fn for_account(profile: &str, account: &str) -> Option<Self> {
        let dir = crate::files::state_dir()?.join("sends");
        Some(Self::new(dir.join(Self::name_for(profile, account))))
    }

    /// The name of `account`'s log in the `sends` folder of the state directory.
    pub fn name_for(profile: &str, account: &str) -> String {
        file_name(profile, account)
    }

    /// The same log with times read against a fixed pairing of the wall clock and
    /// `instant`: for tests whose clock (tokio's, paused) runs apart from the wall's.
    pub fn anchored(mut self, instant: Instant, wall_ms: i64) -> Self {
        self.anchor = Some((instant, wall_ms));
        self
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Checks the file can be used now (a line to show when it cannot): a command or the
    /// dashboard says so at its start.
    pub fn check(&self) -> Option<String> {
        let mut state = self.lock_state();
        if state.off.is_none()
            && let Err(why) = self.open(&mut state)
        {
            self.give_up(&mut state, why);
        }
        state.said |= state.off.is_some();
        state.off.clone()
    }

    /// Whether the log is not used (the process keeps its own budget).
    pub fn is_off(&self) -> bool {
        self.lock_state().off.is_some()
    }

    /// Why the log is not used, when it is not (each reason once: it is taken).
    pub fn problem(&self) -> Option<String> {
        let mut state = self.lock_state();
        if state.said {
            return None;
        }
        state.said = state.off.is_some();
        state.off.clone()
    }

    fn lock_state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs `decide` under the file's lock with the sends the other processes made since
    /// the last call, and appends the send it took (its token and `lane`). Without a
    /// usable file, `decide` runs on what this process knows alone.
    pub fn take(
        &self,
        now: Instant,
        lane: Lane,
        decide: impl FnOnce(&[Sent]) -> Result<Token, super::Wait>,
    ) -> Took<Result<Token, super::Wait>> {
        let mut state = self.lock_state();
        if state.off.is_some() {
            return Took::Decided(decide(&[]));
        }
        let file = match self.locked(&mut state, now) {
            Ok(Some(file)) => file,
            Ok(None) => return Took::Busy,
            Err(why) => {
                self.give_up(&mut state, why);
                return Took::Decided(decide(&[]));
            }
        };
        let result = self.under_lock(&mut state, &file, now, lane, decide);
        // The lock goes with the call, whatever happened inside.
        let _ = file.unlock();
        match result {
            Ok(decided) => Took::Decided(decided),
            Err((why, decided)) => {
                self.give_up(&mut state, why);
                Took::Decided(decided)
            }
        }
    }

    fn give_up(&self, state: &mut State, why: String) {
        let why = format!(
            "{why}; this process keeps its own request budget, not shared with the profile's others"
        );
        tracing::warn!("send log: {why}");
        state.off = Some(why);
        state.file = None;
    }

    /// The file, opened and locked; `None` while another process holds the lock.
    fn locked(&self, state: &mut State, now: Instant) -> Result<Option<File>, String> {
        for _ in 0..3 {
            self.open(state)?;
            let (file, id) = state.file.as_ref().expect("opened above");
            match file.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => {
                    let since = *state.busy_since.get_or_insert(now);
                    if now.saturating_duration_since(since) > LOCK_PATIENCE {
                        return Err(format!(
                            "{} stayed locked by another process for more than {} s",
                            self.path.display(),
                            LOCK_PATIENCE.as_secs()
                        ));
                    }
                    return Ok(None);
                }
                Err(std::fs::TryLockError::Error(e)) => {
                    return Err(format!("cannot lock {}: {e}", self.path.display()));
                }
            }
            state.busy_since = None;
            // Another process may have written the log anew and renamed it over the name
            // since this one opened it: the lock of the old file guards nothing.
            if identity(&self.path).is_some_and(|now_at_name| now_at_name == *id) {
                let file = file.try_clone().map_err(|e| e.to_string())?;
                return Ok(Some(file));
            }
            let _ = file.unlock();
            state.file = None;
        }
        Err(format!("{} keeps being replaced", self.path.display()))
    }

    /// Opens the file when it is not open (creating it `0600`), refusing what is not a
    /// regular file.
    fn open(&self, state: &mut State) -> Result<(), String> {
        if state.file.is_some() {
            return Ok(());
        }
        if let Some(dir) = self.path.parent() {
            crate::files::create_private_dir(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let existed = crate::files::check_state(&self.path).map_err(|e| e.to_string())?;
        if !existed && let Some(dir) = self.path.parent() {
            // A new account's log: the folder keeps only logs in use (each sandbox of the
            // tests, each account given up, leaves one behind).
            remove_stale(dir);
        }
        let mut options = std::fs::OpenOptions::new();
        options.read(true).append(true).create(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options
                .mode(0o600)
                .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC);
        }
        let file = options
            .open(&self.path)
            .map_err(|e| format!("cannot open {}: {e}", self.path.display()))?;
        let meta = file.metadata().map_err(|e| e.to_string())?;
        if !meta.is_file() {
            return Err(format!("{} is not a regular file", self.path.display()));
        }
        state.file = Some((file, meta_identity(&meta)));
        state.offset = 0;
        Ok(())
    }

    /// Reads the others' new sends, decides, appends: the part done under the lock. An
    /// error after `decide` ran still hands its decision back.
    #[allow(clippy::type_complexity)]
    fn under_lock(
        &self,
        state: &mut State,
        file: &File,
        now: Instant,
        lane: Lane,
        decide: impl FnOnce(&[Sent]) -> Result<Token, super::Wait>,
    ) -> Result<Result<Token, super::Wait>, (String, Result<Token, super::Wait>)> {
        let wall = self.wall(now);
        let others = match self.read_new(state, file, now, wall) {
            Ok(others) => others,
            Err(why) => return Err((why, decide(&[]))),
        };
        let decided = decide(&others);
        if let Ok(token) = &decided {
            state.seq += 1;
            let line = format!(
                "{} {} {} {} {}\n",
                wall - now.saturating_duration_since(token.sent).as_millis() as i64,
                self.writer,
                state.seq,
                lane_word(lane),
                token
                    .route
                    .map_or_else(|| "- -".to_owned(), |r| r.to_string()),
            );
            // Appended whole, in one write: a reader never sees half a line of a writer
            // that is alive. (Read back next time, and skipped as this writer's own.)
            let mut f = file;
            if let Err(e) = f.write_all(line.as_bytes()) {
                let why = format!("cannot write {}: {e}", self.path.display());
                return Err((why, decided));
            }
        }
        if file.metadata().is_ok_and(|m| m.len() > PRUNE_AT) {
            self.prune(state, file, wall);
        }
        Ok(decided)
    }

    /// What the others appended since the last read (or, in a file new to this process,
    /// everything not counted yet), inside the window.
    fn read_new(
        &self,
        state: &mut State,
        file: &File,
        now: Instant,
        wall: i64,
    ) -> Result<Vec<Sent>, String> {
        let size = file.metadata().map_err(|e| e.to_string())?.len();
        if size > MAX_FILE {
            file.set_len(0).map_err(|e| e.to_string())?;
            state.offset = 0;
            tracing::warn!(
                "send log {} was over {} KiB; started afresh",
                self.path.display(),
                MAX_FILE >> 10
            );
            return Ok(Vec::new());
        }
        if size < state.offset {
            state.offset = 0;
        }
        let mut bytes = Vec::with_capacity((size - state.offset) as usize);
        let mut f = file;
        f.seek(SeekFrom::Start(state.offset))
            .and_then(|_| f.take(MAX_FILE).read_to_end(&mut bytes))
            .map_err(|e| format!("cannot read {}: {e}", self.path.display()))?;
        // Only whole lines: a writer that died mid-line left a piece the next one ends.
        let whole = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        state.offset += whole as u64;
        let span = self.span.as_millis() as i64;
        state.seen.retain(|_, ms| wall - *ms < span);
        let mut others = Vec::new();
        for line in String::from_utf8_lossy(&bytes[..whole]).lines() {
            let Some(entry) = parse(line) else { continue };
            if entry.writer == self.writer || wall - entry.ms >= span {
                continue;
            }
            if state
                .seen
                .insert((entry.writer.to_owned(), entry.seq), entry.ms)
                .is_some()
            {
                continue;
            }
            let ago = Duration::from_millis(u64::try_from(wall - entry.ms).unwrap_or(0));
            others.push(Sent {
                at: now.checked_sub(ago).unwrap_or(now),
                lane: entry.lane,
                route: entry.route,
            });
        }
        Ok(others)
    }

    /// Writes the file anew with the sends inside the window, renamed over the name.
    fn prune(&self, state: &mut State, file: &File, wall: i64) {
        let mut bytes = Vec::new();
        let mut f = file;
        if f.seek(SeekFrom::Start(0))
            .and_then(|_| f.take(MAX_FILE).read_to_end(&mut bytes))
            .is_err()
        {
            return;
        }
        let span = self.span.as_millis() as i64;
        let kept: String = String::from_utf8_lossy(&bytes)
            .lines()
            .filter(|l| parse(l).is_some_and(|e| wall - e.ms < span))
            .map(|l| format!("{l}\n"))
            .collect();
        match crate::files::replace(&self.path, kept.as_bytes()) {
            // This process's lock is on the old file: the next use opens the new one.
            Ok(()) => state.file = None,
            Err(e) => tracing::warn!("send log {}: not pruned: {e}", self.path.display()),
        }
    }

    /// The wall clock's milliseconds at `now`.
    fn wall(&self, now: Instant) -> i64 {
        match self.anchor {
            Some((at, ms)) => ms + now.saturating_duration_since(at).as_millis() as i64,
            None => chrono::Utc::now().timestamp_millis(),
        }
    }
}

#[path = "sendlog_lines.rs"]
mod lines;
use lines::{file_name, identity, lane_word, meta_identity, parse, remove_stale};

#[cfg(test)]
#[path = "sendlog_tests.rs"]
mod tests;
