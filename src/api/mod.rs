//! The HTTP client of the reseller API (`../shared/spec/reseller-api.md`): one async method
//! per endpoint, typed values in and out. It knows the API and nothing of the UI.
//!
//! Choices where the spec says "not shown", written down here:
//! - Credentials: a generated API token is sent verbatim after `Basic ` (it is already the
//!   credentials string); a login and password are joined with a separator (`:` as the spec
//!   says, configurable) and base64-encoded.
//! - IDs are sent as decimal path segments, percent-encoded like every segment.
//! - GETs are retried (at most [`ClientConfig::retries`] times) on connection failures
//!   (refused, reset, closed mid-answer), 5xx and a 429 that is not the `update_list`
//!   throttle, with exponential backoff and jitter. A `Retry-After` (in seconds) replaces
//!   the backoff; one longer than [`RETRY_AFTER_CAP`] is not waited for at all: the error
//!   is returned at once and the next refresh tries again. POST (an order costs money) and
//!   PUT are sent exactly once, whatever happens.
//! - A timeout is not retried: the user has already waited the whole request timeout, and
//!   a server that did not answer in that time is unlikely to answer the next attempt, so
//!   against a server that never answers the error shows after one timeout, not three.
//! - Answers are read up to [`MAX_BODY`] (64 MiB, three times a list of 100,000 invoices);
//!   a longer one is a decode error, so a broken server cannot make the dashboard run out
//!   of memory. An error page that long is cut there.
//! - A 200 to a PUT that confirms none of the requested operations is a decode error (the
//!   outcome is unknown; the caller re-reads the service) rather than a silent success.
//! - A 429 whose message names `Next update possible: YYYY-MM-DD HH:MM:SS` becomes
//!   [`ApiError::Throttled`] with that wall-clock time; the zone is the caller's choice.
//! - Redirects are followed only to the same scheme, host and port, so the Authorization
//!   header never reaches another host.
//! - Plain `http://` is refused unless the host is loopback or the caller allows it.

pub mod error;
pub mod iplist;
pub mod ipv4;
pub mod lenient;
pub mod model;
pub mod request;

pub use error::{ApiError, Unprocessable};
pub use iplist::{IpEntry, IpList};
pub use model::*;
pub use request::{Request, Response};

use crate::secret::Secret;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderValue, RETRY_AFTER};
use reqwest::{Method, StatusCode, Url};
use serde::de::DeserializeOwned;
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// The largest answer the client reads. A list of 100,000 invoices is about 19 MB; a
/// longer answer is reported as an error instead of being held in memory.
pub const MAX_BODY: usize = 64 << 20;

/// The longest `Retry-After` a GET waits for; a longer one is not waited for (no retry).
pub const RETRY_AFTER_CAP: Duration = Duration::from_secs(10);

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

    /// The value of the `Authorization` header.
    fn header_value(&self) -> Result<HeaderValue, ApiError> {
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
}

