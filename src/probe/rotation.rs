//! The rotation audit of a rotating (ppr) service: the judge asked `n` times through one
//! gateway, and what came back — how many distinct exit IPs, how often the exit changed
//! between consecutive answers, the latency spread — so an operator can see whether the
//! gateway rotates as sold (per request, or sticky for a session).
//!
//! Choices (the API says nothing of rotation):
//! - **One gateway**: the first entry of the service's ppr list (`ppr-http` unless
//!   `ppr-socks` is asked for): every entry of a ppr list is a door to the same pool.
//! - **One ask at a time, each on a new connection** ([`super::check::check`], the same
//!   check as a probe's, under the same address rules, timeout and judge): "consecutive"
//!   is then well defined, a gateway rotating per connection shows it, and the gateway
//!   never sees more than one connection from this audit at once (politer than a probe).
//! - **Bounds**: `n` from [`MIN_ASKS`] (a change needs two answers) to [`MAX_ASKS`]
//!   (100 asks of at most the probe timeout each: a few minutes at worst), default
//!   [`DEFAULT_ASKS`].
//! - **The change rate** is counted over consecutive *answers*: a failed ask is left out
//!   of the sequence (it says nothing of the exit), so `changes / (answers - 1)`.
//! - **The judgement** ([`Rotation::kind`]): one exit IP is `sticky`; a change on at least
//!   90% of the pairs is `rotates per request`; anything between is `rotates now and then`
//!   (sticky for a while). Fewer than two answers tell nothing.
//! - **Without a judge** (`probe_url = ""`, or one that cannot be reached) nothing is
//!   asked: an exit IP can only be read from a judge's answer.

use super::runner::{self, ProbeEvent};
use super::{ProbeConfig, ProbeResult, ProxyTarget};
use serde::Serialize;
use std::net::IpAddr;
use std::time::Duration;
use tokio::sync::mpsc;

/// Asks of an audit unless the user chooses.
pub const DEFAULT_ASKS: usize = 20;
/// The fewest asks that can show a change.
pub const MIN_ASKS: usize = 2;
/// The most asks of one audit (each waits at most the probe's timeout).
pub const MAX_ASKS: usize = 100;

/// `n` as the user gave it, within [`MIN_ASKS`]..=[`MAX_ASKS`], or why not.
pub fn asks(n: u64) -> Result<usize, String> {
    usize::try_from(n)
        .ok()
        .filter(|n| (MIN_ASKS..=MAX_ASKS).contains(n))
        .ok_or_else(|| {
            format!("--rotation {n}: ask the judge between {MIN_ASKS} and {MAX_ASKS} times")
        })
}

/// Asks the judge `asks` times through `gateway`, one after the other; the events are a
/// probe's ([`ProbeEvent`]: `Started`, a `Checked` per ask in order, `Finished`).
pub async fn audit(
    gateway: ProxyTarget,
    asks: usize,
    config: &ProbeConfig,
    events: mpsc::UnboundedSender<ProbeEvent>,
) {
    let (ctx, note) = runner::prepare(config).await;
    let no_judge = ctx.judge_down || ctx.target.is_none();
    let note = match (no_judge, note) {
        (true, note) => Some(match note {
            Some(why) => format!("a rotation audit needs the judge, nothing was asked ({why})"),
            None => "a rotation audit needs the judge, nothing was asked".into(),
        }),
        (false, note) => note,
    };
    let started = ProbeEvent::Started {
        total: asks,
        real_ip: ctx.real_ip,
        note,
    };
    if events.send(started).is_err() {
        return;
    }
    for index in 0..asks {
        let result = if no_judge {
            ProbeResult::unchecked(gateway.clone(), "no judge")
        } else {
            super::check::check(gateway.clone(), &ctx).await
        };
        if events.send(ProbeEvent::Checked { index, result }).is_err() {
            return;
        }
    }
    let _ = events.send(ProbeEvent::Finished);
}

/// Every ask's result, in order, and the run's note (for scripts).
pub async fn audit_collect(
    gateway: ProxyTarget,
    asks: usize,
    config: &ProbeConfig,
) -> (Vec<ProbeResult>, Option<String>) {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let run = audit(gateway, asks, config, tx);
    let collect = async {
        let mut results = Vec::new();
        let mut note = None;
        while let Some(event) = rx.recv().await {
            match event {
                ProbeEvent::Started { note: n, .. } => note = n,
                ProbeEvent::Checked { result, .. } => results.push(result),
                ProbeEvent::Finished => break,
            }
        }
        (results, note)
    };
    let ((), out) = tokio::join!(run, collect);
    out
}

/// What an audit found (module docs).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rotation {
    /// Asks made.
    pub asked: usize,
    /// Asks answered with an exit IP.
    pub answered: usize,
    /// Distinct exit IPs among the answers.
    pub distinct: usize,
    /// Each exit IP and how often it came back, in the order first seen.
    pub exits: Vec<ExitCount>,
    /// Consecutive answers whose exits differ, of `pairs`.
    pub changes: usize,
    pub pairs: usize,
    /// `changes / pairs`; `None` under two answers.
    pub change_rate: Option<f64>,
    /// Latency through the gateway of the answered asks, in ms.
    pub latency: Option<Spread>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ExitCount {
    pub ip: IpAddr,
    pub count: usize,
}

/// Smallest, median, 90th percentile and largest, in whole ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Spread {
    pub min: u64,
    pub p50: u64,
    pub p90: u64,
    pub max: u64,
}

