//! Running a `--jq` filter within its bounds: on a thread of its own (its memory and
//! stack metered, [`crate::meter`]), watched by the caller for time, its output counted.

use super::{Data, compile};
use crate::script::output::{clean_lines, json_for_terminal, stdout_is_terminal};
use jaq_core::{Ctx, Vars};
use jaq_json::Val;
use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The most printed: past it the output stops (status 1).
pub const OUTPUT: u64 = 256 << 20;
/// The longest the filter may compute without giving a result.
pub const STINT: Duration = Duration::from_secs(10);
/// The most memory the filter's thread may hold.
const MEMORY: usize = 1 << 30;
/// The filter thread's stack, and how deep the filter may take it (the rest is room for
/// the frames between two allocations).
const STACK: usize = 64 << 20;
const DEPTH: usize = 56 << 20;
const SAID: (&str, &str) = (
    "proxydash: --jq: the expression used more than 1 GiB of memory; stopped\n",
    "proxydash: --jq: the expression recursed too deep (past 56 MiB of stack); stopped\n",
);

/// When the filter began computing its next result, in milliseconds since `start` plus
/// one; 0 while it writes (or has not begun).
pub(super) struct Stint {
    start: Instant,
    since: AtomicU64,
}

impl Stint {
    pub(super) fn new() -> Self {
        Self {
            start: Instant::now(),
            since: AtomicU64::new(0),
        }
    }

    fn busy(&self) {
        let now = self.start.elapsed().as_millis() as u64 + 1;
        self.since.store(now, Ordering::Relaxed);
    }

    fn idle(&self) {
        self.since.store(0, Ordering::Relaxed);
    }

    /// How long the filter has been computing without a result.
    fn busy_for(&self) -> Duration {
        match self.since.load(Ordering::Relaxed) {
            0 => Duration::ZERO,
            since => {
                let now = self.start.elapsed().as_millis() as u64 + 1;
                Duration::from_millis(now.saturating_sub(since))
            }
        }
    }
}

/// Runs `code` over `json` on a bounded thread, printing to standard output (see the
/// module docs of [`super`]); waits for it, or until it computed [`STINT`] without a
/// result (it is then left to the process's end).
pub(super) fn print(code: String, json: String) -> Result<(), String> {
    let terminal = stdout_is_terminal();
    let stint = Arc::new(Stint::new());
    let (done, result) = mpsc::channel();
    let watched = Arc::clone(&stint);
    let worker = std::thread::Builder::new()
        .name("jq".into())
        .stack_size(STACK)
        .spawn(move || {
            crate::meter::limit(MEMORY, DEPTH, SAID);
            let r = evaluate(&code, &json, terminal, &watched);
            crate::meter::unlimit();
            let _ = done.send(r);
        })
        .map_err(|e| format!("--jq: cannot start the filter: {e}"))?;
    loop {
        match result.recv_timeout(Duration::from_millis(50)) {
            Ok(r) => {
                let _ = worker.join();
                return r;
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err("--jq: the filter failed".to_owned());
            }
            Err(RecvTimeoutError::Timeout) if stint.busy_for() > STINT => {
                return Err(format!(
                    "--jq: the expression computed for {} s without a result; stopped",
                    STINT.as_secs()
                ));
            }
            Err(RecvTimeoutError::Timeout) => {}
        }
    }
}

/// Standard output, buffered, counting what is written against a cap ([`OUTPUT`]).
pub(super) struct Out<W: Write> {
    w: io::BufWriter<W>,
    written: u64,
    cap: u64,
}

/// Why the output stopped.
pub(super) enum Stop {
    /// The reader closed the pipe: what it wanted is out.
    Closed,
    Failed(String),
}

impl Stop {
    #[cfg(test)]
    pub(super) fn message(&self) -> &str {
        match self {
            Stop::Closed => "closed",
            Stop::Failed(why) => why,
        }
    }
}

impl<W: Write> Out<W> {
    pub(super) fn new(w: W, cap: u64) -> Self {
        Self {
            w: io::BufWriter::new(w),
            written: 0,
            cap,
        }
    }

