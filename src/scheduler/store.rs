//! The learned budget kept between runs, for the scripting commands: each is a process of
//! its own, so a loop of `proxydash service N --json` would otherwise start every call from
//! nothing known (the sends themselves are in the shared send log, `sendlog.rs`).
//!
//! `$XDG_STATE_HOME/proxydash/budget.json` holds, per account (base URL and profile), the
//! limit the server's headers showed for the account and for each route that showed one
//! of its own (only that: an assumed figure, or one learned from 429s, is never a next
//! run's starting point), and the end of a pause (the account's, a route's). The send
//! times inside the window are kept here only by a process that could not use the
//! shared send log. Times are wall-clock milliseconds in the file and become instants on
//! loading.
//!
//! The file is a hint, not an order (anyone who can write the state folder can write it):
//! - each account's entry is read on its own, so one entry that does not parse (a figure
//!   too large, a wrong type) is skipped with a warning in the log, and is kept as it is
//!   when the file is written again: nothing else is lost; a route it does not know is
//!   skipped;
//! - every figure is clamped where [`Bucket::resume`] takes it: a limit counts only when
//!   lower than the assumed one and until an answer says otherwise, send times only
//!   inside the window and not in the future (at most a limit's worth), a pause at most
//!   an hour;
//! - the file is read as every state file is ([`crate::files::read_state`]: at most
//!   [`MAX_FILE`]; a link, a FIFO or a device is not read, and the command says so on
//!   standard error, then goes on without it);
//! - it is read, changed and written back under an advisory lock (`flock` of
//!   `budget.json.lock` beside it, tried for at most [`LOCK_WAIT`]), so two commands ending
//!   at once do not lose each other's entry; the new file is renamed over the name, so a
//!   reader never sees half of one.
//!
//! A missing or unreadable file is nothing known (never an error).

use super::{Bucket, Scopes, Source};
use crate::api::Request;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The most of `budget.json` that is read: a few hundred accounts' entries are a few KB.
pub const MAX_FILE: usize = 1 << 20;
/// The longest a command waits for another to let go of the file before it writes anyway.
pub const LOCK_WAIT: Duration = Duration::from_secs(1);

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
    /// Unix milliseconds of the sends still counted, when the send log was not used.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    spent: Vec<i64>,
    #[serde(default)]
    paused_until: Option<i64>,
    /// The routes with a figure or a pause of their own, by `METHOD path pattern`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    routes: BTreeMap<String, SavedRoute>,
}

#[derive(Clone, Serialize, Deserialize)]
struct SavedRoute {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    limit: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
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

