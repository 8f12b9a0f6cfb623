//! Probing many proxies: the direct ask for this machine's address, then every proxy with
//! at most [`ProbeConfig::concurrency`] at once, started on a ramp ([`super::pace`]), each
//! result sent as soon as it is known.

use super::check::{self, Context};
use super::connect::Target;
use super::judge;
use super::pace::Pace;
use super::{ProbeConfig, ProbeResult, ProxyTarget};
use std::net::IpAddr;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// What a run reports, in this order: one `Started`, a `Checked` per proxy (in the order
/// they finish), one `Finished`.
#[derive(Clone, Debug, PartialEq)]
pub enum ProbeEvent {
    Started {
        total: usize,
        /// This machine's address as the target sees it, when it could be asked.
        real_ip: Option<IpAddr>,
        /// Something the user should know about the whole run (the target is off, or
        /// could not be asked directly).
        note: Option<String>,
    },
    /// The proxy at `index` of the list given to [`probe_all`].
    Checked {
        index: usize,
        result: ProbeResult,
    },
    Finished,
}

/// Checks every `(index, target)`; events go to `events` (a closed receiver stops the run
/// at the next result).
pub async fn probe_all(
    targets: Vec<(usize, ProxyTarget)>,
    config: &ProbeConfig,
    events: mpsc::UnboundedSender<ProbeEvent>,
) {
    let (ctx, note) = prepare(config).await;
    let started = ProbeEvent::Started {
        total: targets.len(),
        real_ip: ctx.real_ip,
        note,
    };
    if events.send(started).is_err() {
        return;
    }
    if ctx.judge_down {
        // Said once in the note; the proxies are not blamed for the judge.
        for (index, target) in targets {
            let result = ProbeResult::unchecked(target, "judge unreachable");
            if events.send(ProbeEvent::Checked { index, result }).is_err() {
                return;
            }
        }
        let _ = events.send(ProbeEvent::Finished);
        return;
    }
    let ctx = std::sync::Arc::new(ctx);
    let mut targets = targets;
    // Beyond the cap, every entry is reported (skipped, and why), none contacted.
    for (index, target) in targets.split_off(targets.len().min(super::MAX_TARGETS)) {
        let result = ProbeResult::skipped(
            target,
            format!(
                "beyond the first {} proxies a run probes",
                super::MAX_TARGETS
            ),
        );
        if events.send(ProbeEvent::Checked { index, result }).is_err() {
            return;
        }
    }
    if check_all(ctx, targets, config.concurrency, &events).await {
        let _ = events.send(ProbeEvent::Finished);
    }
}

/// Checks every `(index, target)` with the run's shared context: each check a task of its
/// own (so the checks use every worker thread), at most `concurrency` at once, started on
/// the ramp of [`Pace`]; each result sent as [`ProbeEvent::Checked`] as it comes. `false`
/// when the receiver is gone (the run stopped). Dropping the future ends every check at
/// once (their tasks are the `JoinSet`'s). Used by [`probe_all`] and by a scheduled round
/// ([`super::round`]), which prepares the context once for many services.
pub async fn check_all(
    ctx: std::sync::Arc<Context>,
    targets: Vec<(usize, ProxyTarget)>,
    concurrency: usize,
    events: &mpsc::UnboundedSender<ProbeEvent>,
) -> bool {
    let limit = concurrency.clamp(1, super::MAX_CONCURRENCY);
    let mut pace = Pace::new(limit, Instant::now());
    let mut waiting = targets.into_iter();
    let mut running = tokio::task::JoinSet::new();
    loop {
        let room = running.len() < limit && waiting.len() > 0;
        let now = Instant::now();
        if room && pace.due(now) {
            if let Some((index, target)) = waiting.next() {
                let ctx = ctx.clone();
                running.spawn(async move { (index, check::check(target, &ctx).await) });
                pace.started(now);
            }
            continue;
        }
        if running.is_empty() && !room {
            return true;
        }
        tokio::select! {
            Some(joined) = running.join_next() => {
                // A check that panicked is a bug; the others still report.
                let Ok((index, result)) = joined else {
                    continue;
                };
                if events.send(ProbeEvent::Checked { index, result }).is_err() {
                    return false;
                }
            }
            () = tokio::time::sleep_until(pace.next()), if room => {}
        }
    }
}

/// Every result of a run, in list order (for scripts).
pub async fn probe_collect(
    targets: Vec<ProxyTarget>,
    config: &ProbeConfig,
) -> (Vec<ProbeResult>, Option<String>) {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let indexed = targets.into_iter().enumerate().collect();
    let run = probe_all(indexed, config, tx);
    let collect = async {
        let mut results = Vec::new();
        let mut note = None;
        while let Some(event) = rx.recv().await {
            match event {
                ProbeEvent::Started { note: n, .. } => note = n,
                ProbeEvent::Checked { index, result } => results.push((index, result)),
                ProbeEvent::Finished => break,
            }
        }
        results.sort_by_key(|(i, _)| *i);
        (results.into_iter().map(|(_, r)| r).collect(), note)
    };
    let ((), out) = tokio::join!(run, collect);
    out
}

