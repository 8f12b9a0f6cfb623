//! The HTTP client of the reseller API (`../shared/spec/reseller-api.md`): one async method
//! per endpoint, typed values in and out. It knows the API and nothing of the UI.
//!
//! Choices where the spec says "not shown", written down here:
//! - Credentials: a generated API token is sent verbatim after `Basic ` (it is already the
//!   credentials string); a login and password are joined with a separator (`:` as the spec
//!   says, configurable) and base64-encoded.
//! - IDs are sent as decimal path segments, percent-encoded like every segment.
//! - GETs are retried (at most [`ClientConfig::retries`] times) on connection failures
//!   (refused, reset, closed mid-answer) and 5xx, with exponential backoff and jitter. A
//!   429 that is not the `update_list` throttle is [`ApiError::RateLimited`] and is not
//!   retried here: it pauses its route's budget or the account's (the scope the answer
//!   speaks of, see [`crate::scheduler`]), and the scheduler sends the GET again once the
//!   pause is over. A `Retry-After` (seconds or an HTTP
//!   date) replaces the backoff; one longer than [`RETRY_AFTER_CAP`] is not waited for at
//!   all: the error is returned at once and the next refresh tries again. POST (an order
//!   costs money) and PUT are sent exactly once, whatever happens.
//! - A timeout is not retried: the user has already waited the whole request timeout, and
//!   a server that did not answer in that time is unlikely to answer the next attempt, so
//!   against a server that never answers the error shows after one timeout, not three.
//! - Answers are read up to a limit per endpoint (at most [`MAX_BODY`], 64 MiB, three
//!   times a list of 100,000 invoices); a longer one is a decode error, so a broken server
//!   cannot make the dashboard run out of memory. Error answers are read up to 8 KiB and
//!   lists keep a bounded number of entries: see [`limits`] for every figure.
//! - A 200 to a PUT that confirms none of the requested operations is a decode error (the
//!   outcome is unknown; the caller re-reads the service) rather than a silent success.
//! - A 429 whose message names `Next update possible: YYYY-MM-DD HH:MM:SS` becomes
//!   [`ApiError::Throttled`] with that wall-clock time; the zone is the caller's choice.
//! - Redirects are followed only to the same scheme, host and port, so the Authorization
//!   header never reaches another host.
//! - Plain `http://` is refused unless the host is loopback or the caller allows it.
//! - A client made with [`ClientConfig::read_only`] refuses every write (POST, PUT) with
//!   [`ApiError::ReadOnly`] before anything is sent: the one place every write path of the
//!   dashboard and the command line goes through, so no caller can forget it.
//! - Connections are kept for reuse (on a live server each new one costs a TLS handshake),
//!   but bounded: at most [`POOL_MAX_IDLE`] idle ones, each closed after [`POOL_IDLE_TIMEOUT`]
//!   unused (reaped within twice that). So an account holds at most twice the
//!   scheduler's concurrency open (those in use, those waiting), and a quiet one none.

pub mod base_url;
mod decode;
#[macro_use]
mod endpoint_macro;
pub mod error;
pub mod gate;
pub mod iplist;
pub mod ipv4;
pub mod kind;
pub mod lenient;
pub mod limits;
pub mod model;
pub mod request;

pub use base_url::{check_base_url, is_loopback};
pub use decode::{parse_next_possible, parse_retry_after, status_error};
pub use error::{ApiError, Unprocessable};
pub use iplist::{IpEntry, IpList};
pub use kind::Kind;
pub use model::*;
pub use request::{IpListKind, Loaded, Request, Response, Ticket};

mod transport;

use std::sync::Arc;

use transport::same_origin_redirects;

use crate::secret::Secret;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use reqwest::Url;
use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderValue};
use std::time::Duration;

/// The largest answer the client reads. A list of 100,000 invoices is about 19 MB; a
/// longer answer is reported as an error instead of being held in memory.
pub const MAX_BODY: usize = 64 << 20;

