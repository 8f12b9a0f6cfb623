//! The connection and the writes: one transaction per batch of sweeps, changes only (see
//! the module docs of [`super`]). What was last written is kept in memory, read back from
//! the file when it opens, so telling a change from a repeat costs no query.

use super::schema::cut;
use super::{MAX_GAP, RATE_EVERY, Record, ServerList, Sweep};
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::time::Duration;

/// At most this many days of stats are taken from one answer (the latest ones).
const MAX_USAGE_DAYS: usize = 400;

/// Pages of write-ahead log after which a write checkpoints (SQLite's default is 1,000).
pub const WAL_PAGES: i64 = 64;
/// Bytes the write-ahead file is cut back to after a checkpoint lets it start over.
pub const WAL_LIMIT: i64 = 512 * 1024;

pub struct Store {
    pub(super) conn: Connection,
    days: u32,
    credit: Option<f64>,
    services: HashMap<u64, (String, Option<String>)>,
    /// Open spells: (service, list) → server → row id.
    open: HashMap<(u64, i64), HashMap<String, i64>>,
    /// The last watched interval of each service: row id and its end.
    watched: HashMap<u64, (i64, i64)>,
    usage: HashMap<(u64, String), f64>,
    /// The last rate row of each service: when, rate, limit.
    rate: HashMap<u64, (i64, f64, f64)>,
    last_prune: i64,
}

/// The database and the files SQLite keeps beside it.
fn companions(path: &Path) -> [std::path::PathBuf; 3] {
    let with = |suffix: &str| {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        std::path::PathBuf::from(name)
    };
    [path.to_owned(), with("-wal"), with("-shm")]
}

impl Store {
    /// Opens (or creates, `0600`) the file, migrates it and loads what was last written;
    /// [`super::IN_MEMORY`] opens a store in memory (the demo's).
    /// A file another program holds locked fails after a short wait rather than hanging.
    pub fn open(path: &Path, days: u32) -> rusqlite::Result<Self> {
        if path == Path::new(super::IN_MEMORY) {
            return Self::open_in_memory(days);
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            let _ = crate::files::create_private_dir(dir);
            if let Err(e) = crate::files::tighten(dir, 0o700) {
                tracing::warn!("history: {e}");
            }
        }
        // No link at the database or its WAL and shared-memory files (SQLite would follow
        // one, creating the files where it points), and nothing but regular files (SQLite
        // would wait for ever reading a FIFO); what is there is made `0600`.
        for file in companions(path) {
            crate::files::check_state(&file).map_err(|e| {
                let cannot = rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CANTOPEN);
                rusqlite::Error::SqliteFailure(cannot, Some(e.to_string()))
            })?;
            if let Err(e) = crate::files::tighten(&file, 0o600) {
                tracing::warn!("history: {e}");
            }
        }
        // Created `0600` before SQLite opens it; its WAL and shared-memory files take the
        // same mode from it.
        if !path.exists() {
            let _ = crate::files::write_new(path, b"");
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        Self::setup(conn, days)
    }

    pub fn open_in_memory(days: u32) -> rusqlite::Result<Self> {
        Self::setup(Connection::open_in_memory()?, days)
    }

