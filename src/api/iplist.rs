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

use super::model::{IpListFormat, IpListType};
use serde::Deserialize;
use serde::de::{self, MapAccess, Visitor};
use std::fmt;

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

#[derive(Clone, Copy)]
struct Columns {
    host: usize,
    port: Option<usize>,
    login: Option<usize>,
    password: Option<usize>,
}

fn parse_csv(raw: &str, emit: &mut dyn FnMut(IpEntry)) -> usize {
    let mut skipped = 0;
    let mut lines = raw.lines().map(str::trim).filter(|l| !l.is_empty());
    let Some(first) = lines.next() else {
        return 0;
    };
    let sep = [',', ';', '\t']
        .into_iter()
        .max_by_key(|s| first.matches(*s).count())
        .unwrap_or(',');
    let positional = Columns {
        host: 0,
        port: Some(1),
        login: Some(2),
        password: Some(3),
    };
    let (columns, first_is_data) = match header_columns(first, sep) {
        Some(c) => (c, false),
        None => (positional, true),
    };
    let mut row = |line: &str| {
        let cells: Vec<&str> = line
            .split(sep)
            .map(|c| c.trim().trim_matches('"'))
            .collect();
        // A one-column CSV of `host:port:login:password` is a txt line in disguise.
        let parsed = if cells.len() == 1 {
            parse_line(cells[0])
        } else {
            csv_entry(&cells, columns)
        };
        match parsed {
            Some(e) => emit(e),
            None => skipped += 1,
        }
    };
    if first_is_data {
        row(first);
    }
    lines.for_each(row);
    skipped
}

fn header_columns(line: &str, sep: char) -> Option<Columns> {
    let names: Vec<String> = line
        .split(sep)
        .map(|c| c.trim().trim_matches('"').to_ascii_lowercase())
        .collect();
    let find = |keys: &[&str]| names.iter().position(|n| keys.contains(&n.as_str()));
    let host = find(&[
        "ip",
        "host",
        "address",
        "ip_address",
        "ipaddress",
        "proxy",
        "server",
    ])?;
    Some(Columns {
        host,
        port: find(&["port"]),
        login: find(&["login", "username", "user"]),
        password: find(&["password", "pass", "pwd"]),
    })
}

fn csv_entry(cells: &[&str], c: Columns) -> Option<IpEntry> {
    let get = |i: Option<usize>| i.and_then(|i| cells.get(i).copied());
    let host = cells.get(c.host)?;
    let port = match get(c.port).filter(|p| !p.is_empty()) {
        Some(p) => Some(p.parse::<u16>().ok()?),
        None => None,
    };
    // A host cell holding `host:port` when there is no port column.
    if port.is_none() && host.contains(':') {
        let (h, p) = split_host_port(host)?;
        return Some(entry(h, p, get(c.login), get(c.password)));
    }
    valid_host(host).then(|| entry(host, port, get(c.login), get(c.password)))
}

fn parse_json(raw: &str, emit: &mut dyn FnMut(IpEntry)) -> usize {
    let mut skipped = 0;
    let body = raw.trim();
    // A valid array is read element by element, holding none; it is checked first, so a
    // broken one falls through to the forgiving reader below without having emitted
    // anything twice.
    if body.starts_with('[') && serde_json::from_str::<de::IgnoredAny>(body).is_ok() {
        let mut de = serde_json::Deserializer::from_str(body);
        if de::DeserializeSeed::deserialize(
            EachEntry {
                emit,
                skipped: &mut skipped,
            },
            &mut de,
        )
        .is_ok()
        {
            return skipped;
        }
    }
    // Not a valid array: read value after value, skipping the commas, brackets and white
    // space between them, and resynchronise at the next line after a broken value.
    let mut rest = body;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || matches!(c, ',' | '[' | ']'));
        if rest.is_empty() {
            break;
        }
        let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<JsonEntry>();
        match stream.next() {
            Some(Ok(JsonEntry(Some(e)))) => {
                emit(e);
                rest = &rest[stream.byte_offset()..];
            }
            Some(Ok(JsonEntry(None))) => {
                skipped += 1;
                rest = &rest[stream.byte_offset()..];
            }
            _ => {
                skipped += 1;
                rest = match rest.find('\n') {
                    Some(nl) => &rest[nl + 1..],
                    None => "",
                };
            }
        }
    }
    skipped
}