    /// The budget `account` left behind, under today's `cap`, and what was wrong with the
    /// file when anything was (a line for the command to show).
    pub fn load(&self, account: &str, cap: Option<u32>) -> (Scopes, Option<String>) {
        let now = super::now();
        let (mut body, problem) = self.read();
        let Some(entry) = body.accounts.remove(account) else {
            return (Scopes::new(Bucket::new(cap)), problem);
        };
        let saved = match serde_json::from_value::<Saved>(entry) {
            Ok(saved) => saved,
            Err(e) => {
                let why = format!(
                    "{}: the entry of {account} is skipped ({e})",
                    self.path.display()
                );
                tracing::warn!("{why}");
                return (Scopes::new(Bucket::new(cap)), Some(why));
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
        let account_bucket = Bucket::resume(cap, headers, spent, paused, now);
        let routes = saved.routes.iter().filter_map(|(name, r)| {
            let route = *Request::ROUTES.iter().find(|x| x.to_string() == *name)?;
            let paused = r.paused_until.filter(|ms| *ms > wall).map(ahead);
            let own = Bucket::resume(cap, r.limit, [], paused, now);
            (!own.holds_nothing()).then_some((route, own))
        });
        (Scopes::resume(account_bucket, routes), problem)
    }

    /// Keeps what `scopes` learned for `account` (with its send times when `with_sends`:
    /// the process could not keep them in the shared send log).
    pub fn save(&self, account: &str, scopes: &Scopes, with_sends: bool) -> std::io::Result<()> {
        let (now, wall) = (super::now(), chrono::Utc::now().timestamp_millis());
        let ms = |t: Instant| wall - now.saturating_duration_since(t).as_millis() as i64;
        let until = |b: &Bucket| {
            b.paused_until()
                .map(|t| wall + t.saturating_duration_since(now).as_millis() as i64)
        };
        let bucket = scopes.account();
        let limit = bucket.headers_limit();
        let saved = Saved {
            limit,
            source: if limit.is_some() {
                Source::Headers
            } else {
                Source::Assumed
            },
            spent: if with_sends {
                bucket.spent().map(ms).collect()
            } else {
                Vec::new()
            },
            paused_until: until(bucket),
            routes: scopes
                .routes()
                .map(|(route, own)| {
                    let saved = SavedRoute {
                        // A route this command never heard from keeps what an
                        // earlier one learned of it (its next answer confirms it).
                        limit: own.headers_figure(),
                        paused_until: until(own),
                    };
                    (route.to_string(), saved)
                })
                .filter(|(_, r)| r.limit.is_some() || r.paused_until.is_some())
                .collect(),
        };
        let entry = serde_json::to_value(saved).map_err(std::io::Error::other)?;
        let _lock = lock_beside(&self.path);
        // A file that could not be read is replaced (the name may hold a FIFO or a link:
        // `replace` writes a new file beside it and renames it over the name).
        let (mut body, _) = self.read();
        body.accounts.insert(account.to_owned(), entry);
        let json = serde_json::to_vec(&body).map_err(std::io::Error::other)?;
        crate::files::replace(&self.path, &json)
    }
}

/// An exclusive advisory lock of `<path>.lock` (created `0600`), held until dropped;
/// `None` when it cannot be had within [`LOCK_WAIT`] (said in the log: the write goes on,
/// as it did before there was a lock, rather than losing what the command learned).
fn lock_beside(path: &std::path::Path) -> Option<std::fs::File> {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    let lock = PathBuf::from(name);
    if let Some(dir) = lock.parent() {
        let _ = crate::files::create_private_dir(dir);
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC);
    }
    let file = crate::files::check_state(&lock)
        .map_err(|e| e.to_string())
        .and_then(|_| options.open(&lock).map_err(|e| e.to_string()))
        .and_then(|f| match f.metadata() {
            Ok(m) if m.is_file() => Ok(f),
            _ => Err(format!("{} is not a regular file", lock.display())),
        });
    let file = match file {
        Ok(file) => file,
        Err(why) => {
            tracing::warn!("budget.json written without its lock: {why}");
            return None;
        }
    };
    let started = std::time::Instant::now();
    loop {
        match file.try_lock() {
            Ok(()) => return Some(file),
            Err(std::fs::TryLockError::WouldBlock) if started.elapsed() < LOCK_WAIT => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(e) => {
                tracing::warn!("budget.json written without its lock: {e}");
                return None;
            }
        }
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
            let t = b.try_take(at, crate::scheduler::Lane::Person).unwrap();
            b.unanswered(t);
        }
        // Kept only by a process without the shared send log.
        store.save("main@http://x", &Scopes::new(b), true).unwrap();
        let (mut again, _) = store.load("main@http://x", None);
        let now = super::super::now();
        assert_eq!(again.account_mut().view(now).left, 0, "the 60 sends count");
        let (mut other, _) = store.load("other@http://x", None);
        assert_eq!(other.account_mut().view(now).left, 60);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A route's own figure and pause are kept as the route's: the account's stays the
    /// account's (issue 46.3: an IP list's 5 a minute made the next command wait 61 s).
    #[test]
    fn a_routes_own_limit_is_kept_as_the_routes() {
        use crate::api::gate::Signal;
        use crate::api::{IpListFormat, IpListType, Request};
        let dir = std::env::temp_dir().join(format!("proxydash-routes-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let store = Store::new(dir.join("budget.json"));
        let now = super::super::now();
        let iplist = Request::ip_list(1, IpListType::HttpIp, IpListFormat::Txt).route();
        let mut scopes = Scopes::new(Bucket::new(None));
        let t = scopes
            .try_take(now, crate::scheduler::Lane::Person, iplist)
            .unwrap();
        let five = Signal {
            limit: Some(5),
            remaining: Some(4),
            ..Signal::default()
        };
        scopes.observe(t, &five, now);
        store.save("a", &scopes, false).unwrap();
        let text = std::fs::read_to_string(dir.join("budget.json")).unwrap();
        assert!(!text.contains("spent"), "{text}");
        let (mut again, _) = store.load("a", None);
        assert_eq!(again.account().limit(), 60, "{text}");
        let own: Vec<_> = again.routes().map(|(r, b)| (r, b.limit())).collect();
        assert_eq!(own, vec![(iplist, 5)], "{text}");
        let services = Request::Services.route();
        assert!(
            again
                .hold_for(now, crate::scheduler::Lane::Person, services)
                .is_none()
        );
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
        let b = b.account();
        assert_eq!((b.limit(), b.source()), (60, Source::Assumed));
        // Saved again, the assumed bucket carries no figure; under --max-rpm 600 it is
        // assumed at 600 in that run only.
        store
            .save("a", &store.load("a", Some(600)).0, false)
            .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("limit"), "{text}");
        assert_eq!(store.load("a", None).0.account().limit(), 60);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
