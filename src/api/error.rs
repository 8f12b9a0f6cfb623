//! `ApiError`: every failure of spec section 7 kept apart, plus the ones the network adds.
//!
//! The UI reacts to the case (401 names the profile, 429 starts a countdown, an unknown
//! outcome of an order re-reads services); the `Display` text is the one-line message the
//! status bar shows, built from the server's own words where it sent any.

use chrono::NaiveDateTime;
use std::fmt;

/// The 422 messages of section 7, matched on their text; the text itself is kept verbatim
/// in [`ApiError::Unprocessable`] for display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unprocessable {
    /// `Unprocessable Entity ` (generic, with the spec's trailing space).
    Generic,
    /// `Unprocessable Entity or product ID not found`.
    ProductNotFound,
    /// `Unprocessed entity or not enough funds to order`.
    NotEnoughFunds,
    /// `Unprocessable Entity. Incorrect posted data`.
    IncorrectPostedData,
    /// `Unprocessable Entity. ClientID not found` (endpoint 5 answers this with 422).
    ClientIdNotFound,
    /// `Unprocessable Entity. Invalid IPv4 format`.
    InvalidIpv4,
    /// `Unprocessable Entity. IP already binded`.
    IpAlreadyBound,
    /// A 422 whose message the spec does not list.
    Other,
}

impl Unprocessable {
    pub fn classify(message: &str) -> Self {
        let m = message.trim().to_ascii_lowercase();
        if m.contains("not enough funds") {
            Self::NotEnoughFunds
        } else if m.contains("product id not found") {
            Self::ProductNotFound
        } else if m.contains("incorrect posted data") {
            Self::IncorrectPostedData
        } else if m.contains("clientid not found") {
            Self::ClientIdNotFound
        } else if m.contains("invalid ipv4") {
            Self::InvalidIpv4
        } else if m.contains("already binded") || m.contains("already bound") {
            Self::IpAlreadyBound
        } else if m == "unprocessable entity" {
            Self::Generic
        } else {
            Self::Other
        }
    }
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ApiError {
    /// 401 `Unauthenticated`: missing header or wrong credentials.
    #[error("Unauthenticated")]
    Unauthenticated,
    /// 400 `Invalid Authorization header`.
    #[error("Invalid Authorization header")]
    InvalidAuthorizationHeader,
    /// 400 `Invalid credentials format`.
    #[error("Invalid credentials format")]
    InvalidCredentialsFormat,
    /// 400 with JSON `error` = `Unprocessable Entity. ClientID not found` (endpoints 8, 9, 15).
    #[error("{message}")]
    ClientIdNotFound { message: String },
    /// 422 with JSON `error`; the message verbatim (trailing space trimmed for display).
    #[error("{}", message.trim_end())]
    Unprocessable {
        kind: Unprocessable,
        message: String,
    },
    /// 429 on `update_list`: the next possible refresh as the server's wall-clock time (the
    /// spec gives no zone; the caller decides which zone it is in) and the raw message.
    #[error("{}", message.trim_end())]
    Throttled {
        next_possible: Option<NaiveDateTime>,
        message: String,
    },
    /// 429 on anything but `update_list`: the account's request budget is spent (the
    /// server's throttle, spec section 8). `retry_after` is the server's `Retry-After` in
    /// seconds, when it sent one. GETs of the dashboard never show it: the scheduler sends
    /// them again after the pause; a script exits with it (exit code 6).
    #[error("{}", rate_limited_text(*retry_after))]
    RateLimited { retry_after: Option<u64> },
    /// Nothing was sent: the account (or, `route`, one route of it: `GET /api/...`) is
    /// paused by a pause an earlier run saved (the scripting commands' `budget.json`: a
    /// 429 it was answered), for longer than a command waits. Not the server's word about
    /// this run, and said so.
    #[error("{}", saved_pause_text(*wait, route.as_deref()))]
    SavedPause { wait: u64, route: Option<String> },
    /// Any other HTTP status, with a one-line excerpt of the body (HTML reduced to text).
    #[error("HTTP {status}{}", if excerpt.is_empty() { String::new() } else { format!(": {excerpt}") })]
    Http {
        status: u16,
        excerpt: String,
        /// `Retry-After` in seconds, when the server sent one.
        retry_after: Option<u64>,
    },
    /// No complete answer within the request timeout. The request may have been processed.
    #[error("{url}: no answer within {secs} s")]
    Timeout { url: String, secs: u64 },
    /// The connection could not be opened: the request never reached the server.
    #[error("Cannot reach {url}: {cause}")]
    Connect { url: String, cause: String },
    /// The connection failed after the request was sent (reset, closed, truncated body):
    /// the server may or may not have acted on it.
    #[error("Connection to {url} lost: {cause}")]
    Transport { url: String, cause: String },
    /// A 200 whose body is not the shape the endpoint answers.
    #[error("Unexpected answer from {endpoint}: {detail}")]
    Decode {
        endpoint: &'static str,
        detail: String,
    },
    /// The client was configured with something unusable (bad base URL, plain HTTP).
    #[error("{0}")]
    Config(String),
    /// A write asked of a read-only client (`--read-only`, `read_only = true`): refused
    /// before anything was sent.
    #[error(
        "refused: this session is read-only (--read-only or read_only = true in the profile); nothing was sent"
    )]
    ReadOnly,
}

