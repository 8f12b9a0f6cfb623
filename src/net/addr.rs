//! Which addresses are public unicast. A my-IP answer must be one (it is bound to the
//! account's proxies), and the probe does not go to the others unless asked (it sends a
//! proxy's credentials to every target). Pure functions: tests check the ranges here,
//! never by connecting.
//!
//! IPv4 ranges refused (RFC 6890 and its registry): 0.0.0.0/8, 10/8, 100.64/10, 127/8,
//! 169.254/16, 172.16/12, 192.0.0/24, 192.0.2/24, 192.168/16, 198.18/15, 198.51.100/24,
//! 203.0.113/24, 224/4, 240/4 and 255.255.255.255. IPv6: unspecified, loopback,
//! link-local (fe80::/10), unique local (fc00::/7), multicast (ff00::/8), documentation
//! (2001:db8::/32), and an IPv4-mapped address by its IPv4 rule.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Why an address is not public unicast.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotPublic {
    Unspecified,
    Loopback,
    Private,
    SharedCgnat,
    LinkLocal,
    Multicast,
    Broadcast,
    Documentation,
    Reserved,
}

impl NotPublic {
    /// The range in words, for "127.0.0.1 is a loopback address".
    pub fn words(self) -> &'static str {
        match self {
            Self::Unspecified => "an unspecified (\"this network\") address",
            Self::Loopback => "a loopback address",
            Self::Private => "a private address",
            Self::SharedCgnat => "a shared (carrier-grade NAT) address (100.64.0.0/10)",
            Self::LinkLocal => "a link-local address",
            Self::Multicast => "a multicast address",
            Self::Broadcast => "the broadcast address",
            Self::Documentation => "a documentation address",
            Self::Reserved => "a reserved address",
        }
    }
}

impl fmt::Display for NotPublic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.words())
    }
}

/// `None` when `ip` is public unicast; else which range it is in.
pub fn classify_v4(ip: Ipv4Addr) -> Option<NotPublic> {
    let [a, b, c, _] = ip.octets();
    Some(match (a, b, c) {
        _ if ip == Ipv4Addr::BROADCAST => NotPublic::Broadcast,
        (0, ..) => NotPublic::Unspecified,
        (127, ..) => NotPublic::Loopback,
        (10, ..) | (192, 168, _) => NotPublic::Private,
        (172, 16..=31, _) => NotPublic::Private,
        (100, 64..=127, _) => NotPublic::SharedCgnat,
        (169, 254, _) => NotPublic::LinkLocal,
        (192, 0, 2) | (198, 51, 100) | (203, 0, 113) => NotPublic::Documentation,
        (192, 0, 0) | (198, 18..=19, _) => NotPublic::Reserved,
        (224..=239, ..) => NotPublic::Multicast,
        (240..=255, ..) => NotPublic::Reserved,
        _ => return None,
    })
}

/// `None` when `ip` is public unicast; else which range it is in.
pub fn classify_v6(ip: Ipv6Addr) -> Option<NotPublic> {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return classify_v4(v4);
    }
    let first = ip.segments()[0];
    Some(match first {
        _ if ip.is_unspecified() => NotPublic::Unspecified,
        _ if ip.is_loopback() => NotPublic::Loopback,
        0xfe80..=0xfebf => NotPublic::LinkLocal,
        0xfc00..=0xfdff => NotPublic::Private,
        0xff00..=0xffff => NotPublic::Multicast,
        0x2001 if ip.segments()[1] == 0x0db8 => NotPublic::Documentation,
        _ => return None,
    })
}

/// Why `ip` cannot be bound to a service (its proxies then take connections from that
/// address only), if it cannot: the one rule of the dashboard's bind form, `proxydash
/// bind` and `watch --keep-bound`. Every range that is not public unicast is refused, the
/// documentation ones (RFC 5737: 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24) too:
/// no proxy user comes from one, so binding it locks the service out (issue 46.7; the
/// tests bind public addresses the sandbox answers as any other).
pub fn unbindable(ip: Ipv4Addr) -> Option<NotPublic> {
    classify_v4(ip)
}

