//! Proxy probing: check every proxy of a service's IP list *through itself*, from where the
//! user runs proxydash. This is not API traffic: the IP list comes through the fetcher like
//! any read, then the probe talks to the proxies only, with its own concurrency bound.
//!
//! | file | job |
//! |---|---|
//! | `mod.rs` | the types: [`ProxyTarget`], [`ProbeResult`], [`ProbeConfig`] |
//! | `targets.rs` | which list a service is probed from, and its entries as targets |
//! | `check.rs` | one proxy: where it may be contacted, its one TCP connect, the verdict |
//! | `connect.rs` | the proxy handshake (`CONNECT`, SOCKS5) and TLS on that connection |
//! | `fetch.rs` | the request to the target on it, and the answer read |
//! | `judge.rs` | reading the target's answer: exit IP and anonymity |
//! | `runner.rs` | many proxies at once, bounded, results as they come |
//! | `pace.rs` | the ramp: starts spread out, never all at once |
//! | `export.rs` | templates for copying the working proxies |
//! | `report.rs` | the provider's marks beside the results; rows for `--json`; the health line |
//! | `rotation.rs` | the rotation audit of a ppr gateway: distinct exits, change rate, spread |
//! | `round.rs` | a scheduled round (`watch --probe-every`): many services' samples in one run, counted per service |
//!
//! # Choices
//!
//! - **One connection per proxy**: a check connects to the proxy once and runs everything
//!   over that connection; the proxy sees one connection per check, not a bare connect
//!   followed by a second one for the request (as before: a reqwest client per proxy
//!   opened its own). Half the loopback TCP work of a probe was that second connection
//!   (issue 12).
//! - **Crates, not hand-written protocols**: the handshakes are hyper-util's proxy
//!   connectors, `Tunnel` (HTTP `CONNECT` with `Proxy-Authorization: Basic`) and `SocksV5`
//!   (username/password, RFC 1929). They are tower services that ask an inner connector
//!   for the connection to the proxy; the inner one here hands them the stream the check
//!   already connected (`connect.rs`). TLS to an `https` target is tokio-rustls with one
//!   configuration for the whole run (the platform's verifier, as reqwest's), and the
//!   request is hyper's HTTP/1.1 client connection (`fetch.rs`), driven inside the
//!   check's task. Which path a check takes:
//!
//!   | proxy | `http://` target | `https://` target |
//!   |---|---|---|
//!   | HTTP | absolute-form `GET` with `Proxy-Authorization` (the proxy can add headers) | `CONNECT`, TLS, `GET` |
//!   | SOCKS5 | handshake, `GET` | handshake, TLS, `GET` |
//!
//!   A SOCKS5 proxy is asked for the target's address as resolved here once per run (as
//!   reqwest's and curl's `socks5://` do), so in loopback mode the proxies are asked for
//!   exactly the address checked to be loopback; a `CONNECT` names the host. reqwest is
//!   still used once per run for the direct ask below; there is no client per proxy.
//! - **Two latencies**: `connect` is the TCP connect to the proxy (a refused port is found
//!   here, in microseconds); `latency` is the rest of the check on that connection: the
//!   handshake, the request to the target and the answer read. `connect + latency` is
//!   the whole check, what a user of the proxy waits for on a fresh connection; the p50
//!   shown is of `latency`, which no longer holds a second connect (on a real network,
//!   one round trip less than before).
//! - **Dead, and why** ([`DeadReason`]): `refused` (the TCP connect is refused or reset),
//!   `timeout` (no connection or no answer within [`ProbeConfig::timeout`]), `auth failed`
//!   (HTTP 407, a refused `CONNECT` for want of credentials, or a SOCKS5 refusal of the
//!   login), `bad answer` (anything else: a non-2xx status, a broken handshake, a body that
//!   is not an answer of the target, a failed TLS handshake). hyper-util does not export its
//!   proxy errors' types, so auth failures are told by their messages ("credentials not
//!   accepted", "proxy authorization required", "does not support user/pass"), and a reset
//!   or refusal by the I/O error in the chain; the sandbox's fixtures prove each case in
//!   `tests/probe.rs`.
//! - **The target** ([`ProbeConfig::probe_url`], `probe_url` in the profile, default
//!   [`DEFAULT_PROBE_URL`], `https://httpbin.org/get`): any URL that answers 2xx; when it
//!   answers httpbin's shape (`{"origin": …, "headers": {…}}`, as the sandbox's judge does)
//!   the exit IP and the anonymity are read from it, when it answers text holding an IPv4
//!   (api.ipify.org) only the exit IP. `probe_url = ""` turns the request off: a proxy is
//!   then alive when it accepts a TCP connection (a handshake needs a destination).
//! - **Anonymity** ([`Anonymity`]): before the proxies, the target is asked once directly
//!   for this machine's address as it sees it. Through a proxy: `transparent` when that
//!   address appears in any echoed header, `anonymous` when a proxy header (`Via`,
//!   `X-Forwarded-For`, `Forwarded`, `X-Real-IP`, `X-Proxy-Id`, `Client-IP`) appears
//!   without it, `elite` otherwise; unknown when the answer echoes no headers. If the
//!   direct ask fails, a leak of the address cannot be told and proxy headers read as
//!   `anonymous`. The judge's answer may come in any of the common shapes
//!   ([`judge::read`]): httpbin's `{"origin", "headers"}`, a self-hosted
//!   `{"remote": "ip:port", "headers": {name: [values]}}`, `{"ip": …}`, a PHP judge's
//!   `REMOTE_ADDR = …` / `HTTP_VIA = …` lines, or a bare address. An exit that is this
//!   machine's own address is `transparent` whatever the shape; without echoed headers
//!   anonymous and elite cannot be told apart, and the class is unknown.
//! - **A judge that cannot be reached** (the direct ask fails: no connection, no answer
//!   in time, not 2xx) is said once for the run, and no proxy is contacted: each is
//!   `not checked (judge unreachable)`, since every check would fail on the judge and
//!   blame the proxies. A judge reached whose exchange fails otherwise (TLS) is noted and
//!   the proxies are checked all the same.
//! - **Where a probe may connect** (a list comes from the server or a file, and each
//!   proxy is sent the service's credentials): addresses of the documentation and
//!   benchmarking ranges (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24, 198.18.0.0/15)
//!   are never real proxies and are never contacted: they are `skipped`. Loopback,
//!   private, link-local, CGNAT, unspecified, multicast, broadcast and reserved addresses
//!   ([`crate::net::addr`]; `localhost` and other names are resolved first) are skipped
//!   too, with the reason, unless the user opts in: `--allow-private` for a run,
//!   `probe_allow_private = true` for a profile. With [`ProbeConfig::loopback_only`] (the
//!   demo, whose sandbox is the user's own machine, and tests) only 127.0.0.0/8 and ::1
//!   are contacted, target included, so a list of the plain sandbox never reaches the
//!   network. An entry without a port (or one that cannot be read) is reported skipped,
//!   never silently dropped.
//! - **Caps**: at most [`MAX_TARGETS`] (1,000) proxies are contacted in one run (the rest
//!   of the list is reported skipped) and at most [`MAX_CONCURRENCY`] (256) at once,
//!   whatever `--concurrency` or `probe_concurrency` ask.
//! - **Politeness, never a flood**: at most [`ProbeConfig::concurrency`] proxies at once
//!   (default [`DEFAULT_CONCURRENCY`], 32, `probe_concurrency` in the profile), each with
//!   one connection and one request on it; the starts are spread on a ramp, at most
//!   `concurrency` per [`pace::RAMP`] (50 ms), so even the first wave does not open its
//!   connections in the same instant (and the answers do not come back in one clump that
//!   queues for this machine's CPU and reads as the proxies' latency); nothing is retried
//!   on its own (`r` in the view re-checks the failed ones).

