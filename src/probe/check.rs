//! Checking one proxy: where it may be contacted, the one TCP connection to it, then the
//! handshake and one request to the target over that connection (choices in the module
//! docs of [`super`]).

use super::connect::{self, Target};
use super::fetch;
use super::judge;
use super::{DeadReason, ProbeResult, ProxyTarget, Verdict};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::time::Instant;

/// What every check of one run shares.
#[derive(Clone, Debug)]
pub struct Context {
    /// `None`: only the TCP connect is checked.
    pub target: Option<Target>,
    /// This machine's address as the target sees it without a proxy.
    pub real_ip: Option<IpAddr>,
    pub timeout: Duration,
    pub loopback_only: bool,
    /// Loopback, private, link-local… proxies are contacted too (the user opted in).
    pub allow_private: bool,
    /// One TLS configuration for every check (building one is ~20 ms of CPU); `None`
    /// when this machine has none, and then an `https` target is not asked.
    pub tls: Option<Arc<rustls::ClientConfig>>,
    /// The judge could not be asked directly: no proxy is checked (module docs).
    pub judge_down: bool,
}

/// The TLS configuration of [`Context::tls`]: the platform's verifier, as reqwest's own.
pub fn tls_config() -> Option<Arc<rustls::ClientConfig>> {
    use rustls_platform_verifier::ConfigVerifierExt as _;
    rustls::ClientConfig::with_platform_verifier()
        .ok()
        .map(Arc::new)
}

/// Why an address must not be contacted, if it must not: documentation addresses never;
/// in loopback-only mode anything else than loopback; otherwise what is not public
/// unicast ([`crate::net::addr`]: loopback, private, link-local, CGNAT, unspecified,
/// multicast, broadcast, reserved) unless `allow_private`.
pub fn forbidden(ip: IpAddr, loopback_only: bool, allow_private: bool) -> Option<String> {
    if let IpAddr::V4(v4) = ip
        && documentation(v4)
    {
        return Some("a documentation address, not a real proxy".into());
    }
    if loopback_only {
        return (!ip.is_loopback())
            .then(|| "outside loopback (only 127.0.0.0/8 is probed here)".into());
    }
    match crate::net::addr::classify(ip) {
        Some(why) if !allow_private => Some(format!(
            "{ip} is {why}: not probed unless --allow-private (probe_allow_private = true)"
        )),
        _ => None,
    }
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
    if result.target.port == 0 {
        result.verdict = Verdict::Skipped(
            "the list's entry names no port, or is not host:port (IPv6 entries are not probed)"
                .into(),
        );
        return result;
    }
    let Some(addr) = resolve(&result.target.host, result.target.port).await else {
        result.verdict = dead(
            DeadReason::BadAnswer,
            "the host name does not resolve".into(),
        );
        return result;
    };
    if let Some(why) = forbidden(addr.ip(), ctx.loopback_only, ctx.allow_private) {
        result.verdict = Verdict::Skipped(why);
        return result;
    }
    let stream = match tokio::time::timeout_at(deadline, TcpStream::connect(addr)).await {
        Err(_) => {
            result.verdict = dead(DeadReason::Timeout, "no TCP connection in time".into());
            return result;
        }
        Ok(Err(e)) => {
            result.verdict = dead(DeadReason::Refused, e.to_string());
            return result;
        }
        Ok(Ok(stream)) => stream,
    };
    result.connect = Some(start.elapsed());
    let Some(probe) = &ctx.target else {
        return result;
    };
    let _ = stream.set_nodelay(true);
    // The rest runs over the connection just made: the proxy sees one connection per
    // check. `latency` is its time from here (connect + latency is the whole check).
    let t0 = Instant::now();
    let asked = async {
        let ready = connect::through(stream, &result.target, addr, probe, ctx.tls.as_ref()).await?;
        fetch::get(ready, &result.target, probe).await
    };
    match tokio::time::timeout_at(deadline, asked).await {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documentation_ranges_are_never_contacted() {
        for ip in ["192.0.2.10", "198.51.100.7", "203.0.113.250", "198.19.4.4"] {
            assert!(
                forbidden(ip.parse().unwrap(), false, true).is_some(),
                "{ip}"
            );
        }
        assert!(forbidden("8.8.8.8".parse().unwrap(), true, false).is_some());
        assert!(forbidden("8.8.8.8".parse().unwrap(), false, false).is_none());
        assert!(forbidden("127.0.3.4".parse().unwrap(), true, false).is_none());
        assert!(forbidden("::1".parse().unwrap(), true, false).is_none());
    }
}

#[cfg(test)]
mod rules {
    use super::forbidden;

    fn rule(ip: &str, loopback_only: bool, allow_private: bool) -> Option<String> {
        forbidden(ip.parse().unwrap(), loopback_only, allow_private)
    }

    #[test]
    fn special_addresses_are_skipped_unless_the_user_opts_in() {
        for ip in [
            "127.0.0.1",
            "169.254.169.254",
            "10.0.0.1",
            "192.168.1.1",
            "172.16.0.1",
            "100.64.0.1",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "fe80::1",
        ] {
            let why = rule(ip, false, false).unwrap_or_else(|| panic!("{ip} is contacted"));
            assert!(why.contains("--allow-private"), "{ip}: {why}");
            assert_eq!(rule(ip, false, true), None, "{ip}, opted in");
        }
        assert!(
            rule("169.254.169.254", false, false)
                .unwrap()
                .contains("link-local")
        );
        assert_eq!(rule("45.83.220.10", false, false), None, "public is probed");
        // Documentation addresses never; the demo's loopback mode contacts loopback only.
        assert!(rule("203.0.113.5", false, true).is_some());
        assert_eq!(rule("127.0.0.5", true, false), None);
        assert!(rule("45.83.220.10", true, false).is_some());
    }
}
