//! Checking one proxy: where it may be contacted, the TCP connect, then one request to the
//! target through it (choices in the module docs of [`super`]).

use super::judge;
use super::{DeadReason, ProbeResult, ProxyTarget, Verdict};
use std::error::Error as _;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::time::Instant;

/// The most of a target's answer that is read.
const MAX_BODY: usize = 64 * 1024;

/// What every check of one run shares.
#[derive(Clone, Debug)]
pub struct Context {
    pub probe_url: Option<reqwest::Url>,
    /// This machine's address as the target sees it without a proxy.
    pub real_ip: Option<IpAddr>,
    pub timeout: Duration,
    pub loopback_only: bool,
    /// One TLS configuration for every proxy's client: building it is what makes a
    /// reqwest client cost ~20 ms; handed over ready, a client costs ~0.2 ms. `None`:
    /// each client builds its own.
    pub tls: Option<rustls::ClientConfig>,
}

/// The TLS configuration of [`Context::tls`]: the platform's verifier, as reqwest's own.
pub fn tls_config() -> Option<rustls::ClientConfig> {
    use rustls_platform_verifier::ConfigVerifierExt as _;
    rustls::ClientConfig::with_platform_verifier().ok()
}

/// Why an address must not be contacted, if it must not.
pub fn forbidden(ip: IpAddr, loopback_only: bool) -> Option<&'static str> {
    if let IpAddr::V4(v4) = ip
        && documentation(v4)
    {
        return Some("a documentation address, not a real proxy");
    }
    if loopback_only && !ip.is_loopback() {
        return Some("outside loopback (only 127.0.0.0/8 is probed here)");
    }
    None
}

fn documentation(ip: Ipv4Addr) -> bool {
    let o = ip.octets();
    matches!(
        (o[0], o[1], o[2]),
        (192, 0, 2) | (198, 51, 100) | (203, 0, 113) | (198, 18, _) | (198, 19, _)
    )
}

/// The first address of `host`, resolved (a literal IP needs no lookup).
pub async fn resolve(host: &str, port: u16) -> Option<SocketAddr> {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    if let Ok(ip) = bare.parse::<IpAddr>() {
        return Some(SocketAddr::new(ip, port));
    }
    tokio::net::lookup_host((bare, port)).await.ok()?.next()
}

pub async fn check(target: ProxyTarget, ctx: &Context) -> ProbeResult {
    let mut result = ProbeResult {
        target,
        verdict: Verdict::Alive,
        connect: None,
        latency: None,
        exit_ip: None,
        anonymity: None,
    };
    let start = Instant::now();
    let deadline = start + ctx.timeout;
    let dead = |reason, why: String| Verdict::Dead(reason, why);
    let Some(addr) = resolve(&result.target.host, result.target.port).await else {
        result.verdict = dead(
            DeadReason::BadAnswer,
            "the host name does not resolve".into(),
        );
        return result;
    };
    if let Some(why) = forbidden(addr.ip(), ctx.loopback_only) {
        result.verdict = Verdict::Skipped(why.into());
        return result;
    }
    match tokio::time::timeout_at(deadline, TcpStream::connect(addr)).await {
        Err(_) => {
            result.verdict = dead(DeadReason::Timeout, "no TCP connection in time".into());
            return result;
        }
        Ok(Err(e)) => {
            result.verdict = dead(DeadReason::Refused, e.to_string());
            return result;
        }
        Ok(Ok(stream)) => {
            result.connect = Some(start.elapsed());
            drop(stream);
        }
    }
    let Some(url) = &ctx.probe_url else {
        return result;
    };
    // The client (one per proxy) is built before the clock starts: it is local set-up
    // (CPU that 200 checks at once queue for), not time spent in the proxy chain.
    let client = match proxied_client(&result.target, addr, ctx.tls.clone()) {
        Ok(client) => client,
        Err(verdict) => {
            result.verdict = verdict;
            return result;
        }
    };
    let t0 = Instant::now();
    match tokio::time::timeout_at(deadline, get(&client, url)).await {
        Err(_) => {
            result.verdict = dead(
                DeadReason::Timeout,
                "no answer through the proxy in time".into(),
            )
        }
        Ok(Err(verdict)) => result.verdict = verdict,
        Ok(Ok(body)) => {
            result.latency = Some(t0.elapsed());
            let judged = judge::read(&body);
            result.exit_ip = judged.exit_ip;
            result.anonymity = judge::anonymity(&judged, ctx.real_ip);
        }
    }
    result
}

