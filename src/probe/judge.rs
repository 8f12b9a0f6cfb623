//! Reading the target's answer: the exit IP it saw and, from the headers it echoes, the
//! anonymity of the proxy (rules in the module docs of [`super`]).

use super::Anonymity;
use std::net::IpAddr;

/// Headers a proxy adds that say a proxy is there.
const PROXY_HEADERS: [&str; 7] = [
    "via",
    "x-forwarded-for",
    "forwarded",
    "x-real-ip",
    "x-proxy-id",
    "client-ip",
    "x-client-ip",
];

/// What the target told.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Judged {
    pub exit_ip: Option<IpAddr>,
    /// The request's headers as echoed (names lower-case); `None` when not echoed.
    pub headers: Option<Vec<(String, String)>>,
}

/// Reads an answer: httpbin's JSON shape (`origin` may list several addresses, comma
/// separated: the first is the client), or text holding an address.
pub fn read(body: &str) -> Judged {
    if let Ok(serde_json::Value::Object(map)) = serde_json::from_str::<serde_json::Value>(body) {
        let exit_ip = map
            .get("origin")
            .and_then(|o| o.as_str())
            .and_then(|o| o.split(',').next())
            .and_then(|o| o.trim().parse().ok());
        let headers = map.get("headers").and_then(|h| h.as_object()).map(|h| {
            h.iter()
                .map(|(k, v)| {
                    let v = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
                    (k.to_ascii_lowercase(), v)
                })
                .collect()
        });
        return Judged { exit_ip, headers };
    }
    let exit_ip = body
        .split(|c: char| !(c.is_ascii_hexdigit() || c == '.' || c == ':'))
        .find_map(|w| w.parse::<IpAddr>().ok());
    Judged {
        exit_ip,
        headers: None,
    }
}

/// The anonymity class, given the client's real address as the target sees it directly.
pub fn anonymity(judged: &Judged, real_ip: Option<IpAddr>) -> Option<Anonymity> {
    let headers = judged.headers.as_ref()?;
    let real = real_ip.map(|ip| ip.to_string());
    let leaks = real
        .as_deref()
        .is_some_and(|real| headers.iter().any(|(_, v)| mentions(v, real)));
    if leaks {
        return Some(Anonymity::Transparent);
    }
    if headers
        .iter()
        .any(|(k, _)| PROXY_HEADERS.contains(&k.as_str()))
    {
        return Some(Anonymity::Anonymous);
    }
    Some(Anonymity::Elite)
}

/// Whether `value` holds `ip` as a whole token (so `127.0.0.1` is not found in
/// `127.0.0.10`).
fn mentions(value: &str, ip: &str) -> bool {
    value
        .split(|c: char| !(c.is_ascii_hexdigit() || c == '.' || c == ':'))
        .any(|w| w == ip || w.strip_suffix(':').is_some_and(|w| w == ip))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(headers: &[(&str, &str)]) -> Judged {
        read(
            &serde_json::json!({
                "origin": "127.1.0.10",
                "headers": headers.iter().map(|(k, v)| (k.to_string(), serde_json::Value::from(*v))).collect::<serde_json::Map<_, _>>(),
            })
            .to_string(),
        )
    }

    #[test]
    fn classes_follow_the_echoed_headers() {
        let real = Some("127.0.0.1".parse().unwrap());
        let elite = judged(&[("Host", "127.0.0.1:80"), ("Accept", "*/*")]);
        assert_eq!(elite.exit_ip, Some("127.1.0.10".parse().unwrap()));
        assert_eq!(anonymity(&elite, real), Some(Anonymity::Elite));
        let anon = judged(&[("Via", "1.1 proxy")]);
        assert_eq!(anonymity(&anon, real), Some(Anonymity::Anonymous));
        let leak = judged(&[("X-Forwarded-For", "127.0.0.1")]);
        assert_eq!(anonymity(&leak, real), Some(Anonymity::Transparent));
        // A longer address that starts with the real one is not a leak.
        let other = judged(&[("X-Forwarded-For", "127.0.0.10")]);
        assert_eq!(anonymity(&other, real), Some(Anonymity::Anonymous));
        assert_eq!(anonymity(&leak, None), Some(Anonymity::Anonymous));
    }

    #[test]
    fn plain_text_gives_the_exit_ip_only() {
        let j = read("203.0.113.7\n");
        assert_eq!(j.exit_ip, Some("203.0.113.7".parse().unwrap()));
        assert_eq!(anonymity(&j, None), None);
        assert_eq!(read("<html>nothing</html>").exit_ip, None);
    }
}