pub mod check;
pub mod connect;
pub mod export;
pub mod fetch;
pub mod judge;
pub mod pace;
pub mod report;
pub mod rotation;
pub mod round;
pub mod runner;
pub mod targets;

use serde::Serialize;
use std::net::IpAddr;
use std::time::Duration;

pub use runner::{ProbeEvent, probe_all};

/// The target asked through each proxy unless the profile names another.
pub const DEFAULT_PROBE_URL: &str = "https://httpbin.org/get";
/// Proxies checked at once unless the profile says otherwise.
pub const DEFAULT_CONCURRENCY: usize = 32;
/// The most proxies checked at once, whatever is asked (`--concurrency`,
/// `probe_concurrency`): each holds a socket.
pub const MAX_CONCURRENCY: usize = 256;
/// The most proxies contacted in one run; the rest of a longer list is reported skipped.
pub const MAX_TARGETS: usize = 1_000;
/// The whole check of one proxy (connect, handshake, request, answer).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scheme {
    Http,
    Socks5,
}

impl Scheme {
    pub fn as_str(self) -> &'static str {
        match self {
            Scheme::Http => "http",
            Scheme::Socks5 => "socks5",
        }
    }
}

/// One proxy to check: an entry of an IP list.
#[derive(Clone, PartialEq, Eq)]
pub struct ProxyTarget {
    pub host: String,
    pub port: u16,
    pub scheme: Scheme,
    pub login: Option<String>,
    pub password: Option<String>,
}