fn saved_pause_text(wait: u64, route: Option<&str>) -> String {
    let at = crate::text::clock_time(chrono::Local::now() + chrono::Duration::seconds(wait as i64));
    let what = route.map_or_else(|| "the account is".to_owned(), |r| format!("{r} is"));
    format!(
        "nothing was sent: {what} paused for {} more (until {at}) by a pause an earlier run saved in the request budget's state file (budget.json) after the server answered it 429; try again after {at}",
        crate::text::span_words(wait)
    )
}

fn rate_limited_text(retry_after: Option<u64>) -> String {
    let Some(secs) = retry_after else {
        return "Too many requests: the server's limit is reached; try again in a minute".into();
    };
    let cap = super::PAUSE_CAP.as_secs();
    let waited = secs.min(cap);
    let at =
        crate::text::clock_time(chrono::Local::now() + chrono::Duration::seconds(waited as i64));
    if secs > cap {
        format!(
            "Too many requests: the server asks to wait {secs} s ({}); proxydash pauses the account for at most {}: try again after {at}",
            crate::text::span_words(secs),
            crate::text::span_words(cap)
        )
    } else {
        format!(
            "Too many requests: the server's limit is reached; try again in {} (at {at})",
            crate::text::span_words(secs)
        )
    }
}

impl ApiError {
    /// The account's request budget is spent (a 429 that is not the IP-list throttle).
    pub fn is_rate_limited(&self) -> bool {
        matches!(self, Self::RateLimited { .. })
    }

    /// True where a write may have been carried out although no answer says so: the caller
    /// must re-read instead of assuming failure (and must never resend an order).
    ///
    /// That is: no complete answer (a timeout, a connection lost after sending), a 200
    /// whose body cannot be read (the server acted, only its answer is mangled), and a
    /// server or gateway error (500, 502, 504 and the like: a proxy may answer one after
    /// the server behind it acted). Not unknown: a connection that never opened, the API's
    /// own refusals (400, 401, 422, 429), and 501/503/505, which say the request was not
    /// taken on.
    pub fn outcome_unknown(&self) -> bool {
        match self {
            Self::Timeout { .. } | Self::Transport { .. } | Self::Decode { .. } => true,
            Self::Http { status, .. } => *status >= 500 && !matches!(status, 501 | 503 | 505),
            _ => false,
        }
    }

    /// True for failures worth retrying for an idempotent GET: the network, and 5xx.
    pub fn is_transient(&self) -> bool {
        match self {
            Self::Connect { .. } | Self::Transport { .. } | Self::Timeout { .. } => true,
            Self::Http { status, .. } => *status >= 500 || *status == 429,
            Self::Decode { .. } => false,
            _ => false,
        }
    }

    /// The HTTP status the server answered with; `None` when no answer came.
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::Unauthenticated => Some(401),
            Self::InvalidAuthorizationHeader
            | Self::InvalidCredentialsFormat
            | Self::ClientIdNotFound { .. } => Some(400),
            Self::Unprocessable { .. } => Some(422),
            Self::Throttled { .. } | Self::RateLimited { .. } => Some(429),
            Self::Http { status, .. } => Some(*status),
            Self::Decode { .. } => Some(200),
            Self::Timeout { .. }
            | Self::Connect { .. }
            | Self::Transport { .. }
            | Self::Config(_)
            | Self::SavedPause { .. }
            | Self::ReadOnly => None,
        }
    }

    /// The 422 kind, if this is a 422.
    pub fn unprocessable(&self) -> Option<Unprocessable> {
        match self {
            Self::Unprocessable { kind, .. } => Some(*kind),
            _ => None,
        }
    }
}

