//! Reading the two request bodies of the API (4.1 order, 4.3 update) and the strict IPv4
//! rule. Everything here answers "is this well-formed?"; whether it is allowed (funds, a
//! bound IP, the throttle) is decided by [`super::state`].
//!
//! Choices ("not shown" in the spec):
//! - The body is read as JSON whatever the `Content-Type` says; anything that is not a
//!   JSON object is `Incorrect posted data`.
//! - `clientid` is an integer: a JSON integer ≥ 0 or a string of decimal digits (`"101"`),
//!   as a PHP validator's `integer` rule accepts; `101.5`, `-1`, `true` are refused.
//! - An empty string or `null` counts as an absent field (a Laravel-style backend turns
//!   `""` into `null` before validating). Unknown members are ignored.
//! - `update_list` accepts `"true"` and `"1"`; any other string (even `"false"`) and any
//!   non-string are `Incorrect posted data`.
//! - `password` must be base64 (standard alphabet, `=` padding optional) of 1–64 printable
//!   ASCII characters without spaces, `,` and `"`: every IP-list format must stay
//!   parseable with the password in it (the CSV lists have no quoting).
//! - IPv4 is a strict dotted quad: four decimal octets 0–255, no leading zeros (`01.2.3.4`
//!   is refused: `inet_aton` would read it as octal), no spaces, no other notation.

use super::errors::Failure;
use base64::Engine as _;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use serde_json::{Map, Value};
use std::net::Ipv4Addr;

/// Standard base64 that accepts input with or without `=` padding.
pub const BASE64_LENIENT: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

pub const PASSWORD_MAX: usize = 64;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderBody {
    pub clientid: u64,
    /// Still unchecked text: whether it is usable depends on the product.
    pub setip: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UpdateBody {
    /// Still unchecked text: the IPv4 check comes after the service checks (section 7
    /// gives it its own message).
    pub setip: Option<String>,
    pub update_list: bool,
    /// Already decoded from base64 and checked.
    pub password: Option<String>,
}

impl UpdateBody {
    pub fn is_empty(&self) -> bool {
        self.setip.is_none() && !self.update_list && self.password.is_none()
    }
}

pub fn parse_order(body: &[u8]) -> Result<OrderBody, Failure> {
    let map = object(body)?.ok_or(Failure::IncorrectPostedData)?;
    let clientid = match map.get("clientid") {
        Some(Value::Number(n)) => n.as_u64(),
        Some(Value::String(s)) => digits(s),
        _ => None,
    }
    .ok_or(Failure::IncorrectPostedData)?;
    Ok(OrderBody {
        clientid,
        setip: optional_string(&map, "setip")?,
    })
}

/// An empty body is a valid update with no operations (the spec says the body is optional).
pub fn parse_update(body: &[u8]) -> Result<UpdateBody, Failure> {
    let Some(map) = object(body)? else {
        return Ok(UpdateBody::default());
    };
    let update_list = match optional_string(&map, "update_list")?.as_deref() {
        None => false,
        Some(v) if v.eq_ignore_ascii_case("true") || v == "1" => true,
        Some(_) => return Err(Failure::IncorrectPostedData),
    };
    let password = match optional_string(&map, "password")? {
        None => None,
        Some(encoded) => Some(decode_password(&encoded).ok_or(Failure::IncorrectPostedData)?),
    };
    Ok(UpdateBody {
        setip: optional_string(&map, "setip")?,
        update_list,
        password,
    })
}

/// `None` for an empty (or all-whitespace) body, the object otherwise.
fn object(body: &[u8]) -> Result<Option<Map<String, Value>>, Failure> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(map)) => Ok(Some(map)),
        _ => Err(Failure::IncorrectPostedData),
    }
}

fn optional_string(map: &Map<String, Value>, key: &str) -> Result<Option<String>, Failure> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.is_empty() => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(Failure::IncorrectPostedData),
    }
}

