//! The sandbox: a local server of the reseller API (spec `reseller-api.md`, v1.0.2), for
//! running and testing proxydash without an account. It knows the API and nothing of the
//! client: it reuses only the wire types of [`crate::api::model`], never `ApiClient`.
//!
//! ```text
//! request ─► front (record, latency, faults) ─► auth ─► routes ─► state (rules) ─► wire
//! ```
//!
//! | file | job |
//! |---|---|
//! | `mod.rs` | configuration, public types, [`run_cli`] |
//! | `server.rs` | start, stop, the handle |
//! | `shared.rs` | the state every request shares |
//! | `conn.rs` | a listener whose connections a fault can kill, and which closes idle ones |
//! | `front.rs` | request log, latency, fault injection |
//! | `faults.rs` | [`FaultSpec`]: syntax and kinds (see there) |
//! | `auth.rs` | section 5 (see there for the exact rules) |
//! | `routes.rs` | the 16 endpoints |
//! | `state.rs` | business rules: order, update, lookups (see there for every choice) |
//! | `bodies.rs` | request bodies and the strict IPv4 rule |
//! | `errors.rs` | section 7: status codes and bodies |
//! | `ratelimit.rs` | the general rate limit of `--rate-limit` |
//! | `wire.rs` | records → the JSON shapes of section 2 |
//! | `iplist.rs` | IP lists: addresses, types, formats |
//! | `usage.rs` | ppr statistics and rate |
//! | `proxies/` | `--proxies`: loopback HTTP/SOCKS5 proxies and a judge (see there) |
//! | `seed.rs`, `scale.rs` | the starting data: `assets/seed.json`, or N generated services |
//!
//! # Choices where the spec says "not shown"
//!
//! Each module's docs give the details; in short:
//! - **Authentication**: the token is accepted verbatim (`Basic <token>`), the login pair
//!   as base64 of `login:password`; well-formed but wrong credentials (a decodable pair,
//!   or a token-shaped string) are 401, unreadable ones 400 (`auth.rs`).
//! - **The 400 `ClientID not found`** (endpoints 8, 9, 15): the service is unknown, or its
//!   client no longer exists (seed service 1013 belongs to a removed client). Unknown
//!   IDs elsewhere are the generic 422 (`state.rs`).
//! - **Update**: every operation is validated before any is applied; errors are checked in
//!   a fixed order; Terminated/Cancelled/Fraud services refuse changes; `update_list`
//!   takes `"true"` or `"1"`; the throttle is per service, and its 429 names the next
//!   possible time in UTC rounded up to the second (`state.rs`, `bodies.rs`).
//! - **Order**: `setip` problems are `Incorrect posted data`; hidden products can be
//!   ordered; the new service is Active (`state.rs`).
//! - **Sorting** is ascending; lists are by ascending ID.
//! - **Statistics** are MB of traffic per day for 30 days (`usage.rs`).
//! - **IP lists**: deterministic addresses in reserved ranges; the `json` format is objects
//!   separated by `,\n` without brackets, as live servers send it (`iplist.rs`).
//! - **Types** (2): by default every answer follows the spec's types exactly: numeric
//!   members are JSON numbers, lists are JSON arrays (the `json` IP list too), dates are
//!   `YYYY-MM-DD` (`update_time` `YYYY-MM-DD HH:MM:SS`). A Free service's
//!   `nextduedate`, which the spec lists for every service, is 9999-12-31 (never due; the
//!   client reads it as no date). An invoice date that is not set (`date_paid` of an
//!   unpaid one, `date_refunded` of one never refunded) is left out rather than sent as
//!   something that is not a date.
//!   `tests/sandbox/conformance.rs` walks every endpoint and checks this.
//! - **Quirks of live servers** (`--quirks`, [`SandboxConfig::quirks`]) appear in *some*
//!   answers, on purpose: a price, an amount, an `ip_count`, an `orderid` and a client
//!   `id` as strings (the seed's `_wire` members); `"0000-00-00"` for a Free service's due
//!   date and one invoice's refund date; `"bindedip": null` on one service;
//!   `"date_paid": null` on one invoice; the `json` IP list as objects joined by `,\n`
//!   without brackets. Shapes stay the spec's. The client decodes both.
//! - **Faults** (`faults.rs`) sit in front of everything, after the latency; `drop-after`
//!   processes the request and then drops the connection, so the client cannot know.
//! - **Time** is UTC throughout (dates, the throttle), and the sandbox's "now" follows
//!   tokio's clock from its start (`Shared::now`): on a running clock it is the wall time;
//!   a test on tokio's paused clock steps past the throttle's five minutes by advancing it.
//! - **`geo`** (2.3): an array of objects `{"country": "US", "city": "Ashburn"}`, as the
//!   seed writes them; empty for a product without locations.
//! - **Status transitions** (3.1, 3.2): the API has no call that changes a status, so the
//!   sandbox never changes one by itself; a new service is Active, its invoice Paid.
//! - **Events** (6): none.
//! - **Limits** (8): no general rate limit unless `--rate-limit N` sets one (`ratelimit.rs`:
//!   the common framework's throttle, its headers and its 429), no pagination (a list is always whole, even
//!   100,000 long); request bodies up to 1 MiB (413 above); the `update_list` interval is
//!   5 minutes unless configured.
//! - **Headers and versions** (4, 9): `Content-Type` and `Accept` are recorded but not
//!   required; there is no version negotiation.
//! - **Secrets**: `SandboxConfig`'s `Debug` redacts the token and the login password.
//! - **Keep-alive**: a connection idle for [`IDLE_CLOSE`] (120 s) is closed, as live
//!   servers close theirs; later than the dashboard's client lets go of one (`conn.rs`).

