//! IP lists (endpoint 16) and the proxy addresses behind network status (endpoints 8, 9).
//!
//! Choices ("not shown" in the spec):
//! - Hosts come from the service: an fpr service has `ip_count` proxies, a ppr service has
//!   the three rotating gateways [`GATEWAYS`]. Every type works for every service; the
//!   type picks the protocol (`http-*`/`ppr-http` = HTTP, `socks-ip`/`ppr-socks` = SOCKS)
//!   and whether the service's credentials are included (`http-auth`, `ppr-http`,
//!   `ppr-socks`: yes; `http-ip`, `socks-ip`: host and port only).
//! - Ports: fpr proxies 8080 (HTTP) and 1080 (SOCKS); ppr gateways 8000 and 9000.
//! - Addresses are deterministic and in reserved ranges: a list of up to 254 proxies lies
//!   in 203.0.113.0/24 or 198.51.100.0/24 (documentation ranges), a longer one in
//!   198.18.0.0/15 (the benchmarking range, room for 131,070; longer lists are cut there).
//!   The block and offset depend on the service ID and on how often its list was
//!   refreshed, so `update_list` really changes the addresses.
//! - Layouts, one entry per line, `\n` line ends:
//!   - `txt`: `host:port` or `host:port:login:password`;
//!   - `csv`: a header row `ip,port` or `ip,port,login,password`, then one row per proxy;
//!   - `json`: a JSON array (section 4: a list is an array), one object per line:
//!     `[{"ip":"203.0.113.5","port":8080,"login":"u","password":"p"},\n{...}]` (the port
//!     a number). With quirks, like live servers: the objects separated by `,\n`
//!     *without* surrounding brackets, the port a string. Clients must read both.
//! - With `--proxies` ([`super::proxies`]) the hosts are the loopback fixtures instead, each
//!   with its own port: an fpr list holds the first `min(ip_count, fixtures)` of them, a
//!   ppr list the farm's two gateways (one rotating, one sticky: [`super::proxies`]),
//!   whatever the type; network status marks the same indices, so the provider's marks
//!   and the probe can disagree.
//! - Content-Type: `text/plain; charset=utf-8` for txt and csv, `application/json` for json.

use super::proxies::ProxyFarm;
use super::records::ServiceRec;
use crate::api::model::{IpListFormat, IpListType};
use std::fmt::Write as _;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;

pub const GATEWAYS: [Ipv4Addr; 3] = [
    Ipv4Addr::new(192, 0, 2, 10),
    Ipv4Addr::new(192, 0, 2, 11),
    Ipv4Addr::new(192, 0, 2, 12),
];
pub const FPR_HTTP_PORT: u16 = 8080;
pub const FPR_SOCKS_PORT: u16 = 1080;
pub const PPR_HTTP_PORT: u16 = 8000;
pub const PPR_SOCKS_PORT: u16 = 9000;

const SMALL_BLOCKS: [[u8; 3]; 2] = [[203, 0, 113], [198, 51, 100]];
const LARGE_BASE: u32 = u32::from_be_bytes([198, 18, 0, 0]);
const LARGE_SPAN: u32 = 131_070;

/// Everything needed to write one list, copied out of the store so the (possibly
/// 100,000-line) text is built without holding the lock.
#[derive(Clone, Debug)]
pub struct ListPlan {
    hosts: Hosts,
    port: u16,
    credentials: Option<(String, String)>,
}

#[derive(Clone, Debug)]
enum Hosts {
    Fpr {
        service_id: u64,
        epoch: u32,
        count: u32,
    },
    Gateways,
    /// `--proxies`: loopback fixtures, each with its own port.
    Farm(Arc<[SocketAddr]>),
}

impl Hosts {
    fn of(service: &ServiceRec, farm: Option<&ProxyFarm>) -> Self {
        if let Some(farm) = farm {
            if !service.is_fpr() && !farm.gateways.is_empty() {
                return Hosts::Farm(farm.gateways.clone());
            }
            let n = if service.is_fpr() {
                service.ip_count as usize
            } else {
                GATEWAYS.len()
            };
            let n = n.min(farm.addrs.len());
            return Hosts::Farm(farm.addrs[..n].into());
        }
        if service.is_fpr() {
            Hosts::Fpr {
                service_id: service.id,
                epoch: service.list_epoch,
                count: service.ip_count.min(LARGE_SPAN),
            }
        } else {
            Hosts::Gateways
        }
    }

    fn len(&self) -> u32 {
        match self {
            Hosts::Fpr { count, .. } => *count,
            Hosts::Gateways => GATEWAYS.len() as u32,
            Hosts::Farm(addrs) => addrs.len() as u32,
        }
    }

    /// The host and, for a farm, its own port.
    fn entry(&self, i: u32, port: u16) -> Option<(Ipv4Addr, u16)> {
        match self {
            Hosts::Farm(addrs) => match addrs.get(i as usize)? {
                SocketAddr::V4(a) => Some((*a.ip(), a.port())),
                SocketAddr::V6(_) => None,
            },
            _ => self.get(i).map(|h| (h, port)),
        }
    }

    fn get(&self, i: u32) -> Option<Ipv4Addr> {
        match *self {
            Hosts::Farm(_) => self.entry(i, 0).map(|(h, _)| h),
            Hosts::Fpr {
                service_id,
                epoch,
                count,
            } => (i < count).then(|| address(service_id, epoch, count, i)),
            Hosts::Gateways => GATEWAYS.get(i as usize).copied(),
        }
    }
}

