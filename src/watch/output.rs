//! Where `watch` writes: alerts as JSON lines on standard output, the log (sweep summaries,
//! rebinds, failures) on standard error. Both go through one writer thread, so a reader
//! that is slow (a full pipe) never stops the watchers; lines wait in memory meanwhile,
//! at most [`QUEUE`] of them, past which log lines are dropped (and counted) — alert lines
//! never are, as each alert is delivered once.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

/// Log lines that may wait for the writer before new ones are dropped.
pub const QUEUE: usize = 4096;

enum Line {
    Alert(String),
    Log(String),
    /// Answered once everything before it is written and flushed.
    Flush(tokio::sync::oneshot::Sender<()>),
}

/// The watchers' side: cheap to clone, never blocks.
#[derive(Clone)]
pub struct Output {
    tx: mpsc::Sender<Line>,
    waiting: Arc<AtomicU64>,
    dropped: Arc<AtomicU64>,
    /// Standard output failed (closed): alerts can no longer be delivered.
    broken: Arc<AtomicBool>,
}

impl Output {
    /// Starts the writer thread on `out` (alerts) and `err` (the log).
    pub fn spawn(
        mut out: Box<dyn Write + Send>,
        mut err: Box<dyn Write + Send>,
    ) -> std::io::Result<Self> {
        let (tx, rx) = mpsc::channel::<Line>();
        let waiting = Arc::new(AtomicU64::new(0));
        let broken = Arc::new(AtomicBool::new(false));
        let (w, b) = (waiting.clone(), broken.clone());
        std::thread::Builder::new()
            .name("watch-output".into())
            .spawn(move || {
                while let Ok(line) = rx.recv() {
                    match line {
                        Line::Alert(text) => {
                            let ok = writeln!(out, "{text}").and_then(|()| out.flush());
                            if ok.is_err() {
                                b.store(true, Ordering::Relaxed);
                            }
                        }
                        Line::Log(text) => {
                            w.fetch_sub(1, Ordering::Relaxed);
                            let _ = writeln!(err, "{text}").and_then(|()| err.flush());
                        }
                        Line::Flush(done) => {
                            let _ = out.flush();
                            let _ = err.flush();
                            let _ = done.send(());
                        }
                    }
                }
            })?;
        Ok(Self {
            tx,
            waiting,
            dropped: Arc::new(AtomicU64::new(0)),
            broken,
        })
    }

    /// The process's own standard output and error.
    pub fn stdio() -> std::io::Result<Self> {
        Self::spawn(Box::new(std::io::stdout()), Box::new(std::io::stderr()))
    }

    /// One alert, one line (never dropped).
    pub fn alert(&self, json: String) {
        if self.tx.send(Line::Alert(json)).is_err() {
            self.broken.store(true, Ordering::Relaxed);
        }
    }

    /// One line of the log (dropped past [`QUEUE`] waiting).
    pub fn log(&self, line: String) {
        if self.waiting.load(Ordering::Relaxed) >= QUEUE as u64 {
            self.dropped.fetch_add(1, Ordering::Relaxed);
            return;
        }
        self.waiting.fetch_add(1, Ordering::Relaxed);
        let _ = self.tx.send(Line::Log(line));
    }

    /// Standard output failed: alerts are lost from here on.
    pub fn is_broken(&self) -> bool {
        self.broken.load(Ordering::Relaxed)
    }

    /// Log lines dropped because the reader was behind.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    /// Waits (at most `limit`) until every line sent so far is written.
    pub async fn flush(&self, limit: std::time::Duration) {
        let (done, wait) = tokio::sync::oneshot::channel();
        if self.tx.send(Line::Flush(done)).is_ok() {
            let _ = tokio::time::timeout(limit, wait).await;
        }
    }
}

/// A writer into shared memory, for tests and benches that read what was written.
#[derive(Clone, Default)]
pub struct Captured(pub Arc<std::sync::Mutex<Vec<u8>>>);

impl Captured {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().map(|v| v.clone()).unwrap_or_default()).into_owned()
    }
}

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Ok(mut v) = self.0.lock() {
            v.extend_from_slice(buf);
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