mod auth;
mod bodies;
mod conn;
mod errors;
mod faults;
mod front;
mod iplist;
mod myip;
pub mod proxies;
mod ratelimit;
mod records;
mod routes;
mod scale;
mod seed;
mod seed_dates;
mod server;
mod shared;
mod state;
mod usage;
mod wire;

pub use conn::IDLE_CLOSE;
pub use faults::{FaultKind, FaultSpec, FaultSpecError};
pub use server::{Sandbox, SandboxHandle};

use std::io::Write as _;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

/// The token the sandbox accepts unless told otherwise: 40 letters and digits, the shape
/// of a token from the account area's "Generate API token". Send it as
/// `Authorization: Basic pdx7Kq2Vt9LmR4nW8cZ3yH6bJ1sF5gA0eXuDoTiQ`. It is public: the
/// sandbox holds no real account.
pub const DEMO_TOKEN: &str = "pdx7Kq2Vt9LmR4nW8cZ3yH6bJ1sF5gA0eXuDoTiQ";

/// The login pair accepted by default (as base64 of `demo:demo-password`).
pub const DEMO_LOGIN: (&str, &str) = ("demo", "demo-password");

pub const DEFAULT_PORT: u16 = 8787;

#[derive(Clone)]
pub struct SandboxConfig {
    /// Where to listen; `127.0.0.1:0` picks a free port (tests).
    pub listen: SocketAddr,
    /// The accepted API token.
    pub token: String,
    /// The accepted login and password, if any.
    pub login: Option<(String, String)>,
    /// Added before every answer; concurrent requests wait concurrently.
    pub latency: Duration,
    /// `Some(N)`: N generated services (and invoices and orders) instead of the seed's.
    pub scale: Option<usize>,
    /// The `update_list` throttle interval, per service.
    pub throttle: Duration,
    pub faults: Option<FaultSpec>,
    /// A seed file to use instead of the built-in `assets/seed.json`.
    pub seed: Option<PathBuf>,
    /// Answer with live servers' quirks (see the module docs); off by default, so the
    /// sandbox answers exactly as the spec's types say.
    pub quirks: bool,
    /// `Some(N)`: N requests a minute per credential over every endpoint (`ratelimit.rs`).
    pub rate_limit: Option<u32>,
    /// Whether the rate limit's answers carry the `X-RateLimit-*` and `Retry-After` headers.
    pub rate_limit_headers: bool,
    /// The rate limit's window: a minute, or shorter in tests (so minutes take seconds).
    pub rate_window: Duration,
    /// `Some(N)`: the IP-list route alone limited to N a window (a per-route throttle,
    /// for tests; off by default: the spec shows none).
    pub ip_list_rate_limit: Option<u32>,
    /// Start the loopback proxies of [`proxies::demo_fixtures`] and a judge, and point
    /// the IP lists at them instead of documentation addresses.
    pub proxies: bool,
    /// With `proxies`: these fixtures instead of [`proxies::demo_fixtures`] (the probe's
    /// dashboard bench serves a list of 1,000).
    pub proxy_fixtures: Option<Vec<proxies::Fixture>>,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        Self {
            listen: SocketAddr::from((Ipv4Addr::LOCALHOST, DEFAULT_PORT)),
            token: DEMO_TOKEN.into(),
            login: Some((DEMO_LOGIN.0.into(), DEMO_LOGIN.1.into())),
            latency: Duration::ZERO,
            scale: None,
            throttle: Duration::from_secs(5 * 60),
            faults: None,
            seed: None,
            quirks: false,
            rate_limit: None,
            rate_limit_headers: true,
            rate_window: ratelimit::WINDOW,
            ip_list_rate_limit: None,
            proxies: false,
            proxy_fixtures: None,
        }
    }
}

