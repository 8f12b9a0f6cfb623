//! Diagnostics to a log file, never to the terminal the dashboard draws on.
//!
//! `--log-file PATH`, or `proxydash.log` in the state directory; the level comes from
//! `PROXYDASH_LOG` (`info` by default; `debug`, `trace`, or any `tracing` filter such as
//! `proxydash=debug`). The file is created `0600` (an existing one is tightened to that)
//! in a folder created `0700`, and appended to; it is rotated at 5 MiB with one `.1`
//! backup, and a write that fails is counted, never printed ([`file`]). Each
//! line names the time (UTC) and the process ID. A log that cannot be opened is said on
//! standard error before the dashboard starts and in its status line; the program runs
//! on without one.
//!
//! What is logged is chosen so that no secret can appear: each request as method, path,
//! status and duration (never headers or bodies, which carry the token and passwords), and
//! errors through their `Display`, which holds no credentials.
//!
//! Errors carry the server's own words, which a hostile server can fill with escape
//! sequences (`ESC]0;…BEL ESC[2J`) that would run when the log is `cat`ed, or with bidi
//! overrides. Every line is written through [`crate::text::sanitize`] (by the writer, so
//! no event can forget it); line breaks between events stay.

pub mod file;

use file::LogFile;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::time::FormatTime;

/// The log file when none is named.
pub fn default_path() -> Option<PathBuf> {
    crate::files::state_dir().map(|d| d.join("proxydash.log"))
}

/// Starts logging to `path` at the level `PROXYDASH_LOG` names (`info` by default).
/// Fails quietly (returning why) so that a read-only state directory does not stop the
/// dashboard.
pub fn init(path: &Path) -> Result<(), String> {
    let filter = std::env::var("PROXYDASH_LOG").unwrap_or_else(|_| "info".into());
    init_with(path, &filter)
}

/// [`init`] for the file the user named (`--log-file`): a character device or a FIFO
/// there is written to as it is ([`LogFile::open_named`]); at the default path only a
/// regular file is.
pub fn init_named(path: &Path) -> Result<(), String> {
    let filter = std::env::var("PROXYDASH_LOG").unwrap_or_else(|_| "info".into());
    let result = start(path, &filter, LogFile::open_named);
    if let Err(e) = &result {
        let _ = PROBLEM.set(e.clone());
    }
    result
}

/// Starts logging to `path` with a `tracing` filter (`debug`, `proxydash=trace`, …).
/// Why it could not start is also kept for [`problem`].
pub fn init_with(path: &Path, filter: &str) -> Result<(), String> {
    let result = start(path, filter, LogFile::open);
    if let Err(e) = &result {
        let _ = PROBLEM.set(e.clone());
    }
    result
}

static PROBLEM: OnceLock<String> = OnceLock::new();

/// Why logging could not start, if it could not (the dashboard says so in its status line).
pub fn problem() -> Option<&'static str> {
    PROBLEM.get().map(String::as_str)
}

fn start(
    path: &Path,
    filter: &str,
    open: fn(&Path) -> std::io::Result<LogFile>,
) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        crate::files::create_private_dir(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let file =
        open(path).map_err(|e| format!("cannot open the log file {}: {e}", path.display()))?;
    let filter = EnvFilter::try_new(filter).map_err(|e| format!("log filter {filter:?}: {e}"))?;
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(Sanitizing(file))
        .with_timer(TimeAndPid)
        .with_ansi(false)
        .log_internal_errors(false)
        .try_init()
        .map_err(|e| format!("cannot start logging: {e}"))
}

/// Each line starts with the time (UTC) and this process's ID, so the lines of several
/// instances sharing one file can be told apart: `2026-11-23T05:40:01.123Z pid=4242`.
struct TimeAndPid;

impl FormatTime for TimeAndPid {
    fn format_time(&self, w: &mut Writer<'_>) -> std::fmt::Result {
        write!(
            w,
            "{} pid={}",
            chrono::Utc::now().format("%Y-%m-%dT%H:%M:%S%.3fZ"),
            std::process::id()
        )
    }
}

/// A writer whose every line is sanitized before it reaches the inner one.
struct Sanitizing<M>(M);

impl<'a, M: tracing_subscriber::fmt::MakeWriter<'a>> tracing_subscriber::fmt::MakeWriter<'a>
    for Sanitizing<M>
{
    type Writer = SanitizingWriter<M::Writer>;

    fn make_writer(&'a self) -> Self::Writer {
        SanitizingWriter(self.0.make_writer())
    }
}

struct SanitizingWriter<W>(W);

impl<W: Write> Write for SanitizingWriter<W> {
    /// `tracing`'s formatter hands over each event whole, so an escape sequence is never
    /// split between two calls.
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write_all(clean_lines(buf).as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// Each line of `buf` sanitized; the line breaks themselves kept.
fn clean_lines(buf: &[u8]) -> String {
    let text = String::from_utf8_lossy(buf);
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&crate::text::sanitize(line));
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn lines_are_sanitized_and_line_breaks_kept() {
        let line = b"WARN request failed error=\x1b]0;pwned\x07\x1b[2JToo Many \xe2\x80\xae\n";
        assert_eq!(
            super::clean_lines(line),
            "WARN request failed error=Too Many \n"
        );
    }
}
