//! The writer thread: it owns the connection, takes sweeps and questions from a bounded
//! channel, writes every sweep waiting in one transaction, and answers questions in the
//! order they came (so an answer sees every sweep sent before the question).

use super::{Answer, Query, Store, Sweep};
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::sync::{
    Arc,
    atomic::{AtomicU64, Ordering},
};

/// Jobs that may wait for the writer. A sweep is one batch of answers (a few hundred
/// records at most), so this is minutes of data even at 1,000 services; past it the
/// newest sweeps are dropped (and counted) rather than the UI task waiting on the disk.
pub const QUEUE: usize = 256;

/// At most this many sweeps go into one transaction.
const MAX_BATCH: usize = 64;

/// Where answers go (the dashboard sends them on as messages).
pub type Sink = Box<dyn Fn(Answer) + Send>;

enum Job {
    Write(Sweep),
    Ask(Query),
}

/// The handle the run loop keeps; dropping it ends the thread after what is queued.
#[derive(Clone)]
pub struct History {
    tx: SyncSender<Job>,
    dropped: Arc<AtomicU64>,
}

impl History {
    /// Starts the writer on the file at `path`, keeping `days` of history. Opening happens
    /// on the thread: a failure arrives as [`Answer::Off`] and later calls do nothing.
    /// The failure names the file, and goes to the log too.
    pub fn spawn(path: PathBuf, days: u32, sink: Sink) -> Self {
        let shown = crate::files::tilde(&path);
        Self::spawn_named(move || Store::open(&path, days), Some(shown), sink)
    }

    /// The same on a store made by `open` (tests and benches use an in-memory one).
    pub fn spawn_with<F>(open: F, sink: Sink) -> Self
    where
        F: FnOnce() -> rusqlite::Result<Store> + Send + 'static,
    {
        Self::spawn_named(open, None, sink)
    }

    fn spawn_named<F>(open: F, path: Option<String>, sink: Sink) -> Self
    where
        F: FnOnce() -> rusqlite::Result<Store> + Send + 'static,
    {
        let (tx, rx) = mpsc::sync_channel(QUEUE);
        let spawned =
            std::thread::Builder::new()
                .name("history".into())
                .spawn(move || match open() {
                    Ok(store) => run(store, rx, &sink),
                    Err(e) => {
                        let line = match path {
                            Some(path) => format!("{} ({path})", opening_failed(&e)),
                            None => opening_failed(&e),
                        };
                        tracing::warn!("{line}");
                        sink(Answer::Off(line));
                    }
                });
        if let Err(e) = spawned {
            tracing::warn!("history: cannot start the writer thread: {e}");
        }
        Self {
            tx,
            dropped: Arc::default(),
        }
    }

    /// Queues a sweep for writing; never waits.
    pub fn record(&self, sweep: Sweep) {
        if sweep.records.is_empty() {
            return;
        }
        if let Err(TrySendError::Full(_)) = self.tx.try_send(Job::Write(sweep)) {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Queues a question; the answer comes through the sink. Never waits (a question that
    /// finds the queue full is dropped: the view asks again on the next sweep).
    pub fn ask(&self, query: Query) {
        let _ = self.tx.try_send(Job::Ask(query));
    }

    /// Sweeps dropped because the writer was behind.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
}

fn run(mut store: Store, rx: Receiver<Job>, sink: &Sink) {
    let mut failing = false;
    let mut batch = Vec::new();
    while let Ok(first) = rx.recv() {
        let mut next = Some(first);
        while let Some(job) = next.take() {
            match job {
                Job::Write(sweep) => {
                    batch.push(sweep);
                    next = rx.try_recv().ok();
                    if batch.len() < MAX_BATCH && matches!(next, Some(Job::Write(_))) {
                        continue;
                    }
                    flush(&mut store, &mut batch, &mut failing, sink);
                }
                Job::Ask(query) => {
                    flush(&mut store, &mut batch, &mut failing, sink);
                    let answer = match query {
                        Query::Overview { now } => {
                            store.overview(now).map(|o| Answer::Overview(Box::new(o)))
                        }
                        Query::Service { service_id, now } => store
                            .service(service_id, now)
                            .map(|h| Answer::Service(Box::new(h))),
                        Query::Probes { service_id, now } => store
                            .probes(service_id, now)
                            .map(|p| Answer::Probes(Box::new(p))),
                    };
                    match answer {
                        Ok(a) => sink(a),
                        Err(e) => tracing::warn!("history: a question failed: {e}"),
                    }
                }
            }
        }
    }
    flush(&mut store, &mut batch, &mut failing, sink);
}

fn flush(store: &mut Store, batch: &mut Vec<Sweep>, failing: &mut bool, sink: &Sink) {
    if batch.is_empty() {
        return;
    }
    match store.write(batch) {
        Ok(()) => *failing = false,
        Err(e) => {
            tracing::warn!("history: a write failed: {e}");
            // One line per run of failures, not one per sweep.
            if !*failing {
                sink(Answer::Failed(format!("History not saved: {e}")));
            }
            *failing = true;
        }
    }
    batch.clear();
}

fn opening_failed(e: &rusqlite::Error) -> String {
    let why = match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::NotADatabase) => {
            "the file is not a history database (corrupt?); move it away to start afresh".into()
        }
        Some(rusqlite::ErrorCode::DatabaseCorrupt) => {
            "the file is corrupt; move it away to start afresh".into()
        }
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
            "the file is locked by another program".into()
        }
        _ => e.to_string(),
    };
    format!("History off: {why}")
}
