//! The learned budget kept between runs, for the scripting commands: each is a process of
//! its own, so a loop of `proxydash service N --json` would otherwise start every call from
//! nothing known and together exceed the server's limit.
//!
//! `$XDG_STATE_HOME/proxydash/budget.json` holds, per account (base URL and profile), the
//! limit the server's headers showed (only that: an assumed figure, or one learned from
//! 429s, is never a next run's starting point), the send times still inside the window
//! and the end of a pause. Times are wall-clock milliseconds in the file and become
//! instants on loading.
//!
//! The file is a hint, not an order (anyone who can write the state folder can write it):
//! - each account's entry is read on its own, so one entry that does not parse (a figure
//!   too large, a wrong type) is skipped with a warning in the log, and is kept as it is
//!   when the file is written again: nothing else is lost;
//! - every figure is clamped where [`Bucket::resume`] takes it: a limit counts only when
//!   lower than the assumed one and until an answer says otherwise, send times only
//!   inside the window and not in the future (at most a limit's worth), a pause at most
//!   an hour;
//! - the file is read as every state file is ([`crate::files::read_state`]: at most
//!   [`MAX_FILE`]; a link, a FIFO or a device is not read, and the command says so on
//!   standard error, then goes on without it).
//!
//! A missing or unreadable file is nothing known (never an error); two scripts running at
//! the same moment may each miss the other's last sends (the file is read at the start and
//! written after the answer), which the margin of the window and the server's own
//! `X-RateLimit-Remaining` absorb.

use super::{Bucket, Source};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The most of `budget.json` that is read: a few hundred accounts' entries are a few KB.
pub const MAX_FILE: usize = 1 << 20;

/// The file: each account's entry kept as the JSON it is, parsed on its own.
#[derive(Default, Serialize, Deserialize)]
struct Body {
    #[serde(default)]
    accounts: BTreeMap<String, serde_json::Value>,
}

#[derive(Clone, Serialize, Deserialize)]
struct Saved {
    /// The limit the server's headers showed; none when it was assumed or learned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    limit: Option<u32>,
    source: Source,
    /// Unix milliseconds of the sends still counted.
    #[serde(default)]
    spent: Vec<i64>,
    #[serde(default)]
    paused_until: Option<i64>,
}

pub struct Store {
    path: PathBuf,
}

impl Store {
    pub fn new(path: PathBuf) -> Self {
        Self { path }
    }

    /// `budget.json` in the XDG state directory.
    pub fn default_location() -> Option<Self> {
        crate::files::state_dir().map(|d| Self::new(d.join("budget.json")))
    }

    /// The file's entries, or nothing known and why not.
    fn read(&self) -> (Body, Option<String>) {
        let bytes = match crate::files::read_state(&self.path, MAX_FILE as u64) {
            Ok(Some(bytes)) => bytes,
            Ok(None) => return (Body::default(), None),
            Err(e) => {
                let why = format!("{e}; the request budget starts afresh");
                tracing::warn!("{why}");
                return (Body::default(), Some(why));
            }
        };
        match serde_json::from_slice(&bytes) {
            Ok(body) => (body, None),
            Err(e) => {
                let why = format!(
                    "{} is not a budget file ({e}); the request budget starts afresh",
                    self.path.display()
                );
                tracing::warn!("{why}");
                (Body::default(), Some(why))
            }
        }
    }

