//! This machine's public IP for `--keep-bound`: the lookup URLs tried in order until one
//! answers an IPv4 address (each through [`crate::effects::lookup_my_ip`]: plain text,
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
    } else if fallbacks.is_empty() && my_ip_url == crate::effects::DEFAULT_MY_IP_URL {
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

/// The first IPv4 address one of `urls` answers; every failure, joined, when none does.
pub async fn lookup(urls: &[String]) -> Result<Ipv4Addr, String> {
    if urls.is_empty() {
        return Err("no URL to look up this machine's IP (--my-ip-url, my_ip_url)".into());
    }
    let mut failures = Vec::new();
    for url in urls {
        match crate::effects::lookup_my_ip(url).await {
            Ok(ip) => return Ok(ip),
            Err(e) => failures.push(e),
        }
    }
    Err(failures.join("; "))
}