    /// A read-only connection, for `history export` beside a running dashboard.
    pub fn open_read_only(path: &Path) -> rusqlite::Result<Connection> {
        // A FIFO or a device there would hold SQLite's first read for ever.
        crate::files::check_state(path).map_err(|e| {
            let cannot = rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CANTOPEN);
            rusqlite::Error::SqliteFailure(cannot, Some(e.to_string()))
        })?;
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(Duration::from_secs(2))?;
        Ok(conn)
    }

    fn setup(mut conn: Connection, days: u32) -> rusqlite::Result<Self> {
        conn.busy_timeout(Duration::from_secs(2))?;
        // Answers "wal" (or "memory" for an in-memory database); a corrupt file fails here.
        let _: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        // SQLite's default page cache is 2 MB; history is written in small batches and read
        // by index, so a quarter of that costs nothing measurable and keeps the dashboard's
        // memory with 10,000 services under its target (BENCHMARKS.md target 6).
        conn.pragma_update(None, "cache_size", -512)?;
        // A bounded write-ahead file: SQLite checkpoints at 1,000 pages (4 MB) by default
        // and never shrinks the file, so two dashboards and `watch` on one profile left a
        // 4.1 MB `-wal` beside an 80 KB database. Checkpoint at 64 pages (256 KB) and cut
        // the file back to WAL_LIMIT when a checkpoint lets it start over.
        conn.pragma_update(None, "wal_autocheckpoint", WAL_PAGES)?;
        conn.pragma_update(None, "journal_size_limit", WAL_LIMIT)?;
        super::schema::migrate(&mut conn)?;
        let mut store = Self {
            conn,
            days: days.max(1),
            credit: None,
            services: HashMap::new(),
            open: HashMap::new(),
            watched: HashMap::new(),
            usage: HashMap::new(),
            rate: HashMap::new(),
            last_prune: i64::MIN,
        };
        store.load()?;
        Ok(store)
    }

    fn load(&mut self) -> rusqlite::Result<()> {
        let c = &self.conn;
        self.credit = c
            .query_row(
                "SELECT credit FROM credit ORDER BY at DESC, rowid DESC LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()?;
        // SQLite takes the bare columns of an aggregate query from the row of the max.
        let mut q = c.prepare(
            "SELECT service_id, status, nextduedate, max(at) FROM service_state GROUP BY service_id",
        )?;
        for row in q.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get(1)?, r.get(2)?)))? {
            let (id, status, due) = row?;
            self.services.insert(id as u64, (status, due));
        }
        let mut q =
            c.prepare("SELECT id, service_id, list, server FROM server_spell WHERE until IS NULL")?;
        for row in q.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                r.get(2)?,
                r.get(3)?,
            ))
        })? {
            let (rowid, id, list, server): (i64, i64, i64, String) = row?;
            self.open
                .entry((id as u64, list))
                .or_default()
                .insert(server, rowid);
        }
        let mut q =
            c.prepare("SELECT id, service_id, max(until) FROM watched GROUP BY service_id")?;
        for row in q.query_map([], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?, r.get(2)?))
        })? {
            let (rowid, id, until) = row?;
            self.watched.insert(id as u64, (rowid, until));
        }
        let mut q = c.prepare("SELECT service_id, day, rate FROM usage_day")?;
        for row in q.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get(1)?, r.get(2)?)))? {
            let (id, day, rate) = row?;
            self.usage.insert((id as u64, day), rate);
        }
        let mut q = c.prepare(
            "SELECT service_id, max(at), rate, rate_limit FROM rate GROUP BY service_id",
        )?;
        for row in q.query_map([], |r| {
            Ok((r.get::<_, i64>(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })? {
            let (id, at, rate, limit) = row?;
            self.rate.insert(id as u64, (at, rate, limit));
        }
        Ok(())
    }

    /// Writes `sweeps` in one transaction; on failure nothing of them is kept, and the
    /// in-memory "last written" is read back from the file so the next write is right.
    pub fn write(&mut self, sweeps: &[Sweep]) -> rusqlite::Result<()> {
        let result = self.try_write(sweeps);
        if result.is_err() {
            self.reload();
        }
        result
    }

    fn try_write(&mut self, sweeps: &[Sweep]) -> rusqlite::Result<()> {
        let tx = self.conn.transaction()?;
        let mut latest = i64::MIN;
        for sweep in sweeps {
            let at = sweep.at.timestamp();
            latest = latest.max(at);
            for record in &sweep.records {
                write_record(
                    &tx,
                    at,
                    record,
                    Caches {
                        credit: &mut self.credit,
                        services: &mut self.services,
                        open: &mut self.open,
                        watched: &mut self.watched,
                        usage: &mut self.usage,
                        rate: &mut self.rate,
                    },
                )?;
            }
        }
        if latest != i64::MIN && latest.saturating_sub(self.last_prune) >= 3600 {
            prune(&tx, latest, self.days)?;
            self.last_prune = latest;
            let cutoff = day_cutoff(latest, self.days);
            self.usage.retain(|(_, day), _| *day >= cutoff);
        }
        tx.commit()
    }

    fn reload(&mut self) {
        self.credit = None;
        self.services.clear();
        self.open.clear();
        self.watched.clear();
        self.usage.clear();
        self.rate.clear();
        let _ = self.load();
    }
}

struct Caches<'a> {
    credit: &'a mut Option<f64>,
    services: &'a mut HashMap<u64, (String, Option<String>)>,
    open: &'a mut HashMap<(u64, i64), HashMap<String, i64>>,
    watched: &'a mut HashMap<u64, (i64, i64)>,
    usage: &'a mut HashMap<(u64, String), f64>,
    rate: &'a mut HashMap<u64, (i64, f64, f64)>,
}