/// A client that sends everything through the proxy at `addr`, with its credentials.
fn proxied_client(
    target: &ProxyTarget,
    addr: SocketAddr,
    tls: Option<rustls::ClientConfig>,
) -> Result<reqwest::Client, Verdict> {
    let bad = |why: String| Verdict::Dead(DeadReason::BadAnswer, why);
    let mut proxy = reqwest::Proxy::all(format!("{}://{addr}", target.scheme.as_str()))
        .map_err(|e| bad(e.to_string()))?;
    if let Some(login) = &target.login {
        proxy = proxy.basic_auth(login, target.password.as_deref().unwrap_or(""));
    }
    let mut builder = reqwest::Client::builder();
    if let Some(tls) = tls {
        builder = builder.tls_backend_preconfigured(tls);
    }
    builder
        .proxy(proxy)
        .pool_max_idle_per_host(0)
        .user_agent(concat!("proxydash/", env!("CARGO_PKG_VERSION"), " probe"))
        .build()
        .map_err(|e| bad(e.to_string()))
}

/// One GET of `url` through the client's proxy; the answer's body (up to [`MAX_BODY`]).
async fn get(client: &reqwest::Client, url: &reqwest::Url) -> Result<String, Verdict> {
    let bad = |why: String| Verdict::Dead(DeadReason::BadAnswer, why);
    let mut response = client
        .get(url.clone())
        .send()
        .await
        .map_err(|e| classify(&e))?;
    let status = response.status();
    if status == reqwest::StatusCode::PROXY_AUTHENTICATION_REQUIRED {
        return Err(Verdict::Dead(DeadReason::AuthFailed, "HTTP 407".into()));
    }
    if !status.is_success() {
        return Err(bad(format!("HTTP {} from the target", status.as_u16())));
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| classify(&e))? {
        let room = MAX_BODY.saturating_sub(body.len());
        body.extend_from_slice(&chunk[..chunk.len().min(room)]);
        if body.len() >= MAX_BODY {
            break;
        }
    }
    Ok(String::from_utf8_lossy(&body).into_owned())
}

/// A failed request through a proxy, as a verdict with its cause.
fn classify(e: &reqwest::Error) -> Verdict {
    let mut chain = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        chain.push_str(": ");
        chain.push_str(&s.to_string());
        source = s.source();
    }
    let lower = chain.to_ascii_lowercase();
    let reason = if e.is_timeout() {
        DeadReason::Timeout
    } else if [
        "credentials not accepted",
        "proxy authorization required",
        "does not support user/pass",
    ]
    .iter()
    .any(|m| lower.contains(m))
    {
        DeadReason::AuthFailed
    } else if lower.contains("connection refused") || lower.contains("connection reset") {
        DeadReason::Refused
    } else {
        DeadReason::BadAnswer
    };
    Verdict::Dead(reason, chain)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documentation_ranges_are_never_contacted() {
        for ip in ["192.0.2.10", "198.51.100.7", "203.0.113.250", "198.19.4.4"] {
            assert!(forbidden(ip.parse().unwrap(), false).is_some(), "{ip}");
        }
        assert!(forbidden("8.8.8.8".parse().unwrap(), true).is_some());
        assert!(forbidden("8.8.8.8".parse().unwrap(), false).is_none());
        assert!(forbidden("127.0.3.4".parse().unwrap(), true).is_none());
        assert!(forbidden("::1".parse().unwrap(), true).is_none());
    }
}
