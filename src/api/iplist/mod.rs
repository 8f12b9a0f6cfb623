//! IP lists (endpoint 16): the raw text as served, and a lenient parse into entries.
//!
//! The layout of each format is "not shown" in the spec, so the parser accepts what live
//! servers of this API family send:
//! - `txt`: one entry per line, `host:port` or `host:port:login:password` (also
//!   `login:password@host:port`); blank lines and `#` comments are skipped.
//! - `csv`: `host,port[,login,password]` rows, with or without a header row; a header names
//!   the columns (`ip`/`host`/`address`, `port`, `login`/`username`/`user`,
//!   `password`/`pass`) in any order. `;` and tab separators are accepted too.
//! - `json`: an array of objects (`{"ip":…,"port":…,"login":…,"password":…}`, numbers or
//!   strings) or of `host:port…` strings, and also bare objects separated by commas and
//!   newlines without the surrounding brackets.
//!
//! A line that cannot be read is counted in [`IpList::skipped`], never fatal: the list as
//! served is always kept, so copying it "as served" works whatever its layout.

mod csv;
mod json;

use super::model::{IpListFormat, IpListType};
use csv::parse_csv;
use json::parse_json;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IpEntry {
    pub host: String,
    pub port: Option<u16>,
    pub login: Option<String>,
    pub password: Option<String>,
}

impl IpEntry {
    /// `scheme://login:password@host:port`, or `scheme://host:port` without credentials;
    /// login and password are percent-encoded so a `@` or `:` in them cannot break the URL.
    pub fn to_url(&self, scheme: &str) -> String {
        let mut out = String::with_capacity(scheme.len() + self.host.len() + 40);
        out.push_str(scheme);
        out.push_str("://");
        if let Some(login) = &self.login {
            push_encoded(&mut out, login);
            if let Some(password) = &self.password {
                out.push(':');
                push_encoded(&mut out, password);
            }
            out.push('@');
        }
        if self.host.contains(':') && !self.host.starts_with('[') {
            out.push('[');
            out.push_str(&self.host);
            out.push(']');
        } else {
            out.push_str(&self.host);
        }
        if let Some(port) = self.port {
            out.push(':');
            out.push_str(&port.to_string());
        }
        out
    }

    /// The entry on one line for a person to read: `host:port:login:password` (as much of
    /// it as it has), each part without control, bidi or zero-width characters, so a line
    /// break or a U+202E in a served username can neither start a line of its own nor
    /// turn the text around on a terminal. (Files, pipes and copies get the list as
    /// served.)
    pub fn shown(&self) -> String {
        let mut out = crate::text::sanitize(&self.host).into_owned();
        if let Some(port) = self.port {
            out.push(':');
            out.push_str(&port.to_string());
        }
        for part in [&self.login, &self.password].into_iter().flatten() {
            out.push(':');
            out.push_str(&crate::text::sanitize(part));
        }
        out
    }

    /// The entry as a proxy line for tools and browsers: `host:port:login:password` (as
    /// much of it as it has), as served (not cleaned for a screen: it goes to the
    /// clipboard).
    pub fn line(&self) -> String {
        let mut out = self.host_port();
        for part in [&self.login, &self.password].into_iter().flatten() {
            out.push(':');
            out.push_str(part);
        }
        out
    }

    /// `host:port` (or `host`), the form tools take when there are no credentials.
    pub fn host_port(&self) -> String {
        match self.port {
            Some(p) => format!("{}:{p}", self.host),
            None => self.host.clone(),
        }
    }
}

fn push_encoded(out: &mut String, s: &str) {
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
}

/// An IP list as served plus its entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IpList {
    pub list_type: IpListType,
    pub format: IpListFormat,
    /// The body exactly as the server sent it.
    pub raw: String,
    /// How many entries it holds.
    pub count: usize,
    /// Lines or elements that could not be read as an entry.
    pub skipped: usize,
}

impl IpList {
    /// Keeps the list as served and counts its entries. The entries themselves are read
    /// again when needed ([`IpList::entries`], [`IpList::to_urls`]): held as parsed values
    /// a 100,000-line list costs about four times its text in memory, and both uses are
    /// one-off (a copy, a count shown once).
    pub fn parse(list_type: IpListType, format: IpListFormat, raw: String) -> Self {
        let mut count = 0;
        let skipped = visit_entries(&format, &raw, &mut |_| count += 1);
        Self {
            list_type,
            format,
            raw,
            count,
            skipped,
        }
    }

    /// The entries, parsed from the list as served.
    pub fn entries(&self) -> Vec<IpEntry> {
        parse_entries(&self.format, &self.raw).0
    }

