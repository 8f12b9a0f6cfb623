//! Starting and stopping the server, and the state every request shares.

use super::auth::AuthConfig;
use super::conn::{Conn, KillableListener};
use super::faults::FaultSpec;
use super::proxies::{self, BoundFarm, Credentials};
use super::records::{cents, dollars};
use super::shared::{Shared, lock};
use super::state::Store;
use super::{RecordedRequest, SandboxConfig, SandboxState, routes, scale, seed};
use chrono::{TimeDelta, Utc};
use std::io;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// How long `shutdown` waits for open connections to finish before cutting them off.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

pub struct Sandbox;

impl Sandbox {
    /// Loads the seed (or the given seed file), applies `scale`, binds `listen` and serves
    /// until the handle is shut down or dropped.
    pub async fn start(config: SandboxConfig) -> io::Result<SandboxHandle> {
        let started = (Utc::now(), tokio::time::Instant::now());
        let today = started.0.date_naive();
        let text = match &config.seed {
            Some(path) => tokio::fs::read_to_string(path).await.map_err(|e| {
                io::Error::new(e.kind(), format!("seed file {}: {e}", path.display()))
            })?,
            None => seed::BUILT_IN.to_owned(),
        };
        let invalid = |e: String| io::Error::new(io::ErrorKind::InvalidData, e);
        let mut data = seed::parse(&text, today).map_err(invalid)?;
        if let Some(n) = config.scale {
            scale::replace_services(&mut data, n, today);
        }
        data.set_quirks(config.quirks);
        let mut store = Store::new(data).map_err(invalid)?;
        store.quirks = config.quirks;

        let bound = match config.proxies {
            true => {
                let fixtures = config
                    .proxy_fixtures
                    .clone()
                    .unwrap_or_else(proxies::demo_fixtures);
                Some(BoundFarm::bind(&fixtures).await?)
            }
            false => None,
        };
        // The address is named: "Address already in use" alone does not say which.
        let listener = TcpListener::bind(config.listen).await.map_err(|e| {
            io::Error::new(e.kind(), format!("cannot listen on {}: {e}", config.listen))
        })?;
        let addr = listener.local_addr()?;
        let (stop_tx, stop_rx) = watch::channel(false);
        let shared = Arc::new(Shared {
            store: Mutex::new(store),
            auth: Arc::new(AuthConfig {
                token: config.token,
                login: config.login,
            }),
            throttle: TimeDelta::from_std(config.throttle).unwrap_or(TimeDelta::MAX),
            rate_limit: Arc::new(
                super::ratelimit::Limiter::new(
                    config.rate_limit,
                    config.rate_limit_headers,
                    config.rate_window,
                )
                .with_ip_list(config.ip_list_rate_limit),
            ),
            latency: Mutex::new(config.latency),
            faults: Mutex::new(config.faults.map(armed)),
            log: Mutex::new(Vec::new()),
            started,
            stop: stop_rx.clone(),
            farm: std::sync::OnceLock::new(),
            public_ip: Arc::default(),
        });
        if let Some(bound) = bound {
            // The proxies accept the credentials of any service, read when a client
            // logs in, so a password changed through the API applies at once.
            let weak = Arc::downgrade(&shared);
            let check: Credentials = Arc::new(move |login: &str, password: &str| {
                weak.upgrade().is_some_and(|s| {
                    s.store()
                        .services
                        .iter()
                        .any(|r| r.username == login && r.password == password)
                })
            });
            let _ = shared.farm.set(bound.serve(check, stop_rx.clone()));
        }
        let app = routes::router(shared.clone()).into_make_service_with_connect_info::<Conn>();
        let mut stop = stop_rx;
        let task = tokio::spawn(async move {
            let signal = async move {
                let _ = stop.wait_for(|stopping| *stopping).await;
            };
            // Errors here are per-connection and already handled by axum; the server
            // future itself only ends on the signal.
            let _ = axum::serve(KillableListener::new(listener), app)
                .with_graceful_shutdown(signal)
                .await;
        });
        Ok(SandboxHandle {
            addr,
            shared,
            stop: stop_tx,
            task: Some(task),
        })
    }
}

fn armed(spec: FaultSpec) -> (FaultSpec, fastrand::Rng) {
    let rng = spec
        .seed
        .map_or_else(fastrand::Rng::new, fastrand::Rng::with_seed);
    (spec, rng)
}

/// The running sandbox. Dropping it, or [`SandboxHandle::shutdown`], stops the server.
pub struct SandboxHandle {
    addr: SocketAddr,
    shared: Arc<Shared>,
    stop: watch::Sender<bool>,
    task: Option<JoinHandle<()>>,
}

impl SandboxHandle {
    /// `http://127.0.0.1:PORT`, without a trailing slash.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The loopback proxies of `--proxies` (none without), to watch or to switch off.
    pub fn proxy_farm(&self) -> Option<super::proxies::ProxyFarm> {
        self.shared.farm.get().cloned()
    }

    /// `--proxies`: the judge that echoes headers and the address a request came from.
    pub fn judge_url(&self) -> Option<String> {
        self.shared.farm.get().map(|f| f.judge_url.clone())
    }

    /// Its stand-in for the public "what is my IP" services (`GET /myip`, see
    /// [`super::myip`]).
    pub fn my_ip_url(&self) -> String {
        format!("{}/myip", self.base_url())
    }

    /// The accepted API token (send it as `Authorization: Basic <token>`).
    pub fn token(&self) -> &str {
        &self.shared.auth.token
    }

    /// Every request received so far, in arrival order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        lock(&self.shared.log).clone()
    }

    /// Forgets the requests received so far.
    pub fn clear_requests(&self) {
        lock(&self.shared.log).clear();
    }

    /// Replaces the faults (and restarts their random draw from the spec's seed).
    pub fn set_faults(&self, faults: Option<FaultSpec>) {
        *lock(&self.shared.faults) = faults.map(armed);
    }

    /// What `GET /myip` answers from now on.
    pub fn set_public_ip(&self, ip: std::net::Ipv4Addr) {
        self.shared.public_ip.set(ip);
    }

    pub fn set_latency(&self, latency: Duration) {
        *lock(&self.shared.latency) = latency;
    }

    /// Counts and credit as the server holds them now.
    pub fn state(&self) -> SandboxState {
        let store = self.shared.store();
        SandboxState {
            credit: dollars(store.credit_cents),
            clients: store.clients.len(),
            products: store.products.len(),
            services: store.services.len(),
            orders: store.orders.len(),
            invoices: store.invoices.len(),
        }
    }

    /// Sets the account credit (USD), e.g. to test running out of funds.
    pub fn set_credit(&self, credit: f64) {
        self.shared.store().credit_cents = cents(credit);
    }

    /// Sets a ppr service's mean daily traffic (MB), from which its statistics and rate
    /// are made: a test's way to make usage climb. False when no such ppr service.
    pub fn set_daily_usage(&self, service_id: u64, daily_mb: f64) -> bool {
        let mut store = self.shared.store();
        match store.services.iter_mut().find(|s| s.id == service_id) {
            Some(s) => {
                s.usage.daily_mb = daily_mb;
                true
            }
            None => false,
        }
    }

    /// Stops accepting, lets open requests finish (up to a few seconds; hanging ones
    /// are cut at once), and waits for the server to end.
    pub async fn shutdown(mut self) {
        let _ = self.stop.send(true);
        if let Some(task) = self.task.take() {
            let abort = task.abort_handle();
            if tokio::time::timeout(SHUTDOWN_GRACE, task).await.is_err() {
                abort.abort();
            }
        }
    }
}

impl Drop for SandboxHandle {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
    }
}
