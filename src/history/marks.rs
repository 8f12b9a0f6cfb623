//! Acknowledgements and silences of alerts ([`crate::alerts::marks`]), kept in the
//! profile's history file so they survive restarts and are shared by every process
//! watching the profile: the dashboard, `watch` and `proxydash alerts`.
//!
//! - **One writer per process, in order**: an engine's changes and its reads go through
//!   one thread of its own ([`MarksFile`]), so a read that follows a change sees it; SQLite
//!   (WAL, busy timeout) serialises the processes.
//! - **Cheap to ask again**: every change counts one in `alert_marks`; a reader asks that
//!   one row before each sweep and reads the marks only when it moved
//!   ([`MarksDb::load_if_changed`]), so a silence typed in another process holds from the
//!   next sweep on.
//! - Silences that ended more than a week before a new one is made are deleted then.

use super::Store;
use crate::alerts::marks::{Ack, MarkChange, Marks, Silence, Target};
use crate::alerts::{AlertKey, Rule, Subject};
use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, params};
use std::path::{Path, PathBuf};

/// Ended silences are kept this long (to be seen as ended), then deleted.
const KEEP_ENDED: i64 = 7 * 86_400;

pub struct MarksDb {
    conn: Connection,
    /// The change count when the marks were last read.
    seen: Option<i64>,
}

fn subject_text(s: &Subject) -> String {
    match s {
        Subject::Account => "account".into(),
        Subject::Service(id) => format!("service:{id}"),
        Subject::Invoice(id) => format!("invoice:{id}"),
        Subject::Data(kind) => format!("data:{}", kind.as_str()),
    }
}

fn subject_of(text: &str) -> Option<Subject> {
    match text.split_once(':') {
        None if text == "account" => Some(Subject::Account),
        Some(("service", n)) => n.parse().ok().map(Subject::Service),
        Some(("invoice", n)) => n.parse().ok().map(Subject::Invoice),
        Some(("data", kind)) => crate::api::Kind::parse(kind).map(Subject::Data),
        _ => None,
    }
}

fn time(t: i64) -> DateTime<Utc> {
    DateTime::from_timestamp(t, 0).unwrap_or_default()
}

impl MarksDb {
    /// Opens the history file at `path` (created `0600` and migrated as the history
    /// store does; [`super::IN_MEMORY`] for tests).
    pub fn open(path: &Path) -> rusqlite::Result<Self> {
        let store = Store::open(path, super::DEFAULT_DAYS)?;
        Ok(Self {
            conn: store.conn,
            seen: None,
        })
    }

    /// The marks, when they changed since the last read (the first read always answers).
    pub fn load_if_changed(&mut self) -> rusqlite::Result<Option<Marks>> {
        let changes = self.changes()?;
        if self.seen == Some(changes) {
            return Ok(None);
        }
        let marks = self.load()?;
        self.seen = Some(changes);
        Ok(Some(marks))
    }

    fn changes(&self) -> rusqlite::Result<i64> {
        Ok(self
            .conn
            .query_row("SELECT changes FROM alert_marks WHERE id = 0", [], |r| {
                r.get(0)
            })
            .optional()?
            .unwrap_or(0))
    }

