//! The command log (`L`, or "command log" in the palette): what was done this session, as
//! command lines of proxydash's CLI ([`super::cmdline`]) ready to paste into a script,
//! oldest first; `y` copies them all through the app's clipboard path.
//!
//! An entry is made when something was **carried out**, not when a form opened:
//! - a write the server accepted (a bind, a password change, an IP-list refresh, an
//!   order), from the very request sent; a write whose outcome is unknown is listed as a
//!   comment (`# … (outcome unknown: check before running it again)`), so pasting the log
//!   cannot order twice; a refused one is not listed;
//! - an IP list copied (`y`: the list as served; `Y`, as URLs, which the command line does
//!   not print, is listed with a comment saying so) once the clipboard took it, or written
//!   to a file (`-o FILE`);
//! - a proxy probe started (`h`).
//!
//! Reads (`r`, `R`, the tabs) are not listed: the dashboard makes them all the time. The
//! log keeps the last [`MAX_ENTRIES`] lines.

use chrono::{DateTime, Utc};
use std::collections::VecDeque;

/// The most lines the log keeps (the oldest go first).
pub const MAX_ENTRIES: usize = 500;

/// The most copies waiting for the clipboard's answer that are remembered.
const MAX_PENDING: usize = 16;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub at: DateTime<Utc>,
    /// The command line (a comment for what should not simply be run again).
    pub line: String,
}

#[derive(Clone, Debug, Default)]
pub struct CommandLog {
    entries: VecDeque<Entry>,
    /// Copies handed to the clipboard and not answered yet: what the status line calls
    /// the copy, and its command line.
    pending: VecDeque<(String, String)>,
}

impl CommandLog {
    pub fn push(&mut self, at: DateTime<Utc>, line: String) {
        if self.entries.len() == MAX_ENTRIES {
            self.entries.pop_front();
        }
        self.entries.push_back(Entry { at, line });
    }

    /// Oldest first.
    pub fn entries(&self) -> impl DoubleEndedIterator<Item = &Entry> + ExactSizeIterator {
        self.entries.iter()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every line, oldest first, one per line: what `y` copies.
    pub fn script(&self) -> String {
        let mut out = String::new();
        for e in &self.entries {
            out.push_str(&e.line);
            out.push('\n');
        }
        out
    }

    /// A copy called `what` went to the clipboard: its line is listed once it is there.
    pub fn expect_copy(&mut self, what: String, line: String) {
        if self.pending.len() == MAX_PENDING {
            self.pending.pop_front();
        }
        self.pending.push_back((what, line));
    }

    /// The clipboard answered the copy called `what`: its line, if one waited.
    pub(super) fn take_copy(&mut self, what: &str) -> Option<String> {
        let i = self.pending.iter().position(|(w, _)| w == what)?;
        self.pending.remove(i).map(|(_, line)| line)
    }
}

impl CommandLog {
    /// Puts `older` (the log of the session before) under this one's entries.
    pub fn continue_after(&mut self, older: CommandLog) {
        let mine = std::mem::replace(self, older);
        for e in mine.entries {
            self.push(e.at, e.line);
        }
    }
}
