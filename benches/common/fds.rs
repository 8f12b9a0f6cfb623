//! What this process holds open, read from Linux's `/proc`: every descriptor by kind, and
//! for a TCP socket its state and ports (`/proc/net/tcp` and `tcp6`, matched by inode).
//!
//! The watch soak and the watch test count these to tell a leak from a pool at work: a
//! leak is a socket left in CLOSE_WAIT (the peer closed, we never did), a count that
//! grows without bound, or one that does not come back down once everything is stopped;
//! a connection pool's idle keep-alive connections are none of these. (The in-process
//! sandbox's end of each connection is counted too: both ends live in this process.)

use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// The `st` column of `/proc/net/tcp`.
pub const CLOSE_WAIT: u8 = 0x08;
pub const LISTEN: u8 = 0x0A;

fn state_name(state: u8) -> &'static str {
    match state {
        0x01 => "ESTABLISHED",
        0x02 => "SYN_SENT",
        0x03 => "SYN_RECV",
        0x04 => "FIN_WAIT1",
        0x05 => "FIN_WAIT2",
        0x06 => "TIME_WAIT",
        0x07 => "CLOSE",
        CLOSE_WAIT => "CLOSE_WAIT",
        0x09 => "LAST_ACK",
        LISTEN => "LISTEN",
        0x0B => "CLOSING",
        _ => "UNKNOWN",
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tcp {
    pub inode: u64,
    pub state: u8,
    pub local_port: u16,
    pub remote_port: u16,
}

impl Tcp {
    pub fn on_port(&self, port: u16) -> bool {
        self.local_port == port || self.remote_port == port
    }
}

/// Every TCP socket of the machine that has an owner, by inode.
fn tcp_sockets() -> HashMap<u64, Tcp> {
    let port = |address: &str| {
        address
            .rsplit(':')
            .next()
            .and_then(|p| u16::from_str_radix(p, 16).ok())
            .unwrap_or(0)
    };
    let mut sockets = HashMap::new();
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let Ok(text) = std::fs::read_to_string(table) else {
            continue;
        };
        // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …
        for line in text.lines().skip(1) {
            let f: Vec<&str> = line.split_whitespace().collect();
            let (Some(local), Some(remote), Some(state), Some(inode)) =
                (f.get(1), f.get(2), f.get(3), f.get(9))
            else {
                continue;
            };
            let (Ok(state), Ok(inode)) = (u8::from_str_radix(state, 16), inode.parse::<u64>())
            else {
                continue;
            };
            // Inode 0: a socket no descriptor holds any more (TIME_WAIT and the like).
            if inode != 0 {
                let (local_port, remote_port) = (port(local), port(remote));
                sockets.insert(
                    inode,
                    Tcp {
                        inode,
                        state,
                        local_port,
                        remote_port,
                    },
                );
            }
        }
    }
    sockets
}

/// The descriptors of this process, by kind, with their TCP sockets.
#[derive(Clone, Debug, Default)]
pub struct Census {
    pub by_kind: BTreeMap<String, usize>,
    pub tcp: Vec<Tcp>,
}

impl Census {
    pub fn total(&self) -> usize {
        self.by_kind.values().sum()
    }

    pub fn in_state(&self, state: u8) -> impl Iterator<Item = &Tcp> {
        self.tcp.iter().filter(move |t| t.state == state)
    }

    /// The TCP sockets of this process with `port` at either end.
    pub fn on_port(&self, port: u16) -> impl Iterator<Item = &Tcp> {
        self.tcp.iter().filter(move |t| t.on_port(port))
    }
}

/// `23 descriptors: 1 eventpoll, 12 tcp ESTABLISHED, …`
impl fmt::Display for Census {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} descriptors:", self.total())?;
        for (i, (kind, n)) in self.by_kind.iter().enumerate() {
            write!(f, "{} {n} {kind}", if i == 0 { "" } else { "," })?;
        }
        Ok(())
    }
}

/// Reads `/proc/self/fd` now. The directory's own descriptor (open while it is read) is
/// left out; one closed while the list is read is skipped.
pub fn census() -> Census {
    let sockets = tcp_sockets();
    let own = format!("/proc/{}/fd", std::process::id());
    let mut census = Census::default();
    let Ok(dir) = std::fs::read_dir("/proc/self/fd") else {
        return census;
    };
    for entry in dir.flatten() {
        let Ok(target) = std::fs::read_link(entry.path()) else {
            continue;
        };
        let target = target.to_string_lossy().into_owned();
        if target == own {
            continue;
        }
        let kind = match socket_inode(&target) {
            Some(inode) => match sockets.get(&inode) {
                Some(tcp) => {
                    census.tcp.push(*tcp);
                    format!("tcp {}", state_name(tcp.state))
                }
                None => "socket (not TCP)".to_owned(),
            },
            None if target.starts_with("pipe:") => "pipe".to_owned(),
            // `anon_inode:[eventpoll]`, `anon_inode:[eventfd]`, `anon_inode:[timerfd]`…
            None => match target.strip_prefix("anon_inode:") {
                Some(what) => what.trim_matches(['[', ']']).to_owned(),
                None => format!("file {target}"),
            },
        };
        *census.by_kind.entry(kind).or_default() += 1;
    }
    census
}

/// `socket:[12345]` → 12345.
fn socket_inode(target: &str) -> Option<u64> {
    target
        .strip_prefix("socket:[")?
        .strip_suffix(']')?
        .parse()
        .ok()
}
