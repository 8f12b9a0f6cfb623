//! What the benchmarks share: apps filled with N rows, and a helper that measures the
//! median of repeated runs (for the ratios each benchmark prints; criterion gives the
//! detailed figures).

#![allow(dead_code)]

use chrono::{TimeZone, Utc};
use proxydash::api::{Request, Response};
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
    app
}

/// An app on the Services tab with `n` services listed.
pub fn with_services(n: u64, size: (u16, u16)) -> App {
    let mut app = app(size);
    let list = (1..=n).map(td::summary).collect();
    app.update(Msg::Loaded(Request::Services, Ok(Response::Services(list))));
    app
}

pub fn with_products(n: u64, size: (u16, u16)) -> App {
    let mut app = app(size);
    let list = (1..=n).map(td::product_summary).collect();
    app.update(Msg::Loaded(Request::Products, Ok(Response::Products(list))));
    app
}

pub fn with_invoices(n: u64, size: (u16, u16)) -> App {
    let mut app = app(size);
    let list = (1..=n).map(td::invoice).collect();
    app.update(Msg::Loaded(Request::Invoices, Ok(Response::Invoices(list))));
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
