//! The IPv4 rule of `setip` (spec 4.1 and 4.3): a strict dotted quad, four decimal octets
//! 0–255 with no leading zeros (`01.2.3.4` would be octal to `inet_aton`), no spaces, no
//! other notation. One rule for the whole program: the forms check it before sending (and
//! say why beside the field), the scripting commands before sending, and the sandbox
//! answers `Invalid IPv4 format` by it.

use std::fmt;
use std::net::Ipv4Addr;

/// Why a text is not an IPv4 address, in words for the inline error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InvalidIpv4 {
    Empty,
    /// Not four parts separated by dots.
    Parts(usize),
    /// A part that is not decimal digits.
    NotDecimal(String),
    /// A part over 255.
    TooBig(String),
    /// `01`: some systems read a leading zero as octal, so the address is ambiguous.
    LeadingZero(String),
}

impl fmt::Display for InvalidIpv4 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("type an IPv4 address, e.g. 203.0.113.5"),
            Self::Parts(n) => write!(
                f,
                "an IPv4 address has 4 numbers separated by dots, not {n}"
            ),
            Self::NotDecimal(p) => write!(f, "{p:?} is not a number from 0 to 255"),
            Self::TooBig(p) => write!(f, "{p} is over 255"),
            Self::LeadingZero(p) => write!(f, "{p} has a leading zero"),
        }
    }
}

/// A strict dotted quad: four decimal octets 0–255, no leading zeros, no spaces, nothing
/// else (`1.2.3` and `0x7f.0.0.1` are refused, where `inet_aton` would guess). The same rule
/// as the server's, so what passes here is never refused as `Invalid IPv4 format`.
pub fn parse_ipv4(s: &str) -> Result<Ipv4Addr, InvalidIpv4> {
    if s.is_empty() {
        return Err(InvalidIpv4::Empty);
    }
    let parts: Vec<&str> = s.split('.').collect();
    if parts.len() != 4 {
        return Err(InvalidIpv4::Parts(parts.len()));
    }
    let mut octets = [0u8; 4];
    for (octet, part) in octets.iter_mut().zip(&parts) {
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(InvalidIpv4::NotDecimal((*part).to_owned()));
        }
        if part.len() > 1 && part.starts_with('0') {
            return Err(InvalidIpv4::LeadingZero((*part).to_owned()));
        }
        *octet = part
            .parse()
            .map_err(|_| InvalidIpv4::TooBig((*part).to_owned()))?;
    }
    Ok(Ipv4Addr::from(octets))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dotted_quads_pass() {
        for ok in [
            "0.0.0.0",
            "203.0.113.5",
            "255.255.255.255",
            "10.0.0.1",
            "1.2.3.40",
        ] {
            assert_eq!(parse_ipv4(ok).map(|ip| ip.to_string()), Ok(ok.to_owned()));
        }
    }

    #[test]
    fn everything_else_is_refused_with_a_reason() {
        use InvalidIpv4::*;
        for (bad, why) in [
            ("", Empty),
            ("1.2.3", Parts(3)),
            ("1.2.3.4.5", Parts(5)),
            ("203.0.113", Parts(3)),
            ("256.1.1.1", TooBig("256".into())),
            ("1.2.3.999", TooBig("999".into())),
            ("1.2.3.0255", LeadingZero("0255".into())),
            ("01.2.3.4", LeadingZero("01".into())),
            ("1.2.3.00", LeadingZero("00".into())),
            ("1..3.4", NotDecimal(String::new())),
            ("1.2.3.4 ", NotDecimal("4 ".into())),
            (" 1.2.3.4", NotDecimal(" 1".into())),
            ("1.2.3.-4", NotDecimal("-4".into())),
            ("1.2.3.+4", NotDecimal("+4".into())),
            ("0x7f.0.0.1", NotDecimal("0x7f".into())),
            ("a.b.c.d", NotDecimal("a".into())),
            ("1.2.3.٤", NotDecimal("٤".into())),
            ("::1", Parts(1)),
        ] {
            assert_eq!(parse_ipv4(bad), Err(why), "{bad:?}");
        }
        assert_eq!(
            parse_ipv4("256.1.1.1").unwrap_err().to_string(),
            "256 is over 255"
        );
    }
}
