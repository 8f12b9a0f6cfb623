//! Targets 18 and 19 (issue 14):
//!
//! - 18: a scrape of a 1,000-service account's metrics (every service with its network
//!   lists, a third rotating with a rate) under 10 ms and under 1 MB, and read back by a
//!   real parser of the format (`prometheus-parse`).
//! - 19: `watch` under a 60× fake clock against the in-process sandbox with faults: RSS
//!   growth under 5 % after warm-up, no descriptor leaked, every alert delivered once.
//!   `WATCH_SOAK_MINUTES` real minutes (default 4, that is 4 h of watch; 24 for the
//!   issue's 24 h); RSS and descriptors are printed each simulated hour, for the trend.
//!
//! The keep-bound targets (a changed IP rebinds within one check; 0 rebinds over 10,000
//! checks) are tests under a fake clock: `cargo test --lib watch::keep_bound`.

mod common;

use common::*;
use criterion::{Criterion, criterion_group, criterion_main};
use proxydash::api::{ApiClient, ClientConfig, Credentials, Loaded};
use proxydash::app::testdata as td;
use proxydash::app::{App, AppSettings, Clock, Msg};
use proxydash::metrics::{Board, ProfileMetrics};
use proxydash::watch::output::{Captured, Output};
use proxydash::watch::setup::JsonLines;
use proxydash::watch::watcher::{Options, Watcher};
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn account(n: u64) -> App {
    let mut app = with_services(n, (120, 40));
    let now = app.now();
    for id in 1..=n {
        let errors = (0..id % 4)
            .map(|i| format!("198.18.{}.{i}", id % 250))
            .collect();
        app.update(Msg::Loaded(Loaded::NetworkErrors(id, Ok(errors))));
        app.update(Msg::Loaded(Loaded::NetworkInactive(id, Ok(Vec::new()))));
        if id % 3 == 0 {
            app.update(Msg::Loaded(Loaded::Rate(
                id,
                Ok(td::rate(4_000.0, 10_000.0)),
            )));
        }
    }
    let _ = now;
    app
}

fn scrape_target(c: &mut Criterion) {
    let app = account(1000);
    let mut m = ProfileMetrics::default();
    proxydash::watch::collect::metrics(&app, app.now(), &mut m);
    for i in 0..16u64 {
        m.requests
            .insert(("/api/services".into(), (200 + i).to_string()), i * 1000);
    }
    let board: Board = Arc::new(std::sync::RwLock::new(BTreeMap::from([(
        "main".to_owned(),
        m,
    )])));
    let text = proxydash::metrics::scrape(&board);
    let took = median(21, || {
        std::hint::black_box(proxydash::metrics::scrape(&board));
    });
    report(
        "scrape of 1,000 services (ms)",
        took.as_secs_f64() * 1000.0,
        "< 10 ms",
        took < Duration::from_millis(10),
    );
    report(
        "scrape of 1,000 services (KB)",
        text.len() as f64 / 1024.0,
        "< 1024 KB",
        text.len() < 1 << 20,
    );
    let parsed = prometheus_parse::Scrape::parse(text.lines().map(|l| Ok(l.to_owned())));
    let series = parsed.as_ref().map_or(0, |s| s.samples.len());
    report(
        "scrape read back by prometheus-parse (series)",
        series as f64,
        "parses, every series",
        parsed.is_ok() && series == text.lines().filter(|l| !l.starts_with('#')).count(),
    );
    c.bench_function("scrape 1000 services", |b| {
        b.iter(|| proxydash::metrics::scrape(&board))
    });
}

fn rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

fn fds() -> usize {
    std::fs::read_dir("/proc/self/fd").map_or(0, |d| d.count())
}

fn soak_target(_: &mut Criterion) {
    let minutes: u64 = std::env::var("WATCH_SOAK_MINUTES")
        .ok()
        .and_then(|m| m.parse().ok())
        .unwrap_or(4);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(soak(minutes));
}