/// The `i`-th proxy of a service (fpr) or gateway (ppr), for network status.
pub fn host(service: &ServiceRec, farm: Option<&ProxyFarm>, i: u32) -> Option<Ipv4Addr> {
    Hosts::of(service, farm).get(i)
}

/// The `i`-th of `count` proxies of an fpr service; distinct for distinct `i < count`.
pub fn address(service_id: u64, epoch: u32, count: u32, i: u32) -> Ipv4Addr {
    let mix = service_id.wrapping_add(epoch as u64);
    if count <= 254 {
        let block = SMALL_BLOCKS[(mix % 2) as usize];
        let start = (service_id.wrapping_mul(37).wrapping_add(epoch as u64 * 11) % 254) as u32;
        let last = 1 + (start + i) % 254;
        Ipv4Addr::new(block[0], block[1], block[2], last as u8)
    } else {
        let start = (service_id
            .wrapping_mul(7919)
            .wrapping_add(epoch as u64 * 104_729)
            % LARGE_SPAN as u64) as u32;
        Ipv4Addr::from(LARGE_BASE + 1 + (start + i) % LARGE_SPAN)
    }
}

pub fn plan(
    service: &ServiceRec,
    farm: Option<&ProxyFarm>,
    list_type: &IpListType,
) -> Option<ListPlan> {
    let socks = match list_type {
        IpListType::HttpIp | IpListType::HttpAuth | IpListType::PprHttp => false,
        IpListType::SocksIp | IpListType::PprSocks => true,
        IpListType::Other(_) => return None,
    };
    let with_credentials = !matches!(list_type, IpListType::HttpIp | IpListType::SocksIp);
    let port = match (service.is_fpr(), socks) {
        (true, false) => FPR_HTTP_PORT,
        (true, true) => FPR_SOCKS_PORT,
        (false, false) => PPR_HTTP_PORT,
        (false, true) => PPR_SOCKS_PORT,
    };
    Some(ListPlan {
        hosts: Hosts::of(service, farm),
        port,
        credentials: with_credentials.then(|| (service.username.clone(), service.password.clone())),
    })
}

pub fn content_type(format: &IpListFormat) -> &'static str {
    match format {
        IpListFormat::Json => "application/json",
        _ => "text/plain; charset=utf-8",
    }
}

/// The list as served; `None` for a format the spec does not list. `quirks`: the `json`
/// list as live servers send it (no brackets, ports as strings).
pub fn render(plan: &ListPlan, format: &IpListFormat, quirks: bool) -> Option<String> {
    let n = plan.hosts.len();
    let mut out = String::with_capacity(n as usize * 64 + 32);
    let entries = (0..n).filter_map(|i| plan.hosts.entry(i, plan.port));
    match format {
        IpListFormat::Txt => {
            for (host, port) in entries {
                let _ = match &plan.credentials {
                    Some((l, p)) => writeln!(out, "{host}:{port}:{l}:{p}"),
                    None => writeln!(out, "{host}:{port}"),
                };
            }
        }
        IpListFormat::Csv => {
            out.push_str(match plan.credentials {
                Some(_) => "ip,port,login,password\n",
                None => "ip,port\n",
            });
            for (host, port) in entries {
                let _ = match &plan.credentials {
                    Some((l, p)) => writeln!(out, "{host},{port},{l},{p}"),
                    None => writeln!(out, "{host},{port}"),
                };
            }
        }
        IpListFormat::Json => {
            let quoted = plan
                .credentials
                .as_ref()
                .map(|(l, p)| (json_string(l), json_string(p)));
            let (open, close) = if quirks { ("", "") } else { ("[", "]") };
            out.push_str(open);
            for (k, (host, port)) in entries.enumerate() {
                let port = if quirks {
                    format!("\"{port}\"")
                } else {
                    port.to_string()
                };
                if k > 0 {
                    out.push_str(",\n");
                }
                let _ = match &quoted {
                    Some((l, p)) => write!(
                        out,
                        r#"{{"ip":"{host}","port":{port},"login":{l},"password":{p}}}"#
                    ),
                    None => write!(out, r#"{{"ip":"{host}","port":{port}}}"#),
                };
            }
            out.push_str(close);
        }
        IpListFormat::Other(_) => return None,
    }
    Some(out)
}

fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn addresses_are_distinct_within_a_list() {
        for (id, count) in [(1001u64, 10u32), (7, 254), (1, 100_000), (42, 131_070)] {
            let set: HashSet<_> = (0..count).map(|i| address(id, 0, count, i)).collect();
            assert_eq!(set.len(), count as usize, "service {id}");
        }
    }

    #[test]
    fn small_lists_stay_in_documentation_ranges() {
        for i in 0..254 {
            let a = address(1001, 3, 254, i).octets();
            assert!(SMALL_BLOCKS.contains(&[a[0], a[1], a[2]]), "{a:?}");
            assert!(a[3] >= 1 && a[3] <= 254);
        }
    }

    #[test]
    fn a_refresh_moves_the_addresses() {
        assert_ne!(address(1001, 0, 10, 0), address(1001, 1, 10, 0));
    }
}
