//! The questions views ask: an overview of every service (errors per hour over 24 h,
//! uptime over 24 h and 7 d, in error since when), the credit over 30 days, daily usage,
//! and one service's last 7 days in detail.

use super::intervals::{self, Span};
use super::schema::{DAY, time};
use super::{ServerList, Store};
use chrono::{DateTime, NaiveDate, Utc};
use rusqlite::{Connection, params};
use std::collections::HashMap;

const HOUR: i64 = 3600;
/// Spells listed in a service's detail, newest first.
const MAX_SPELLS: usize = 200;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overview {
    pub at: DateTime<Utc>,
    /// The credit at the end of each of the last 30 days (oldest first); `None` before the
    /// first value known.
    pub credit_30d: Vec<Option<f64>>,
    /// The lowest the credit was during each of those days (the value it started the day
    /// with, or any it took that day): a drop and top-up within a day shows here.
    pub credit_30d_low: Vec<Option<f64>>,
    pub services: HashMap<u64, ServiceOverview>,
    /// Since when each server now listed in error or inactive has been listed.
    pub open: HashMap<(u64, ServerList, String), DateTime<Utc>>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ServiceOverview {
    /// Servers in error at some time of each of the last 24 hours (oldest first).
    pub errors_24h: Vec<u64>,
    /// Since when the service has had a server in error without a break; `None` if it has
    /// none now.
    pub in_error_since: Option<DateTime<Utc>>,
    pub uptime_24h: Option<f64>,
    pub uptime_7d: Option<f64>,
    /// How much of each window the uptime covers: the seconds of the last 24 hours and
    /// of the last 7 days something watched the service (an uptime over a minute watched
    /// is not one over a day).
    pub watched_24h: i64,
    pub watched_7d: i64,
    /// The daily usage known for the last 30 days, oldest first.
    pub usage_30d: Vec<(NaiveDate, f64)>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ServiceHistory {
    pub service_id: u64,
    pub at: DateTime<Utc>,
    pub overview: ServiceOverview,
    /// Servers in error at some time of each of the last 168 hours (oldest first).
    pub errors_7d: Vec<u64>,
    /// Error and inactive spells of the last 7 days, newest first (at most 200).
    pub spells: Vec<Spell>,
    /// Status and due-date changes of the last 7 days, oldest first.
    pub changes: Vec<(DateTime<Utc>, String, Option<String>)>,
    /// A rotating service's use in its period over the last 24 hours (as written: on a
    /// change, at most every 15 minutes), with its limit, oldest first.
    pub rate_24h: Vec<(DateTime<Utc>, f64, f64)>,
    /// Its last [`ROUNDS`] scheduled probe rounds of the last 7 days (`watch
    /// --probe-every`), oldest first.
    pub probe_rounds: Vec<super::probes::RoundRow>,
}

/// Probe rounds a service's detail shows.
pub const ROUNDS: usize = 48;

#[derive(Clone, Debug, PartialEq)]
pub struct Spell {
    pub server: String,
    pub list: ServerList,
    pub since: DateTime<Utc>,
    pub until: Option<DateTime<Utc>>,
}

impl Store {
    pub fn overview(&self, now: DateTime<Utc>) -> rusqlite::Result<Overview> {
        overview(&self.conn, now)
    }

    pub fn service(&self, id: u64, now: DateTime<Utc>) -> rusqlite::Result<ServiceHistory> {
        service(&self.conn, id, now)
    }
}

pub fn overview(conn: &Connection, now: DateTime<Utc>) -> rusqlite::Result<Overview> {
    let t = now.timestamp();
    let from = t - 7 * DAY;
    let mut errors: HashMap<u64, Vec<Span>> = HashMap::new();
    let mut q = conn.prepare_cached(
        "SELECT service_id, since, until FROM server_spell
         WHERE list = 0 AND (until IS NULL OR until > ?1)",
    )?;
    for row in q.query_map([from], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, Option<i64>>(2)?,
        ))
    })? {
        let (id, since, until) = row?;
        errors
            .entry(id as u64)
            .or_default()
            .push(Span::new(since, until.unwrap_or(t)));
    }
    let mut watched: HashMap<u64, Vec<Span>> = HashMap::new();
    let mut q =
        conn.prepare_cached("SELECT service_id, since, until FROM watched WHERE until > ?1")?;
    for row in q.query_map([from], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, i64>(2)?,
        ))
    })? {
        let (id, since, until) = row?;
        watched
            .entry(id as u64)
            .or_default()
            .push(Span::new(since, until));
    }
    let mut usage: HashMap<u64, Vec<(NaiveDate, f64)>> = HashMap::new();
    let first_day = (now - chrono::Duration::days(29)).date_naive().to_string();
    let mut q = conn.prepare_cached(
        "SELECT service_id, day, rate FROM usage_day WHERE day >= ?1 ORDER BY day",
    )?;
    for row in q.query_map([first_day], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, f64>(2)?,
        ))
    })? {
        let (id, day, rate) = row?;
        if let Ok(day) = day.parse() {
            usage.entry(id as u64).or_default().push((day, rate));
        }
    }
    let mut ids: Vec<u64> = errors.keys().chain(watched.keys()).copied().collect();
    ids.extend(usage.keys());
    ids.sort_unstable();
    ids.dedup();
    let services = ids
        .into_iter()
        .map(|id| {
            let mut o = summarise(
                t,
                errors.remove(&id).unwrap_or_default(),
                watched.remove(&id).unwrap_or_default(),
                24,
            );
            o.usage_30d = usage.remove(&id).unwrap_or_default();
            (id, o)
        })
        .collect();
    let mut open = HashMap::new();
    let mut q = conn.prepare_cached(
        "SELECT service_id, list, server, since FROM server_spell WHERE until IS NULL",
    )?;
    for row in q.query_map([], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, i64>(3)?,
        ))
    })? {
        let (id, list, server, since) = row?;
        open.insert((id as u64, list_of(list), server), time(since));
    }
    let credit = credit_30d(conn, t)?;
    Ok(Overview {
        at: now,
        credit_30d: credit.iter().map(|d| d.map(|(_, end)| end)).collect(),
        credit_30d_low: credit.iter().map(|d| d.map(|(low, _)| low)).collect(),
        services,
        open,
    })
}