/// The longest `Retry-After` a GET waits for; a longer one is not waited for (no retry).
/// The longest pause a server's `Retry-After` or `X-RateLimit-Reset` is believed for (the
/// account's budget, its connection state, the messages): a server asking for more is
/// paused for this long, and the screen and messages say the pause was cut.
pub const PAUSE_CAP: Duration = Duration::from_secs(3600);

pub const RETRY_AFTER_CAP: Duration = Duration::from_secs(10);

/// Idle connections kept per host: as many as the scheduler sends requests at once
/// (`scheduler::bucket::POLITE_CONCURRENCY`, which a test there keeps equal), so a burst
/// finds one for each request, and no more, since more could never all be used at once
/// (reqwest's default keeps every one ever opened until it times out).
pub const POOL_MAX_IDLE: usize = 6;

/// How long an unused connection is kept: longer than a refresh interval (30 s by
/// default), so each refresh reuses the last one's connections instead of paying for new
/// handshakes, and still bounded, so a quiet dashboard lets go of the server. (90 s, as
/// reqwest's default: written here so the sandbox can close idle connections later than
/// its clients do, see `sandbox::conn`.)
pub const POOL_IDLE_TIMEOUT: Duration = Duration::from_secs(90);

/// How the client authenticates (spec section 5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Credentials {
    /// The account area's generated API token, sent verbatim after `Basic `.
    Token(Secret),
    /// Login and password, sent as base64 of `login<separator>password`.
    Login {
        login: String,
        password: Secret,
        separator: String,
    },
}

impl Credentials {
    pub fn login(login: impl Into<String>, password: impl Into<Secret>) -> Self {
        Credentials::Login {
            login: login.into(),
            password: password.into(),
            separator: ":".into(),
        }
    }

    /// The value of the `Authorization` header (and of a proxy's `Proxy-Authorization`:
    /// the probe sends a proxy's login with it), marked sensitive.
    pub(crate) fn header_value(&self) -> Result<HeaderValue, ApiError> {
        let credentials = match self {
            Credentials::Token(t) => t.expose().trim().to_owned(),
            Credentials::Login {
                login,
                password,
                separator,
            } => BASE64.encode(format!("{login}{separator}{}", password.expose())),
        };
        let mut value = HeaderValue::from_str(&format!("Basic {credentials}")).map_err(|_| {
            ApiError::Config("The token holds characters a header cannot carry".into())
        })?;
        value.set_sensitive(true);
        Ok(value)
    }
}

#[derive(Clone, Debug)]
pub struct ClientConfig {
    pub base_url: String,
    pub credentials: Credentials,
    pub connect_timeout: Duration,
    pub request_timeout: Duration,
    /// How many times a failed GET is tried again (so at most `retries + 1` attempts).
    pub retries: u32,
    /// The first backoff; each retry doubles it, plus up to 50% jitter.
    pub backoff: Duration,
    /// Allow `http://` to a host that is not loopback.
    pub allow_insecure_http: bool,
    /// Refuse every write (order, bind, password, IP-list refresh) before sending it.
    pub read_only: bool,
}

impl ClientConfig {
    pub fn new(base_url: impl Into<String>, credentials: Credentials) -> Self {
        Self {
            base_url: base_url.into(),
            credentials,
            connect_timeout: Duration::from_secs(5),
            request_timeout: Duration::from_secs(30),
            retries: 2,
            backoff: Duration::from_millis(250),
            allow_insecure_http: false,
            read_only: false,
        }
    }
}

/// The API client. Cheap to clone: clones share one connection pool.
#[derive(Clone, Debug)]
pub struct ApiClient {
    http: reqwest::Client,
    base: Url,
    retries: u32,
    backoff: Duration,
    request_timeout: Duration,
    read_only: bool,
    /// Who counts every attempt (the account's request budget; see [`gate`]). `None`:
    /// nothing is counted (tests of the client alone).
    gate: Option<Arc<dyn gate::Gate>>,
}

impl ApiClient {
    /// The same client, every attempt of which goes through `gate`.
    pub fn with_gate(mut self, gate: Arc<dyn gate::Gate>) -> Self {
        self.gate = Some(gate);
        self
    }

