//! `sandbox --proxies`: real proxy listeners on loopback for the IP lists to point at, and
//! a judge that echoes what reached it, so the proxy probe ([`crate::probe`]) can be tried
//! and tested with no account and no network.
//!
//! Choices (none of this is in the API spec: it is the test fixture of the probe):
//! - **Addresses**: fixture `i` listens on `127.0.0.(10 + i)` (counting on past `.255`
//!   into the next octets) on a free port, and connects onward *from* the same address
//!   with `127.1` in front (`127.1.0.10`), so the judge sees an exit IP of its own, as a
//!   provider's gateway would show. Linux routes all of 127.0.0.0/8 to loopback; where a
//!   bind on such an address fails the fixture falls back to `127.0.0.1`.
//! - **Protocols**: every listener speaks both HTTP proxy (absolute-form `GET` and
//!   `CONNECT`, `Proxy-Authorization: Basic`) and SOCKS5 (username/password, RFC 1929),
//!   told apart by the first byte (`5` is SOCKS5), so `http-auth` and `socks-ip` lists
//!   can point at the same fixtures.
//! - **Credentials**: those of any service of the sandbox (`username`/`password` of its
//!   records, so a password changed with `p` changes what the proxies accept).
//! - **Behaviours** ([`Behaviour`]): `Elite` forwards untouched; `Anonymous` adds `Via`;
//!   `Transparent` adds `Via` and `X-Forwarded-For` with the client's address; `AuthFails`
//!   refuses every credential; `Dead` is a port with no listener; `Hang` accepts and never
//!   answers. Headers can only be added to plain HTTP through an HTTP proxy: a `CONNECT`
//!   tunnel or a SOCKS5 stream carries bytes it cannot read, so there every behaviour
//!   looks elite, as it does on the real network. Any fixture can be told to refuse
//!   (reset every connection) and to serve again while it runs
//!   ([`ProxyFarm::set_refusing`]): an outage of a provider's proxies, for `watch
//!   --probe-every`'s tests.
//! - **Latency**: each fixture waits its `latency` once per connection, after accepting
//!   and before reading the handshake, so a probe measures it in its request time.
//! - **Safety**: a fixture connects onward only to loopback addresses; any other target
//!   gets `403` (HTTP) or "connection not allowed" (SOCKS5). The fixtures never reach the
//!   network.
//! - **The demo layout** ([`demo_fixtures`]): ten fixtures, of which seven work (one of
//!   them slow, one anonymous, one transparent), one is dead, one refuses credentials and
//!   one hangs. An fpr list holds its first `min(ip_count, 10)`; a ppr list the first three.
//! - **Gateways of ppr lists** ([`gateway_fixtures`]): two more listeners after the
//!   fixtures, for the rotation audit (`probe ID --rotation N`): one rotates, connecting
//!   onward from `127.0.0.2` … `127.0.0.6` in turn, one address per connection (a provider
//!   that rotates per request), the other never does (one exit, as a sticky session). A
//!   ppr list of a sandbox with proxies names these two, HTTP and SOCKS5 alike; the
//!   fixtures stay the fpr lists'.
//! - **The judge**: `GET` on any path of its own listener answers
//!   `{"origin": "<address it came from>", "headers": {…}}` (the shape of httpbin's
//!   `/get`), with no authentication; other paths answer the other common shapes, so the
//!   probe's reading of each can be tried: `/remote` a self-hosted judge's
//!   `{"remote": "ip:port", "headers": {name: [value]}}`, `/ip` `{"ip": …}`, `/text` the
//!   bare address, `/env` a PHP judge's `REMOTE_ADDR = …` / `HTTP_… = …` lines.

mod conn;

use axum::Json;
use axum::Router;
use axum::extract::ConnectInfo;
use axum::http::HeaderMap;
pub use conn::Credentials;
use std::collections::BTreeMap;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::watch;