/// The password stays out of logs and debug output.
impl std::fmt::Debug for ProxyTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProxyTarget")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("scheme", &self.scheme)
            .field("login", &self.login)
            .field("password", &self.password.as_ref().map(|_| "[redacted]"))
            .finish()
    }
}

impl ProxyTarget {
    /// `host:port` (the entry's text when it could not be read: port 0).
    pub fn address(&self) -> String {
        if self.port == 0 {
            self.host.clone()
        } else if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DeadReason {
    Refused,
    AuthFailed,
    Timeout,
    BadAnswer,
}

impl DeadReason {
    /// Every reason, in the order of [`DeadReason::index`].
    pub const ALL: [DeadReason; 4] = [
        DeadReason::Refused,
        DeadReason::AuthFailed,
        DeadReason::Timeout,
        DeadReason::BadAnswer,
    ];

    /// Its place in [`DeadReason::ALL`] (counts by reason are arrays of four).
    pub fn index(self) -> usize {
        match self {
            DeadReason::Refused => 0,
            DeadReason::AuthFailed => 1,
            DeadReason::Timeout => 2,
            DeadReason::BadAnswer => 3,
        }
    }

    /// The word of `probe --json`'s `reason` and of the metrics' `reason` label:
    /// `refused`, `auth_failed`, `timeout`, `bad_answer`.
    pub fn word(self) -> &'static str {
        match self {
            DeadReason::Refused => "refused",
            DeadReason::AuthFailed => "auth_failed",
            DeadReason::Timeout => "timeout",
            DeadReason::BadAnswer => "bad_answer",
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            DeadReason::Refused => "refused",
            DeadReason::AuthFailed => "auth failed",
            DeadReason::Timeout => "timeout",
            DeadReason::BadAnswer => "bad answer",
        }
    }
}

/// What the check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Alive,
    /// With a one-line cause for the detail.
    Dead(DeadReason, String),
    /// Not contacted, and why (see the module docs).
    Skipped(String),
    /// Not checked because the run could not check anything (the judge cannot be
    /// reached); says nothing of the proxy. The why is short: `judge unreachable`.
    NotChecked(String),
}

impl Verdict {
    pub fn is_alive(&self) -> bool {
        matches!(self, Verdict::Alive)
    }

    pub fn is_dead(&self) -> bool {
        matches!(self, Verdict::Dead(..))
    }

    /// `alive`, `dead: timeout`, `skipped`.
    pub fn label(&self) -> String {
        match self {
            Verdict::Alive => "alive".into(),
            Verdict::Dead(reason, _) => format!("dead: {}", reason.as_str()),
            Verdict::Skipped(_) => "skipped".into(),
            Verdict::NotChecked(why) => format!("not checked ({why})"),
        }
    }

