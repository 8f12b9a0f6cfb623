//! The base URL rule: `https://`, or `http://` to a loopback host, or plain HTTP the user
//! explicitly allowed.

use super::ApiError;
use reqwest::Url;
use std::net::IpAddr;

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