    /// The first entry, if the list holds one.
    pub fn first(&self) -> Option<IpEntry> {
        let mut first = None;
        visit_entries(&self.format, &self.raw, &mut |e| {
            if first.is_none() {
                first = Some(e);
            }
        });
        first
    }

    /// The lines of a text list that hold no entry (an IPv6 `[::1]:8080`, junk), so the
    /// probe reports them instead of dropping them unseen. Empty for other formats.
    pub fn unreadable_lines(&self) -> Vec<&str> {
        if self.format != IpListFormat::Txt || self.skipped == 0 {
            return Vec::new();
        }
        self.raw
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#') && parse_line(l).is_none())
            .collect()
    }

    /// The list as a terminal shows it: one line per entry ([`IpEntry::shown`]) and
    /// nothing else (what holds no entry is counted in [`IpList::skipped`]), whatever the
    /// format: where a served field holds a line break, the list's own lines are not its
    /// entries.
    pub fn shown_lines(&self) -> String {
        let mut out = String::with_capacity(self.raw.len());
        visit_entries(&self.format, &self.raw, &mut |e| {
            out.push_str(&e.shown());
            out.push('\n');
        });
        out
    }

    /// One URL per line (see [`IpEntry::to_url`]); entries without credentials are written
    /// as `host:port`, which tools accept directly.
    pub fn to_urls(&self) -> String {
        let scheme = self.list_type.scheme();
        let mut out = String::with_capacity(self.count * 48);
        visit_entries(&self.format, &self.raw, &mut |e| {
            if e.login.is_some() {
                out.push_str(&e.to_url(scheme));
            } else {
                out.push_str(&e.host_port());
            }
            out.push('\n');
        });
        out
    }
}

/// Parses `raw` as `format`; returns the entries and how many pieces were skipped.
pub fn parse_entries(format: &IpListFormat, raw: &str) -> (Vec<IpEntry>, usize) {
    let mut entries = Vec::with_capacity(raw.len() / 32);
    let skipped = visit_entries(format, raw, &mut |e| entries.push(e));
    (entries, skipped)
}

/// Hands each entry of `raw` to `emit` as it is read, holding none of them; returns how
/// many pieces were skipped.
pub fn visit_entries(format: &IpListFormat, raw: &str, emit: &mut dyn FnMut(IpEntry)) -> usize {
    match format {
        IpListFormat::Json => parse_json(raw, emit),
        IpListFormat::Csv => parse_csv(raw, emit),
        IpListFormat::Txt => parse_txt(raw, emit),
        // An unknown format: guess from the first non-blank character.
        IpListFormat::Other(_) => match raw.trim_start().chars().next() {
            Some('[') | Some('{') => parse_json(raw, emit),
            _ if raw.lines().next().is_some_and(|l| l.contains(',')) => parse_csv(raw, emit),
            _ => parse_txt(raw, emit),
        },
    }
}

fn parse_txt(raw: &str, emit: &mut dyn FnMut(IpEntry)) -> usize {
    let mut skipped = 0;
    for line in raw.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_line(line) {
            Some(e) => emit(e),
            None => skipped += 1,
        }
    }
    skipped
}

/// `host:port`, `host:port:login:password`, `login:password@host:port`, or `host`.
fn parse_line(line: &str) -> Option<IpEntry> {
    let line = line
        .split_once("://")
        .map(|(_, rest)| rest)
        .unwrap_or(line)
        .trim_end_matches('/');
    // `host:port:login:password` first: a password may itself hold `@` or `:`.
    let mut parts = line.splitn(4, ':');
    let host = parts.next()?.trim();
    let port = parts.next().map(|p| p.trim().parse::<u16>());
    if valid_host(host) && !matches!(port, Some(Err(_))) {
        let (login, password) = (parts.next(), parts.next());
        return Some(entry(host, port.and_then(Result::ok), login, password));
    }
    let (creds, hostport) = line.rsplit_once('@')?;
    let (login, password) = match creds.split_once(':') {
        Some((l, p)) => (l, Some(p)),
        None => (creds, None),
    };
    let (host, port) = split_host_port(hostport)?;
    Some(entry(host, port, Some(login), password))
}

fn split_host_port(s: &str) -> Option<(&str, Option<u16>)> {
    match s.rsplit_once(':') {
        Some((h, p)) => Some((h, Some(p.trim().parse().ok()?))),
        None => Some((s, None)),
    }
    .filter(|(h, _)| valid_host(h))
}

fn valid_host(host: &str) -> bool {
    !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '[' | ']'))
}

fn entry(host: &str, port: Option<u16>, login: Option<&str>, password: Option<&str>) -> IpEntry {
    let keep = |s: Option<&str>| {
        s.map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    IpEntry {
        host: host.trim().to_owned(),
        port,
        login: keep(login),
        password: keep(password),
    }
}

#[cfg(test)]
mod tests;
