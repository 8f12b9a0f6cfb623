//! Which IP list a service is probed from, and its entries as [`ProxyTarget`]s.
//!
//! Choices: a static (fpr) service is probed from its `http-auth` list (HTTP proxies with
//! credentials) unless `socks-ip` is asked for; a rotating (ppr) one from its `ppr-http`
//! gateway list unless `ppr-socks`. The protocol follows the type
//! ([`IpListType::scheme`]). An entry without credentials (`socks-ip`, `http-ip`) gets
//! the service's username and password, which the API says are the proxies'. An entry
//! without a port cannot be probed: it is kept with port 0 and reported skipped, never
//! dropped unseen.

use super::{ProxyTarget, Scheme};
use crate::api::{IpList, IpListType, ProductType};

/// The list type probed for a product type when none is chosen.
pub fn default_type(product_type: &ProductType) -> IpListType {
    IpListType::default_for(product_type)
}

/// The list types probed for a product type: the default one, and with `both` the same
/// proxies' list of the other protocol (`socks-ip` beside `http-auth`, `ppr-socks` beside
/// `ppr-http`).
pub fn types_for(product_type: &ProductType, both: bool) -> Vec<IpListType> {
    let first = default_type(product_type);
    if !both {
        return vec![first];
    }
    let other = match first {
        IpListType::PprHttp => IpListType::PprSocks,
        _ => IpListType::SocksIp,
    };
    vec![first, other]
}

pub fn scheme_of(list_type: &IpListType) -> Scheme {
    match list_type.scheme() {
        "socks5" => Scheme::Socks5,
        _ => Scheme::Http,
    }
}

/// The entries of `list` as targets; `credentials` fill in entries that carry none. A
/// line that cannot be read (an IPv6 `[::1]:8080`) becomes a target of port 0 named by
/// its text (60 characters at most), reported skipped by the check.
pub fn from_list(list: &IpList, credentials: Option<(&str, &str)>) -> Vec<ProxyTarget> {
    let scheme = scheme_of(&list.list_type);
    let unreadable = list.unreadable_lines().into_iter().map(|line| ProxyTarget {
        host: line.chars().filter(|c| !c.is_control()).take(60).collect(),
        port: 0,
        scheme,
        login: None,
        password: None,
    });
    list.entries()
        .into_iter()
        .map(|e| {
            let port = e.port.unwrap_or(0);
            let (login, password) = match (e.login, credentials) {
                (Some(l), _) => (Some(l), e.password),
                (None, Some((l, p))) => (Some(l.to_owned()), Some(p.to_owned())),
                (None, None) => (None, None),
            };
            ProxyTarget {
                host: e.host,
                port,
                scheme,
                login,
                password,
            }
        })
        .chain(unreadable)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::IpListFormat;

    #[test]
    fn entries_without_credentials_take_the_services() {
        let list = IpList::parse(
            IpListType::SocksIp,
            IpListFormat::Txt,
            "127.0.0.10:1080\n127.0.0.11\n".into(),
        );
        let t = from_list(&list, Some(("u", "p")));
        assert_eq!(t.len(), 2, "no port: kept, to be reported skipped");
        assert_eq!(t[1].port, 0);
        assert_eq!(t[0].scheme, Scheme::Socks5);
        assert_eq!(t[0].login.as_deref(), Some("u"));
        assert_eq!(t[0].password.as_deref(), Some("p"));
    }

    #[test]
    fn an_ipv6_entry_is_kept_to_be_reported() {
        let list = IpList::parse(
            IpListType::HttpAuth,
            IpListFormat::Txt,
            "[::1]:8080:u:p\n127.0.0.10:8080:u:p\n".into(),
        );
        let t = from_list(&list, None);
        assert_eq!(t.len(), 2);
        assert_eq!((t[1].host.as_str(), t[1].port), ("[::1]:8080:u:p", 0));
        assert_eq!(t[1].address(), "[::1]:8080:u:p");
    }
}