/// Redacts the token and the password: a configured token may be a real one.
impl std::fmt::Debug for SandboxConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SandboxConfig")
            .field("listen", &self.listen)
            .field("token", &"[redacted]")
            .field(
                "login",
                &self.login.as_ref().map(|(login, _)| (login, "[redacted]")),
            )
            .field("latency", &self.latency)
            .field("scale", &self.scale)
            .field("throttle", &self.throttle)
            .field("faults", &self.faults)
            .field("seed", &self.seed)
            .field("quirks", &self.quirks)
            .field("rate_limit", &self.rate_limit)
            .field("rate_limit_headers", &self.rate_limit_headers)
            .field("ip_list_rate_limit", &self.ip_list_rate_limit)
            .field("proxies", &self.proxies)
            .field(
                "proxy_fixtures",
                &self.proxy_fixtures.as_ref().map(Vec::len),
            )
            .finish()
    }
}

impl SandboxConfig {
    /// The default configuration on a free loopback port: what tests want.
    pub fn ephemeral() -> Self {
        Self {
            listen: SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
            ..Self::default()
        }
    }
}

/// One request as the sandbox received it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedRequest {
    pub method: String,
    /// The path, with `?query` if one was sent.
    pub path: String,
    /// The body as text (lossy UTF-8).
    pub body: String,
    pub authorization: Option<String>,
    pub content_type: Option<String>,
    pub accept: Option<String>,
    /// The status sent; 0 when no answer was sent (a dropped or hanging connection) or
    /// the answer is not finished yet.
    pub status: u16,
}

/// What the server holds now (read access for tests).
#[derive(Clone, Debug, PartialEq)]
pub struct SandboxState {
    /// USD.
    pub credit: f64,
    pub clients: usize,
    pub products: usize,
    pub services: usize,
    pub orders: usize,
    pub invoices: usize,
}

/// `proxydash sandbox`: starts the server, prints where it is and how to log in, and
/// serves until Ctrl-C.
pub async fn run_cli(config: SandboxConfig) -> std::io::Result<()> {
    let summary = describe(&config);
    let handle = Sandbox::start(config).await?;
    // Written with errors ignored: a closed stdout (`| head`) must not stop the server.
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "proxydash sandbox listening on {}", handle.base_url());
    let _ = writeln!(out, "base URL: {}", handle.base_url());
    let _ = writeln!(out, "token:    {}", handle.token());
    if let Some(judge) = handle.judge_url() {
        let _ = writeln!(out, "judge:    {judge}   (probe_url for `proxydash probe`)");
    }
    let _ = writeln!(out, "{summary}");
    let _ = writeln!(out, "Press Ctrl-C to stop.");
    let _ = out.flush();
    drop(out);
    // Registered before it is taken over from the handler that ends the program
    // (`crate::signals`), so no Ctrl-C falls between the two.
    let mut interrupt = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())?;
    crate::signals::take_over(&[libc::SIGINT], true);
    interrupt.recv().await;
    handle.shutdown().await;
    Ok(())
}

fn describe(config: &SandboxConfig) -> String {
    let mut lines = Vec::new();
    if let Some((login, password)) = &config.login {
        lines.push(format!("login:    {login} / {password}"));
    }
    if let Some(n) = config.scale {
        lines.push(format!("scale:    {n} generated services"));
    }
    if !config.latency.is_zero() {
        lines.push(format!("latency:  {} ms", config.latency.as_millis()));
    }
    lines.push(format!(
        "throttle: {} s per update_list",
        config.throttle.as_secs()
    ));
    if let Some(f) = &config.faults {
        lines.push(format!("faults:   {f}"));
    }
    if let Some(n) = config.rate_limit {
        let headers = if config.rate_limit_headers {
            "with"
        } else {
            "without"
        };
        lines.push(format!(
            "limit:    {n} requests a minute, {headers} X-RateLimit headers"
        ));
    }
    if config.proxies {
        lines.push(format!(
            "proxies:  {} loopback proxies (HTTP and SOCKS5) behind the IP lists",
            config
                .proxy_fixtures
                .as_ref()
                .map_or(proxies::demo_fixtures().len(), Vec::len)
        ));
        lines.push(
            "gateways: 2 behind the ppr lists: one rotating among 127.0.0.2-6, one sticky".into(),
        );
    }
    if let Some(seed) = &config.seed {
        lines.push(format!("seed:     {}", seed.display()));
    }
    if config.quirks {
        lines.push(
            "quirks:   on (numbers as strings, 0000-00-00, null, a bracketless json IP list)"
                .into(),
        );
    }
    lines.join("\n")
}
