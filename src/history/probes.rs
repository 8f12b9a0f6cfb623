//! Probe results, rotation audits and probe rounds in the store: their rows (one per
//! proxy contacted, one per audit, one per service and round: see the module docs of
//! [`super`]), the probe view's question (each proxy's last [`super::TREND_POINTS`]
//! results and the service's last audits) and a service's last rounds for its detail.

use super::Record;
use super::TREND_POINTS;
use super::schema::{DAY, cut, time};
use chrono::{DateTime, Utc};
use rusqlite::{Connection, params};
use std::collections::HashMap;

/// What the probe view shows of the history of a service's probes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProbeTrends {
    pub service_id: u64,
    /// Each proxy's last results (at most [`super::TREND_POINTS`], oldest first), by
    /// `scheme://host:port` (`host:port` for rows written before the protocol was kept).
    pub proxies: HashMap<String, Vec<ProbePoint>>,
    /// The service's last rotation audits, oldest first (at most
    /// [`super::TREND_POINTS`]).
    pub rotations: Vec<RotationRow>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ProbePoint {
    pub at: DateTime<Utc>,
    pub ok: bool,
    pub latency_ms: Option<u32>,
    pub exit_ip: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RotationRow {
    pub at: DateTime<Utc>,
    /// `scheme://host:port` of the gateway.
    pub gateway: String,
    pub asked: u32,
    pub answered: u32,
    pub distinct: u32,
    pub changes: u32,
    pub pairs: u32,
}

/// The key of a proxy in [`ProbeTrends::proxies`].
pub fn proxy_key(scheme: Option<&str>, server: &str) -> String {
    match scheme {
        Some(s) if !s.is_empty() => format!("{s}://{server}"),
        _ => server.to_owned(),
    }
}

/// Writes a [`Record::Probe`] or [`Record::Rotation`] taken at `at` (other records are
/// the store's own).
pub(super) fn write(
    tx: &rusqlite::Transaction<'_>,
    at: i64,
    record: &Record,
) -> rusqlite::Result<()> {
    match record {
        Record::Probe {
            service_id,
            server,
            scheme,
            ok,
            latency_ms,
            exit_ip,
        } => {
            tx.prepare_cached(
                "INSERT INTO probe (service_id, server, scheme, at, ok, latency_ms, exit_ip)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?
            .execute(params![
                *service_id as i64,
                cut(server),
                cut(scheme),
                at,
                ok,
                latency_ms,
                exit_ip.as_deref().map(cut)
            ])?;
        }
        Record::Rotation {
            service_id,
            server,
            scheme,
            asked,
            answered,
            distinct,
            changes,
            pairs,
            latency_ms,
        } => {
            tx.prepare_cached(
                "INSERT INTO rotation (service_id, server, scheme, at, asked, answered,
                     distinct_ips, changes, pairs, min_ms, p50_ms, max_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            )?
            .execute(params![
                *service_id as i64,
                cut(server),
                cut(scheme),
                at,
                asked,
                answered,
                distinct,
                changes,
                pairs,
                latency_ms.map(|l| l.0),
                latency_ms.map(|l| l.1),
                latency_ms.map(|l| l.2),
            ])?;
        }
        Record::ProbeRound {
            service_id,
            checked,
            alive,
            p50_ms,
        } => {
            tx.prepare_cached(
                "INSERT INTO probe_round (service_id, at, checked, alive, p50_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![*service_id as i64, at, checked, alive, p50_ms])?;
        }
        _ => {}
    }
    Ok(())
}

/// One service's part of a probe round, as the history has it.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundRow {
    pub at: DateTime<Utc>,
    pub checked: u32,
    pub alive: u32,
    pub p50_ms: Option<u32>,
}

impl RoundRow {
    /// Alive of checked (a row of none checked is not written).
    pub fn share(&self) -> f64 {
        f64::from(self.alive) / f64::from(self.checked.max(1))
    }
}

/// A service's last `keep` probe rounds of the last week, oldest first.
pub fn rounds(
    conn: &Connection,
    id: u64,
    now: DateTime<Utc>,
    keep: usize,
) -> rusqlite::Result<Vec<RoundRow>> {
    let mut q = conn.prepare_cached(
        "SELECT at, checked, alive, p50_ms FROM probe_round
         WHERE service_id = ?1 AND at > ?2 ORDER BY at DESC, rowid DESC LIMIT ?3",
    )?;
    let mut rows = q
        .query_map(
            params![id as i64, now.timestamp() - 7 * DAY, keep as i64],
            |r| {
                Ok(RoundRow {
                    at: time(r.get(0)?),
                    checked: r.get(1)?,
                    alive: r.get(2)?,
                    p50_ms: r.get(3)?,
                })
            },
        )?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    rows.reverse();
    Ok(rows)
}

/// The last week of a service's probe results and rotation audits, the last
/// [`TREND_POINTS`] of each proxy.
pub fn probes(conn: &Connection, id: u64, now: DateTime<Utc>) -> rusqlite::Result<ProbeTrends> {
    let from = now.timestamp() - 7 * DAY;
    let keep = TREND_POINTS;
    let mut proxies: HashMap<String, Vec<ProbePoint>> = HashMap::new();
    let mut q = conn.prepare_cached(
        "SELECT scheme, server, at, ok, latency_ms, exit_ip FROM probe
         WHERE service_id = ?1 AND at > ?2 ORDER BY at, rowid",
    )?;
    let rows = q.query_map(params![id as i64, from], |r| {
        Ok((
            r.get::<_, Option<String>>(0)?,
            r.get::<_, String>(1)?,
            ProbePoint {
                at: time(r.get(2)?),
                ok: r.get(3)?,
                latency_ms: r.get(4)?,
                exit_ip: r.get(5)?,
            },
        ))
    })?;
    for row in rows {
        let (scheme, server, point) = row?;
        let points = proxies
            .entry(proxy_key(scheme.as_deref(), &server))
            .or_default();
        points.push(point);
        if points.len() > keep {
            points.remove(0);
        }
    }
    let mut q = conn.prepare_cached(
        "SELECT at, scheme, server, asked, answered, distinct_ips, changes, pairs FROM rotation
         WHERE service_id = ?1 AND at > ?2 ORDER BY at DESC, rowid DESC LIMIT ?3",
    )?;
    let mut rotations = q
        .query_map(params![id as i64, from, keep as i64], |r| {
            Ok(RotationRow {
                at: time(r.get(0)?),
                gateway: proxy_key(Some(&r.get::<_, String>(1)?), &r.get::<_, String>(2)?),
                asked: r.get(3)?,
                answered: r.get(4)?,
                distinct: r.get(5)?,
                changes: r.get(6)?,
                pairs: r.get(7)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    rotations.reverse();
    Ok(ProbeTrends {
        service_id: id,
        proxies,
        rotations,
    })
}
