//! Bodies to values: what the client makes of a 2xx answer for each endpoint, and of a
//! non-2xx answer (the cases of spec section 7). Pure functions of the bytes, so tests
//! and fuzzing feed them anything without a server.

use super::iplist::IpList;
use super::model::*;
use super::{ApiError, Unprocessable, error, lenient};
use reqwest::StatusCode;
use serde::de::DeserializeOwned;

/// An address of endpoints 8 and 9: a string, or a number, or an object naming the address
/// under `ip`/`address`/`host` (the element shape is only "IP addresses" in the spec).
struct Address(String);

impl<'de> serde::Deserialize<'de> for Address {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::String(s) => Ok(Address(s)),
            serde_json::Value::Object(m) => ["ip", "address", "host", "ip_address"]
                .iter()
                .find_map(|k| {
                    m.get(*k)
                        .and_then(|v| v.as_str())
                        .map(|s| Address(s.to_owned()))
                })
                .ok_or_else(|| serde::de::Error::custom("an object without an address")),
            other => Err(serde::de::Error::custom(format!(
                "expected an IP address, got {other}"
            ))),
        }
    }
}

/// What a decoder needs of the request it decodes for (this module names no request, so
/// the request table may name the decoders): the endpoint's label, for errors, and how
/// many entries of a list are kept.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Asked {
    pub label: &'static str,
    pub cap: Option<usize>,
}

pub(crate) fn decode<T: DeserializeOwned>(asked: Asked, bytes: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|e| decode_error(asked, bytes, e))
}

/// A list, leniently (see [`lenient::vec`]), at most [`limits::list_cap`] entries of it
/// kept, and nothing after it.
pub(crate) fn decode_list<T: DeserializeOwned>(
    asked: Asked,
    bytes: &[u8],
) -> Result<Vec<T>, ApiError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let cap = asked.cap.unwrap_or(usize::MAX);
    lenient::vec_capped(&mut de, cap)
        .and_then(|v| de.end().map(|_| v))
        .map_err(|e| decode_error(asked, bytes, e))
}

/// A list of records, record by record ([`Listed`]): each is read apart from the others,
/// so one that does not read is skipped and named ([`Skipped`]) and the rest are kept. A
/// list of which no record reads is not one of these records (`{"unexpected":true}`):
/// that is a decode error, as a body of the wrong shape always was. At most the list's
/// cap of records is kept; the rest are read past unbuilt.
pub(crate) fn decode_records<T: DeserializeOwned + Record>(
    asked: Asked,
    bytes: &[u8],
) -> Result<Listed<T>, ApiError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let cap = asked.cap.unwrap_or(usize::MAX);
    let raw: Vec<&serde_json::value::RawValue> = lenient::vec_capped(&mut de, cap)
        .and_then(|v| de.end().map(|_| v))
        .map_err(|e| decode_error(asked, bytes, e))?;
    let mut listed = Listed::whole(Vec::with_capacity(raw.len()));
    for record in raw {
        match serde_json::from_str::<T>(record.get()) {
            Ok(item) => listed.items.push(item),
            Err(_) => listed.skip(skipped::<T>(record.get())),
        }
    }
    if listed.items.is_empty() && listed.skipped_count > 0 {
        return Err(ApiError::Decode {
            endpoint: asked.label,
            detail: listed.skipped_line().unwrap_or_default(),
        });
    }
    if let Some(line) = listed.skipped_line() {
        tracing::warn!(endpoint = asked.label, "{line}");
    }
    Ok(listed)
}

/// What can be told of a record that did not read: its ID, the member that did not read
/// (found by reading it again with the path kept) and that member's value as sent.
fn skipped<T: DeserializeOwned + Record>(record: &str) -> Skipped {
    use serde_json::value::RawValue;
    let members: Option<std::collections::BTreeMap<String, &RawValue>> =
        serde_json::from_str(record).ok();
    let Some(members) = members else {
        return Skipped {
            value: shown_value(record),
            ..Skipped::default()
        };
    };
    let unquoted = |raw: &RawValue| match serde_json::from_str::<String>(raw.get()) {
        Ok(text) => shown(&text, 24),
        Err(_) => shown(raw.get(), 24),
    };
    let mut de = serde_json::Deserializer::from_str(record);
    let field = match serde_path_to_error::deserialize::<_, T>(&mut de) {
        Ok(_) => None,
        Err(e) => match e.path().iter().next() {
            Some(serde_path_to_error::Segment::Map { key }) => Some(key.clone()),
            // A member the record lacks is reported at the record: `missing field `id``.
            _ => missing_field(&e.inner().to_string()),
        },
    };
    let value = field
        .as_deref()
        .and_then(|f| members.get(f))
        .map_or_else(|| "(missing)".to_owned(), |raw| shown_value(raw.get()));
    Skipped {
        id: members.get(T::ID).map(|raw| unquoted(raw)),
        field: Some(shown(field.as_deref().unwrap_or("(the record)"), 40)),
        value,
        status: members.get("status").map(|raw| unquoted(raw)),
    }
}