async fn soak(minutes: u64) {
    const SPEED: u32 = 60;
    let faults = "500-html:0.02,502:0.02,truncated:0.02,drop:0.02,wrong-shape:0.02"
        .parse()
        .unwrap();
    let sandbox = proxydash::sandbox::Sandbox::start(proxydash::sandbox::SandboxConfig {
        faults: Some(faults),
        ..proxydash::sandbox::SandboxConfig::ephemeral()
    })
    .await
    .unwrap();
    let start = chrono::Utc::now();
    let t0 = Instant::now();
    let clock: Clock = Arc::new(move || {
        start + chrono::Duration::from_std(t0.elapsed() * SPEED).unwrap_or_default()
    });
    let client = ApiClient::new(ClientConfig::new(
        sandbox.base_url(),
        Credentials::Token(sandbox.token().into()),
    ))
    .unwrap();
    let captured = Captured::default();
    let output = Output::spawn(Box::new(captured.clone()), Box::new(std::io::sink())).unwrap();
    let effects = proxydash::effects::Effects::new(
        proxydash::fetcher::spawn(client, proxydash::fetcher::DEFAULT_CONCURRENCY),
        Box::new(proxydash::clipboard::Off),
        String::new(),
        None,
    )
    .with_alert_sink(Box::new(JsonLines {
        output: output.clone(),
        profile: "soak".into(),
        then: None,
    }));
    let app = App::new(
        AppSettings {
            profile: "soak".into(),
            mouse: false,
            ..AppSettings::default()
        },
        clock.clone(),
    );
    let board = Board::default();
    let watcher = Watcher::new(
        app,
        effects,
        output.clone(),
        Options {
            clock,
            speed: SPEED,
            verbose: false,
            board: Some(board.clone()),
            keep: None,
            history: false,
        },
    );
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let run = watcher.run(stop_rx);
    let measure = async {
        let hour = Duration::from_secs(60);
        let mut samples = Vec::new();
        for h in 1..=minutes {
            tokio::time::sleep(hour).await;
            // The sandbox's own request log is not the watcher's memory.
            sandbox.clear_requests();
            let (rss, fd) = (rss_kb(), fds());
            println!(
                "[soak] hour {h}: RSS {rss} KB, {fd} descriptors, {} alert lines",
                captured.text().lines().count()
            );
            samples.push((rss, fd));
        }
        let _ = stop_tx.send(true);
        samples
    };
    let (outcome, samples) = tokio::join!(run, measure);
    assert!(outcome.is_ok());
    output.flush(Duration::from_secs(2)).await;
    // Warm-up: the first simulated hour.
    let (rss0, fd0) = samples[0];
    let (rss1, fd1) = *samples.last().unwrap();
    let growth = (rss1 as f64 - rss0 as f64) / rss0 as f64 * 100.0;
    report(
        &format!("{minutes} h of watch at 60x: RSS growth after the first hour (%)"),
        growth,
        "< 5 %",
        growth < 5.0,
    );
    // Open connections come and go (the `drop` fault closes one, the pool opens
    // another), so the count moves by a few: a leak is a peak that keeps rising, so the
    // peak after the first two hours is compared with the peak of those two.
    let warm = samples.iter().take(2).map(|s| s.1).max().unwrap_or(fd0);
    let later = samples.iter().skip(2).map(|s| s.1).max().unwrap_or(fd1);
    let leaked = later as f64 - warm as f64;
    report(
        &format!("descriptors: peak after hour 2 minus peak of hours 1-2 (last {fd1})"),
        leaked,
        "<= 0",
        leaked <= 0.0,
    );
    let text = captured.text();
    let lines: Vec<&str> = text.lines().collect();
    let unique: HashSet<&str> = lines.iter().copied().collect();
    report(
        &format!("alert lines delivered once ({} lines)", lines.len()),
        (lines.len() - unique.len()) as f64,
        "0 twice, at least one",
        !lines.is_empty() && unique.len() == lines.len(),
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = scrape_target, soak_target
}
criterion_main!(benches);