    #[cfg(test)]
    pub(super) fn into_inner(self) -> W {
        self.w.into_inner().unwrap_or_else(|_| panic!("flushed"))
    }

    fn put(&mut self, bytes: &[u8]) -> Result<(), Stop> {
        self.written += bytes.len() as u64;
        if self.written > self.cap {
            return Err(Stop::Failed(format!(
                "--jq: the output reached {}; stopped",
                match self.cap >> 20 {
                    0 => format!("{} bytes", self.cap),
                    mib => format!("{mib} MiB"),
                }
            )));
        }
        self.w.write_all(bytes).map_err(stop)
    }

    fn flush(&mut self) -> Result<(), Stop> {
        self.w.flush().map_err(stop)
    }
}

fn stop(e: io::Error) -> Stop {
    match e.kind() {
        io::ErrorKind::BrokenPipe => Stop::Closed,
        _ => Stop::Failed(format!("cannot write to standard output: {e}")),
    }
}

fn evaluate(code: &str, json: &str, terminal: bool, stint: &Stint) -> Result<(), String> {
    let mut out = Out::new(io::stdout().lock(), OUTPUT);
    stint.busy();
    let filtered = filter(code, json, terminal, stint, &mut out).and_then(|()| out.flush());
    stint.idle();
    match filtered {
        Ok(()) | Err(Stop::Closed) => Ok(()),
        Err(Stop::Failed(why)) => {
            // What was printed before the failure stays printed.
            let _ = out.flush();
            Err(why)
        }
    }
}

pub(super) fn filter<W: Write>(
    code: &str,
    json: &str,
    terminal: bool,
    stint: &Stint,
    out: &mut Out<W>,
) -> Result<(), Stop> {
    let filter = compile(code).map_err(Stop::Failed)?;
    for input in jaq_json::read::parse_many(json.as_bytes()) {
        let input = input
            .map_err(|e| Stop::Failed(format!("--jq: the answer does not read as JSON: {e}")))?;
        let ctx = Ctx::<Data>::new(&filter.lut, Vars::new([]));
        for result in filter.id.run((ctx, input)) {
            stint.idle();
            match result {
                Ok(value) => out.put(&line(&value, terminal))?,
                Err(exn) => return ended(exn),
            }
            stint.busy();
        }
    }
    Ok(())
}

/// An exception of the filter: an error is a failure; `halt` ends the output (`halt(0)`
/// as a success, any other status as a failure: the command's statuses keep their
/// meanings).
fn ended(exn: jaq_core::Exn<'_, Val>) -> Result<(), Stop> {
    match exn.get_err() {
        Ok(error) => Err(Stop::Failed(format!("--jq: {}", error_text(&error)))),
        Err(exn) => match exn.get_halt() {
            Ok(0) => Ok(()),
            Ok(code) => Err(Stop::Failed(format!(
                "--jq: the expression halted with status {code}"
            ))),
            Err(_) => Err(Stop::Failed("--jq: the expression stopped".to_owned())),
        },
    }
}

/// An error's text: `error("x")`'s string as it is (not quoted), any other as jaq says it.
fn error_text(error: &jaq_core::Error<Val>) -> String {
    let text = error.to_string();
    match serde_json::from_str::<String>(&text) {
        Ok(plain) => plain,
        Err(_) => text,
    }
}

/// One result as a line: a string raw, anything else compact JSON; on a terminal without
/// what a terminal would act on.
fn line(value: &Val, terminal: bool) -> Vec<u8> {
    let mut bytes = match value {
        Val::TStr(s) | Val::BStr(s) => s.to_vec(),
        other => {
            let mut bytes = Vec::new();
            let _ = jaq_json::write::write(&mut bytes, &Default::default(), 0, other);
            bytes
        }
    };
    if terminal {
        let text = String::from_utf8_lossy(&bytes);
        let raw = matches!(value, Val::TStr(_) | Val::BStr(_));
        bytes = match raw {
            true => clean_lines(&text, false),
            false => json_for_terminal(&text),
        }
        .into_bytes();
    }
    bytes.push(b'\n');
    bytes
}
