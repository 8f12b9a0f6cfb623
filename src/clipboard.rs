//! The clipboard behind a trait, so the dashboard can copy on a desktop, over SSH, or not
//! at all, and tests can read what was copied.
//!
//! - `system`: arboard. One `arboard::Clipboard` is kept alive for the whole run, because on
//!   X11 the copied text disappears when its owner is dropped.
//! - `osc52`: the terminal's OSC 52 escape sequence, written plain (not wrapped for tmux
//!   passthrough: tmux with `set -g set-clipboard on` takes a plain OSC 52 into its buffer
//!   and forwards it to the outer terminal, while a passthrough-wrapped one is dropped unless
//!   `allow-passthrough` is on). The terminal gives no confirmation, so the result says
//!   "sent", not "copied".
//! - `auto` (the default): system where a display server answers, OSC 52 where there is
//!   none (an SSH session, a headless box: `arboard::Clipboard::new()` fails at once) or
//!   where the system clipboard fails.
//! - `off`: nothing is copied; the user is told so.
//!
//! The system clipboard can block (an X11 selection owner or a Wayland compositor that is
//! slow to answer), so it is run off the UI task: a clipboard hands out that part as
//! [`Clipboard::off_loop`], the effects runner calls it on a blocking task and answers
//! with a message. OSC 52 is a write to the terminal, like a frame, so it stays on the
//! loop's task (written from another thread it could land inside a frame's escape
//! sequence); when the system clipboard fails, `auto`'s fallback to OSC 52 is run there
//! ([`Clipboard::fallback`]).

use crossterm::clipboard::CopyToClipboard;
use std::fmt;
use std::io::{self, Write};
use std::str::FromStr;
use std::sync::{Arc, Mutex};

/// The largest OSC 52 sequence sent; many terminals drop longer ones silently (xterm's
/// default limit is around 100 KB), so a bigger list is refused with a hint to write a file.
pub const OSC52_LIMIT: usize = 100_000;

/// The clipboard to use: `--clipboard` (clap's own parsing) or `clipboard =` in a profile
/// (read through the same names, any case).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ClipboardMode {
    #[default]
    Auto,
    System,
    #[value(alias = "osc-52")]
    Osc52,
    #[value(alias = "none")]
    Off,
}

impl FromStr for ClipboardMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        <Self as clap::ValueEnum>::from_str(s.trim(), true).map_err(|_| {
            format!(
                "unknown clipboard mode {:?} (auto, system, osc52, off)",
                s.trim()
            )
        })
    }
}

/// Where the text went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Copied {
    /// The system clipboard took it.
    System,
    /// The OSC 52 sequence was written; whether the terminal took it cannot be known.
    Osc52,
}

impl Copied {
    /// The words for the status line: "copied …" or "sent to the terminal clipboard …".
    pub fn verb(self) -> &'static str {
        match self {
            Copied::System => "copied to the clipboard",
            Copied::Osc52 => "sent to the terminal clipboard (OSC 52)",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClipboardError {
    Off,
    TooLarge { bytes: usize },
    System(String),
    Terminal(String),
}

impl fmt::Display for ClipboardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Off => f.write_str("the clipboard is off (clipboard = \"off\")"),
            Self::TooLarge { bytes } => write!(
                f,
                "too large for the terminal clipboard ({} KB, OSC 52 takes about {} KB): press w to write it to a file",
                bytes / 1000,
                OSC52_LIMIT / 1000
            ),
            Self::System(e) => write!(f, "the system clipboard failed: {e}"),
            Self::Terminal(e) => write!(f, "cannot write to the terminal: {e}"),
        }
    }
}

/// A copy that may block, to be run on a blocking task.
pub type OffLoop = Arc<dyn Fn(&str) -> Result<Copied, ClipboardError> + Send + Sync>;

pub trait Clipboard {
    /// Copies on the caller's task (what cannot block, or everything when
    /// [`Clipboard::off_loop`] is `None`).
    fn copy(&mut self, text: &str) -> Result<Copied, ClipboardError>;

    /// The part of this clipboard that may block, tried first and off the UI task; `None`:
    /// [`Clipboard::copy`] does it all.
    fn off_loop(&self) -> Option<OffLoop> {
        None
    }

    /// What to do on the UI task when the [`Clipboard::off_loop`] copy `failed`.
    fn fallback(&mut self, _text: &str, failed: ClipboardError) -> Result<Copied, ClipboardError> {
        Err(failed)
    }
}

/// The clipboard a mode asks for, writing OSC 52 to standard output.
pub fn for_mode(mode: ClipboardMode) -> Box<dyn Clipboard> {
    match mode {
        ClipboardMode::Off => Box::new(Off),
        ClipboardMode::Osc52 => Box::new(Osc52::new(io::stdout())),
        ClipboardMode::System => Box::new(System::new()),
        ClipboardMode::Auto => Box::new(Auto {
            system: System::new(),
            osc52: Osc52::new(io::stdout()),
        }),
    }
}

pub struct Off;

impl Clipboard for Off {
    fn copy(&mut self, _: &str) -> Result<Copied, ClipboardError> {
        Err(ClipboardError::Off)
    }
}