    /// The bucket `account` left behind, under today's `cap`, and what was wrong with the
    /// file when anything was (a line for the command to show).
    pub fn load(&self, account: &str, cap: Option<u32>) -> (Bucket, Option<String>) {
        let now = super::now();
        let (mut body, problem) = self.read();
        let Some(entry) = body.accounts.remove(account) else {
            return (Bucket::new(cap), problem);
        };
        let saved = match serde_json::from_value::<Saved>(entry) {
            Ok(saved) => saved,
            Err(e) => {
                let why = format!(
                    "{}: the entry of {account} is skipped ({e})",
                    self.path.display()
                );
                tracing::warn!("{why}");
                return (Bucket::new(cap), Some(why));
            }
        };
        let wall = chrono::Utc::now().timestamp_millis();
        let instant = |ms: i64| {
            let ago = Duration::from_millis(u64::try_from(wall.saturating_sub(ms)).unwrap_or(0));
            now.checked_sub(ago)
        };
        let ahead = |ms: i64| {
            let ahead = u64::try_from(ms.saturating_sub(wall)).unwrap_or(0);
            now + Duration::from_millis(ahead).min(super::bucket::PAUSE_CAP)
        };
        let window = (super::bucket::WINDOW + super::bucket::MARGIN).as_millis() as i64;
        let spent = saved
            .spent
            .iter()
            .filter(|ms| **ms <= wall && wall.saturating_sub(**ms) < window)
            .take(100_000)
            .filter_map(|ms| instant(*ms));
        let paused = saved.paused_until.filter(|ms| *ms > wall).map(ahead);
        let headers = saved.limit.filter(|_| saved.source == Source::Headers);
        (Bucket::resume(cap, headers, spent, paused, now), problem)
    }

    pub fn save(&self, account: &str, bucket: &Bucket) -> std::io::Result<()> {
        let (now, wall) = (super::now(), chrono::Utc::now().timestamp_millis());
        let ms = |t: Instant| wall - now.saturating_duration_since(t).as_millis() as i64;
        // A file that could not be read is replaced (the name may hold a FIFO or a link:
        // `replace` writes a new file beside it and renames it over the name).
        let (mut body, _) = self.read();
        let limit = bucket.headers_limit();
        let saved = Saved {
            limit,
            source: if limit.is_some() {
                Source::Headers
            } else {
                Source::Assumed
            },
            spent: bucket.spent().map(ms).collect(),
            paused_until: bucket
                .paused_until()
                .map(|t| wall + t.saturating_duration_since(now).as_millis() as i64),
        };
        body.accounts.insert(
            account.to_owned(),
            serde_json::to_value(saved).map_err(std::io::Error::other)?,
        );
        let json = serde_json::to_vec(&body).map_err(std::io::Error::other)?;
        crate::files::replace(&self.path, &json)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_survives_a_restart() {
        let dir = std::env::temp_dir().join(format!("proxydash-budget-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let store = Store::new(dir.join("budget.json"));
        let mut b = Bucket::new(None);
        // 60 sends, one a second, the last a second ago.
        let base = super::super::now() - Duration::from_secs(60);
        for i in 0..60 {
            let at = base + Duration::from_secs(i);
            b.try_take(at, crate::scheduler::Lane::Person).unwrap();
            b.unanswered(super::super::Token { sent: at });
        }
        store.save("main@http://x", &b).unwrap();
        let (mut again, _) = store.load("main@http://x", None);
        assert_eq!(
            again.view(super::super::now()).left,
            0,
            "the 60 sends count"
        );
        let (mut other, _) = store.load("other@http://x", None);
        assert_eq!(other.view(super::super::now()).left, 60);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_assumed_limit_is_never_saved_as_a_figure() {
        let dir = std::env::temp_dir().join(format!("proxydash-assumed-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("budget.json");
        let store = Store::new(path.clone());
        // A file an older version wrote: a figure doubled on silence, marked assumed.
        std::fs::write(
            &path,
            r#"{"accounts":{"a":{"limit":7680,"source":"assumed","spent":[]}}}"#,
        )
        .unwrap();
        let (b, _) = store.load("a", None);
        assert_eq!((b.limit(), b.source()), (60, Source::Assumed));
        // Saved again, the assumed bucket carries no figure; under --max-rpm 600 it is
        // assumed at 600 in that run only.
        store.save("a", &store.load("a", Some(600)).0).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("limit"), "{text}");
        assert_eq!(store.load("a", None).0.limit(), 60);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
