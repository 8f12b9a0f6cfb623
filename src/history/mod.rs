//! The local history store: what the API said over time, kept in SQLite (one file per
//! profile in the state directory), so the dashboard can show what changed while nobody
//! looked — sparklines, "in error since", uptime — and `proxydash history export` can hand
//! it on.
//!
//! # How it is fed and asked
//!
//! - The app collects a [`Record`] for every successful read (credit, the services list,
//!   a service's error or inactive servers, its daily stats and its rate) and the run loop
//!   hands each batch to [`History::record`] as one [`Sweep`]. That is a `try_send` on a
//!   bounded channel: the UI task never waits on the disk.
//! - One writer thread ([`writer`]) owns the connection. It takes every sweep that is
//!   waiting and writes them in one transaction (WAL, `synchronous=NORMAL`: a crash loses
//!   at most the transaction being written, never the file).
//! - Views ask with [`History::ask`] and a [`Query`]; the same thread answers after the
//!   writes queued before the question, and the answer comes back as an [`Answer`] through
//!   the sink given to [`History::spawn`] (the dashboard turns it into a message).
//!
//! # What is stored (choices the issue leaves open)
//!
//! - **Changes, not copies.** Credit, a service's status and due date, and a rotating
//!   service's rate and limit are written when they differ from the last value written.
//!   A rate that only grows is written at most every [`RATE_EVERY`] (it moves every minute
//!   on a busy service; the daily stats carry the detail).
//! - **Servers as spells.** A server in error (or inactive) is one row from the read that
//!   first listed it (`since`) to the first read that no longer did (`until`, empty while
//!   it lasts). Lists that fail to load change nothing.
//! - **When we looked.** Each service has "watched" intervals: consecutive reads of its
//!   error list less than [`MAX_GAP`] apart make one interval. Time outside them (the
//!   dashboard closed, the network down) is neither up nor down.
//! - **Uptime** of a service is the share of its watched time with no server in error.
//! - **Daily usage** is the API's stats per day, kept per day (a day's value is replaced
//!   when the server reports a new one).
//! - **Probe results**: each proxy a probe (`h`, `proxydash probe`) contacted is one row
//!   ([`Record::Probe`]: service, `host:port`, protocol, alive or dead, the latency
//!   through it and the exit IP when alive), written with the batch its result arrived
//!   in; skipped proxies (never contacted) are not written. The probe view draws each
//!   proxy's last [`TREND_POINTS`] results as its trend ([`Query::Probes`]). A rotation
//!   audit is one row of its own ([`Record::Rotation`]: the counts and the spread), not a
//!   row per ask, so a gateway's trend stays its probes'. `history export` lists them as
//!   `probe` and `rotation` rows.
//! - **Probe rounds** (`watch --probe-every`): one row per service and round
//!   ([`Record::ProbeRound`]: proxies checked and alive, the p50 of the alive ones), not a
//!   row per proxy (a round of 1,000 services of 20 would be 20,000 rows every few
//!   minutes). The service's detail draws the alive share of its last rounds beside its
//!   errors; `history export` lists them as `probe_round` rows.
//! - **Retention**: rows that ended more than `history_days` ago (default 90) are deleted
//!   when the store opens and every hour after.
//! - A file that cannot be opened (corrupt, locked by another program, unwritable folder)
//!   gives one [`Answer::Off`] and the dashboard goes on without history; a write that
//!   fails later gives one [`Answer::Failed`] per run of failures.

mod intervals;
pub mod marks;
mod probes;
mod read;
mod schema;
mod store;
pub mod writer;

pub mod export;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod wal_tests;

pub use intervals::Span;
pub use probes::{ProbePoint, ProbeTrends, RotationRow, RoundRow};
pub use read::{Overview, ServiceHistory, ServiceOverview, Spell};
pub use store::Store;
pub use writer::History;

use chrono::{DateTime, NaiveDate, Utc};
use std::path::PathBuf;
use std::time::Duration;

/// The default retention, in days (`history_days` in the profile).
pub const DEFAULT_DAYS: u32 = 90;

/// Two reads of a service's error list further apart than this are not one watched
/// stretch: the gap between them counts as not watched.
pub const MAX_GAP: Duration = Duration::from_secs(10 * 60);

/// Results of each proxy kept for its trend in the probe view (and audits of a service).
pub const TREND_POINTS: usize = 12;

/// A rate that changed is written at most this often (a changed limit is written at once).
pub const RATE_EVERY: Duration = Duration::from_secs(15 * 60);

/// Which list of a service's servers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ServerList {
    Errors,
    Inactive,
}

impl ServerList {
    pub fn code(self) -> i64 {
        match self {
            Self::Errors => 0,
            Self::Inactive => 1,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Errors => "error",
            Self::Inactive => "inactive",
        }
    }
}