/// The words of a refused bind: `127.0.0.1 is a loopback address: a proxy cannot be
/// reached from it; nothing was sent`.
pub fn bind_refusal(ip: Ipv4Addr) -> Option<String> {
    unbindable(ip)
        .map(|why| format!("{ip} is {why}: a proxy cannot be reached from it; nothing was sent"))
}

/// `None` when `ip` is public unicast; else which range it is in.
pub fn classify(ip: IpAddr) -> Option<NotPublic> {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => classify_v6(v6),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v4(s: &str) -> Option<NotPublic> {
        classify_v4(s.parse().unwrap())
    }

    #[test]
    fn one_bind_rule_refuses_what_no_proxy_user_comes_from() {
        for (ip, why) in [
            ("0.0.0.0", "unspecified"),
            ("127.0.0.1", "loopback"),
            ("10.0.0.8", "private"),
            ("172.16.0.1", "private"),
            ("192.168.1.1", "private"),
            ("169.254.1.1", "link-local"),
            ("224.0.0.1", "multicast"),
            ("255.255.255.255", "broadcast"),
            ("100.64.0.1", "shared"),
            ("240.0.0.1", "reserved"),
            // Issue 46.7: RFC 5737's ranges were let through.
            ("192.0.2.1", "documentation"),
            ("198.51.100.1", "documentation"),
            ("203.0.113.7", "documentation"),
        ] {
            let said = bind_refusal(ip.parse().unwrap()).unwrap_or_default();
            assert!(
                said.starts_with(ip) && said.contains(why) && said.ends_with("nothing was sent"),
                "{ip}: {said}"
            );
        }
        for ip in ["8.8.8.8", "45.83.220.10", "172.32.0.1", "100.128.0.1"] {
            assert_eq!(unbindable(ip.parse().unwrap()), None, "{ip}");
        }
    }

    #[test]
    fn every_range_that_is_not_public_is_named() {
        use NotPublic::*;
        for (ip, why) in [
            ("0.0.0.0", Unspecified),
            ("0.1.2.3", Unspecified),
            ("127.0.0.1", Loopback),
            ("127.255.255.254", Loopback),
            ("10.1.2.3", Private),
            ("172.16.0.1", Private),
            ("172.31.255.255", Private),
            ("192.168.1.1", Private),
            ("100.64.0.1", SharedCgnat),
            ("100.127.255.255", SharedCgnat),
            ("169.254.169.254", LinkLocal),
            ("224.0.0.1", Multicast),
            ("239.255.255.255", Multicast),
            ("255.255.255.255", Broadcast),
            ("192.0.2.1", Documentation),
            ("198.51.100.7", Documentation),
            ("203.0.113.5", Documentation),
            ("192.0.0.8", Reserved),
            ("198.18.0.1", Reserved),
            ("240.0.0.1", Reserved),
        ] {
            assert_eq!(v4(ip), Some(why), "{ip}");
        }
    }

    #[test]
    fn public_unicast_passes_and_the_edges_of_ranges_hold() {
        for ip in [
            "1.1.1.1",
            "8.8.8.8",
            "45.83.220.10",
            "100.63.255.255",
            "100.128.0.0",
            "172.15.255.255",
            "172.32.0.0",
            "169.253.0.1",
            "198.17.255.255",
            "198.20.0.0",
            "223.255.255.255",
            "1.18.0.1",
        ] {
            assert_eq!(v4(ip), None, "{ip}");
        }
    }

    #[test]
    fn ipv6_ranges_and_mapped_ipv4() {
        let v6 = |s: &str| classify(s.parse().unwrap());
        assert_eq!(v6("::1"), Some(NotPublic::Loopback));
        assert_eq!(v6("::"), Some(NotPublic::Unspecified));
        assert_eq!(v6("fe80::1"), Some(NotPublic::LinkLocal));
        assert_eq!(v6("fd00::1"), Some(NotPublic::Private));
        assert_eq!(v6("ff02::1"), Some(NotPublic::Multicast));
        assert_eq!(v6("2001:db8::1"), Some(NotPublic::Documentation));
        assert_eq!(v6("::ffff:127.0.0.1"), Some(NotPublic::Loopback));
        assert_eq!(v6("2606:4700::1111"), None);
    }
}