fn digits(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn decode_password(encoded: &str) -> Option<String> {
    let bytes = BASE64_LENIENT.decode(encoded.trim()).ok()?;
    let password = String::from_utf8(bytes).ok()?;
    let usable = (1..=PASSWORD_MAX).contains(&password.len())
        && password
            .bytes()
            .all(|b| (0x21..=0x7e).contains(&b) && b != b',' && b != b'"');
    usable.then_some(password)
}

/// A strict dotted quad: the API's rule ([`crate::api::ipv4`]).
pub fn parse_ipv4(s: &str) -> Option<Ipv4Addr> {
    crate::api::ipv4::parse_ipv4(s).ok()
}

/// A path ID: decimal digits only (`"12"`, not `"+12"`, `" 12"` or `"1e3"`).
pub fn parse_id(s: &str) -> Option<u64> {
    digits(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv4_is_strict() {
        assert_eq!(
            parse_ipv4("203.0.113.5"),
            Some(Ipv4Addr::new(203, 0, 113, 5))
        );
        assert_eq!(parse_ipv4("0.0.0.0"), Some(Ipv4Addr::UNSPECIFIED));
        assert_eq!(parse_ipv4("255.255.255.255"), Some(Ipv4Addr::BROADCAST));
        for bad in [
            "256.1.1.1",
            "1.2.3",
            "1.2.3.4.5",
            "a.b.c.d",
            "01.2.3.4",
            "1.2.3.4 ",
            " 1.2.3.4",
            "1..3.4",
            "",
            "1.2.3.-4",
            "+1.2.3.4",
            "1.2.3.0x4",
            "1.2.3.1000",
            "::1",
        ] {
            assert_eq!(parse_ipv4(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn order_body_rules() {
        assert_eq!(
            parse_order(br#"{"clientid": 101, "setip": "192.0.2.9"}"#),
            Ok(OrderBody {
                clientid: 101,
                setip: Some("192.0.2.9".into())
            })
        );
        assert_eq!(
            parse_order(br#"{"clientid": "101"}"#).map(|b| b.clientid),
            Ok(101)
        );
        assert_eq!(
            parse_order(br#"{"clientid": 101, "setip": ""}"#).map(|b| b.setip),
            Ok(None)
        );
        for bad in [
            &b""[..],
            b"null",
            b"[]",
            b"{}",
            b"not json",
            br#"{"clientid": 1.5}"#,
            br#"{"clientid": -1}"#,
            br#"{"clientid": true}"#,
            br#"{"clientid": "x1"}"#,
            br#"{"clientid": 1, "setip": 5}"#,
        ] {
            assert_eq!(
                parse_order(bad),
                Err(Failure::IncorrectPostedData),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn update_body_rules() {
        assert_eq!(parse_update(b""), Ok(UpdateBody::default()));
        assert_eq!(parse_update(b"{}"), Ok(UpdateBody::default()));
        let all =
            parse_update(br#"{"setip":"1.2.3.4","update_list":"true","password":"czNjcjN0"}"#);
        assert_eq!(
            all,
            Ok(UpdateBody {
                setip: Some("1.2.3.4".into()),
                update_list: true,
                password: Some("s3cr3t".into()),
            })
        );
        assert_eq!(
            parse_update(br#"{"update_list":"1"}"#).map(|b| b.update_list),
            Ok(true)
        );
        // Unpadded base64 is accepted too.
        assert_eq!(
            parse_update(br#"{"password":"czNjcjN0eA"}"#).map(|b| b.password),
            Ok(Some("s3cr3tx".into()))
        );
        for bad in [
            &br#"null"#[..],
            br#"[]"#,
            br#"{"update_list":true}"#,
            br#"{"update_list":"false"}"#,
            br#"{"update_list":"yes please"}"#,
            br#"{"setip":1234}"#,
            br#"{"password":"not base64!"}"#,
            br#"{"password":"YSxi"}"#,
            br#"{"password":"YSBi"}"#,
            br#"{"password":7}"#,
            br#"{"password":"YSJi"}"#,
        ] {
            assert_eq!(
                parse_update(bad),
                Err(Failure::IncorrectPostedData),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn ids_are_plain_digits() {
        assert_eq!(parse_id("1001"), Some(1001));
        assert_eq!(parse_id("007"), Some(7));
        for bad in [
            "",
            "abc",
            "+1",
            "-1",
            " 1",
            "1.0",
            "99999999999999999999999",
        ] {
            assert_eq!(parse_id(bad), None, "{bad:?}");
        }
    }
}