/// Server text in a message: cleaned of control characters and whole escape sequences,
/// cut to `max` characters.
fn shown(text: &str, max: usize) -> String {
    crate::text::truncate(&crate::text::sanitize(text), max).into_owned()
}

/// A value as sent, as JSON text: a string quoted (its text cleaned: an escape sequence
/// inside it goes whole, not as `\u001b[2J`), anything else as it was written.
fn shown_value(raw: &str) -> String {
    match serde_json::from_str::<String>(raw) {
        Ok(text) => format!("\"{}\"", shown(&text, 38)),
        Err(_) => shown(raw.trim(), 40),
    }
}

/// `id` of serde's "missing field `id`".
fn missing_field(message: &str) -> Option<String> {
    let rest = message.strip_prefix("missing field `")?;
    Some(rest.split('`').next()?.to_owned())
}

pub(crate) fn decode_addresses(asked: Asked, bytes: &[u8]) -> Result<Vec<String>, ApiError> {
    Ok(decode_list::<Address>(asked, bytes)?
        .into_iter()
        .map(|a| a.0)
        .collect())
}

/// The answer to a PUT; one that confirms none of the requested operations is a decode
/// error, since the caller cannot tell what was done.
pub(crate) fn decode_update(
    asked: Asked,
    update: &ServiceUpdate,
    bytes: &[u8],
) -> Result<UpdateResult, ApiError> {
    let result: UpdateResult = decode(asked, bytes)?;
    let changes = update.setip.is_some() || update.update_list || update.password.is_some();
    if changes && result.messages().is_empty() {
        return Err(ApiError::Decode {
            endpoint: asked.label,
            detail: format!(
                "the answer confirms none of the requested changes: {}",
                error::excerpt(&String::from_utf8_lossy(bytes), 80)
            ),
        });
    }
    Ok(result)
}

pub(crate) fn parse_ip_list(
    list_type: &IpListType,
    format: &IpListFormat,
    bytes: Vec<u8>,
) -> IpList {
    let raw = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    IpList::parse(list_type.clone(), format.clone(), raw)
}

pub(crate) fn decode_error(asked: Asked, bytes: &[u8], e: serde_json::Error) -> ApiError {
    let detail = if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        "empty body".to_owned()
    } else if e.is_eof() {
        "the body ends early (truncated)".to_owned()
    } else if e.is_syntax() {
        format!(
            "not JSON: {}",
            error::excerpt(&String::from_utf8_lossy(bytes), 80)
        )
    } else {
        e.to_string()
    };
    ApiError::Decode {
        endpoint: asked.label,
        detail,
    }
}

/// Maps a non-2xx answer to its case of spec section 7.
pub fn status_error(status: StatusCode, body: &[u8], retry_after: Option<u64>) -> ApiError {
    let text = String::from_utf8_lossy(body);
    let json_error = serde_json::from_slice::<serde_json::Value>(body)
        .ok()
        .and_then(|v| v.get("error").and_then(|e| e.as_str()).map(str::to_owned));
    match (status.as_u16(), json_error) {
        (401, _) => ApiError::Unauthenticated,
        (400, Some(message)) if message.to_ascii_lowercase().contains("clientid not found") => {
            ApiError::ClientIdNotFound { message }
        }
        (400, None) if text.trim() == "Invalid Authorization header" => {
            ApiError::InvalidAuthorizationHeader
        }
        (400, None) if text.trim() == "Invalid credentials format" => {
            ApiError::InvalidCredentialsFormat
        }
        (422, Some(message)) => ApiError::Unprocessable {
            kind: Unprocessable::classify(&message),
            message,
        },
        (429, Some(message)) if message.contains("Next update possible") => ApiError::Throttled {
            next_possible: parse_next_possible(&message),
            message,
        },
        (429, _) => ApiError::RateLimited { retry_after },
        (status, json) => ApiError::Http {
            status,
            excerpt: error::excerpt(json.as_deref().unwrap_or(&text), 120),
            retry_after,
        },
    }
}

/// The `YYYY-MM-DD HH:MM:SS` after `Next update possible:` in a 429 message.
pub fn parse_next_possible(message: &str) -> Option<chrono::NaiveDateTime> {
    let after = message.split("possible:").nth(1)?.trim();
    lenient::parse_datetime(after.get(..19).unwrap_or(after))
}