impl ApiClient {
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
            .pool_idle_timeout(Duration::from_secs(90))
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
        })
    }

    /// The base URL requests go to.
    pub fn base_url(&self) -> &Url {
        &self.base
    }

    /// 1: the reseller's clients.
    pub async fn clients(&self) -> Result<Vec<Client>, ApiError> {
        self.get_list(&Request::Clients).await
    }

    /// 2: daily statistics of a ppr service.
    pub async fn stats(&self, service_id: u64) -> Result<Vec<StatEntry>, ApiError> {
        self.get_list(&Request::Stats(service_id)).await
    }

    /// 3: rate against limit of a ppr service.
    pub async fn rate(&self, service_id: u64) -> Result<Vec<RateEntry>, ApiError> {
        self.get_list(&Request::Rate(service_id)).await
    }

    /// 4: one product.
    pub async fn product(&self, product_id: u64) -> Result<Product, ApiError> {
        self.get_json(&Request::Product(product_id)).await
    }

    /// 5: orders a service. Sent exactly once; on a timeout or a lost connection the
    /// outcome is unknown ([`ApiError::outcome_unknown`]) and the caller must re-read the
    /// services rather than order again.
    pub async fn order(
        &self,
        product_id: u64,
        body: &OrderRequest,
    ) -> Result<OrderResult, ApiError> {
        let request = Request::Order {
            product_id,
            body: body.clone(),
        };
        let bytes = self
            .send(&request, Some(serde_json::to_vec(body).unwrap_or_default()))
            .await?;
        decode(&request, &bytes)
    }

    /// 6: every product.
    pub async fn products(&self) -> Result<Vec<ProductSummary>, ApiError> {
        self.get_list(&Request::Products).await
    }

    /// 7: every product, ordered by `field` (the direction is the server's).
    pub async fn products_ordered_by(
        &self,
        field: &SortField,
    ) -> Result<Vec<ProductSummary>, ApiError> {
        self.get_list(&Request::ProductsOrderedBy(field.clone()))
            .await
    }

    /// 8: proxy servers of a service in an error state.
    pub async fn network_errors(&self, service_id: u64) -> Result<Vec<String>, ApiError> {
        let request = Request::NetworkErrors(service_id);
        let bytes = self.send(&request, None).await?;
        decode_addresses(&request, &bytes)
    }

    /// 9: inactive proxy servers of a service.
    pub async fn network_inactive(&self, service_id: u64) -> Result<Vec<String>, ApiError> {
        let request = Request::NetworkInactive(service_id);
        let bytes = self.send(&request, None).await?;
        decode_addresses(&request, &bytes)
    }

    /// 10: the account credit.
    pub async fn credit(&self) -> Result<Credit, ApiError> {
        self.get_json(&Request::Credit).await
    }

    /// 11: every invoice.
    pub async fn invoices(&self) -> Result<Vec<Invoice>, ApiError> {
        self.get_list(&Request::Invoices).await
    }

    /// 12: one invoice (the spec answers it as an array).
    pub async fn invoice(&self, invoice_id: u64) -> Result<Vec<Invoice>, ApiError> {
        self.get_list(&Request::Invoice(invoice_id)).await
    }

    /// 13: one service with its credentials.
    pub async fn service(&self, service_id: u64) -> Result<Service, ApiError> {
        self.get_json(&Request::Service(service_id)).await
    }

    /// 14: every service.
    pub async fn services(&self) -> Result<Vec<ServiceSummary>, ApiError> {
        self.get_list(&Request::Services).await
    }

    /// 15: binds an IP, refreshes the IP list and/or changes the password. Sent exactly once.
    pub async fn update_service(
        &self,
        service_id: u64,
        update: &ServiceUpdate,
    ) -> Result<UpdateResult, ApiError> {
        let mut body = serde_json::Map::new();
        if let Some(ip) = &update.setip {
            body.insert("setip".into(), ip.clone().into());
        }
        if update.update_list {
            body.insert("update_list".into(), "true".into());
        }
        if let Some(pw) = &update.password {
            body.insert("password".into(), BASE64.encode(pw.expose()).into());
        }
        let request = Request::UpdateService {
            service_id,
            update: Box::new(update.clone()),
        };
        let bytes = self
            .send(
                &request,
                Some(serde_json::to_vec(&body).unwrap_or_default()),
            )
            .await?;
        decode_update(&request, update, &bytes)
    }

    /// 16: an IP list, as served and parsed.
    pub async fn ip_list(
        &self,
        service_id: u64,
        list_type: &IpListType,
        format: &IpListFormat,
    ) -> Result<IpList, ApiError> {
        let request = Request::IpList {
            service_id,
            list_type: list_type.clone(),
            format: format.clone(),
        };
        let bytes = self.send(&request, None).await?;
        // The body's own buffer becomes the list's text: a list can be megabytes.
        Ok(parse_ip_list(list_type, format, Vec::from(bytes)))
    }

    async fn get_json<T: DeserializeOwned>(&self, request: &Request) -> Result<T, ApiError> {
        let bytes = self.send(request, None).await?;
        decode(request, &bytes)
    }

    async fn get_list<T: DeserializeOwned>(&self, request: &Request) -> Result<Vec<T>, ApiError> {
        let bytes = self.send(request, None).await?;
        decode_list(request, &bytes)
    }

    fn url(&self, request: &Request) -> Url {
        let mut url = self.base.clone();
        if let Ok(mut segments) = url.path_segments_mut() {
            segments.pop_if_empty().extend(request.segments());
        }
        url
    }

    /// Sends `request` and returns the body of a 2xx answer; GETs are retried as the module
    /// docs say, writes never.
    async fn send(
        &self,
        request: &Request,
        body: Option<Vec<u8>>,
    ) -> Result<bytes::Bytes, ApiError> {
        let method = match request.method() {
            "POST" => Method::POST,
            "PUT" => Method::PUT,
            _ => Method::GET,
        };
        let url = self.url(request);
        let attempts = if request.is_write() {
            1
        } else {
            self.retries + 1
        };
        let mut attempt = 0;
        loop {
            attempt += 1;
            let started = Instant::now();
            let mut builder = self.http.request(method.clone(), url.clone());
            if let Some(body) = &body {
                builder = builder.body(body.clone());
            }
            let result = self.exchange(builder, request, &url).await;
            log_exchange(request, attempt, started.elapsed(), &result);
            match result {
                Err(e) if attempt < attempts && retryable(&e) => {
                    match self.backoff_for(attempt, &e) {
                        Some(wait) => tokio::time::sleep(wait).await,
                        None => return Err(e),
                    }
                }
                other => return other,
            }
        }
    }

    /// How long to wait before the next attempt; `None`: do not retry (the server asked
    /// for a longer pause than [`RETRY_AFTER_CAP`]).
    fn backoff_for(&self, attempt: u32, error: &ApiError) -> Option<Duration> {
        if let ApiError::Http {
            retry_after: Some(secs),
            ..
        } = error
        {
            let asked = Duration::from_secs(*secs);
            return (asked <= RETRY_AFTER_CAP).then_some(asked);
        }
        let base = self.backoff.saturating_mul(1 << (attempt - 1).min(6));
        let jitter = base.mul_f64(fastrand::f64() * 0.5);
        Some((base + jitter).min(RETRY_AFTER_CAP))
    }

    async fn exchange(
        &self,
        builder: reqwest::RequestBuilder,
        request: &Request,
        url: &Url,
    ) -> Result<bytes::Bytes, ApiError> {
        let mut response = builder
            .send()
            .await
            .map_err(|e| self.transport_error(e, url))?;
        let status = response.status();
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok());
        // A redirect still here was refused by the redirect policy (another origin).
        let location = status
            .is_redirection()
            .then(|| response.headers().get(reqwest::header::LOCATION))
            .flatten()
            .and_then(|v| v.to_str().ok())
            .map(|to| {
                url.join(to)
                    .map(|to| display_url(&to))
                    .unwrap_or_else(|_| error::excerpt(to, 120))
            });
        // Read at most MAX_BODY: an endless or enormous answer is an error, not a process
        // that runs out of memory.
        let announced_too_large = response
            .content_length()
            .is_some_and(|n| n > MAX_BODY as u64);
        // Sized once when the length is announced, so a large list is not copied while
        // the buffer doubles.
        let mut body = bytes::BytesMut::with_capacity(
            response
                .content_length()
                .map_or(0, |n| n.min(MAX_BODY as u64) as usize),
        );
        let mut too_large = announced_too_large && status.is_success();
        while !too_large {
            match response.chunk().await {
                Ok(Some(chunk)) if body.len() + chunk.len() > MAX_BODY => too_large = true,
                Ok(Some(chunk)) => body.extend_from_slice(&chunk),
                Ok(None) => break,
                Err(e) => return Err(self.transport_error(e, url)),
            }
        }
        let bytes = body.freeze();
        if status.is_success() {
            if too_large {
                return Err(ApiError::Decode {
                    endpoint: endpoint_name(request),
                    detail: format!("the answer is larger than {} MiB", MAX_BODY >> 20),
                });
            }
            return Ok(bytes);
        }
        Err(
            match (status_error(status, &bytes, retry_after), location) {
                (
                    ApiError::Http {
                        status,
                        retry_after,
                        ..
                    },
                    Some(to),
                ) => ApiError::Http {
                    status,
                    excerpt: format!(
                        "redirected to {to}, not followed: the token goes to {} only",
                        display_origin(url)
                    ),
                    retry_after,
                },
                (e, _) => e,
            },
        )
    }

    fn transport_error(&self, e: reqwest::Error, url: &Url) -> ApiError {
        let shown = display_url(url);
        if e.is_timeout() {
            ApiError::Timeout {
                url: shown,
                secs: self.request_timeout.as_secs().max(1),
            }
        } else if e.is_connect() {
            ApiError::Connect {
                url: shown,
                cause: root_cause(&e),
            }
        } else {
            ApiError::Transport {
                url: shown,
                cause: root_cause(&e),
            }
        }
    }
}