/// A readable one-line excerpt of an error body: HTML tags and entities removed, white space
/// folded, the `<title>` preferred when there is one, cut to `max` characters.
pub fn excerpt(body: &str, max: usize) -> String {
    let lower = body.to_ascii_lowercase();
    let looks_html =
        lower.contains("<html") || lower.contains("<!doctype") || lower.contains("<body");
    let text = if looks_html {
        let title = lower
            .find("<title")
            .and_then(|start| body[start..].find('>').map(|gt| start + gt + 1))
            .and_then(|from| {
                lower[from..]
                    .find("</title")
                    .map(|len| &body[from..from + len])
            });
        let text = match title {
            Some(t) if !t.trim().is_empty() => t.to_owned(),
            _ => strip_tags(body_section(body, &lower)),
        };
        decode_entities(&text)
    } else {
        body.to_owned()
    };
    let folded: String = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .filter(|c| !c.is_control())
        .collect();
    if folded.chars().count() > max {
        let cut: String = folded.chars().take(max.saturating_sub(1)).collect();
        format!("{cut}…")
    } else {
        folded
    }
}

fn body_section<'a>(body: &'a str, lower: &str) -> &'a str {
    match lower.find("<body") {
        Some(i) => &body[i..],
        None => body,
    }
}

fn strip_tags(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    let mut skip_until: Option<&str> = None;
    let lower = html.to_ascii_lowercase();
    let mut i = 0;
    let bytes = html.as_bytes();
    while i < bytes.len() {
        if let Some(end) = skip_until {
            match lower[i..].find(end) {
                Some(j) => {
                    i += j + end.len();
                    skip_until = None;
                    continue;
                }
                None => break,
            }
        }
        let c = html[i..].chars().next().unwrap_or(' ');
        if !in_tag && c == '<' {
            if lower[i..].starts_with("<script") {
                skip_until = Some("</script>");
            } else if lower[i..].starts_with("<style") {
                skip_until = Some("</style>");
            }
            in_tag = true;
            out.push(' ');
        } else if in_tag && c == '>' {
            in_tag = false;
        } else if !in_tag {
            out.push(c);
        }
        i += c.len_utf8();
    }
    out
}

fn decode_entities(s: &str) -> String {
    s.replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

impl fmt::Display for Unprocessable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_error_page_becomes_its_title() {
        let page = "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>";
        assert_eq!(excerpt(page, 120), "502 Bad Gateway");
    }

    #[test]
    fn html_without_title_is_stripped_and_folded() {
        let page = "<!DOCTYPE html><html><body><script>var x=1;</script><h1>Server\n  Error</h1><p>Try &amp; again</p></body></html>";
        assert_eq!(excerpt(page, 120), "Server Error Try & again");
    }

    #[test]
    fn long_text_is_cut() {
        let s = "x".repeat(500);
        let e = excerpt(&s, 20);
        assert_eq!(e.chars().count(), 20);
        assert!(e.ends_with('…'));
    }

    #[test]
    fn classify_every_422_of_the_spec() {
        use Unprocessable::*;
        for (msg, kind) in [
            ("Unprocessable Entity ", Generic),
            (
                "Unprocessable Entity or product ID not found",
                ProductNotFound,
            ),
            (
                "Unprocessed entity or not enough funds to order",
                NotEnoughFunds,
            ),
            (
                "Unprocessable Entity. Incorrect posted data",
                IncorrectPostedData,
            ),
            ("Unprocessable Entity. ClientID not found", ClientIdNotFound),
            ("Unprocessable Entity. Invalid IPv4 format", InvalidIpv4),
            ("Unprocessable Entity. IP already binded", IpAlreadyBound),
            ("Something new", Other),
        ] {
            assert_eq!(Unprocessable::classify(msg), kind, "{msg}");
        }
    }
}