    /// A failed step after the connect, as a verdict with its cause: the error's messages,
    /// and its reason from the I/O error in its chain (a reset or refusal is `refused`, a
    /// timeout `timeout`); anything else is a `bad answer`.
    pub fn of_error(e: &(dyn std::error::Error + 'static)) -> Verdict {
        let mut chain = Vec::new();
        let mut reason = DeadReason::BadAnswer;
        let mut source = Some(e);
        while let Some(s) = source {
            if let Some(io) = s.downcast_ref::<std::io::Error>() {
                use std::io::ErrorKind::*;
                match io.kind() {
                    ConnectionRefused | ConnectionReset | ConnectionAborted => {
                        reason = DeadReason::Refused
                    }
                    TimedOut => reason = DeadReason::Timeout,
                    _ => {}
                }
            }
            chain.push(s.to_string());
            source = s.source();
        }
        let chain = chain.join(": ");
        Verdict::Dead(reason, chain)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Anonymity {
    Transparent,
    Anonymous,
    Elite,
}

impl Anonymity {
    pub fn as_str(self) -> &'static str {
        match self {
            Anonymity::Transparent => "transparent",
            Anonymity::Anonymous => "anonymous",
            Anonymity::Elite => "elite",
        }
    }
}

impl ProbeResult {
    /// `target`, not contacted, and why.
    pub fn skipped(target: ProxyTarget, why: String) -> Self {
        Self {
            target,
            verdict: Verdict::Skipped(why),
            connect: None,
            latency: None,
            exit_ip: None,
            anonymity: None,
        }
    }
}

/// What was measured of one proxy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeResult {
    pub target: ProxyTarget,
    pub verdict: Verdict,
    /// The TCP connect to the proxy.
    pub connect: Option<Duration>,
    /// The rest of the check on that connection: handshake, request, the answer's last
    /// byte.
    pub latency: Option<Duration>,
    /// The address the target saw the request come from.
    pub exit_ip: Option<IpAddr>,
    pub anonymity: Option<Anonymity>,
}

impl ProbeResult {
    /// A proxy not contacted for a reason of the whole run.
    pub fn unchecked(target: ProxyTarget, why: &str) -> Self {
        Self {
            target,
            verdict: Verdict::NotChecked(why.into()),
            connect: None,
            latency: None,
            exit_ip: None,
            anonymity: None,
        }
    }
}

#[derive(Clone, Debug)]
pub struct ProbeConfig {
    /// Proxies checked at once (at least 1).
    pub concurrency: usize,
    /// The whole check of one proxy.
    pub timeout: Duration,
    /// The target asked through each proxy; `None` checks the TCP connect only.
    pub probe_url: Option<String>,
    /// Contact 127.0.0.0/8 and ::1 only (the demo, tests).
    pub loopback_only: bool,
    /// Contact loopback, private, link-local… proxies too (`--allow-private`,
    /// `probe_allow_private`); off, they are skipped.
    pub allow_private: bool,
}

impl Default for ProbeConfig {
    fn default() -> Self {
        Self {
            concurrency: DEFAULT_CONCURRENCY,
            timeout: DEFAULT_TIMEOUT,
            probe_url: Some(DEFAULT_PROBE_URL.into()),
            loopback_only: false,
            allow_private: false,
        }
    }
}

impl ProbeConfig {
    /// `probe_url` as written in a profile: `""` turns the request off.
    pub fn with_url(mut self, url: &str) -> Self {
        let url = url.trim();
        self.probe_url = (!url.is_empty()).then(|| url.to_owned());
        self
    }
}

/// The median latency of the alive proxies, in whole milliseconds.
pub fn p50(results: &[ProbeResult]) -> Option<u64> {
    let mut ms: Vec<u128> = results
        .iter()
        .filter(|r| r.verdict.is_alive())
        .filter_map(|r| r.latency.map(|d| d.as_millis()))
        .collect();
    if ms.is_empty() {
        return None;
    }
    ms.sort_unstable();
    Some(ms[(ms.len() - 1) / 2] as u64)
}
