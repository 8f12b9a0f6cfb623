//! A "what is my IP" answer: bound to the account's proxies (IP-authorised access), so
//! nothing the lookup service or anyone on its path sends may choose it.
//!
//! Choices:
//! - The whole answer, trimmed of whitespace, must be one strict dotted quad
//!   ([`crate::api::ipv4::parse_ipv4`]) of a public unicast address ([`super::addr`]):
//!   an HTML page, two addresses, `0.0.0.0`, loopback, private, CGNAT, documentation and
//!   the other special ranges are refused, saying which rule and what was answered.
//! - At most [`MAX_ANSWER`] bytes are read (an address and a newline need 16): a longer
//!   answer is refused without reading the rest; redirects are not followed.
//! - `https://`, or `http://` to loopback; plain `http://` elsewhere (anyone on the path
//!   could answer their own address) only when allowed (`--allow-insecure-http`,
//!   `allow_insecure_http = true` in the profile).
//! - With several lookup URLs, [`agreed`] asks them in order until two answer the same
//!   address (keep-bound rebinds unattended on it); a single URL is taken on its own word.

/// Where "this machine's public IP" is looked up by default: a service that answers the
/// caller's address as plain text.
pub const DEFAULT_MY_IP_URL: &str = "https://api.ipify.org";

use crate::api::ipv4::parse_ipv4;
use std::net::Ipv4Addr;
use std::time::Duration;

/// The most bytes of an answer read.
pub const MAX_ANSWER: usize = 256;
/// The longest a lookup may take.
pub const TIMEOUT: Duration = Duration::from_secs(5);

/// The lookup URL, if it may be asked: `https://`, or `http://` to loopback or allowed.
pub fn check_url(raw: &str, allow_http: bool) -> Result<reqwest::Url, String> {
    let url = reqwest::Url::parse(raw.trim()).map_err(|e| format!("not a URL: {e}"))?;
    match url.scheme() {
        "https" => Ok(url),
        "http" if allow_http || crate::api::base_url::is_loopback(&url) => Ok(url),
        "http" => Err(format!(
            "refusing plain http:// to {}: anyone on the path could answer their own address, \
             which would then be bound to the proxies. Use https://, or allow it with \
             --allow-insecure-http (allow_insecure_http = true in the profile)",
            url.host_str().unwrap_or("?")
        )),
        other => Err(format!("{other}:// is not supported; use https://")),
    }
}

/// The address an answer's `body` holds, or exactly why it is refused.
pub fn read_answer(body: &[u8]) -> Result<Ipv4Addr, String> {
    if body.len() > MAX_ANSWER {
        return Err(format!(
            "the answer is longer than {MAX_ANSWER} bytes, not one IPv4 address"
        ));
    }
    let text = std::str::from_utf8(body)
        .map_err(|_| "the answer is not text, not one IPv4 address".to_owned())?
        .trim();
    let shown = crate::api::error::excerpt(text, 40);
    let ip = parse_ipv4(text)
        .map_err(|e| format!("the answer {shown:?} is not one IPv4 address ({e})"))?;
    match super::addr::classify_v4(ip) {
        Some(why) => Err(format!(
            "the answer {ip} is {why}, not this machine's public address"
        )),
        None => Ok(ip),
    }
}

