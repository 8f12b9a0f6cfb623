//! This machine's public IP for `--keep-bound`: the lookup URLs tried in order until two
//! agree on one public IPv4 address (one URL alone is taken on its word; each answer is
//! judged by [`crate::net::myip`]: the whole body one public address, 256 bytes at most,
//! 5 s at most).

use std::net::Ipv4Addr;

/// Fallbacks after the profile's `my_ip_url` when the profile names none: public services
/// that answer the caller's address as plain text.
pub const DEFAULT_FALLBACKS: [&str; 2] = ["https://icanhazip.com", "https://checkip.amazonaws.com"];

/// The URLs to try: those given on the command line, else the profile's `my_ip_url` then
/// its `my_ip_fallbacks` (or [`DEFAULT_FALLBACKS`]). Empty entries are dropped; an empty
/// list turns the lookup off.
pub fn urls(given: &[String], my_ip_url: &str, fallbacks: &[String]) -> Vec<String> {
    let chosen: Vec<String> = if !given.is_empty() {
        given.to_vec()
    } else if fallbacks.is_empty() && my_ip_url == crate::net::myip::DEFAULT_MY_IP_URL {
        std::iter::once(my_ip_url.to_owned())
            .chain(DEFAULT_FALLBACKS.iter().map(|s| (*s).to_owned()))
            .collect()
    } else {
        std::iter::once(my_ip_url.to_owned())
            .chain(fallbacks.iter().cloned())
            .collect()
    };
    chosen
        .into_iter()
        .filter(|u| !u.trim().is_empty())
        .collect()
}

/// This machine's address for an unattended rebind: with several URLs, two must agree
/// (see [`crate::net::myip::agreed`]).
pub async fn lookup(urls: &[String], allow_http: bool) -> Result<Ipv4Addr, String> {
    crate::net::myip::agreed(urls, allow_http).await
}