/// Whether a failed GET is worth another attempt (see the module docs).
fn retryable(e: &ApiError) -> bool {
    e.is_transient() && !matches!(e, ApiError::Throttled { .. } | ApiError::Timeout { .. })
}

/// One line per attempt: method, path, status (or what failed) and duration. Never headers
/// or bodies: they carry the token and passwords.
fn log_exchange(
    request: &Request,
    attempt: u32,
    took: Duration,
    result: &Result<bytes::Bytes, ApiError>,
) {
    let ms = took.as_millis() as u64;
    let (method, path) = (request.method(), request.path());
    match result {
        Ok(body) => tracing::info!(
            method,
            path,
            status = 200,
            ms,
            bytes = body.len(),
            attempt,
            "request"
        ),
        Err(e) => {
            tracing::warn!(method, path, status = e.status().unwrap_or(0), ms, attempt, error = %e, "request failed")
        }
    }
}

/// An address of endpoints 8 and 9: a string, or a number, or an object naming the address
/// under `ip`/`address`/`host` (the element shape is only "IP addresses" in the spec).
struct Address(String);

impl<'de> serde::Deserialize<'de> for Address {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::String(s) => Ok(Address(s)),
            serde_json::Value::Object(m) => ["ip", "address", "host", "ip_address"]
                .iter()
                .find_map(|k| {
                    m.get(*k)
                        .and_then(|v| v.as_str())
                        .map(|s| Address(s.to_owned()))
                })
                .ok_or_else(|| serde::de::Error::custom("an object without an address")),
            other => Err(serde::de::Error::custom(format!(
                "expected an IP address, got {other}"
            ))),
        }
    }
}