fn write_record(
    tx: &rusqlite::Transaction<'_>,
    at: i64,
    record: &Record,
    c: Caches<'_>,
) -> rusqlite::Result<()> {
    match record {
        Record::Credit { credit } => {
            if *c.credit != Some(*credit) {
                tx.prepare_cached("INSERT INTO credit (at, credit) VALUES (?1, ?2)")?
                    .execute(params![at, credit])?;
                *c.credit = Some(*credit);
            }
        }
        Record::Service {
            service_id,
            status,
            nextduedate,
        } => {
            let now = (status.clone(), nextduedate.map(|d| d.to_string()));
            if c.services.get(service_id) != Some(&now) {
                tx.prepare_cached(
                    "INSERT INTO service_state (service_id, at, status, nextduedate) VALUES (?1, ?2, ?3, ?4)",
                )?
                .execute(params![*service_id as i64, at, now.0, now.1])?;
                c.services.insert(*service_id, now);
            }
        }
        Record::Servers {
            service_id,
            list,
            servers,
        } => {
            let id = *service_id as i64;
            let listed: HashSet<&str> = servers.iter().map(|s| cut(s)).collect();
            let open = c.open.entry((*service_id, list.code())).or_default();
            let ended: Vec<(String, i64)> = open
                .iter()
                .filter(|(s, _)| !listed.contains(s.as_str()))
                .map(|(s, r)| (s.clone(), *r))
                .collect();
            for (server, rowid) in ended {
                tx.prepare_cached("UPDATE server_spell SET until = ?1 WHERE id = ?2")?
                    .execute(params![at, rowid])?;
                open.remove(&server);
            }
            for server in listed {
                if !open.contains_key(server) {
                    tx.prepare_cached(
                        "INSERT INTO server_spell (service_id, list, server, since) VALUES (?1, ?2, ?3, ?4)",
                    )?
                    .execute(params![id, list.code(), server, at])?;
                    open.insert(server.to_owned(), tx.last_insert_rowid());
                }
            }
            if *list == ServerList::Errors {
                watch(tx, at, *service_id, c.watched)?;
            }
        }
        Record::Usage { service_id, days } => {
            let skip = days.len().saturating_sub(MAX_USAGE_DAYS);
            for (day, rate) in days.iter().skip(skip) {
                let key = (*service_id, day.to_string());
                if c.usage.get(&key) != Some(rate) {
                    tx.prepare_cached(
                        "INSERT OR REPLACE INTO usage_day (service_id, day, rate) VALUES (?1, ?2, ?3)",
                    )?
                    .execute(params![*service_id as i64, key.1, rate])?;
                    c.usage.insert(key, *rate);
                }
            }
        }
        Record::Rate {
            service_id,
            rate,
            limit,
        } => {
            let due = match c.rate.get(service_id) {
                None => true,
                Some((last, r, l)) => {
                    l != limit || (r != rate && at - last >= RATE_EVERY.as_secs() as i64)
                }
            };
            if due {
                tx.prepare_cached(
                    "INSERT INTO rate (service_id, at, rate, rate_limit) VALUES (?1, ?2, ?3, ?4)",
                )?
                .execute(params![*service_id as i64, at, rate, limit])?;
                c.rate.insert(*service_id, (at, *rate, *limit));
            }
        }
        Record::Probe { .. } | Record::Rotation { .. } | Record::ProbeRound { .. } => {
            super::probes::write(tx, at, record)?
        }
    }
    Ok(())
}