/// The shared context: the target checked against the address rules, and this machine's
/// address as the target sees it.
pub(super) async fn prepare(config: &ProbeConfig) -> (Context, Option<String>) {
    let mut ctx = Context {
        target: None,
        real_ip: None,
        timeout: config.timeout,
        loopback_only: config.loopback_only,
        allow_private: config.allow_private,
        tls: None,
        judge_down: false,
    };
    let Some(raw) = &config.probe_url else {
        return (
            ctx,
            Some("probe_url is off: only TCP connects are checked".into()),
        );
    };
    let url = match reqwest::Url::parse(raw) {
        Ok(u) if matches!(u.scheme(), "http" | "https") && u.host_str().is_some() => u,
        _ => {
            let note =
                format!("probe_url {raw:?} is not an http(s) URL: only TCP connects are checked");
            return (ctx, Some(note));
        }
    };
    let host = url.host_str().unwrap_or_default().to_owned();
    let port = url.port_or_known_default().unwrap_or(80);
    let addr = check::resolve(&host, port).await;
    if config.loopback_only && addr.is_none_or(|a| check::forbidden(a.ip(), true, true).is_some()) {
        let note = format!("probe_url {raw} is outside loopback: only TCP connects are checked");
        return (ctx, Some(note));
    }
    let mut asked_why = None;
    match ask_directly(&url, config.timeout).await {
        Ok(body) => ctx.real_ip = judge::read(&body).exit_ip,
        Err(Direct::Unreachable(why)) => {
            ctx.judge_down = true;
            let note = format!("the judge {raw} cannot be reached ({why}): no proxy was checked");
            return (ctx, Some(note));
        }
        Err(Direct::Failed(why)) => asked_why = Some(why),
    }
    // Some 20 ms of CPU: off the async workers.
    ctx.tls = tokio::task::spawn_blocking(check::tls_config)
        .await
        .ok()
        .flatten();
    if url.scheme() == "https" && ctx.tls.is_none() {
        let note = format!(
            "TLS cannot be set up on this machine for {raw}: only TCP connects are checked"
        );
        return (ctx, Some(note));
    }
    let note = ctx.real_ip.is_none().then(|| {
        let why = asked_why.map_or_else(String::new, |w| format!(" ({w})"));
        format!("{raw} could not be asked directly{why}: a proxy that leaks this machine's address reads as anonymous")
    });
    ctx.target = Some(Target { url, addr });
    (ctx, note)
}

/// Why the direct ask failed.
enum Direct {
    /// No connection to the judge, no answer in time, or an answer that is not 2xx:
    /// every check through a proxy would fail the same way.
    Unreachable(String),
    /// The judge was reached but the exchange failed otherwise (TLS, say): the checks go
    /// on, and fail or not on their own.
    Failed(String),
}

/// The judge asked directly, without a proxy: its answer's body (read up to
/// [`super::fetch::MAX_BODY`]), or why it could not be had.
async fn ask_directly(url: &reqwest::Url, timeout: std::time::Duration) -> Result<String, Direct> {
    let client = reqwest::Client::builder()
        .no_proxy()
        .timeout(timeout)
        .build()
        .map_err(|e| Direct::Failed(e.to_string()))?;
    let sent = client.get(url.clone()).send().await;
    let mut response = match sent {
        Ok(r) => r,
        Err(e) if e.is_timeout() => return Err(Direct::Unreachable("no answer in time".into())),
        Err(e) => {
            // reqwest counts a TLS failure as a connect failure: a TCP connect tells them apart.
            let host = url.host_str().unwrap_or_default();
            let port = url.port_or_known_default().unwrap_or(80);
            let tcp = async {
                let addr = check::resolve(host, port).await?;
                tokio::net::TcpStream::connect(addr).await.ok()
            };
            return Err(match tokio::time::timeout(timeout, tcp).await {
                Ok(Some(_)) => Direct::Failed(e.to_string()),
                _ => Direct::Unreachable("no connection".into()),
            });
        }
    };
    if !response.status().is_success() {
        return Err(Direct::Unreachable(format!(
            "HTTP {}",
            response.status().as_u16()
        )));
    }
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|e| Direct::Failed(e.to_string()))?
    {
        let room = super::fetch::MAX_BODY - body.len();
        body.extend_from_slice(&chunk[..chunk.len().min(room)]);
        if body.len() >= super::fetch::MAX_BODY {
            break;
        }
    }
    Ok(String::from_utf8_lossy(&body).into_owned())
}
