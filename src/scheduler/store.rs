//! The learned budget kept between runs, for the scripting commands: each is a process of
//! its own, so a loop of `proxydash service N --json` would otherwise start every call from
//! nothing known and together exceed the server's limit.
//!
//! `$XDG_STATE_HOME/proxydash/budget.json` holds, per account (base URL and profile), the
//! limit, where it came from, the send times still inside the window and the end of a
//! pause. Times are wall-clock milliseconds in the file and become instants on loading.
//! Only a limit the server showed (headers, 429s) is kept: an assumed one is written
//! without a figure, and a figure read beside `"source": "assumed"` (an older file) is
//! ignored, so nothing assumed in one run becomes the next run's starting point.
//! Choices: a missing or unreadable file is nothing known (never an error); two scripts
//! running at the same moment may each miss the other's last sends (the file is read at
//! the start and written after the answer), which the margin of the window and the server's
//! own `X-RateLimit-Remaining` absorb.

use super::{Bucket, Source};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Default, Serialize, Deserialize)]
struct Body {
    #[serde(default)]
    accounts: BTreeMap<String, Saved>,
}

#[derive(Clone, Serialize, Deserialize)]
struct Saved {
    /// The limit the server showed; none when it was assumed.
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

    fn read(&self) -> Body {
        std::fs::read(&self.path)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    /// The bucket `account` left behind, under today's `ceiling`.
    pub fn load(&self, account: &str, ceiling: Option<u32>) -> Bucket {
        let Some(saved) = self.read().accounts.remove(account) else {
            return Bucket::new(ceiling);
        };
        let (now, wall) = (super::now(), chrono::Utc::now().timestamp_millis());
        let instant = |ms: i64| {
            let ago = Duration::from_millis(u64::try_from(wall - ms).unwrap_or(0));
            now.checked_sub(ago).unwrap_or(now)
        };
        let ahead = |ms: i64| now + Duration::from_millis(u64::try_from(ms - wall).unwrap_or(0));
        let window = (super::bucket::WINDOW + super::bucket::MARGIN).as_millis() as i64;
        let spent = saved
            .spent
            .iter()
            .filter(|ms| wall - **ms < window && **ms <= wall)
            .map(|ms| instant(*ms))
            .take(100_000);
        let paused = saved
            .paused_until
            .filter(|ms| *ms > wall)
            .map(|ms| ahead(ms.min(wall + 86_400_000)));
        let learned = saved.limit.map(|l| (l, saved.source));
        Bucket::resume(ceiling, learned, spent, paused)
    }

    pub fn save(&self, account: &str, bucket: &Bucket) -> std::io::Result<()> {
        let (now, wall) = (super::now(), chrono::Utc::now().timestamp_millis());
        let ms = |t: Instant| wall - now.saturating_duration_since(t).as_millis() as i64;
        let mut body = self.read();
        body.accounts.insert(
            account.to_owned(),
            Saved {
                limit: (bucket.source() != Source::Assumed).then(|| bucket.limit()),
                source: bucket.source(),
                spent: bucket.spent().map(ms).collect(),
                paused_until: bucket
                    .paused_until()
                    .map(|t| wall + t.saturating_duration_since(now).as_millis() as i64),
            },
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
            b.try_take(at, crate::scheduler::Priority::User).unwrap();
            b.unanswered(super::super::Ticket::Normal);
        }
        store.save("main@http://x", &b).unwrap();
        let mut again = store.load("main@http://x", None);
        assert_eq!(
            again.view(super::super::now()).left,
            0,
            "the 60 sends count"
        );
        let mut other = store.load("other@http://x", None);
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
        let b = store.load("a", None);
        assert_eq!((b.limit(), b.source()), (60, Source::Assumed));
        // Saved again, the assumed bucket carries no figure; under --max-rpm 600 it is
        // assumed at 600 in that run only.
        store.save("a", &store.load("a", Some(600))).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("limit"), "{text}");
        assert_eq!(store.load("a", None).limit(), 60);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
