//! Issue 12's targets for the proxy probe: 1,000 loopback proxies (the sandbox's fixtures,
//! elite, anonymous and transparent in turn) each answering after 50 ms, probed 200 at a
//! time through HTTP:
//! - the whole probe within 1.5× of ⌈1000/200⌉ × the per-proxy chain (the median time of
//!   probing one proxy alone, measured in the same run), and within 10 s;
//! - every measured latency within ±10 ms of the injected 50 ms;
//! - the anonymity class right for every fixture;
//! - peak RSS (`VmHWM` of this process: the 1,000 proxies, the judge and the probe
//!   together) under 60 MB.

mod common;

use common::*;
use criterion::{Criterion, criterion_group, criterion_main};
use proxydash::probe::runner::probe_collect;
use proxydash::probe::{Anonymity, ProbeConfig, ProxyTarget, Scheme};
use proxydash::sandbox::proxies::{Behaviour, Fixture, ProxyFarm, start_standalone};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

const PROXIES: usize = 1000;
const CONCURRENCY: usize = 200;
const LATENCY: Duration = Duration::from_millis(50);

fn fixtures() -> Vec<Fixture> {
    let kinds = [
        Behaviour::Elite,
        Behaviour::Anonymous,
        Behaviour::Transparent,
    ];
    (0..PROXIES)
        .map(|i| Fixture::new(kinds[i % 3], LATENCY.as_millis() as u64))
        .collect()
}

fn targets(addrs: &[SocketAddr]) -> Vec<ProxyTarget> {
    addrs
        .iter()
        .map(|a| ProxyTarget {
            host: a.ip().to_string(),
            port: a.port(),
            scheme: Scheme::Http,
            login: Some("bench".into()),
            password: Some("bench-password".into()),
        })
        .collect()
}

fn config(farm: &ProxyFarm, concurrency: usize) -> ProbeConfig {
    ProbeConfig {
        concurrency,
        timeout: Duration::from_secs(10),
        probe_url: Some(farm.judge_url.clone()),
        loopback_only: true,
        allow_private: false,
    }
}

fn peak_rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

fn bench(c: &mut Criterion) {
    common::raise_open_files();
    let rt = tokio::runtime::Runtime::new().unwrap();
    // The proxies and the judge stand for other machines: they run on a runtime of their
    // own, so the probe's tasks do not queue behind theirs on the same workers (they still
    // share this machine's cores).
    let farm_rt = tokio::runtime::Runtime::new().unwrap();
    let fixtures = fixtures();
    let (farm, _stop) = farm_rt
        .block_on(start_standalone(&fixtures, "bench", "bench-password"))
        .expect("the farm starts");
    let all = targets(&farm.addrs);

    // The per-proxy chain: one proxy probed alone, its TCP connect plus its request
    // (connect, handshake, 50 ms, answer); the run's one-off set-up is not counted.
    let mut singles: Vec<Duration> = (0..9)
        .map(|i| {
            let one = vec![all[i].clone()];
            let (r, _) = rt.block_on(probe_collect(one, &config(&farm, 1)));
            r[0].connect.unwrap_or_default() + r[0].latency.unwrap_or_default()
        })
        .collect();
    singles.sort();
    let chain = singles[singles.len() / 2];

    let mut wholes = Vec::new();
    let mut last = Vec::new();
    for _ in 0..3 {
        let started = Instant::now();
        let (results, _) = rt.block_on(probe_collect(all.clone(), &config(&farm, CONCURRENCY)));
        wholes.push(started.elapsed());
        last = results;
    }
    wholes.sort();
    let whole = wholes[wholes.len() / 2];
    let waves = PROXIES.div_ceil(CONCURRENCY) as u32;
    let limit = chain * waves;
    let ratio = whole.as_secs_f64() / limit.as_secs_f64();
    let alive = last.iter().filter(|r| r.verdict.is_alive()).count();
    let worst_error = last
        .iter()
        .filter_map(|r| r.latency)
        .map(|l| (l.as_secs_f64() - LATENCY.as_secs_f64()).abs())
        .fold(0.0, f64::max);
    let right_class = last
        .iter()
        .zip(&fixtures)
        .filter(|(r, f)| {
            r.anonymity
                == Some(match f.behaviour {
                    Behaviour::Anonymous => Anonymity::Anonymous,
                    Behaviour::Transparent => Anonymity::Transparent,
                    _ => Anonymity::Elite,
                })
        })
        .count();
    let mut errors: Vec<f64> = last
        .iter()
        .filter_map(|r| r.latency)
        .map(|l| (l.as_secs_f64() - LATENCY.as_secs_f64()).abs() * 1000.0)
        .collect();
    errors.sort_by(f64::total_cmp);
    if !errors.is_empty() {
        let at = |q: f64| errors[((errors.len() - 1) as f64 * q) as usize];
        println!(
            "latency error (ms): p50 {:.1}, p90 {:.1}, p99 {:.1}, worst {:.1}",
            at(0.5),
            at(0.9),
            at(0.99),
            at(1.0)
        );
    }
    let rss_mb = peak_rss_kb() as f64 / 1024.0;
    println!(
        "probe of {PROXIES} proxies ({} ms each), {CONCURRENCY} at a time: {} (median of 3; chain {} alone, limit {waves} × chain = {}); {alive} alive",
        LATENCY.as_millis(),
        ms(whole),
        ms(chain),
        ms(limit),
    );
    report(
        "whole probe / (waves × chain)",
        ratio,
        "≤ 1.5",
        ratio <= 1.5,
    );
    report(
        "whole probe, seconds",
        whole.as_secs_f64(),
        "< 10",
        whole < Duration::from_secs(10),
    );
    report(
        "worst latency error, ms",
        worst_error * 1000.0,
        "≤ 10",
        alive == PROXIES && worst_error <= 0.010,
    );
    let share = right_class as f64 / PROXIES as f64 * 100.0;
    report(
        "anonymity class right, %",
        share,
        "100",
        right_class == PROXIES,
    );
    report("peak RSS, MB", rss_mb, "< 60", rss_mb < 60.0);

    c.bench_function("probe/1000-proxies-50ms-c200", |b| {
        b.iter(|| rt.block_on(probe_collect(all.clone(), &config(&farm, CONCURRENCY))))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(10));
    targets = bench
}
criterion_main!(benches);
