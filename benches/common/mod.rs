//! What the benchmarks share: apps filled with N rows, and a helper that measures the
//! median of repeated runs (for the ratios each benchmark prints; criterion gives the
//! detailed figures).

#![allow(dead_code)]

pub mod fds;

use chrono::{TimeZone, Utc};
use proxydash::api::{Loaded, Request, Response};
use proxydash::app::testdata as td;
use proxydash::app::{App, AppSettings, Clock, Msg};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub fn clock() -> Clock {
    let now = Utc.with_ymd_and_hms(2026, 1, 15, 12, 0, 0).unwrap();
    Arc::new(move || now)
}

pub fn app(size: (u16, u16)) -> App {
    let settings = AppSettings {
        refresh: None,
        mouse: false,
        ..AppSettings::default()
    };
    let mut app = App::new(settings, clock());
    app.update(Msg::Resize(size.0, size.1));
    let area = ratatui::layout::Rect::new(0, 0, size.0, size.1);
    // What the first frame would measure, as the run loop hands it over after drawing.
    app.measured(proxydash::ui::layout::geometry(&app, area));
    app
}

/// An app on the Services tab with `n` services listed.
pub fn with_services(n: u64, size: (u16, u16)) -> App {
    let mut app = app(size);
    let list = (1..=n).map(td::summary).collect();
    app.update(Msg::loaded(Loaded::Services(Ok(list))));
    app
}

pub fn with_products(n: u64, size: (u16, u16)) -> App {
    let mut app = app(size);
    let list = (1..=n).map(td::product_summary).collect();
    app.update(Msg::loaded(Loaded::Products(Ok(list))));
    app
}

pub fn with_invoices(n: u64, size: (u16, u16)) -> App {
    let mut app = app(size);
    let list = (1..=n).map(td::invoice).collect();
    app.update(Msg::loaded(Loaded::Invoices(Ok(list))));
    app
}

/// The median time of `runs` calls of `f`.
pub fn median(runs: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

pub fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1000.0)
}

/// Prints one checked figure: `name: value (target …) PASS/MISS`.
pub fn report(name: &str, value: f64, target: &str, pass: bool) {
    println!(
        "[target] {name}: {value:.3} ({target}) {}",
        if pass { "PASS" } else { "MISS" }
    );
}

/// An app on the Network tab with `n` proxy servers in error, ten per service.
pub fn with_network_rows(n: u64, size: (u16, u16)) -> App {
    let services = n.div_ceil(10);
    let mut app = with_services(services, size);
    for id in 1..=services {
        let addresses = (0..10)
            .map(|i| format!("198.18.{}.{}", id % 250, i))
            .collect();
        app.update(Msg::loaded(Loaded::NetworkErrors(id, Ok(addresses))));
    }
    app
}

/// An app showing the IP-list view of service 1 with `n` lines.
pub fn with_ip_list(n: u64, size: (u16, u16)) -> App {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use proxydash::api::{IpList, IpListFormat, IpListType};
    use proxydash::app::Command;
    let mut app = with_services(10, size);
    let key = |code| Msg::Key(KeyEvent::new(code, KeyModifiers::NONE));
    app.update(key(KeyCode::Char('i')));
    let request = app
        .update(key(KeyCode::Enter))
        .into_iter()
        .find_map(|c| match c {
            Command::Fetch(r @ Request::IpList { .. }) => Some(r),
            _ => None,
        })
        .expect("Enter in the chooser fetches the list");
    let raw: String = (0..n)
        .map(|i| {
            format!(
                "198.18.{}.{}:8080:user{}:pw{}\n",
                i / 250 % 256,
                i % 250,
                i % 1000,
                i % 1000
            )
        })
        .collect();
    let list = IpList::parse(IpListType::HttpAuth, IpListFormat::Txt, raw);
    let loaded = Loaded::pair(request, Ok(Response::IpList(list))).expect("an IP list");
    app.update(Msg::loaded(loaded));
    app
}

/// Many listeners and as many connections need descriptors: the soft limit is raised to
/// the hard one.
pub fn raise_open_files() {
    // SAFETY: getrlimit/setrlimit with a valid, initialised struct.
    unsafe {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}