/// What the client makes of a 2xx body for `request`: exactly the decoding its typed
/// methods use, as one pure function, so tests can feed it any bytes without a server.
pub fn decode_body(request: &Request, bytes: &[u8]) -> Result<Response, ApiError> {
    Ok(match request {
        Request::Clients => Response::Clients(decode_list(request, bytes)?),
        Request::Stats(_) => Response::Stats(decode_list(request, bytes)?),
        Request::Rate(_) => Response::Rate(decode_list(request, bytes)?),
        Request::Product(_) => Response::Product(decode(request, bytes)?),
        Request::Order { .. } => Response::Order(decode(request, bytes)?),
        Request::Products | Request::ProductsOrderedBy(_) => {
            Response::Products(decode_list(request, bytes)?)
        }
        Request::NetworkErrors(_) => Response::NetworkErrors(decode_addresses(request, bytes)?),
        Request::NetworkInactive(_) => Response::NetworkInactive(decode_addresses(request, bytes)?),
        Request::Credit => Response::Credit(decode(request, bytes)?),
        Request::Invoices => Response::Invoices(decode_list(request, bytes)?),
        Request::Invoice(_) => Response::Invoice(decode_list(request, bytes)?),
        Request::Service(_) => Response::Service(decode(request, bytes)?),
        Request::Services => Response::Services(decode_list(request, bytes)?),
        Request::UpdateService { update, .. } => {
            Response::Update(decode_update(request, update, bytes)?)
        }
        Request::IpList {
            list_type, format, ..
        } => Response::IpList(parse_ip_list(list_type, format, bytes.to_vec())),
    })
}