    pub fn new(config: ClientConfig) -> Result<Self, ApiError> {
        let base = check_base_url(&config.base_url, config.allow_insecure_http)?;
        let mut headers = HeaderMap::new();
        headers.insert(AUTHORIZATION, config.credentials.header_value()?);
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        headers.insert(ACCEPT, HeaderValue::from_static("application/json"));
        let http = reqwest::Client::builder()
            .default_headers(headers)
            .user_agent(concat!("proxydash/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(config.connect_timeout)
            .timeout(config.request_timeout)
            .pool_max_idle_per_host(POOL_MAX_IDLE)
            .pool_idle_timeout(POOL_IDLE_TIMEOUT)
            .tcp_keepalive(Duration::from_secs(60))
            .redirect(same_origin_redirects())
            .build()
            .map_err(|e| ApiError::Config(format!("Cannot set up the HTTP client: {e}")))?;
        Ok(Self {
            http,
            base,
            retries: config.retries,
            backoff: config.backoff,
            request_timeout: config.request_timeout,
            read_only: config.read_only,
            gate: None,
        })
    }

    /// The base URL requests go to.
    pub fn base_url(&self) -> &Url {
        &self.base
    }

    fn url(&self, request: &Request) -> Url {
        let mut url = self.base.clone();
        if let Ok(mut segments) = url.path_segments_mut() {
            segments.pop_if_empty().extend(request.segments());
        }
        url
    }
}

impl Request {
    /// What the decoders need of this request.
    pub(crate) fn asked(&self) -> decode::Asked {
        decode::Asked {
            label: self.label(),
            cap: self.list_cap(),
        }
    }
}

/// What the client makes of a 2xx body for `request` (the table's decoder, see
/// [`Request::decode`]), with the answer apart from its request: for tests and fuzzing.
pub fn decode_body(request: &Request, bytes: &[u8]) -> Result<Response, ApiError> {
    request
        .decode(bytes::Bytes::copy_from_slice(bytes))
        .into_parts()
        .1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_url_rules() {
        assert!(check_base_url("https://api.example.com", false).is_ok());
        assert!(check_base_url("http://127.0.0.1:8787", false).is_ok());
        assert!(check_base_url("http://localhost:1", false).is_ok());
        assert!(check_base_url("http://[::1]:1", false).is_ok());
        let err = check_base_url("http://api.example.com", false).unwrap_err();
        assert!(err.to_string().contains("--allow-insecure-http"), "{err}");
        assert!(check_base_url("http://api.example.com", true).is_ok());
        assert!(check_base_url("ftp://x", true).is_err());
        assert!(check_base_url("not a url", false).is_err());
    }

    #[test]
    fn url_keeps_a_path_prefix_and_encodes_segments() {
        let client = ApiClient::new(ClientConfig::new(
            "https://example.com/reseller/",
            Credentials::Token("t".into()),
        ))
        .unwrap();
        let url = client.url(&Request::Service(5));
        assert_eq!(url.as_str(), "https://example.com/reseller/api/service/5");
        let url = client.url(&Request::ProductsOrderedBy(SortField::Other(
            "a b/c".into(),
        )));
        assert_eq!(
            url.as_str(),
            "https://example.com/reseller/api/products/orderby/a%20b%2Fc"
        );
    }

    #[test]
    fn login_credentials_are_base64_of_login_colon_password() {
        let v = Credentials::login("alice", "pw").header_value().unwrap();
        assert_eq!(
            v.to_str().unwrap(),
            format!("Basic {}", BASE64.encode("alice:pw"))
        );
        assert!(v.is_sensitive());
        let v = Credentials::Token("abc123".into()).header_value().unwrap();
        assert_eq!(v.to_str().unwrap(), "Basic abc123");
    }

    #[test]
    fn next_possible_is_parsed() {
        let t = parse_next_possible(
            "Too Many Attempts (updateList). Next update possible: 2026-11-22 14:05:00",
        )
        .unwrap();
        assert_eq!(t.to_string(), "2026-11-22 14:05:00");
    }
}