/// What a fixture does with a connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Behaviour {
    Elite,
    Anonymous,
    Transparent,
    AuthFails,
    Dead,
    Hang,
    /// Elite, connecting onward from `127.0.0.2` + (`n` mod `exits`) for its `n`-th
    /// connection: a gateway that rotates per request among `exits` addresses.
    Rotating {
        exits: u8,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixture {
    pub behaviour: Behaviour,
    pub latency: Duration,
}

impl Fixture {
    pub const fn new(behaviour: Behaviour, latency_ms: u64) -> Self {
        Self {
            behaviour,
            latency: Duration::from_millis(latency_ms),
        }
    }
}

/// The fixtures `sandbox --proxies` and `--demo` start (see the module docs).
pub fn demo_fixtures() -> Vec<Fixture> {
    use Behaviour::*;
    vec![
        Fixture::new(Elite, 0),
        Fixture::new(Elite, 20),
        Fixture::new(Anonymous, 0),
        Fixture::new(Elite, 350),
        Fixture::new(Transparent, 0),
        Fixture::new(Dead, 0),
        Fixture::new(Elite, 60),
        Fixture::new(AuthFails, 0),
        Fixture::new(Elite, 5),
        Fixture::new(Hang, 0),
    ]
}

/// The ppr gateways of a sandbox with proxies: one that rotates among five exits per
/// request, one that never rotates (module docs).
pub fn gateway_fixtures() -> Vec<Fixture> {
    vec![
        Fixture::new(Behaviour::Rotating { exits: 5 }, 0),
        Fixture::new(Behaviour::Elite, 0),
    ]
}

/// The exit of a rotating fixture's `n`-th connection: `127.0.0.2` onwards.
pub fn rotating_exit(exits: u8, n: usize) -> Ipv4Addr {
    let k = n % usize::from(exits.max(1));
    Ipv4Addr::new(127, 0, 0, 2 + k as u8)
}

/// The listen address of fixture `i`: `127.0.0.10` onwards.
pub fn fixture_ip(i: usize) -> Ipv4Addr {
    Ipv4Addr::from(u32::from(Ipv4Addr::new(127, 0, 0, 10)) + i as u32)
}

/// The address a fixture listening on `ip` connects onward from: `127.1.x.y`.
pub fn exit_ip(ip: Ipv4Addr) -> Ipv4Addr {
    let o = ip.octets();
    Ipv4Addr::new(127, 1, o[2], o[3])
}

/// Listeners bound, not serving yet: their addresses go into the IP lists before the
/// credentials they check exist.
pub struct BoundFarm {
    /// Each live fixture with its index in the fixture list.
    listeners: Vec<(usize, Fixture, TcpListener)>,
    addrs: Vec<SocketAddr>,
    /// The ppr gateways ([`gateway_fixtures`]), after the fixtures.
    gateways: Vec<(Fixture, TcpListener)>,
    judge: TcpListener,
}

impl BoundFarm {
    /// Binds a listener per fixture (a `Dead` one is bound and closed again, after every
    /// live one, so its port is free but not handed to another fixture) and the judge.
    pub async fn bind(fixtures: &[Fixture]) -> io::Result<Self> {
        let mut listeners = Vec::new();
        let mut addrs = vec![None; fixtures.len()];
        let judge = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await?;
        for (i, f) in fixtures.iter().enumerate() {
            if f.behaviour != Behaviour::Dead {
                let l = bind_on(fixture_ip(i)).await?;
                addrs[i] = Some(l.local_addr()?);
                listeners.push((i, *f, l));
            }
        }
        for (i, f) in fixtures.iter().enumerate() {
            if f.behaviour == Behaviour::Dead {
                let l = bind_on(fixture_ip(i)).await?;
                addrs[i] = Some(l.local_addr()?);
            }
        }
        let mut gateways = Vec::new();
        for (j, f) in gateway_fixtures().into_iter().enumerate() {
            gateways.push((f, bind_on(fixture_ip(fixtures.len() + j)).await?));
        }
        Ok(Self {
            listeners,
            addrs: addrs.into_iter().flatten().collect(),
            gateways,
            judge,
        })
    }

    /// Every fixture's address, in fixture order (dead ones included).
    pub fn addrs(&self) -> &[SocketAddr] {
        &self.addrs
    }

    pub fn judge_url(&self) -> String {
        match self.judge.local_addr() {
            Ok(a) => format!("http://{a}/judge"),
            Err(_) => String::new(),
        }
    }

    /// Serves until `stop` turns true (or its sender is dropped).
    pub fn serve(self, credentials: Credentials, stop: watch::Receiver<bool>) -> ProxyFarm {
        let judge_url = self.judge_url();
        let accepted: Arc<[AtomicUsize]> = self.addrs.iter().map(|_| AtomicUsize::new(0)).collect();
        let refusing: Arc<[AtomicBool]> =
            self.addrs.iter().map(|_| AtomicBool::new(false)).collect();
        for (i, fixture, listener) in self.listeners {
            let count = Accepted {
                all: accepted.clone(),
                index: i,
                refusing: refusing.clone(),
            };
            tokio::spawn(accept_loop(
                fixture,
                listener,
                credentials.clone(),
                stop.clone(),
                count,
            ));
        }
        let mut gateways = Vec::new();
        let gateway_count: Arc<[AtomicUsize]> =
            self.gateways.iter().map(|_| AtomicUsize::new(0)).collect();
        for (j, (fixture, listener)) in self.gateways.into_iter().enumerate() {
            if let Ok(a) = listener.local_addr() {
                gateways.push(a);
            }
            let count = Accepted {
                all: gateway_count.clone(),
                index: j,
                refusing: Arc::new([]),
            };
            tokio::spawn(accept_loop(
                fixture,
                listener,
                credentials.clone(),
                stop.clone(),
                count,
            ));
        }
        let router = Router::new()
            .fallback(judge)
            .into_make_service_with_connect_info::<SocketAddr>();
        let mut judge_stop = stop.clone();
        let judge_listener = self.judge;
        tokio::spawn(async move {
            let _ = axum::serve(judge_listener, router)
                .with_graceful_shutdown(async move {
                    let _ = judge_stop.wait_for(|s| *s).await;
                })
                .await;
        });
        ProxyFarm {
            addrs: self.addrs.into(),
            gateways: gateways.into(),
            judge_url,
            accepted,
            gateway_accepted: gateway_count,
            refusing,
        }
    }
}

/// A serving farm's addresses.
#[derive(Clone, Debug)]
pub struct ProxyFarm {
    pub addrs: Arc<[SocketAddr]>,
    /// The ppr gateways ([`gateway_fixtures`]): the rotating one, then the sticky one.
    pub gateways: Arc<[SocketAddr]>,
    pub judge_url: String,
    /// Connections accepted by each fixture so far, in fixture order (what a probe costs
    /// a proxy: `tests/probe.rs` holds it to one connection per check).
    accepted: Arc<[AtomicUsize]>,
    gateway_accepted: Arc<[AtomicUsize]>,
    /// Fixtures told to refuse (see [`ProxyFarm::set_refusing`]).
    refusing: Arc<[AtomicBool]>,
}

impl ProxyFarm {
    /// Connections gateway `j` has accepted so far.
    pub fn gateway_accepted(&self, j: usize) -> usize {
        self.gateway_accepted
            .get(j)
            .map_or(0, |n| n.load(Ordering::Relaxed))
    }

    /// Fixture `i` refuses every connection from now on (`true`: it resets each one as
    /// it comes, as a proxy whose service stopped does) or serves again (`false`): an
    /// outage a test turns on and off while `watch` probes on a schedule.
    pub fn set_refusing(&self, i: usize, refusing: bool) {
        if let Some(flag) = self.refusing.get(i) {
            flag.store(refusing, Ordering::Relaxed);
        }
    }

    /// Connections fixture `i` has accepted so far (0 for a dead one, or out of range).
    pub fn accepted(&self, i: usize) -> usize {
        self.accepted
            .get(i)
            .map_or(0, |n| n.load(Ordering::Relaxed))
    }
}

/// The counter of one fixture in [`ProxyFarm::accepted`], and its refusal switch.
struct Accepted {
    all: Arc<[AtomicUsize]>,
    index: usize,
    refusing: Arc<[AtomicBool]>,
}

/// A farm on its own, outside a sandbox (benches, tests): accepts `login`/`password`;
/// serves until the returned sender is dropped.
pub async fn start_standalone(
    fixtures: &[Fixture],
    login: &str,
    password: &str,
) -> io::Result<(ProxyFarm, watch::Sender<bool>)> {
    let bound = BoundFarm::bind(fixtures).await?;
    let (tx, rx) = watch::channel(false);
    let (l, p) = (login.to_owned(), password.to_owned());
    let check: Credentials = Arc::new(move |u: &str, pw: &str| u == l && pw == p);
    Ok((bound.serve(check, rx), tx))
}

async fn bind_on(ip: Ipv4Addr) -> io::Result<TcpListener> {
    match TcpListener::bind((ip, 0)).await {
        Ok(l) => Ok(l),
        Err(_) => TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await,
    }
}

async fn accept_loop(
    fixture: Fixture,
    listener: TcpListener,
    credentials: Credentials,
    mut stop: watch::Receiver<bool>,
    count: Accepted,
) {
    let own_exit = match listener.local_addr() {
        Ok(SocketAddr::V4(a)) => exit_ip(*a.ip()),
        _ => Ipv4Addr::LOCALHOST,
    };
    let mut connections = 0usize;
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = stop.wait_for(|s| *s) => return,
        };
        // A failed accept (out of descriptors) is the client's problem to see as a
        // refusal or timeout; the listener keeps going.
        let Ok((stream, peer)) = accepted else {
            tokio::time::sleep(Duration::from_millis(5)).await;
            continue;
        };
        if let Some(n) = count.all.get(count.index) {
            n.fetch_add(1, Ordering::Relaxed);
        }
        if count
            .refusing
            .get(count.index)
            .is_some_and(|r| r.load(Ordering::Relaxed))
        {
            // A reset, not a polite close: what a client sees of a port that refuses. A
            // zero linger does not block the drop (the deprecation is about waiting for
            // unsent data, of which there is none).
            #[allow(deprecated)]
            let _ = stream.set_linger(Some(Duration::ZERO));
            drop(stream);
            continue;
        }
        let exit = match fixture.behaviour {
            Behaviour::Rotating { exits } => rotating_exit(exits, connections),
            _ => own_exit,
        };
        connections += 1;
        let credentials = credentials.clone();
        let mut stop = stop.clone();
        tokio::spawn(async move {
            tokio::select! {
                _ = conn::handle(stream, peer, fixture, exit, &credentials) => {}
                _ = stop.wait_for(|s| *s) => {}
            }
        });
    }
}