impl Spread {
    pub fn of(mut ms: Vec<u64>) -> Option<Self> {
        if ms.is_empty() {
            return None;
        }
        ms.sort_unstable();
        let at = |q: usize| ms[((ms.len() - 1) * q).div_ceil(100)];
        Some(Self {
            min: ms[0],
            p50: at(50),
            p90: at(90),
            max: ms[ms.len() - 1],
        })
    }
}

impl Rotation {
    /// The audit of `results`, in the order they were asked.
    pub fn of(results: &[ProbeResult]) -> Self {
        let seen: Vec<(IpAddr, Option<Duration>)> = results
            .iter()
            .filter(|r| r.verdict.is_alive())
            .filter_map(|r| Some((r.exit_ip?, r.latency)))
            .collect();
        let mut exits: Vec<ExitCount> = Vec::new();
        for (ip, _) in &seen {
            match exits.iter_mut().find(|e| e.ip == *ip) {
                Some(e) => e.count += 1,
                None => exits.push(ExitCount { ip: *ip, count: 1 }),
            }
        }
        let pairs = seen.len().saturating_sub(1);
        let changes = seen.windows(2).filter(|w| w[0].0 != w[1].0).count();
        let ms = seen
            .iter()
            .filter_map(|(_, l)| l.map(|d| d.as_millis().min(u128::from(u64::MAX)) as u64))
            .collect();
        Self {
            asked: results.len(),
            answered: seen.len(),
            distinct: exits.len(),
            exits,
            changes,
            pairs,
            change_rate: (pairs > 0).then(|| changes as f64 / pairs as f64),
            latency: Spread::of(ms),
        }
    }

    /// `rotates per request`, `rotates now and then`, `sticky`, or `not enough answers`.
    pub fn kind(&self) -> &'static str {
        match self.change_rate {
            None => "not enough answers",
            Some(_) if self.distinct <= 1 => "sticky",
            Some(r) if r >= 0.9 => "rotates per request",
            Some(_) => "rotates now and then",
        }
    }

    /// One line: `5 exit IPs in 20 answers · changed 19/19 (100%) · latency 3–9 ms, p50 5
    /// ms · rotates per request`.
    pub fn summary(&self) -> String {
        let mut line = format!(
            "{} exit IP{} in {}/{} answers",
            self.distinct,
            if self.distinct == 1 { "" } else { "s" },
            self.answered,
            self.asked
        );
        if let Some(rate) = self.change_rate {
            line += &format!(
                " · changed {}/{} ({:.0}%)",
                self.changes,
                self.pairs,
                rate * 100.0
            );
        }
        if let Some(s) = self.latency {
            line += &format!(" · latency {}–{} ms, p50 {} ms", s.min, s.max, s.p50);
        }
        line + " · " + self.kind()
    }
}

/// The history row of an audit of `gateway` (the dashboard's and the command line's).
pub fn record(service_id: u64, gateway: &ProxyTarget, audit: &Rotation) -> crate::history::Record {
    let n = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
    let ms = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
    crate::history::Record::Rotation {
        service_id,
        server: gateway.address(),
        scheme: gateway.scheme.as_str().to_owned(),
        asked: n(audit.asked),
        answered: n(audit.answered),
        distinct: n(audit.distinct),
        changes: n(audit.changes),
        pairs: n(audit.pairs),
        latency_ms: audit.latency.map(|s| (ms(s.min), ms(s.p50), ms(s.max))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probe::{Scheme, Verdict};

    fn answer(ip: &str, ms: u64) -> ProbeResult {
        let mut r = ProbeResult::unchecked(
            ProxyTarget {
                host: "127.0.0.1".into(),
                port: 8000,
                scheme: Scheme::Http,
                login: None,
                password: None,
            },
            "",
        );
        r.verdict = Verdict::Alive;
        r.exit_ip = ip.parse().ok();
        r.latency = Some(Duration::from_millis(ms));
        r
    }

    #[test]
    fn counts_exits_changes_and_the_spread_leaving_failures_out() {
        let mut failed = answer("", 0);
        failed.verdict = Verdict::Dead(crate::probe::DeadReason::Timeout, "t".into());
        let results = [
            answer("127.0.0.2", 5),
            answer("127.0.0.2", 7),
            failed,
            answer("127.0.0.3", 3),
            answer("127.0.0.2", 9),
        ];
        let r = Rotation::of(&results);
        assert_eq!((r.asked, r.answered, r.distinct), (5, 4, 2));
        assert_eq!((r.changes, r.pairs), (2, 3));
        assert_eq!(r.exits[0].count, 3);
        assert_eq!(r.kind(), "rotates now and then");
        let s = r.latency.unwrap();
        assert_eq!((s.min, s.max), (3, 9));
        assert!(
            r.summary()
                .starts_with("2 exit IPs in 4/5 answers · changed 2/3 (67%)")
        );
        let sticky = Rotation::of(&[answer("127.0.0.2", 1), answer("127.0.0.2", 1)]);
        assert_eq!((sticky.distinct, sticky.kind()), (1, "sticky"));
        assert_eq!(Rotation::of(&[]).kind(), "not enough answers");
    }

    #[test]
    fn asks_are_bounded_with_a_clear_message() {
        assert_eq!(asks(20), Ok(20));
        assert!(asks(1).unwrap_err().contains("between 2 and 100"));
        assert!(asks(101).is_err());
        assert!(asks(u64::MAX).is_err());
    }
}