/// One successful read, as it is remembered.
#[derive(Clone, Debug, PartialEq)]
pub enum Record {
    Credit {
        credit: f64,
    },
    /// A service as the services list showed it.
    Service {
        service_id: u64,
        status: String,
        nextduedate: Option<NaiveDate>,
    },
    /// The whole current list; the writer turns it into spells.
    Servers {
        service_id: u64,
        list: ServerList,
        servers: Vec<String>,
    },
    /// A rotating service's daily stats.
    Usage {
        service_id: u64,
        days: Vec<(NaiveDate, f64)>,
    },
    Rate {
        service_id: u64,
        rate: f64,
        limit: f64,
    },
    /// The outcome of probing one proxy server (for the probing feature to send).
    Probe {
        service_id: u64,
        server: String,
        /// `http` or `socks5`: the same server can be probed as both.
        scheme: String,
        ok: bool,
        latency_ms: Option<u32>,
        exit_ip: Option<String>,
    },
    /// A rotation audit of a ppr gateway ([`crate::probe::rotation`]), one row.
    Rotation {
        service_id: u64,
        server: String,
        scheme: String,
        asked: u32,
        answered: u32,
        distinct: u32,
        changes: u32,
        pairs: u32,
        /// Smallest, median and largest latency of the answers, in ms.
        latency_ms: Option<(u32, u32, u32)>,
    },
    /// One service's part of a scheduled probe round (`watch --probe-every`,
    /// [`crate::probe::round`]): proxies checked and alive, the median latency of the
    /// alive ones.
    ProbeRound {
        service_id: u64,
        checked: u32,
        alive: u32,
        p50_ms: Option<u32>,
    },
}

/// The records of one batch of reads, all taken at `at`.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    pub at: DateTime<Utc>,
    pub records: Vec<Record>,
}

/// What a view asks of the store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Query {
    /// Every service's last 24 h and 7 d, and the credit over 30 days.
    Overview { now: DateTime<Utc> },
    /// One service's last 7 days in detail.
    Service { service_id: u64, now: DateTime<Utc> },
    /// The last probe results of each proxy of a service, and its last rotation audits.
    Probes { service_id: u64, now: DateTime<Utc> },
}

/// What the store says back.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    Overview(Box<Overview>),
    Service(Box<ServiceHistory>),
    Probes(Box<ProbeTrends>),
    /// The file could not be opened: history is off for this run (one line for the
    /// status bar).
    Off(String),
    /// A write failed (reported once per run of failures); the store goes on trying.
    Failed(String),
}

/// Where the demo keeps its history: in memory (SQLite's `:memory:`), never a file. The
/// demo's sandbox is new on each start, so its history is worth nothing after it, and a
/// file named after the demo would read and write the user's real state directory (a real
/// profile may even be called `demo`). [`Store::open`] opens this path in memory.
pub const IN_MEMORY: &str = ":memory:";

/// The history file of a profile, or [`IN_MEMORY`] for the demo.
pub fn place_for(profile: &str, demo: bool) -> Option<PathBuf> {
    if demo {
        return Some(PathBuf::from(IN_MEMORY));
    }
    file_for(profile)
}

/// The history file of a profile: `history-<profile>.sqlite` in the state directory, the
/// profile name reduced to letters, digits, `-` and `_` (anything else becomes `_`).
pub fn file_for(profile: &str) -> Option<PathBuf> {
    crate::files::state_dir().map(|d| d.join(file_name(profile)))
}

pub fn file_name(profile: &str) -> String {
    let safe: String = profile
        .chars()
        .take(64)
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("history-{safe}.sqlite")
}

/// SQLite's own check of the file at `path` (`"ok"` when sound), through a read-only
/// connection.
pub fn integrity_check(path: &std::path::Path) -> Result<String, String> {
    let conn = Store::open_read_only(path).map_err(|e| e.to_string())?;
    conn.query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .map_err(|e| e.to_string())
}

/// The records a successful read gives (none for what is not history).
pub fn records(loaded: &crate::api::Loaded) -> Vec<Record> {
    let servers = |service_id: u64, list: ServerList, servers: &Vec<String>| {
        vec![Record::Servers {
            service_id,
            list,
            servers: servers.clone(),
        }]
    };
    match loaded {
        crate::api::Loaded::Credit(Ok(c)) => vec![Record::Credit { credit: c.credit }],
        crate::api::Loaded::Services(Ok(list)) => list
            .iter()
            .map(|s| Record::Service {
                service_id: s.service_id,
                status: s.status.as_str().to_owned(),
                nextduedate: s.nextduedate,
            })
            .collect(),
        crate::api::Loaded::NetworkErrors(id, Ok(v)) => servers(*id, ServerList::Errors, v),
        crate::api::Loaded::NetworkInactive(id, Ok(v)) => servers(*id, ServerList::Inactive, v),
        crate::api::Loaded::Stats(id, Ok(days)) => vec![Record::Usage {
            service_id: *id,
            days: days
                .iter()
                .filter_map(|d| Some((d.date?, d.rate)))
                .collect(),
        }],
        crate::api::Loaded::Rate(id, Ok(r)) => r
            .first()
            .map(|r| Record::Rate {
                service_id: *id,
                rate: r.rate,
                limit: r.limit,
            })
            .into_iter()
            .collect(),
        _ => Vec::new(),
    }
}