fn decode<T: DeserializeOwned>(request: &Request, bytes: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|e| decode_error(request, bytes, e))
}

/// A list, leniently (see [`lenient::vec`]), and nothing after it.
fn decode_list<T: DeserializeOwned>(request: &Request, bytes: &[u8]) -> Result<Vec<T>, ApiError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    lenient::vec(&mut de)
        .and_then(|v| de.end().map(|_| v))
        .map_err(|e| decode_error(request, bytes, e))
}

fn decode_addresses(request: &Request, bytes: &[u8]) -> Result<Vec<String>, ApiError> {
    Ok(decode_list::<Address>(request, bytes)?
        .into_iter()
        .map(|a| a.0)
        .collect())
}

/// The answer to a PUT; one that confirms none of the requested operations is a decode
/// error, since the caller cannot tell what was done.
fn decode_update(
    request: &Request,
    update: &ServiceUpdate,
    bytes: &[u8],
) -> Result<UpdateResult, ApiError> {
    let result: UpdateResult = decode(request, bytes)?;
    let asked = update.setip.is_some() || update.update_list || update.password.is_some();
    if asked && result.messages().is_empty() {
        return Err(ApiError::Decode {
            endpoint: endpoint_name(request),
            detail: format!(
                "the answer confirms none of the requested changes: {}",
                error::excerpt(&String::from_utf8_lossy(bytes), 80)
            ),
        });
    }
    Ok(result)
}

fn parse_ip_list(list_type: &IpListType, format: &IpListFormat, bytes: Vec<u8>) -> IpList {
    let raw = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    IpList::parse(list_type.clone(), format.clone(), raw)
}

fn decode_error(request: &Request, bytes: &[u8], e: serde_json::Error) -> ApiError {
    let detail = if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        "empty body".to_owned()
    } else if e.is_eof() {
        "the body ends early (truncated)".to_owned()
    } else if e.is_syntax() {
        format!(
            "not JSON: {}",
            error::excerpt(&String::from_utf8_lossy(bytes), 80)
        )
    } else {
        e.to_string()
    };
    ApiError::Decode {
        endpoint: endpoint_name(request),
        detail,
    }
}

/// The endpoint's path pattern as the spec writes it, for decode errors.
fn endpoint_name(request: &Request) -> &'static str {
    match request {
        Request::Clients => "/api/clients",
        Request::Stats(_) => "/api/stats/{id}",
        Request::Rate(_) => "/api/rate/{id}",
        Request::Product(_) | Request::Order { .. } => "/api/product/{pid}",
        Request::Products => "/api/products",
        Request::ProductsOrderedBy(_) => "/api/products/orderby/{field}",
        Request::NetworkErrors(_) => "/api/networkstatus/errors/{id}",
        Request::NetworkInactive(_) => "/api/networkstatus/inactive/{id}",
        Request::Credit => "/api/billing/credit",
        Request::Invoices => "/api/billing/invoices",
        Request::Invoice(_) => "/api/billing/invoice/{id}",
        Request::Service(_) | Request::UpdateService { .. } => "/api/service/{id}",
        Request::Services => "/api/services",
        Request::IpList { .. } => "/api/iplist/{typel}/{formatl}/{id}",
    }
}