async fn judge(
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    uri: axum::http::Uri,
    headers: HeaderMap,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let echoed: BTreeMap<String, String> = headers
        .iter()
        .map(|(name, value)| {
            let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
            (name.as_str().to_owned(), value)
        })
        .collect();
    let ip = peer.ip();
    match uri.path() {
        "/remote" => {
            let lists: BTreeMap<&str, [&str; 1]> = echoed
                .iter()
                .map(|(k, v)| (k.as_str(), [v.as_str()]))
                .collect();
            Json(serde_json::json!({"remote": peer.to_string(), "headers": lists})).into_response()
        }
        "/ip" => Json(serde_json::json!({ "ip": ip })).into_response(),
        "/text" => format!("{ip}\n").into_response(),
        "/env" => {
            let mut lines = format!("<pre>\nREMOTE_ADDR = {ip}\n");
            for (k, v) in &echoed {
                let key = k.to_ascii_uppercase().replace('-', "_");
                lines.push_str(&format!("HTTP_{key} = {v}\n"));
            }
            lines.push_str("</pre>\n");
            lines.into_response()
        }
        _ => Json(Judged {
            origin: ip,
            headers: echoed,
        })
        .into_response(),
    }
}

#[derive(serde::Serialize)]
struct Judged {
    origin: IpAddr,
    headers: BTreeMap<String, String>,
}