/// Extends the service's last watched interval to `at`, or starts a new one after a gap.
fn watch(
    tx: &rusqlite::Transaction<'_>,
    at: i64,
    service_id: u64,
    watched: &mut HashMap<u64, (i64, i64)>,
) -> rusqlite::Result<()> {
    match watched.get(&service_id) {
        Some(&(rowid, until)) if at >= until && at - until <= MAX_GAP.as_secs() as i64 => {
            if at > until {
                tx.prepare_cached("UPDATE watched SET until = ?1 WHERE id = ?2")?
                    .execute(params![at, rowid])?;
                watched.insert(service_id, (rowid, at));
            }
        }
        _ => {
            tx.prepare_cached(
                "INSERT INTO watched (service_id, since, until) VALUES (?1, ?2, ?2)",
            )?
            .execute(params![service_id as i64, at])?;
            watched.insert(service_id, (tx.last_insert_rowid(), at));
        }
    }
    Ok(())
}

/// Deletes what ended before the retention; the last credit, state and rate of each
/// service stay (they are the value still in force).
fn prune(tx: &rusqlite::Transaction<'_>, now: i64, days: u32) -> rusqlite::Result<()> {
    let cutoff = now - i64::from(days) * 86_400;
    tx.execute(
        "DELETE FROM credit WHERE at < ?1 AND rowid <> (SELECT rowid FROM credit ORDER BY at DESC, rowid DESC LIMIT 1)",
        [cutoff],
    )?;
    tx.execute(
        "DELETE FROM service_state WHERE at < ?1 AND rowid NOT IN
           (SELECT r FROM (SELECT rowid AS r, max(at) FROM service_state GROUP BY service_id))",
        [cutoff],
    )?;
    tx.execute(
        "DELETE FROM rate WHERE at < ?1 AND rowid NOT IN
           (SELECT r FROM (SELECT rowid AS r, max(at) FROM rate GROUP BY service_id))",
        [cutoff],
    )?;
    tx.execute(
        "DELETE FROM server_spell WHERE until IS NOT NULL AND until < ?1",
        [cutoff],
    )?;
    tx.execute("DELETE FROM watched WHERE until < ?1", [cutoff])?;
    tx.execute("DELETE FROM probe WHERE at < ?1", [cutoff])?;
    tx.execute("DELETE FROM rotation WHERE at < ?1", [cutoff])?;
    tx.execute("DELETE FROM probe_round WHERE at < ?1", [cutoff])?;
    tx.execute(
        "DELETE FROM usage_day WHERE day < ?1",
        [day_cutoff(now, days)],
    )?;
    Ok(())
}

fn day_cutoff(now: i64, days: u32) -> String {
    chrono::DateTime::from_timestamp(now - i64::from(days) * 86_400, 0)
        .map(|t| t.date_naive().to_string())
        .unwrap_or_default()
}

impl Store {
    pub fn probes(
        &self,
        id: u64,
        now: chrono::DateTime<chrono::Utc>,
    ) -> rusqlite::Result<super::ProbeTrends> {
        super::probes::probes(&self.conn, id, now)
    }
}