/// Maps a non-2xx answer to its case of spec section 7.
pub fn status_error(status: StatusCode, body: &[u8], retry_after: Option<u64>) -> ApiError {
    let text = String::from_utf8_lossy(body);
    let json_error = serde_json::from_slice::<serde_json::Value>(body)
        .ok()
        .and_then(|v| v.get("error").and_then(|e| e.as_str()).map(str::to_owned));
    match (status.as_u16(), json_error) {
        (401, _) => ApiError::Unauthenticated,
        (400, Some(message)) if message.to_ascii_lowercase().contains("clientid not found") => {
            ApiError::ClientIdNotFound { message }
        }
        (400, None) if text.trim() == "Invalid Authorization header" => {
            ApiError::InvalidAuthorizationHeader
        }
        (400, None) if text.trim() == "Invalid credentials format" => {
            ApiError::InvalidCredentialsFormat
        }
        (422, Some(message)) => ApiError::Unprocessable {
            kind: Unprocessable::classify(&message),
            message,
        },
        (429, Some(message)) if message.contains("Next update possible") => ApiError::Throttled {
            next_possible: parse_next_possible(&message),
            message,
        },
        (status, json) => ApiError::Http {
            status,
            excerpt: error::excerpt(json.as_deref().unwrap_or(&text), 120),
            retry_after,
        },
    }
}

/// The `YYYY-MM-DD HH:MM:SS` after `Next update possible:` in a 429 message.
pub fn parse_next_possible(message: &str) -> Option<chrono::NaiveDateTime> {
    let after = message.split("possible:").nth(1)?.trim();
    lenient::parse_datetime(after.get(..19).unwrap_or(after))
}

/// The innermost cause of a reqwest error ("connection refused", "connection reset by
/// peer"), which is what a user can act on.
fn root_cause(e: &reqwest::Error) -> String {
    let mut cause: &dyn std::error::Error = e;
    while let Some(next) = cause.source() {
        cause = next;
    }
    let text = cause.to_string();
    // io errors print "Connection refused (os error 111)"; the OS number helps nobody.
    let text = match text.find(" (os error") {
        Some(i) => text[..i].to_owned(),
        None => text,
    };
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => "unknown error".into(),
    }
}

/// The URL without user info or query, safe for messages.
fn display_url(url: &Url) -> String {
    let mut shown = url.clone();
    let _ = shown.set_username("");
    let _ = shown.set_password(None);
    shown.set_query(None);
    shown.to_string()
}

/// `scheme://host:port` of a URL, for messages.
fn display_origin(url: &Url) -> String {
    url.origin().ascii_serialization()
}

/// Checks the base URL: parseable, `https://`, or `http://` to loopback (or allowed).
pub fn check_base_url(raw: &str, allow_insecure_http: bool) -> Result<Url, ApiError> {
    let url = Url::parse(raw.trim())
        .map_err(|e| ApiError::Config(format!("Base URL {raw:?} is not a URL: {e}")))?;
    if !url.username().is_empty() || url.password().is_some() {
        return Err(ApiError::Config(
            "Put credentials in the token or login settings, not in the base URL".into(),
        ));
    }
    match url.scheme() {
        "https" => Ok(url),
        "http" if allow_insecure_http || is_loopback(&url) => Ok(url),
        "http" => Err(ApiError::Config(format!(
            "Refusing plain http:// to {}: the token would travel unencrypted. Use https://, or pass --allow-insecure-http",
            url.host_str().unwrap_or("?")
        ))),
        other => Err(ApiError::Config(format!(
            "Base URL scheme {other}:// is not supported; use https://"
        ))),
    }
}

pub fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(d)) => {
            d.eq_ignore_ascii_case("localhost")
                || d.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
        }
        None => false,
    }
}

fn same_origin_redirects() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let first = attempt.previous().first().cloned();
        let same_origin = first.is_some_and(|f| {
            f.scheme() == attempt.url().scheme()
                && f.host_str() == attempt.url().host_str()
                && f.port_or_known_default() == attempt.url().port_or_known_default()
        });
        if attempt.previous().len() > 5 {
            attempt.error("too many redirects")
        } else if same_origin {
            attempt.follow()
        } else {
            attempt.stop()
        }
    })
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
