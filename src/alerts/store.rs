//! Open alerts kept across restarts: `alerts.json` in the state directory, keyed by
//! account like the refresh countdowns, so a restart does not announce them again.
//!
//! Only open alerts are kept; the history of transitions is the history store's job.
//!
//! **One file for every process on the account**: the dashboard and `watch` (or two of
//! either) share the account's entry. Each writes only what its sweep changed (opened,
//! updated, resolved) and reads the entry again before each sweep
//! ([`super::AlertBook::adopt`]), so an alert has one first-seen time whoever saw it
//! first, and a process that starts beside another knows what is open. A
//! missing or unreadable file gives no alerts and never stops the dashboard (the file is
//! read through [`crate::files::state::AccountsFile`]: never a FIFO, a device or a link,
//! at most a few MB).
//!
//! Each alert is read on its own, so one that does not read loses no other: the good ones
//! are kept, the file is moved aside with a line saying so. An alert whose identity (its
//! `key`) reads but whose level (or another part) does not is kept too, as open and
//! already announced: the first sweep that sees it again gives it its level quietly
//! ([`Alert::level_unsure`]), so what was delivered is never announced again. Only an
//! alert without a readable key is lost (nothing could tell it again from a new one).

use super::{Alert, AlertKey, Level};
use crate::files::state::AccountsFile;
use chrono::{DateTime, Utc};
use serde_json::Value;
use std::io;
use std::path::{Path, PathBuf};

/// The most alerts kept per account, so a hostile server cannot grow the file without end.
const MAX_KEPT: usize = 10_000;

#[derive(Clone, Debug)]
pub struct AlertFile {
    file: AccountsFile<Vec<Alert>>,
}

/// An account's alerts, one by one: those that read (or could be salvaged), and how many
/// could not.
fn read_alerts(value: Value) -> Result<(Vec<Alert>, usize), String> {
    let Value::Array(items) = value else {
        return Err("the account's alerts are not a list".into());
    };
    let mut lost = 0;
    let mut kept = Vec::with_capacity(items.len().min(MAX_KEPT));
    for item in items.into_iter().take(MAX_KEPT) {
        match serde_json::from_value::<Alert>(item.clone()) {
            Ok(alert) => kept.push(alert),
            Err(_) => match salvage(item) {
                Some(alert) => {
                    kept.push(alert);
                    lost += 1;
                }
                None => lost += 1,
            },
        }
    }
    Ok((kept, lost))
}

/// An alert whose key reads, with what else of it reads; the level, when it does not, is
/// left for the next sweep to give.
fn salvage(mut item: Value) -> Option<Alert> {
    let key: AlertKey = serde_json::from_value(item.get_mut("key")?.take()).ok()?;
    let mut part = |name: &str| item.get_mut(name).map(Value::take);
    let level = part("level").and_then(|v| serde_json::from_value::<Level>(v).ok());
    let time = |v: Option<Value>| v.and_then(|v| serde_json::from_value::<DateTime<Utc>>(v).ok());
    let now = Utc::now();
    let first_seen = time(part("first_seen")).unwrap_or(now);
    let last_seen = time(part("last_seen")).unwrap_or(now);
    let message = part("message")
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    Some(Alert {
        key,
        level: level.unwrap_or(Level::Info),
        message,
        first_seen,
        last_seen,
        resolved: None,
        repeats: 0,
        next_repeat: None,
        level_unsure: level.is_none(),
        unchecked_since: None,
    })
}

impl AlertFile {
    pub fn new(path: PathBuf) -> Self {
        Self {
            file: AccountsFile::with_reader(path, read_alerts),
        }
    }

    /// `alerts.json` in the XDG state directory.
    pub fn default_location() -> Option<Self> {
        crate::files::state_dir().map(|d| Self::new(d.join("alerts.json")))
    }

    pub fn path(&self) -> &Path {
        self.file.path()
    }

    /// The open alerts of `account`, and what was wrong with the file if anything was.
    pub fn load(&self, account: &str) -> (Vec<Alert>, Option<String>) {
        let (alerts, problem) = self.file.load(account);
        (alerts.unwrap_or_default(), problem)
    }

    /// The open alerts of every account of `profile` (the key is the base URL, a space
    /// and the profile; `proxydash alerts` resolves no base URL, which may need a secret),
    /// and what was wrong with the file if anything was.
    pub fn load_profile(&self, profile: &str) -> (Vec<Alert>, Option<String>) {
        let suffix = format!(" {profile}");
        let read = self.file.read();
        let alerts = read
            .accounts
            .into_iter()
            .filter(|(k, _)| k.ends_with(&suffix) && !k[..k.len() - suffix.len()].contains(' '))
            .flat_map(|(_, v)| v)
            .collect();
        (alerts, read.problem)
    }

    /// Writes what one process's sweep changed into the account's shared entry: its open
    /// alerts go in (an alert another process saw first keeps that first sighting), the
    /// ones it resolved go out, and every other process's alerts stay.
    pub fn save(&self, account: &str, open: &[Alert], resolved: &[AlertKey]) -> io::Result<()> {
        self.file.update(|accounts| {
            let mut kept = accounts.remove(account).unwrap_or_default();
            kept.retain(|a| !resolved.contains(&a.key));
            for alert in open {
                match kept.iter_mut().find(|a| a.key == alert.key) {
                    Some(there) => {
                        let first_seen = there.first_seen.min(alert.first_seen);
                        *there = alert.clone();
                        there.first_seen = first_seen;
                    }
                    None => kept.push(alert.clone()),
                }
            }
            kept.truncate(MAX_KEPT);
            if !kept.is_empty() {
                accounts.insert(account.to_owned(), kept);
            }
        })
    }
}

/// Notices a stop kept from the `on_alert` command (its commands ended, or not started):
/// `on_alert_pending.json` in the state directory, by account, one digest each, delivered
/// first at the next start of `watch` on the account and then forgotten. Read like every
/// state file (never a FIFO, a device or a link; bounded), so a broken one loses nothing
/// else.
#[derive(Clone, Debug)]
pub struct Undelivered {
    file: AccountsFile<crate::alerts::Notice>,
}

impl Undelivered {
    pub fn new(path: PathBuf) -> Self {
        Self {
            file: AccountsFile::new(path),
        }
    }

    pub fn default_location() -> Option<Self> {
        crate::files::state_dir().map(|d| Self::new(d.join("on_alert_pending.json")))
    }

    pub fn path(&self) -> &Path {
        self.file.path()
    }

    /// Keeps `notices` for `account`, merged with what it kept already.
    pub fn keep(&self, account: &str, notices: Vec<crate::alerts::Notice>) -> io::Result<()> {
        self.file.update(|accounts| {
            let mut all: Vec<_> = accounts.remove(account).into_iter().collect();
            all.extend(notices);
            if let Some(merged) = crate::alerts::Notice::merged(all) {
                accounts.insert(account.to_owned(), merged);
            }
        })
    }

    /// What was kept for `account`, forgotten as it is taken; what was wrong with the
    /// file, if anything was.
    pub fn take(&self, account: &str) -> (Option<crate::alerts::Notice>, Option<String>) {
        let (kept, problem) = self.file.load(account);
        if kept.is_some()
            && let Err(e) = self.file.update(|accounts| {
                accounts.remove(account);
            })
        {
            return (None, Some(format!("{}: {e}", self.path().display())));
        }
        (kept, problem)
    }
}