/// A `Retry-After` header as seconds to wait from `now`: either form RFC 9110 allows, a
/// number of seconds or an HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`; a date already past
/// means at once). Anything else is ignored, and the normal backoff applies.
pub fn parse_retry_after(value: &str, now: chrono::DateTime<chrono::Utc>) -> Option<u64> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(secs);
    }
    let at = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    Some(u64::try_from((at.to_utc() - now).num_seconds()).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::super::limits;
    use super::*;
    use crate::api::{Request, Response, decode_body};
    use chrono::TimeZone;

    /// 60 MB of `[{},{},…]` used to become 15 million entries (3.3 GB); a list keeps at
    /// most its cap, and the rest is read past without being built.
    #[test]
    fn a_list_keeps_at_most_its_cap() {
        let mut body = b"[".to_vec();
        for i in 0..200_000 {
            body.extend_from_slice(if i == 0 { b"{}" } else { b",{}" });
        }
        body.push(b']');
        let cap = limits::list_cap(&Request::Stats(1)).unwrap();
        match decode_body(&Request::Stats(1), &body) {
            Ok(Response::Stats(v)) => assert_eq!(v.len(), cap),
            other => panic!("{other:?}"),
        }
        match decode_body(&Request::Services, &body) {
            Err(ApiError::Decode { .. }) => {}
            other => panic!("services need an ID: {other:?}"),
        }
        // Whatever follows the cap must still be valid JSON.
        let mut broken = body.clone();
        broken.insert(body.len() - 1, b'x');
        assert!(decode_body(&Request::Stats(1), &broken).is_err());
        let invoices = format!("[{}]", vec![r#"{"id":1}"#; 150_000].join(","));
        match decode_body(&Request::Invoices, invoices.as_bytes()) {
            Ok(Response::Invoices(v)) => assert_eq!(v.len(), 100_000),
            other => panic!("{other:?}"),
        }
    }

    /// Issue 46.2: one record that does not read is skipped and named; the others stay.
    #[test]
    fn a_record_that_does_not_read_is_skipped_and_named() {
        let body = br#"[{"id": 811, "amount": "5"},
            {"id": "812", "status": "Unpaid", "amount": "1,234.50"},
            {"id": 813, "amount": 7, "created_at": "2026-01-02"},
            {"amount": 1},
            17,
            {"id": 815, "amount": "NaN\u001b[2J"}]"#;
        let Ok(Response::Invoices(listed)) = decode_body(&Request::Invoices, body) else {
            panic!("the list reads");
        };
        assert_eq!(listed.iter().map(|i| i.id).collect::<Vec<_>>(), [811, 813]);
        assert_eq!(listed.skipped_count, 4);
        let words: Vec<String> = listed.skipped.iter().map(Skipped::words).collect();
        assert_eq!(
            words,
            [
                r#"id 812, amount "1,234.50""#,
                "no id, id (missing)",
                "no id, not a record: 17",
                r#"id 815, amount "NaN""#,
            ]
        );
        assert_eq!(listed.skipped[0].status.as_deref(), Some("Unpaid"));
        assert_eq!(
            listed.skipped_line().unwrap(),
            r#"4 invoices could not be read: id 812, amount "1,234.50"; no id, id (missing); no id, not a record: 17; and 1 more"#
        );
    }

    /// A list of which no record reads is a body of the wrong shape, as it always was.
    #[test]
    fn a_list_of_which_nothing_reads_is_a_decode_error() {
        for body in [&br#"{"unexpected":true}"#[..], br#"[{"productId": "x"}]"#] {
            match decode_body(&Request::Products, body) {
                Err(ApiError::Decode { detail, .. }) => {
                    assert!(detail.contains("could not be read"), "{detail}")
                }
                other => panic!("{other:?}"),
            }
        }
        match decode_body(&Request::Products, b"[]") {
            Ok(Response::Products(l)) => assert!(l.is_empty() && l.skipped_count == 0),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn retry_after_takes_seconds_or_an_http_date() {
        let now = chrono::Utc
            .with_ymd_and_hms(2026, 11, 22, 8, 49, 7)
            .unwrap();
        assert_eq!(parse_retry_after(" 120 ", now), Some(120));
        assert_eq!(
            parse_retry_after("Sun, 22 Nov 2026 08:49:37 GMT", now),
            Some(30)
        );
        assert_eq!(
            parse_retry_after("Sun, 22 Nov 2026 08:00:00 GMT", now),
            Some(0),
            "a date already past: at once"
        );
        for junk in ["", "soon", "-5", "1.5", "Sun, 99 Nov 2026 08:49:37 GMT"] {
            assert_eq!(parse_retry_after(junk, now), None, "{junk:?}");
        }
    }
}
