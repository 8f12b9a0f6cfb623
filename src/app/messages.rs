//! The message log: every line the status bar ever showed, and every order's outcome,
//! kept so the user can read them (`m`), newest first, with their time and level.
//!
//! Choices (the spec says nothing of this; it is the dashboard's own record):
//! - At most [`CAPACITY`] entries; the oldest go first, so memory stays bounded however
//!   long the dashboard runs.
//! - A line said again while it is among the [`FOLD`] newest (the same failures on every
//!   auto-refresh) moves to the top as one entry with a count and the time it was last
//!   said, rather than filling the log with copies. Only identical lines fold, so a line
//!   must say what happened: a service update names its service, account and what it
//!   changed (`Service 1001 (…, account work) · bind IP 203.0.113.5: …`), and four
//!   binds to four addresses are four lines.
//! - Texts arrive sanitized (the status line sanitizes before logging); times are UTC here
//!   and shown in the app's offset by the view.
//! - The log outlives a profile switch (unlike every other piece of the old account's
//!   state): what was done under one account stays readable, a line marks the switch, and
//!   each update's line names its account.

use chrono::{DateTime, Utc};
use std::collections::VecDeque;

/// How many entries the log keeps.
pub const CAPACITY: usize = 500;

/// How far back a repeated line is looked for.
pub const FOLD: usize = 16;

/// How much an entry matters. An error is never logged as anything milder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Error,
    Warn,
    Info,
    Success,
}

impl Level {
    pub fn label(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warn => "warn",
            Level::Info => "info",
            Level::Success => "success",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// When it was last said.
    pub at: DateTime<Utc>,
    pub level: Level,
    pub text: String,
    /// How many times in a row it was said (1 for most).
    pub count: u32,
}

#[derive(Clone, Debug, Default)]
pub struct MessageLog {
    /// Oldest first.
    entries: VecDeque<Entry>,
}

impl MessageLog {
    /// The entries of `newer` after these (the oldest dropped past [`CAPACITY`]).
    pub fn extend(&mut self, newer: MessageLog) {
        self.entries.extend(newer.entries);
        while self.entries.len() > CAPACITY {
            self.entries.pop_front();
        }
    }

    pub fn push(&mut self, at: DateTime<Utc>, level: Level, text: &str) {
        let recent = self.entries.len().saturating_sub(FOLD);
        if let Some(i) = (recent..self.entries.len())
            .rev()
            .find(|&i| self.entries[i].level == level && self.entries[i].text == text)
            && let Some(mut again) = self.entries.remove(i)
        {
            again.count = again.count.saturating_add(1);
            again.at = at;
            self.entries.push_back(again);
            return;
        }
        if self.entries.len() == CAPACITY {
            self.entries.pop_front();
        }
        self.entries.push_back(Entry {
            at,
            level,
            text: text.to_owned(),
            count: 1,
        });
    }

    /// Newest first.
    pub fn newest_first(&self) -> impl ExactSizeIterator<Item = &Entry> {
        self.entries.iter().rev()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_700_000_000 + s, 0).unwrap()
    }

    #[test]
    fn newest_first_bounded_and_repeats_folded() {
        let mut log = MessageLog::default();
        log.push(t(0), Level::Error, "Services: timed out");
        log.push(t(30), Level::Error, "Services: timed out");
        log.push(t(31), Level::Success, "copied");
        let v: Vec<_> = log.newest_first().collect();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].text, "copied");
        assert_eq!((v[1].count, v[1].at), (2, t(30)));
        // Said again with another line in between: moved to the top, counted.
        log.push(t(60), Level::Error, "Services: timed out");
        let v: Vec<_> = log.newest_first().collect();
        assert_eq!((v.len(), v[0].count, v[0].at), (2, 3, t(60)));
        // The same words at another level are another entry.
        log.push(t(61), Level::Info, "Services: timed out");
        assert_eq!(log.len(), 3);
        for i in 0..(CAPACITY as i64 + 10) {
            log.push(t(100 + i), Level::Info, &format!("line {i}"));
        }
        assert_eq!(log.len(), CAPACITY);
        let newest = log.newest_first().next().unwrap();
        assert_eq!(newest.text, format!("line {}", CAPACITY + 9));
    }
}
