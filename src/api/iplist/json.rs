//! The `json` layout of an IP list (see the module docs of [`super`]).

use super::{IpEntry, entry, parse_line, split_host_port, valid_host};
use serde::Deserialize;
use serde::de::{self, MapAccess, Visitor};
use std::fmt;

pub(super) fn parse_json(raw: &str, emit: &mut dyn FnMut(IpEntry)) -> usize {
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
