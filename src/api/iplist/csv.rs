//! The `csv` layout of an IP list (see the module docs of [`super`]).

use super::{IpEntry, entry, parse_line, split_host_port, valid_host};

#[derive(Clone, Copy)]
struct Columns {
    host: usize,
    port: Option<usize>,
    login: Option<usize>,
    password: Option<usize>,
}

pub(super) fn parse_csv(raw: &str, emit: &mut dyn FnMut(IpEntry)) -> usize {
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