/// Asks `url` for this machine's public address.
pub async fn lookup(url: &str, allow_http: bool) -> Result<Ipv4Addr, String> {
    if url.trim().is_empty() {
        return Err("looking up this machine's IP is turned off (my_ip_url is empty)".into());
    }
    let fail = |cause: String| format!("Cannot look up this machine's IP at {url}: {cause}");
    let checked = check_url(url, allow_http).map_err(fail)?;
    // One question per client, so nothing to reuse: the connection closes with the
    // answer instead of idling until the client is dropped.
    let client = reqwest::Client::builder()
        .timeout(TIMEOUT)
        .pool_max_idle_per_host(0)
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!("proxydash/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| fail(e.to_string()))?;
    let mut response = client
        .get(checked)
        .send()
        .await
        .map_err(|e| fail(e.to_string()))?;
    if !response.status().is_success() {
        return Err(fail(format!("HTTP {}", response.status().as_u16())));
    }
    let too_long = || {
        fail(format!(
            "the answer is longer than {MAX_ANSWER} bytes, not one IPv4 address"
        ))
    };
    if response
        .content_length()
        .is_some_and(|n| n > MAX_ANSWER as u64)
    {
        return Err(too_long());
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| fail(e.to_string()))? {
        if body.len() + chunk.len() > MAX_ANSWER {
            return Err(too_long());
        }
        body.extend_from_slice(&chunk);
    }
    read_answer(&body).map_err(fail)
}

/// This machine's address as `urls` answer it, asked in order: with one URL its answer,
/// with several the first address two of them agree on; every failure and disagreement,
/// joined, when there is none.
pub async fn agreed(urls: &[String], allow_http: bool) -> Result<Ipv4Addr, String> {
    if urls.is_empty() {
        return Err("no URL to look up this machine's IP (--my-ip-url, my_ip_url)".into());
    }
    let mut failures = Vec::new();
    let mut answers: Vec<(Ipv4Addr, &str)> = Vec::new();
    for url in urls {
        match lookup(url, allow_http).await {
            Ok(ip) if urls.len() == 1 || answers.iter().any(|(a, _)| *a == ip) => return Ok(ip),
            Ok(ip) => answers.push((ip, url)),
            Err(e) => failures.push(e),
        }
    }
    let said: Vec<String> = answers
        .iter()
        .map(|(ip, url)| format!("{url} answered {ip}"))
        .collect();
    failures.push(match said.len() {
        0 => "no lookup answered".to_owned(),
        1 => format!("{}, and no second lookup agreed", said[0]),
        _ => format!("the lookups disagree: {}", said.join(", ")),
    });
    Err(failures.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_whole_public_address_is_accepted() {
        assert_eq!(
            read_answer(b"45.83.220.10\n"),
            Ok("45.83.220.10".parse().unwrap())
        );
        assert_eq!(
            read_answer(b"  45.83.220.10\r\n"),
            Ok("45.83.220.10".parse().unwrap())
        );
        for (body, says) in [
            (&b"0.0.0.0"[..], "unspecified"),
            (b"127.0.0.1", "loopback"),
            (b"10.1.2.3", "private"),
            (b"100.64.1.1", "carrier-grade NAT"),
            (b"255.255.255.255", "broadcast"),
            (b"203.0.113.5", "documentation"),
            (b"<html>nginx/1.18.0.1</html>", "not one IPv4 address"),
            (b"1.2.3.4 5.6.7.8", "not one IPv4 address"),
            (b"01.2.3.4", "leading zero"),
            (b"\xff\xfe", "not text"),
        ] {
            let e = read_answer(body).unwrap_err();
            assert!(e.contains(says), "{body:?}: {e}");
        }
        let junk = [b'x'; 300];
        assert!(
            read_answer(&junk)
                .unwrap_err()
                .contains("longer than 256 bytes")
        );
    }

    #[test]
    fn plain_http_goes_to_loopback_only_unless_allowed() {
        assert!(check_url("https://icanhazip.com", false).is_ok());
        assert!(check_url("http://127.0.0.1:9/ip", false).is_ok());
        assert!(check_url("http://localhost:9/ip", false).is_ok());
        let e = check_url("http://icanhazip.com", false).unwrap_err();
        assert!(e.contains("--allow-insecure-http"), "{e}");
        assert!(check_url("http://icanhazip.com", true).is_ok());
        assert!(check_url("ftp://x", true).is_err());
    }
}

#[cfg(test)]
mod agreement {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A loopback lookup service answering `body` to every request.
    async fn service(body: &'static str) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/", listener.local_addr().unwrap());
        tokio::spawn(async move {
            while let Ok((mut s, _)) = listener.accept().await {
                let mut buf = [0u8; 1024];
                let _ = s.read(&mut buf).await;
                let head = format!(
                    "HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                    body.len()
                );
                let _ = s.write_all(head.as_bytes()).await;
                let _ = s.write_all(body.as_bytes()).await;
            }
        });
        url
    }

    #[tokio::test]
    async fn an_unattended_rebind_needs_two_lookups_that_agree() {
        let (a, b, c) = (
            service("45.83.220.1").await,
            service("45.83.220.2").await,
            service("45.83.220.1\n").await,
        );
        // One URL: its word. Two that disagree: nothing. A third that agrees: that one.
        assert_eq!(
            agreed(std::slice::from_ref(&a), false).await,
            Ok("45.83.220.1".parse().unwrap())
        );
        let e = agreed(&[a.clone(), b.clone()], false).await.unwrap_err();
        assert!(e.contains("the lookups disagree"), "{e}");
        assert_eq!(
            agreed(&[a, b, c], false).await,
            Ok("45.83.220.1".parse().unwrap())
        );
        let loopback = service("127.0.0.1").await;
        let e = agreed(&[loopback.clone(), loopback], false)
            .await
            .unwrap_err();
        assert!(e.contains("127.0.0.1 is a loopback address"), "{e}");
    }
}
