//! The proxy's side of one check, over the one TCP connection the check opened: the proxy
//! handshake (HTTP `CONNECT` or SOCKS5), then TLS when the target is `https`, leaving a
//! stream the request is written on (choices in the module docs of [`super`]).
//!
//! hyper-util's `Tunnel` and `SocksV5` are connectors: services that are given a
//! destination, ask an inner connector for a connection to the proxy, and run the
//! handshake on it. Their inner connector here is [`Opened`]: it hands back the stream
//! the check already connected, once, so the handshake runs on that connection instead
//! of a new one.

use super::{DeadReason, ProxyTarget, Scheme, Verdict};
use http::{HeaderValue, Uri};
use hyper_util::client::legacy::connect::proxy::{SocksV5, Tunnel};
use hyper_util::rt::TokioIo;
use std::net::SocketAddr;
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;
use tower_service::Service;

/// The target of every check, read once for the run.
#[derive(Clone, Debug)]
pub struct Target {
    pub url: reqwest::Url,
    /// The target's address as resolved here, once: a SOCKS5 proxy is asked for it (as
    /// a `socks5://` proxy of reqwest or curl is), so in loopback mode the proxies are
    /// asked for exactly the address that was checked to be loopback.
    pub addr: Option<SocketAddr>,
}

impl Target {
    pub fn is_https(&self) -> bool {
        self.url.scheme() == "https"
    }

    /// `host:port` as the `Host` header and a `CONNECT` name it.
    pub fn authority(&self) -> String {
        let host = self.url.host_str().unwrap_or_default();
        match self.url.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_owned(),
        }
    }
}

/// A stream the request can be written on, and how to write it.
pub enum Ready {
    /// To an HTTP proxy, for an `http` target: the request goes to the proxy in absolute
    /// form, with `Proxy-Authorization`.
    ToProxy(TokioIo<TcpStream>),
    /// Through a tunnel (`CONNECT` or SOCKS5) to an `http` target.
    Plain(TokioIo<TcpStream>),
    /// Through a tunnel and TLS to an `https` target (boxed: a TLS stream is ~1 KB).
    Tls(TokioIo<Box<TlsStream<TcpStream>>>),
}

/// Runs the proxy's handshake on `stream` (the connection to `proxy` at `addr`) for
/// `target`; `tls` is the run's TLS configuration.
pub async fn through(
    stream: TcpStream,
    proxy: &ProxyTarget,
    addr: SocketAddr,
    target: &Target,
    tls: Option<&Arc<rustls::ClientConfig>>,
) -> Result<Ready, Verdict> {
    let bad = |why: String| Verdict::Dead(DeadReason::BadAnswer, why);
    let proxy_uri: Uri = format!("{}://{addr}", proxy.scheme.as_str())
        .parse()
        .map_err(|e: http::uri::InvalidUri| bad(e.to_string()))?;
    let io = TokioIo::new(stream);
    let tunnelled = match proxy.scheme {
        Scheme::Http if !target.is_https() => return Ok(Ready::ToProxy(io)),
        Scheme::Http => {
            let dst = Uri::builder()
                .scheme("https")
                .authority(target.authority())
                .path_and_query("/")
                .build()
                .map_err(|e| bad(e.to_string()))?;
            let mut tunnel = Tunnel::new(proxy_uri, Opened(Some(io)));
            if let Some(auth) = basic_auth(proxy) {
                tunnel = tunnel.with_auth(auth);
            }
            tunnel.call(dst).await.map_err(|e| refusal(&e))?
        }
        Scheme::Socks5 => {
            let Some(dst) = target.addr else {
                return Err(bad("the target's host name does not resolve here".into()));
            };
            let dst: Uri = format!("{}://{dst}", target.url.scheme())
                .parse()
                .map_err(|e: http::uri::InvalidUri| bad(e.to_string()))?;
            let mut socks = SocksV5::new(proxy_uri, Opened(Some(io)));
            if let Some(login) = &proxy.login {
                let password = proxy.password.clone().unwrap_or_default();
                socks = socks.with_auth(login.clone(), password);
            }
            socks.call(dst).await.map_err(|e| refusal(&e))?
        }
    };
    if !target.is_https() {
        return Ok(Ready::Plain(tunnelled));
    }
    let Some(tls) = tls else {
        return Err(bad("no TLS configuration on this machine".into()));
    };
    let host = target.url.host_str().unwrap_or_default();
    let name = rustls::pki_types::ServerName::try_from(host.trim_matches(['[', ']']).to_owned())
        .map_err(|e| bad(e.to_string()))?;
    let connector = tokio_rustls::TlsConnector::from(tls.clone());
    let stream = connector
        .connect(name, tunnelled.into_inner())
        .await
        .map_err(|e| match Verdict::of_error(&e) {
            Verdict::Dead(reason, why) => {
                Verdict::Dead(reason, format!("TLS to the target: {why}"))
            }
            other => other,
        })?;
    Ok(Ready::Tls(TokioIo::new(Box::new(stream))))
}

/// `Basic base64(login:password)`, when the proxy has a login: the API client's own
/// `Authorization` value for a login.
pub fn basic_auth(proxy: &ProxyTarget) -> Option<HeaderValue> {
    let login = proxy.login.as_deref()?;
    let password = proxy.password.as_deref().unwrap_or("");
    crate::api::Credentials::login(login, password)
        .header_value()
        .ok()
}

/// A failed handshake as a verdict. hyper-util's error types are not exported, so they
/// are told by their messages (and a SOCKS5 I/O error, which it keeps out of the error's
/// `source`, by its debug form).
fn refusal<E: std::error::Error + std::fmt::Debug + 'static>(e: &E) -> Verdict {
    const AUTH: [&str; 3] = [
        "credentials not accepted",
        "proxy authorization required",
        "does not support user/pass",
    ];
    let verdict = Verdict::of_error(e);
    let Verdict::Dead(DeadReason::BadAnswer, why) = verdict else {
        return verdict;
    };
    let lower = why.to_ascii_lowercase();
    if AUTH.iter().any(|m| lower.contains(m)) {
        return Verdict::Dead(DeadReason::AuthFailed, why);
    }
    let debug = format!("{e:?}");
    if ["ConnectionReset", "ConnectionRefused", "ConnectionAborted"]
        .iter()
        .any(|k| debug.contains(k))
    {
        return Verdict::Dead(DeadReason::Refused, format!("{why} ({debug})"));
    }
    if lower.contains("io error") {
        return Verdict::Dead(DeadReason::BadAnswer, format!("{why} ({debug})"));
    }
    Verdict::Dead(DeadReason::BadAnswer, why)
}

/// The inner connector of `Tunnel` and `SocksV5`: the stream already connected to the
/// proxy, handed over on the first call. A second call (none is made) gets an error,
/// never a new connection.
struct Opened(Option<TokioIo<TcpStream>>);

impl Service<Uri> for Opened {
    type Response = TokioIo<TcpStream>;
    type Error = std::io::Error;
    type Future = std::future::Ready<Result<Self::Response, Self::Error>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, _proxy: Uri) -> Self::Future {
        std::future::ready(
            self.0.take().ok_or_else(|| {
                std::io::Error::other("the connection to the proxy was already used")
            }),
        )
    }
}