/// The system clipboard through arboard, opened once and then kept (shared with the
/// blocking task that copies).
pub struct System {
    inner: Option<Arc<Mutex<arboard::Clipboard>>>,
    /// Why opening failed, so we do not try a display server that is not there every time.
    unavailable: Option<String>,
}

impl System {
    pub fn new() -> Self {
        match arboard::Clipboard::new() {
            Ok(c) => Self {
                inner: Some(Arc::new(Mutex::new(c))),
                unavailable: None,
            },
            Err(e) => Self {
                inner: None,
                unavailable: Some(e.to_string()),
            },
        }
    }
}

impl Default for System {
    fn default() -> Self {
        Self::new()
    }
}

fn system_copy(c: &Mutex<arboard::Clipboard>, text: &str) -> Result<Copied, ClipboardError> {
    let mut c = c
        .lock()
        .map_err(|_| ClipboardError::System("an earlier copy failed midway".into()))?;
    c.set_text(text)
        .map(|_| Copied::System)
        .map_err(|e| ClipboardError::System(e.to_string()))
}

impl Clipboard for System {
    fn copy(&mut self, text: &str) -> Result<Copied, ClipboardError> {
        match &self.inner {
            Some(c) => system_copy(c, text),
            None => Err(ClipboardError::System(
                self.unavailable
                    .clone()
                    .unwrap_or_else(|| "not available".into()),
            )),
        }
    }

    fn off_loop(&self) -> Option<OffLoop> {
        let c = self.inner.clone()?;
        Some(Arc::new(move |text: &str| system_copy(&c, text)))
    }
}

/// OSC 52 written to `out` (standard output in the program, a buffer in tests).
pub struct Osc52<W: Write> {
    out: W,
}

impl<W: Write> Osc52<W> {
    pub fn new(out: W) -> Self {
        Self { out }
    }

    pub fn into_inner(self) -> W {
        self.out
    }
}

/// The OSC 52 sequence that puts `text` on the clipboard.
pub fn osc52_sequence(text: &str) -> String {
    let mut s = String::new();
    // Writing a crossterm command into a String cannot fail.
    let _ = crossterm::Command::write_ansi(&CopyToClipboard::to_clipboard_from(text), &mut s);
    s
}

impl<W: Write> Clipboard for Osc52<W> {
    fn copy(&mut self, text: &str) -> Result<Copied, ClipboardError> {
        let sequence = osc52_sequence(text);
        if sequence.len() > OSC52_LIMIT {
            return Err(ClipboardError::TooLarge { bytes: text.len() });
        }
        self.out
            .write_all(sequence.as_bytes())
            .and_then(|_| self.out.flush())
            .map(|_| Copied::Osc52)
            .map_err(|e| ClipboardError::Terminal(e.to_string()))
    }
}

/// System where it works, OSC 52 otherwise.
pub struct Auto<W: Write> {
    system: System,
    osc52: Osc52<W>,
}

impl<W: Write> Clipboard for Auto<W> {
    fn copy(&mut self, text: &str) -> Result<Copied, ClipboardError> {
        self.system.copy(text).or_else(|_| self.osc52.copy(text))
    }

    fn off_loop(&self) -> Option<OffLoop> {
        self.system.off_loop()
    }

    fn fallback(&mut self, text: &str, _failed: ClipboardError) -> Result<Copied, ClipboardError> {
        self.osc52.copy(text)
    }
}

/// Keeps every copied text; for tests. Clones share the record.
#[derive(Clone, Default)]
pub struct Recording {
    pub copied: Arc<Mutex<Vec<String>>>,
}

impl Recording {
    pub fn texts(&self) -> Vec<String> {
        self.copied.lock().map(|v| v.clone()).unwrap_or_default()
    }
}

impl Clipboard for Recording {
    fn copy(&mut self, text: &str) -> Result<Copied, ClipboardError> {
        if let Ok(mut v) = self.copied.lock() {
            v.push(text.to_owned());
        }
        Ok(Copied::System)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn osc52_writes_the_plain_sequence() {
        let mut clip = Osc52::new(Vec::new());
        assert_eq!(clip.copy("1.2.3.4:80\n"), Ok(Copied::Osc52));
        let written = String::from_utf8(clip.into_inner()).unwrap();
        // ESC ] 52 ; c ; base64("1.2.3.4:80\n") ST — no tmux passthrough wrapping.
        assert_eq!(written, "\x1b]52;c;MS4yLjMuNDo4MAo=\x1b\\");
    }

    #[test]
    fn osc52_refuses_what_terminals_would_drop() {
        let mut clip = Osc52::new(Vec::new());
        let big = "203.0.113.10:8080:user:pass\n".repeat(4000);
        let err = clip.copy(&big).unwrap_err();
        assert!(matches!(err, ClipboardError::TooLarge { .. }));
        assert!(err.to_string().contains("press w"));
        assert!(clip.into_inner().is_empty());
    }

    #[test]
    fn modes_parse() {
        assert_eq!("OSC52".parse(), Ok(ClipboardMode::Osc52));
        assert_eq!("auto".parse(), Ok(ClipboardMode::Auto));
        assert_eq!(" None ".parse(), Ok(ClipboardMode::Off));
        assert_eq!("osc-52".parse(), Ok(ClipboardMode::Osc52));
        assert!("x".parse::<ClipboardMode>().is_err());
    }
}