    /// Every acknowledgement and silence kept (rows this program cannot read are left
    /// out: a newer one may have written them).
    pub fn load(&self) -> rusqlite::Result<Marks> {
        let mut marks = Marks::default();
        let mut q = self
            .conn
            .prepare_cached("SELECT rule, subject, by_whom, at FROM alert_ack")?;
        let rows = q.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
            ))
        })?;
        for row in rows {
            let (rule, subject, by, at) = row?;
            let (Ok(rule), Some(subject)) = (rule.parse::<Rule>(), subject_of(&subject)) else {
                continue;
            };
            let key = AlertKey { rule, subject };
            marks.acks.insert(
                key,
                Ack {
                    key,
                    by,
                    at: time(at),
                },
            );
        }
        let mut q = self.conn.prepare_cached(
            "SELECT id, rule, service_id, until, reason, by_whom, created FROM alert_silence",
        )?;
        let rows = q.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, Option<String>>(1)?,
                r.get::<_, Option<i64>>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, String>(5)?,
                r.get::<_, i64>(6)?,
            ))
        })?;
        for row in rows {
            let (id, rule, service, until, reason, by, created) = row?;
            let rule = match rule.map(|r| r.parse::<Rule>()) {
                Some(Err(_)) => continue,
                Some(Ok(r)) => Some(r),
                None => None,
            };
            let service = service.and_then(|s| u64::try_from(s).ok());
            marks.apply(MarkChange::Silence(Silence {
                id,
                target: Target { rule, service },
                until: time(until),
                reason,
                by,
                created: time(created),
            }));
        }
        Ok(marks)
    }

    /// Writes one change, in one transaction with its count.
    pub fn apply(&mut self, change: &MarkChange) -> rusqlite::Result<()> {
        let tx = self.conn.transaction()?;
        match change {
            MarkChange::Ack(a) => {
                tx.execute(
                    "INSERT OR REPLACE INTO alert_ack VALUES (?1, ?2, ?3, ?4)",
                    params![
                        a.key.rule.as_str(),
                        subject_text(&a.key.subject),
                        a.by,
                        a.at.timestamp()
                    ],
                )?;
            }
            MarkChange::Unack(key) => {
                tx.execute(
                    "DELETE FROM alert_ack WHERE rule = ?1 AND subject = ?2",
                    params![key.rule.as_str(), subject_text(&key.subject)],
                )?;
            }
            MarkChange::Silence(s) => {
                // Counted from the new silence's own time (the file's clock is the
                // writer's, which tests set).
                tx.execute(
                    "DELETE FROM alert_silence WHERE until < ?1",
                    params![s.created.timestamp() - KEEP_ENDED],
                )?;
                tx.execute(
                    "INSERT OR REPLACE INTO alert_silence VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    params![
                        s.id,
                        s.target.rule.map(Rule::as_str),
                        s.target.service.and_then(|id| i64::try_from(id).ok()),
                        s.until.timestamp(),
                        s.reason,
                        s.by,
                        s.created.timestamp()
                    ],
                )?;
            }
            MarkChange::Unsilence(id) => {
                tx.execute("DELETE FROM alert_silence WHERE id = ?1", params![id])?;
            }
        }
        tx.execute(
            "UPDATE alert_marks SET changes = changes + 1 WHERE id = 0",
            [],
        )?;
        tx.commit()
    }
}

enum Job {
    Apply(MarkChange),
    Load(tokio::sync::oneshot::Sender<Option<Marks>>),
}

/// An engine's way to the marks file: a thread of its own owns the connection, so the
/// engine's task never waits on the disk but for a read it asked (see the module docs).
#[derive(Clone, Debug)]
pub struct MarksFile {
    jobs: std::sync::mpsc::Sender<Job>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Job")
    }
}

impl MarksFile {
    /// Starts the thread; the file is opened there, and again at the next job while it
    /// cannot be (a file another process holds locked past the busy timeout, as while it
    /// migrates, is one that opens a moment later). Until it opens the engine keeps its
    /// marks in memory; the failure is logged once.
    pub fn spawn(path: PathBuf) -> Self {
        let (tx, rx) = std::sync::mpsc::channel::<Job>();
        let spawned = std::thread::Builder::new()
            .name("alert-marks".into())
            .spawn(move || {
                let mut db: Option<MarksDb> = None;
                let mut told = false;
                for job in rx {
                    if db.is_none() {
                        match MarksDb::open(&path) {
                            Ok(opened) => db = Some(opened),
                            Err(e) if !told => {
                                told = true;
                                tracing::warn!("alert marks: cannot open {}: {e}", path.display());
                            }
                            Err(_) => {}
                        }
                    }
                    match (job, db.as_mut()) {
                        (Job::Apply(change), Some(db)) => {
                            if let Err(e) = db.apply(&change) {
                                tracing::warn!("alert marks: cannot write {}: {e}", path.display());
                            }
                        }
                        (Job::Load(reply), Some(db)) => {
                            let _ = reply.send(db.load_if_changed().unwrap_or_else(|e| {
                                tracing::warn!("alert marks: cannot read {}: {e}", path.display());
                                None
                            }));
                        }
                        (Job::Load(reply), None) => {
                            let _ = reply.send(None);
                        }
                        (Job::Apply(_), None) => {}
                    }
                }
            });
        if let Err(e) = spawned {
            tracing::warn!("alert marks: cannot start their thread: {e}");
        }
        Self { jobs: tx }
    }

    /// Writes a change (after every change and read asked before it).
    pub fn apply(&self, change: MarkChange) {
        let _ = self.jobs.send(Job::Apply(change));
    }

    /// The marks as the file has them, when they changed since the last ask.
    pub async fn changed(&self) -> Option<Marks> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.jobs.send(Job::Load(tx)).ok()?;
        rx.await.ok().flatten()
    }
}