/// Reads a JSON array, handing each entry to `emit` as it is read.
struct EachEntry<'a> {
    emit: &'a mut dyn FnMut(IpEntry),
    skipped: &'a mut usize,
}

impl<'de> de::DeserializeSeed<'de> for EachEntry<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for EachEntry<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of IP-list entries")
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(JsonEntry(entry)) = seq.next_element()? {
            match entry {
                Some(e) => (self.emit)(e),
                None => *self.skipped += 1,
            }
        }
        Ok(())
    }
}

/// One element of a JSON IP list: an object or a `host:port…` string; `None` where it is
/// neither (or lacks a host).
struct JsonEntry(Option<IpEntry>);

impl<'de> Deserialize<'de> for JsonEntry {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(JsonEntryVisitor)
    }
}

struct JsonEntryVisitor;

impl<'de> Visitor<'de> for JsonEntryVisitor {
    type Value = JsonEntry;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an IP-list entry")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<JsonEntry, E> {
        Ok(JsonEntry(parse_line(v.trim())))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<JsonEntry, A::Error> {
        let (mut host, mut port, mut login, mut password) = (None, None, None, None);
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            let value = map.next_value::<Scalar>()?.0;
            match key.to_ascii_lowercase().as_str() {
                "ip" | "host" | "address" | "ip_address" | "ipaddress" | "proxy" | "server" => {
                    host = value
                }
                "port" => port = value,
                "login" | "username" | "user" => login = value,
                "password" | "pass" | "pwd" => password = value,
                _ => {}
            }
        }
        let Some(host) = host else {
            return Ok(JsonEntry(None));
        };
        let port = match port.filter(|p| !p.is_empty()) {
            Some(p) => match p.parse::<u16>() {
                Ok(p) => Some(p),
                Err(_) => return Ok(JsonEntry(None)),
            },
            None => None,
        };
        if port.is_none() && host.contains(':') {
            return Ok(JsonEntry(
                split_host_port(&host)
                    .map(|(h, p)| entry(h, p, login.as_deref(), password.as_deref())),
            ));
        }
        Ok(JsonEntry(valid_host(&host).then(|| {
            entry(&host, port, login.as_deref(), password.as_deref())
        })))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<JsonEntry, E> {
        Ok(JsonEntry(None))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<JsonEntry, E> {
        Ok(JsonEntry(None))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<JsonEntry, E> {
        Ok(JsonEntry(None))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<JsonEntry, E> {
        Ok(JsonEntry(None))
    }
    fn visit_unit<E: de::Error>(self) -> Result<JsonEntry, E> {
        Ok(JsonEntry(None))
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<JsonEntry, A::Error> {
        while seq.next_element::<de::IgnoredAny>()?.is_some() {}
        Ok(JsonEntry(None))
    }
}

/// A JSON scalar as text (numbers as their digits); `null`, objects and arrays give `None`.
struct Scalar(Option<String>);

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Scalar;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a scalar")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Scalar, E> {
                Ok(Scalar(Some(v.trim().to_owned())))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Scalar, E> {
                Ok(Scalar(Some(v.to_string())))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Scalar, E> {
                Ok(Scalar(Some(v.to_string())))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Scalar, E> {
                Ok(Scalar(Some(v.to_string())))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Scalar, E> {
                Ok(Scalar(Some(v.to_string())))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Scalar, E> {
                Ok(Scalar(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Scalar, A::Error> {
                while m.next_entry::<de::IgnoredAny, de::IgnoredAny>()?.is_some() {}
                Ok(Scalar(None))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut s: A) -> Result<Scalar, A::Error> {
                while s.next_element::<de::IgnoredAny>()?.is_some() {}
                Ok(Scalar(None))
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(host: &str, port: u16, login: Option<&str>, pw: Option<&str>) -> IpEntry {
        entry(host, Some(port), login, pw)
    }

    #[test]
    fn txt_plain_and_with_credentials() {
        let raw = "1.2.3.4:8080\n\n# comment\n5.6.7.8:3128:bob:s3cr:et\nbad line here\n";
        let (entries, skipped) = parse_entries(&IpListFormat::Txt, raw);
        assert_eq!(
            entries,
            vec![
                e("1.2.3.4", 8080, None, None),
                e("5.6.7.8", 3128, Some("bob"), Some("s3cr:et")),
            ]
        );
        assert_eq!(skipped, 1);
    }

    #[test]
    fn txt_userinfo_form() {
        let (entries, _) = parse_entries(&IpListFormat::Txt, "http://bob:pw@1.2.3.4:80\n");
        assert_eq!(entries, vec![e("1.2.3.4", 80, Some("bob"), Some("pw"))]);
    }

    #[test]
    fn csv_with_header_in_any_order() {
        let raw = "port,ip,password,login\n8080,1.2.3.4,pw,bob\n";
        let (entries, skipped) = parse_entries(&IpListFormat::Csv, raw);
        assert_eq!(entries, vec![e("1.2.3.4", 8080, Some("bob"), Some("pw"))]);
        assert_eq!(skipped, 0);
    }

    #[test]
    fn csv_without_header_and_semicolons() {
        let raw = "1.2.3.4;8080\r\n5.6.7.8;81;u;p\r\n";
        let (entries, _) = parse_entries(&IpListFormat::Csv, raw);
        assert_eq!(
            entries,
            vec![
                e("1.2.3.4", 8080, None, None),
                e("5.6.7.8", 81, Some("u"), Some("p"))
            ]
        );
    }

    #[test]
    fn csv_single_column_of_txt_lines() {
        let (entries, _) = parse_entries(&IpListFormat::Csv, "1.2.3.4:80:u:p\n");
        assert_eq!(entries, vec![e("1.2.3.4", 80, Some("u"), Some("p"))]);
    }

    #[test]
    fn json_array_numbers_as_strings() {
        let raw = r#"[{"ip":"1.2.3.4","port":"8080","login":"u","password":"p"},{"ip":"5.6.7.8","port":81}]"#;
        let (entries, skipped) = parse_entries(&IpListFormat::Json, raw);
        assert_eq!(
            entries,
            vec![
                e("1.2.3.4", 8080, Some("u"), Some("p")),
                e("5.6.7.8", 81, None, None)
            ]
        );
        assert_eq!(skipped, 0);
    }

    #[test]
    fn json_objects_joined_by_commas_and_newlines() {
        let raw = "{\"ip\":\"1.2.3.4\",\"port\":\"80\"},\n{\"ip\":\"5.6.7.8\",\"port\":\"81\"},\n";
        let (entries, skipped) = parse_entries(&IpListFormat::Json, raw);
        assert_eq!(
            entries,
            vec![e("1.2.3.4", 80, None, None), e("5.6.7.8", 81, None, None)]
        );
        assert_eq!(skipped, 0);
    }

    #[test]
    fn json_broken_element_is_skipped_not_fatal() {
        let raw = "{\"ip\":\"1.2.3.4\",\"port\":\"80\"},\n{\"ip\": broken\n{\"ip\":\"5.6.7.8\",\"port\":81}\n";
        let (entries, skipped) = parse_entries(&IpListFormat::Json, raw);
        assert_eq!(entries.len(), 2);
        assert_eq!(skipped, 1);
    }

    #[test]
    fn json_array_of_strings() {
        let raw = r#"["1.2.3.4:80", "5.6.7.8:81:u:p"]"#;
        let (entries, _) = parse_entries(&IpListFormat::Json, raw);
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[1].login.as_deref(), Some("u"));
    }

    #[test]
    fn urls_encode_credentials_and_fall_back_to_host_port() {
        let list = IpList::parse(
            IpListType::HttpAuth,
            IpListFormat::Txt,
            "1.2.3.4:80:bob:p@ss:w\n5.6.7.8:81\n".into(),
        );
        assert_eq!(
            list.to_urls(),
            "http://bob:p%40ss%3Aw@1.2.3.4:80\n5.6.7.8:81\n"
        );
        let socks = IpList::parse(
            IpListType::PprSocks,
            IpListFormat::Txt,
            "h.example:1080:u:p\n".into(),
        );
        assert_eq!(socks.to_urls(), "socks5://u:p@h.example:1080\n");
    }
}
