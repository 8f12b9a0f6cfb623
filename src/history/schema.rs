//! The schema and its migrations. `PRAGMA user_version` holds the version of the file;
//! each step in [`MIGRATIONS`] takes it one further, in one transaction, so a file is
//! always at a version this program knows. A file from a newer proxydash is refused
//! rather than written to.

use rusqlite::{Connection, TransactionBehavior};

/// A server name longer than this is cut: a hostile list must not fill the disk.
const MAX_SERVER_CHARS: usize = 255;

/// A server name (or a proxy's scheme) as it is stored: at most [`MAX_SERVER_CHARS`].
pub(super) fn cut(s: &str) -> &str {
    match s.char_indices().nth(MAX_SERVER_CHARS) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// Version `i + 1` is reached by `MIGRATIONS[i]`.
const MIGRATIONS: &[&str] = &[
    // 1: the first schema. Times are Unix seconds (UTC); days are `YYYY-MM-DD`.
    "CREATE TABLE credit (at INTEGER NOT NULL, credit REAL NOT NULL);
     CREATE INDEX credit_at ON credit (at);
     CREATE TABLE service_state (
         service_id INTEGER NOT NULL, at INTEGER NOT NULL,
         status TEXT NOT NULL, nextduedate TEXT);
     CREATE INDEX service_state_id ON service_state (service_id, at);
     CREATE TABLE server_spell (
         id INTEGER PRIMARY KEY, service_id INTEGER NOT NULL, list INTEGER NOT NULL,
         server TEXT NOT NULL, since INTEGER NOT NULL, until INTEGER);
     CREATE INDEX server_spell_service ON server_spell (service_id, list, since);
     CREATE INDEX server_spell_until ON server_spell (until);
     CREATE TABLE watched (
         id INTEGER PRIMARY KEY, service_id INTEGER NOT NULL,
         since INTEGER NOT NULL, until INTEGER NOT NULL);
     CREATE INDEX watched_service ON watched (service_id, until);
     CREATE TABLE usage_day (
         service_id INTEGER NOT NULL, day TEXT NOT NULL, rate REAL NOT NULL,
         PRIMARY KEY (service_id, day)) WITHOUT ROWID;
     CREATE TABLE rate (
         service_id INTEGER NOT NULL, at INTEGER NOT NULL,
         rate REAL NOT NULL, rate_limit REAL NOT NULL);
     CREATE INDEX rate_id ON rate (service_id, at);
     CREATE TABLE probe (
         service_id INTEGER NOT NULL, server TEXT NOT NULL, at INTEGER NOT NULL,
         ok INTEGER NOT NULL, latency_ms INTEGER);
     CREATE INDEX probe_id ON probe (service_id, at);",
    // 2: a probe's protocol and exit IP (a proxy can be probed as HTTP and as SOCKS5, and
    // its exit over time is the point of a rotating one); rotation audits, one row each.
    "ALTER TABLE probe ADD COLUMN scheme TEXT;
     ALTER TABLE probe ADD COLUMN exit_ip TEXT;
     CREATE TABLE rotation (
         service_id INTEGER NOT NULL, server TEXT NOT NULL, scheme TEXT NOT NULL,
         at INTEGER NOT NULL, asked INTEGER NOT NULL, answered INTEGER NOT NULL,
         distinct_ips INTEGER NOT NULL, changes INTEGER NOT NULL, pairs INTEGER NOT NULL,
         min_ms INTEGER, p50_ms INTEGER, max_ms INTEGER);
     CREATE INDEX rotation_id ON rotation (service_id, at);",
    // 3: acknowledgements and silences of alerts (see `super::marks`); `alert_marks`
    // counts their changes, so a reader learns with one row whether to read them again.
    "CREATE TABLE alert_ack (
         rule TEXT NOT NULL, subject TEXT NOT NULL, by_whom TEXT NOT NULL, at INTEGER NOT NULL,
         PRIMARY KEY (rule, subject)) WITHOUT ROWID;
     CREATE TABLE alert_silence (
         id TEXT PRIMARY KEY, rule TEXT, service_id INTEGER, until INTEGER NOT NULL,
         reason TEXT NOT NULL, by_whom TEXT NOT NULL, created INTEGER NOT NULL) WITHOUT ROWID;
     CREATE TABLE alert_marks (id INTEGER PRIMARY KEY CHECK (id = 0), changes INTEGER NOT NULL);
     INSERT INTO alert_marks VALUES (0, 0);",
    // 4: scheduled probe rounds (`watch --probe-every`): one row per service and round,
    // its proxies checked and alive and the median latency of the alive ones (the alive
    // share is `alive / checked`, kept as counts so a round of 3 reads as one).
    "CREATE TABLE probe_round (
         service_id INTEGER NOT NULL, at INTEGER NOT NULL,
         checked INTEGER NOT NULL, alive INTEGER NOT NULL, p50_ms INTEGER);
     CREATE INDEX probe_round_id ON probe_round (service_id, at);",
];

/// The version this program writes.
pub const VERSION: i64 = MIGRATIONS.len() as i64;

/// Brings `conn` to [`VERSION`]; fails on a file newer than this program.
pub fn migrate(conn: &mut Connection) -> rusqlite::Result<()> {
    loop {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let version: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if version > VERSION {
            return Err(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_MISMATCH),
                Some(format!(
                    "the history file is from a newer proxydash (schema {version}, this one knows {VERSION})"
                )),
            ));
        }
        if version == VERSION {
            return Ok(());
        }
        tx.execute_batch(MIGRATIONS[version as usize])?;
        tx.pragma_update(None, "user_version", version + 1)?;
        tx.commit()?;
    }
}

/// Seconds in a day, the unit of the stored rows' spans.
pub(super) const DAY: i64 = 86_400;

/// A stored time (seconds since the epoch) as a time.
pub(super) fn time(secs: i64) -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::from_timestamp(secs, 0).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_file_gets_the_current_version_and_a_second_run_changes_nothing() {
        let mut conn = Connection::open_in_memory().unwrap();
        migrate(&mut conn).unwrap();
        migrate(&mut conn).unwrap();
        let v: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(v, VERSION);
        conn.execute("INSERT INTO credit VALUES (1, 2.5)", [])
            .unwrap();
    }

    #[test]
    fn a_file_from_a_newer_program_is_refused() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.pragma_update(None, "user_version", VERSION + 1)
            .unwrap();
        let e = migrate(&mut conn).unwrap_err().to_string();
        assert!(e.contains("newer proxydash"), "{e}");
    }
}
