//! One proxy's result as the user reads it: beside the provider's own mark (network
//! status, endpoints 8 and 9), and as a JSON row for scripts.
//!
//! A disagreement is a proxy the provider marks (error or inactive) that works from here,
//! or one it does not mark that is dead from here. Skipped proxies agree with anything.

use super::{ProbeResult, Verdict};
use serde::Serialize;

/// The provider's mark of a proxy: listed by network status as in error or inactive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    Error,
    Inactive,
}

impl Mark {
    pub fn as_str(self) -> &'static str {
        match self {
            Mark::Error => "error",
            Mark::Inactive => "inactive",
        }
    }

    /// The provider's word for a proxy with `mark`: `ok` when network status lists it
    /// nowhere (the same in the view, the table and `--json`).
    pub fn word(mark: Option<Mark>) -> &'static str {
        mark.map_or("ok", Mark::as_str)
    }

    /// The mark of `host` in the two lists of network status.
    pub fn of(host: &str, errors: &[String], inactive: &[String]) -> Option<Mark> {
        if errors.iter().any(|e| e == host) {
            Some(Mark::Error)
        } else if inactive.iter().any(|e| e == host) {
            Some(Mark::Inactive)
        } else {
            None
        }
    }
}

/// The measured state and the provider's mark say different things.
pub fn disagrees(verdict: &Verdict, mark: Option<Mark>) -> bool {
    match verdict {
        Verdict::Alive => mark.is_some(),
        Verdict::Dead(..) => mark.is_none(),
        Verdict::Skipped(_) | Verdict::NotChecked(_) => false,
    }
}

/// A result in `--json` (the password is left out).
#[derive(Debug, Serialize)]
pub struct Row<'a> {
    pub ip: &'a str,
    pub port: u16,
    pub scheme: &'static str,
    pub login: Option<&'a str>,
    /// `alive`, `dead`, `skipped` or `not_checked`.
    pub state: &'static str,
    /// Why dead: `refused`, `auth_failed`, `timeout`, `bad_answer`.
    pub reason: Option<super::DeadReason>,
    pub detail: Option<&'a str>,
    pub connect_ms: Option<f64>,
    pub latency_ms: Option<f64>,
    pub exit_ip: Option<String>,
    pub anonymity: Option<super::Anonymity>,
    /// The provider's word (network status): `ok`, `error` or `inactive` ([`Mark::word`]).
    pub provider: &'static str,
    pub disagrees: bool,
}

impl<'a> Row<'a> {
    pub fn new(r: &'a ProbeResult, mark: Option<Mark>) -> Self {
        let ms =
            |d: Option<std::time::Duration>| d.map(|d| (d.as_secs_f64() * 10_000.0).round() / 10.0);
        let (state, reason, detail) = match &r.verdict {
            Verdict::Alive => ("alive", None, None),
            Verdict::Dead(reason, why) => ("dead", Some(*reason), Some(why.as_str())),
            Verdict::Skipped(why) => ("skipped", None, Some(why.as_str())),
            Verdict::NotChecked(why) => ("not_checked", None, Some(why.as_str())),
        };
        Self {
            ip: &r.target.host,
            port: r.target.port,
            scheme: r.target.scheme.as_str(),
            login: r.target.login.as_deref(),
            state,
            reason,
            detail,
            connect_ms: ms(r.connect),
            latency_ms: ms(r.latency),
            exit_ip: r.exit_ip.map(|ip| ip.to_string()),
            anonymity: r.anonymity,
            provider: Mark::word(mark),
            disagrees: disagrees(&r.verdict, mark),
        }
    }
}

/// `9/10 · p50 84 ms` (alive of probed; the p50 of the alive ones' latency).
pub fn health(results: &[ProbeResult]) -> String {
    let probed = results
        .iter()
        .filter(|r| !matches!(r.verdict, Verdict::Skipped(_) | Verdict::NotChecked(_)))
        .count();
    let alive = results.iter().filter(|r| r.verdict.is_alive()).count();
    match super::p50(results) {
        Some(ms) => format!("{alive}/{probed} · p50 {ms} ms"),
        None => format!("{alive}/{probed}"),
    }
}

/// The history row of one proxy's result (the dashboard's and the command line's); none
/// for a proxy not contacted (skipped, or not checked), which says nothing of it. The
/// list's password is never part of it.
pub fn record(service_id: u64, result: &ProbeResult) -> Option<crate::history::Record> {
    if matches!(result.verdict, Verdict::Skipped(_) | Verdict::NotChecked(_)) {
        return None;
    }
    let ok = result.verdict.is_alive();
    Some(crate::history::Record::Probe {
        service_id,
        server: format!("{}:{}", result.target.host, result.target.port),
        scheme: result.target.scheme.as_str().to_owned(),
        ok,
        latency_ms: result
            .latency
            .filter(|_| ok)
            .map(|l| l.as_millis().min(u128::from(u32::MAX)) as u32),
        exit_ip: result.exit_ip.filter(|_| ok).map(|ip| ip.to_string()),
    })
}