pub fn service(conn: &Connection, id: u64, now: DateTime<Utc>) -> rusqlite::Result<ServiceHistory> {
    let t = now.timestamp();
    let from = t - 7 * DAY;
    let mut spells = Vec::new();
    let mut q = conn.prepare_cached(
        "SELECT list, server, since, until FROM server_spell
         WHERE service_id = ?1 AND (until IS NULL OR until > ?2)",
    )?;
    for row in q.query_map(params![id as i64, from], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, i64>(2)?,
            r.get::<_, Option<i64>>(3)?,
        ))
    })? {
        spells.push(row?);
    }
    let mut q = conn
        .prepare_cached("SELECT since, until FROM watched WHERE service_id = ?1 AND until > ?2")?;
    let watched = q
        .query_map(params![id as i64, from], |r| {
            Ok(Span::new(r.get(0)?, r.get(1)?))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let errors: Vec<Span> = spells
        .iter()
        .filter(|s| s.0 == ServerList::Errors.code())
        .map(|s| Span::new(s.2, s.3.unwrap_or(t)))
        .collect();
    let overview = summarise(t, errors.clone(), watched, 24);
    let errors_7d = per_hour(t, &errors, 168);
    let mut q = conn.prepare_cached(
        "SELECT at, status, nextduedate FROM service_state
         WHERE service_id = ?1 AND at > ?2 ORDER BY at",
    )?;
    let changes = q
        .query_map(params![id as i64, from], |r| {
            Ok((time(r.get(0)?), r.get(1)?, r.get(2)?))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let mut q = conn.prepare_cached(
        "SELECT at, rate, rate_limit FROM rate WHERE service_id = ?1 AND at > ?2 ORDER BY at",
    )?;
    let rate_24h = q
        .query_map(params![id as i64, t - DAY], |r| {
            Ok((time(r.get(0)?), r.get(1)?, r.get(2)?))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    spells.sort_by_key(|s| std::cmp::Reverse(s.2));
    spells.truncate(MAX_SPELLS);
    let spells = spells
        .into_iter()
        .map(|(list, server, since, until)| Spell {
            server,
            list: list_of(list),
            since: time(since),
            until: until.map(time),
        })
        .collect();
    Ok(ServiceHistory {
        service_id: id,
        at: now,
        overview,
        errors_7d,
        spells,
        changes,
        rate_24h,
        probe_rounds: super::probes::rounds(conn, id, now, ROUNDS)?,
    })
}

/// Errors per hour, since when in error, and uptime, from a service's error spells and
/// watched intervals.
fn summarise(t: i64, errors: Vec<Span>, watched: Vec<Span>, hours: usize) -> ServiceOverview {
    let errors_per_hour = per_hour(t, &errors, hours);
    let merged = intervals::union(errors);
    let in_error_since = merged
        .iter()
        .find(|s| s.since <= t && s.until >= t)
        .map(|s| time(s.since));
    let watched = intervals::union(watched);
    let uptime = |from: i64| {
        let w: Vec<Span> = watched
            .iter()
            .map(|s| s.clip(from, t))
            .filter(|s| !s.is_empty())
            .collect();
        let total = intervals::total(&w);
        let share =
            (total > 0).then(|| 1.0 - intervals::overlap(&w, &merged) as f64 / total as f64);
        (share, total)
    };
    let ((uptime_24h, watched_24h), (uptime_7d, watched_7d)) =
        (uptime(t - DAY), uptime(t - 7 * DAY));
    ServiceOverview {
        errors_24h: errors_per_hour,
        in_error_since,
        uptime_24h,
        uptime_7d,
        watched_24h,
        watched_7d,
        usage_30d: Vec::new(),
    }
}

/// For each of the last `hours` hours (oldest first), how many spells touch it.
fn per_hour(t: i64, spells: &[Span], hours: usize) -> Vec<u64> {
    let start = t - hours as i64 * HOUR;
    let mut out = vec![0u64; hours];
    for s in spells {
        if s.until <= start || s.since > t {
            continue;
        }
        let a = s.since.max(start);
        let b = s.until.min(t).max(a);
        // `b` is the end of a half-open span: a spell ending on the hour does not touch
        // the next one (a spell that began just now touches the current hour).
        let last_second = if b > a { b - 1 } else { b };
        let bucket = |x: i64| (((x - start) / HOUR) as usize).min(hours - 1);
        for v in &mut out[bucket(a)..=bucket(last_second)] {
            *v += 1;
        }
    }
    out
}

/// The credit of each of the last 30 days: its lowest and its value at the end, carried
/// forward from the last change before.
fn credit_30d(conn: &Connection, t: i64) -> rusqlite::Result<Vec<Option<(f64, f64)>>> {
    let start = t - 30 * DAY;
    let mut q = conn.prepare_cached(
        "SELECT at, credit FROM credit WHERE at >= (
             SELECT coalesce(max(at), ?1) FROM credit WHERE at < ?1)
         ORDER BY at, rowid",
    )?;
    let points = q
        .query_map([start], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, f64>(1)?)))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let mut out = Vec::with_capacity(30);
    let mut i = 0;
    let mut value = None;
    for day in 1..=30 {
        let end = start + day * DAY;
        // The day starts at the value carried in.
        let mut low = value;
        while i < points.len() && points[i].0 <= end {
            value = Some(points[i].1);
            low = Some(low.map_or(points[i].1, |l: f64| l.min(points[i].1)));
            i += 1;
        }
        out.push(low.zip(value));
    }
    Ok(out)
}

fn list_of(code: i64) -> ServerList {
    if code == ServerList::Errors.code() {
        ServerList::Errors
    } else {
        ServerList::Inactive
    }
}
