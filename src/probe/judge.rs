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

/// The members that name the address a request came from, in the shapes judges answer:
/// httpbin's `origin`, `{"ip": …}` (ipify's JSON and many others), a self-hosted judge's
/// `remote` / `remote_addr` (often with the port, `"203.0.113.7:51234"`). Matched without
/// regard to case.
const ADDRESS_MEMBERS: [&str; 5] = ["origin", "ip", "remote", "remote_addr", "client_ip"];

/// Reads an answer, whatever its shape (module docs of [`super`]): a JSON object with an
/// address member ([`ADDRESS_MEMBERS`]) and maybe `headers` (values as strings or as
/// lists of strings), the `KEY = value` lines of a PHP judge (`REMOTE_ADDR`, `HTTP_VIA`,
/// …), or text holding an address.
pub fn read(body: &str) -> Judged {
    if let Ok(serde_json::Value::Object(map)) = serde_json::from_str::<serde_json::Value>(body) {
        let member = |name: &str| {
            map.iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v)
        };
        let exit_ip = ADDRESS_MEMBERS
            .iter()
            .filter_map(|name| member(name)?.as_str())
            .find_map(address);
        let headers = member("headers").and_then(|h| h.as_object()).map(|h| {
            h.iter()
                .map(|(k, v)| (k.to_ascii_lowercase(), header_value(v)))
                .collect()
        });
        return Judged { exit_ip, headers };
    }
    if let Some(judged) = environment_lines(body) {
        return judged;
    }
    let exit_ip = body
        .split(|c: char| !(c.is_ascii_hexdigit() || c == '.' || c == ':'))
        .find_map(|w| w.parse::<IpAddr>().ok());
    Judged {
        exit_ip,
        headers: None,
    }
}

/// An address as a judge writes it: the first of a comma-separated list (httpbin's
/// `origin` behind its own proxies), with or without a port.
fn address(text: &str) -> Option<IpAddr> {
    let first = text.split(',').next()?.trim();
    first
        .parse::<IpAddr>()
        .ok()
        .or_else(|| first.parse::<std::net::SocketAddr>().ok().map(|a| a.ip()))
}

/// A header's echoed value: a string, or a list of them (Go's `http.Header`) joined.
fn header_value(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(items) => items
            .iter()
            .map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_owned))
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    }
}

/// The CGI environment as PHP judges print it (`REMOTE_ADDR = 203.0.113.7`, `HTTP_VIA =
/// 1.1 proxy`, one a line, maybe inside HTML): the address, and the `HTTP_*` variables
/// as headers (`HTTP_X_FORWARDED_FOR` is `x-forwarded-for`). `None` without
/// `REMOTE_ADDR`.
fn environment_lines(body: &str) -> Option<Judged> {
    let mut exit_ip = None;
    let mut headers = Vec::new();
    for line in body.lines() {
        let line = line
            .trim()
            .trim_end_matches("<br>")
            .trim_end_matches("<br/>");
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let (key, value) = (key.trim(), value.trim());
        if key == "REMOTE_ADDR" {
            exit_ip = address(value);
        } else if let Some(name) = key.strip_prefix("HTTP_")
            && !name.is_empty()
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            headers.push((
                name.to_ascii_lowercase().replace('_', "-"),
                value.to_owned(),
            ));
        }
    }
    exit_ip.map(|ip| Judged {
        exit_ip: Some(ip),
        headers: Some(headers),
    })
}

/// The anonymity class, given the client's real address as the target sees it directly.
/// `transparent` when the target saw that address (as the exit, or in any header);
/// `anonymous` when a proxy header is there without it; `elite` otherwise. Unknown when
/// the answer echoes no headers and the exit is not the real address: a proxy header
/// cannot be told from nothing.
pub fn anonymity(judged: &Judged, real_ip: Option<IpAddr>) -> Option<Anonymity> {
    if real_ip.is_some() && judged.exit_ip == real_ip {
        return Some(Anonymity::Transparent);
    }
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

    /// Issue 26.9: every common shape gives the exit IP and, where headers are echoed,
    /// the class; a transparent proxy is transparent in each.
    #[test]
    fn the_common_judge_shapes_are_understood() {
        let real: Option<IpAddr> = Some("198.51.100.1".parse().unwrap());
        let exit: IpAddr = "203.0.113.7".parse().unwrap();
        // A self-hosted judge: `remote` with its port, headers as lists (Go's http.Header).
        let remote = |headers: serde_json::Value| {
            read(
                &serde_json::json!({"remote": "203.0.113.7:51234", "headers": headers}).to_string(),
            )
        };
        let leak =
            remote(serde_json::json!({"Via": ["1.1 p"], "X-Forwarded-For": ["198.51.100.1"]}));
        assert_eq!(leak.exit_ip, Some(exit));
        assert_eq!(anonymity(&leak, real), Some(Anonymity::Transparent));
        let anon = remote(serde_json::json!({"Via": ["1.1 p"]}));
        assert_eq!(anonymity(&anon, real), Some(Anonymity::Anonymous));
        let elite = remote(serde_json::json!({"Accept": ["*/*"]}));
        assert_eq!(anonymity(&elite, real), Some(Anonymity::Elite));
        // `{"ip": …}` and a bare address: the exit, transparent when it is the real one.
        for body in [
            r#"{"ip": "203.0.113.7"}"#,
            "203.0.113.7\n",
            r#"{"IP":"203.0.113.7"}"#,
        ] {
            assert_eq!(read(body).exit_ip, Some(exit), "{body}");
            assert_eq!(anonymity(&read(body), real), None, "{body}");
        }
        for body in [r#"{"ip": "198.51.100.1"}"#, "198.51.100.1"] {
            assert_eq!(
                anonymity(&read(body), real),
                Some(Anonymity::Transparent),
                "{body}"
            );
        }
        // A PHP judge's environment lines.
        let php = read(
            "<pre>\nREMOTE_ADDR = 203.0.113.7\nHTTP_VIA = 1.1 p\nHTTP_X_FORWARDED_FOR = 198.51.100.1\n</pre>",
        );
        assert_eq!(php.exit_ip, Some(exit));
        assert_eq!(anonymity(&php, real), Some(Anonymity::Transparent));
        let php = read("REMOTE_ADDR = 203.0.113.7<br>\nHTTP_VIA = 1.1 p<br>");
        assert_eq!(anonymity(&php, real), Some(Anonymity::Anonymous));
        let php = read("REMOTE_ADDR = 203.0.113.7\nHTTP_ACCEPT = */*");
        assert_eq!(anonymity(&php, real), Some(Anonymity::Elite));
    }

    #[test]
    fn plain_text_gives_the_exit_ip_only() {
        let j = read("203.0.113.7\n");
        assert_eq!(j.exit_ip, Some("203.0.113.7".parse().unwrap()));
        assert_eq!(anonymity(&j, None), None);
        assert_eq!(read("<html>nothing</html>").exit_ip, None);
    }
}
