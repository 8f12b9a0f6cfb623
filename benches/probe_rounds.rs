//! Issue 49's targets for `watch --probe-every` (targets 42–45 of BENCHMARKS.md):
//!
//! - **A round of 1,000 loopback proxies** (the farm's fixtures, elite, answering after
//!   50 ms; ten services of 100, checked with the probe's defaults: 32 at a time, 5 s
//!   each, the farm's judge): the round's time against ⌈1000/32⌉ × the per-proxy chain
//!   (one proxy alone, measured in the same run), the CPU it costs (the threads of the
//!   probe's runtime only: the farm, which stands for other machines, runs on a runtime
//!   of its own), and the process's peak RSS.
//! - **A watch of 1,000 services with 100 proxies each**: the real watcher, engine and
//!   schedule against the in-process sandbox (a seed of 1,000 Active static services of
//!   100 IPs, its lists pointing at 100 loopback proxies), rounds every 60 s with the
//!   default sample (20 a service: 20,000 checks a round), a budget the user vouched for
//!   (6,000 a minute, so the 1,000 lists are read in seconds rather than the 17 minutes
//!   of the assumed 60) and an engine that, once it has read the account, rests (refresh
//!   an hour: a sweep of 3,000 reads at 6,000 a minute between rounds would measure the
//!   engine, not the rounds; the API requests of each gap are printed). Printed per
//!   round: services and proxies checked, its time and CPU; then the CPU share between
//!   rounds (the watcher's runtime: engine, watcher, schedule; over each gap from a
//!   round's end to the next one's start) and the peak RSS of the process (sandbox and
//!   proxies included) beside the RSS it had before the watch started.
//!
//! `PROBE_ROUNDS_BENCH_ONLY=round` runs the first alone (seconds), `=watch` the second
//! (about five minutes: four rounds a minute apart).

mod common;

use common::*;
use criterion::{Criterion, criterion_group, criterion_main};
use proxydash::account::{Clock, Config};
use proxydash::api::{ApiClient, ClientConfig, Credentials};
use proxydash::metrics::Board;
use proxydash::probe::round::{Sampled, run};
use proxydash::probe::{ProbeConfig, ProxyTarget, Scheme};
use proxydash::sandbox::proxies::{Behaviour, Fixture, ProxyFarm, start_standalone};
use proxydash::scheduler::bucket::Bucket;
use proxydash::scheduler::{Budget, Door};
use proxydash::watch::output::{Captured, Output};
use proxydash::watch::probing::ProbeOptions;
use proxydash::watch::setup::JsonLines;
use proxydash::watch::watcher::{Options, Watcher};
use std::sync::Arc;
use std::time::{Duration, Instant};

const PROXIES: usize = 1000;
const LATENCY: Duration = Duration::from_millis(50);
/// The threads of the runtime the probe (or the watcher) runs on, by name.
const PROBE_THREADS: &str = "probe-rt";

fn runtime(name: &str) -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .thread_name(name)
        // A blocking thread that ended would take its CPU time out of the sums: they are
        // kept for the run.
        .thread_keep_alive(Duration::from_secs(3600))
        .enable_all()
        .build()
        .unwrap()
}

fn target(addr: &std::net::SocketAddr) -> ProxyTarget {
    ProxyTarget {
        host: addr.ip().to_string(),
        port: addr.port(),
        scheme: Scheme::Http,
        login: Some("bench".into()),
        password: Some("bench-password".into()),
    }
}

fn config(farm: &ProxyFarm) -> ProbeConfig {
    ProbeConfig {
        probe_url: Some(farm.judge_url.clone()),
        loopback_only: true,
        ..ProbeConfig::default()
    }
}

/// CPU time (user and system) of this process's threads whose name starts with `prefix`,
/// from `/proc/self/task/*/stat` (clock ticks of 10 ms).
fn threads_cpu(prefix: &str) -> Duration {
    let tick = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return Duration::ZERO;
    };
    let mut ticks = 0u64;
    for task in tasks.flatten() {
        let Ok(stat) = std::fs::read_to_string(task.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state …`: the name may hold spaces, the fields after `)` do not.
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        if !stat[open + 1..close].starts_with(prefix) {
            continue;
        }
        let fields: Vec<&str> = stat[close + 2..].split(' ').collect();
        // utime and stime are fields 14 and 15 of the line: 12 and 13 after `state`.
        let n = |i: usize| {
            fields
                .get(i)
                .and_then(|f| f.parse::<u64>().ok())
                .unwrap_or(0)
        };
        ticks += n(11) + n(12);
    }
    Duration::from_secs_f64(ticks as f64 / tick)
}

fn status_kb(key: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(key))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

fn round_target() {
    let rt = runtime(PROBE_THREADS);
    let farm_rt = runtime("farm-rt");
    let fixtures = vec![Fixture::new(Behaviour::Elite, LATENCY.as_millis() as u64); PROXIES];
    let (farm, _stop) = farm_rt
        .block_on(start_standalone(&fixtures, "bench", "bench-password"))
        .expect("the farm starts");
    let samples = || -> Vec<Sampled> {
        farm.addrs
            .chunks(100)
            .enumerate()
            .map(|(i, chunk)| Sampled {
                service_id: 1 + i as u64,
                listed: chunk.len(),
                targets: chunk.iter().map(target).collect(),
            })
            .collect()
    };
    // The per-proxy chain: one proxy alone (its connect, handshake, 50 ms and answer).
    let mut singles: Vec<Duration> = (0..9)
        .map(|i| {
            let one = vec![Sampled {
                service_id: 1,
                listed: 1,
                targets: vec![target(&farm.addrs[i])],
            }];
            let started = Instant::now();
            rt.block_on(run(one, &config(&farm)));
            started.elapsed()
        })
        .collect();
    singles.sort();
    let chain = singles[singles.len() / 2];
    let mut took = Vec::new();
    let mut cpu = Vec::new();
    let mut alive = 0;
    for _ in 0..3 {
        let (cpu0, started) = (threads_cpu(PROBE_THREADS), Instant::now());
        let round = rt.block_on(run(samples(), &config(&farm)));
        took.push(started.elapsed());
        cpu.push(threads_cpu(PROBE_THREADS).saturating_sub(cpu0));
        alive = round.services.iter().map(|s| s.alive).sum::<u32>();
    }
    took.sort();
    cpu.sort();
    let (round, cpu) = (took[1], cpu[1]);
    let waves = PROXIES.div_ceil(proxydash::probe::DEFAULT_CONCURRENCY) as u32;
    let limit = chain * waves;
    println!(
        "round of {PROXIES} loopback proxies ({} ms each; 10 services of 100; 32 at a time): {} (median of 3; chain {} alone, {waves} waves = {}); {alive} alive; CPU of the probe's threads {}",
        LATENCY.as_millis(),
        ms(round),
        ms(chain),
        ms(limit),
        ms(cpu),
    );
    let ratio = round.as_secs_f64() / limit.as_secs_f64();
    report(
        "round of 1,000 proxies / (waves × chain)",
        ratio,
        "≤ 1.5",
        ratio <= 1.5 && alive == PROXIES as u32,
    );
    report(
        "round of 1,000 proxies, CPU seconds",
        cpu.as_secs_f64(),
        "a figure",
        true,
    );
    let peak = status_kb("VmHWM:") as f64 / 1024.0;
    report(
        "round of 1,000 proxies, peak RSS MB",
        peak,
        "< 60",
        peak < 60.0,
    );
}

/// A seed of `n` Active static services of product 31 (100 IPs each) in place of the
/// built-in seed's, with its clients, products and credit.
fn seed(n: u64) -> std::path::PathBuf {
    let mut seed: serde_json::Value =
        serde_json::from_str(include_str!("../assets/seed.json")).unwrap();
    let services: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            serde_json::json!({
                "id": 2001 + i, "client": 101, "product": 31, "orderid": 5001 + i,
                "regdate": "today-30d", "nextduedate": "today+20d", "status": "Active",
                "username": format!("bench{i}"), "password": "bench-password",
                "bindedip": null
            })
        })
        .collect();
    seed["services"] = serde_json::Value::Array(services);
    seed["invoices"] = serde_json::Value::Array(Vec::new());
    let path = std::env::temp_dir().join(format!(
        "proxydash-probe-rounds-{}.json",
        std::process::id()
    ));
    std::fs::write(&path, seed.to_string()).unwrap();
    path
}

const SERVICES: u64 = 1000;
const EVERY: Duration = Duration::from_secs(60);
/// The engine's refresh: once read, the account rests for the run.
const REFRESH: Duration = Duration::from_secs(3600);
const ROUNDS: usize = 4;

/// What the watcher said of its rounds so far: `probe round: …` lines.
fn rounds_said(captured: &Captured) -> Vec<String> {
    captured
        .text()
        .lines()
        .filter(|l| l.contains("probe round:"))
        .map(str::to_owned)
        .collect()
}

fn watch_target() {
    let watch_rt = runtime(PROBE_THREADS);
    let sandbox_rt = runtime("sandbox-rt");
    let path = seed(SERVICES);
    let sandbox = sandbox_rt
        .block_on(proxydash::sandbox::Sandbox::start(
            proxydash::sandbox::SandboxConfig {
                seed: Some(path.clone()),
                proxies: true,
                proxy_fixtures: Some(vec![Fixture::new(Behaviour::Elite, 0); 100]),
                ..proxydash::sandbox::SandboxConfig::ephemeral()
            },
        ))
        .expect("the sandbox starts");
    let _ = std::fs::remove_file(&path);
    let judge = sandbox.judge_url().expect("a judge");
    let rss_before = status_kb("VmRSS:");
    let client = ApiClient::new(ClientConfig::new(
        sandbox.base_url(),
        Credentials::Token(sandbox.token().into()),
    ))
    .unwrap();
    let captured = Captured::default();
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let base_url = sandbox.base_url();
    let said = captured.clone();
    let running = watch_rt.spawn(async move {
        let clock: Clock = Arc::new(chrono::Utc::now);
        let output = Output::spawn(Box::new(std::io::sink()), Box::new(said)).unwrap();
        // The engine reads the account once, then rests (refresh an hour): what the
        // gaps measure is the watcher and its rounds, not a sweep of 3,000 reads.
        let account = proxydash::account::spawn(proxydash::account::Setup {
            config: Config::new("bench", &base_url, Some(REFRESH)),
            door: Door::new(client, Budget::new(Bucket::new(Some(6000)))),
            clock: clock.clone(),
            speed: 1,
            history: None,
            alert_file: None,
            marks_file: None,
            seen: None,
            types_file: None,
        });
        let sink = JsonLines {
            output: output.clone(),
            profile: "bench".into(),
            then: None,
        };
        let probe = ProbeOptions {
            every: EVERY,
            sample: proxydash::config::DEFAULT_SAMPLE,
            config: ProbeConfig {
                probe_url: Some(judge),
                loopback_only: true,
                ..ProbeConfig::default()
            },
        };
        let options = Options {
            on_alert: None,
            probe: Some(probe),
            clock,
            speed: 1,
            verbose: 2,
            board: Some(Board::default()),
            keep: None,
            history: None,
        };
        let watcher = Watcher::new("bench", account, Box::new(sink), output.clone(), options);
        let outcome = watcher.run(stop_rx).await;
        output.flush(Duration::from_secs(2)).await;
        outcome.is_ok()
    });
    // Sampled from this thread (not one of the watcher's): elapsed, the watcher's CPU,
    // rounds said, requests the sandbox answered.
    let started = Instant::now();
    let give_up = started + EVERY * (ROUNDS as u32 + 3);
    let mut log = Vec::new();
    loop {
        std::thread::sleep(Duration::from_millis(250));
        let rounds = rounds_said(&captured).len();
        log.push((
            started.elapsed(),
            threads_cpu(PROBE_THREADS),
            rounds,
            sandbox.requests().len(),
        ));
        if rounds >= ROUNDS || Instant::now() > give_up {
            break;
        }
    }
    let _ = stop_tx.send(true);
    assert!(
        watch_rt.block_on(running).unwrap_or(false),
        "the watcher ran"
    );
    if let Ok(file) = std::env::var("PROBE_ROUNDS_LOG") {
        let lines: String = log
            .iter()
            .map(|(t, cpu, r, q)| {
                format!(
                    "{:.2}\t{:.2}\t{r}\t{q}\n",
                    t.as_secs_f64(),
                    cpu.as_secs_f64()
                )
            })
            .collect();
        let _ = std::fs::write(file, lines);
    }
    let said = rounds_said(&captured);
    for line in &said {
        println!("[watch] {line}");
    }
    // A round's end is the first sample after its line; it started its own time (the
    // line says it) before, and the next starts `EVERY` after that: the gap between is
    // measured, a second in from each side (the sampling's 250 ms, the sweep that
    // publishes the round).
    let ends: Vec<usize> = (1..log.len())
        .filter(|i| log[*i].2 > log[i - 1].2)
        .collect();
    let took: Vec<f64> = said.iter().filter_map(|l| seconds_in(l)).collect();
    let at = |t: Duration| log.iter().find(|s| s.0 >= t).copied();
    let mut gaps = Vec::new();
    for (k, (&end, &secs)) in ends.iter().zip(&took).enumerate() {
        let (t_end, cpu_end, _, _) = log[end];
        let start = t_end.saturating_sub(Duration::from_secs_f64(secs));
        if let Some(s) = at(start) {
            println!(
                "[watch] round {}: {secs:.1} s, CPU {:.2} s, {} API requests meanwhile",
                k + 1,
                cpu_end.saturating_sub(s.1).as_secs_f64(),
                log[end].3 - s.3
            );
        }
        let (from, to) = (
            t_end + Duration::from_secs(1),
            start + EVERY - Duration::from_secs(1),
        );
        let (Some(a), Some(b)) = (at(from), at(to)) else {
            continue;
        };
        if b.0 <= a.0 || k + 1 >= ends.len() {
            continue;
        }
        let cpu = b.1.saturating_sub(a.1).as_secs_f64();
        let share = cpu / (b.0 - a.0).as_secs_f64();
        println!(
            "[watch] between rounds {} and {}: {:.1} s of wall time, CPU {cpu:.3} s: {share:.4} of a core; {} API requests",
            k + 1,
            k + 2,
            (b.0 - a.0).as_secs_f64(),
            b.3 - a.3
        );
        gaps.push(share);
    }
    let last = log.last().copied().unwrap_or_default();
    println!(
        "[watch] {} API requests in {:.0} s, the watcher's CPU {:.1} s in all",
        last.3,
        last.0.as_secs_f64(),
        last.1.as_secs_f64()
    );
    let worst = gaps.iter().copied().fold(0.0, f64::max);
    report(
        "watch of 1,000 services × 100 proxies: CPU between rounds, share of a core (worst gap)",
        worst,
        "< 0.1",
        !gaps.is_empty() && worst < 0.1,
    );
    let peak = status_kb("VmHWM:") as f64 / 1024.0;
    println!(
        "[watch] RSS before the watch (sandbox of 1,000 services, 100 proxies): {:.1} MB; peak {peak:.1} MB",
        rss_before as f64 / 1024.0
    );
    report(
        "watch of 1,000 services × 100 proxies: peak RSS MB (sandbox and proxies included)",
        peak,
        "< 60",
        peak < 60.0,
    );
}

/// `(in 2.3 s)` at the end of a round's line.
fn seconds_in(line: &str) -> Option<f64> {
    let (_, rest) = line.rsplit_once("(in ")?;
    rest.trim_end_matches(" s)").parse().ok()
}

fn bench(_: &mut Criterion) {
    common::raise_open_files();
    let only = std::env::var("PROBE_ROUNDS_BENCH_ONLY").unwrap_or_default();
    if only.is_empty() || only == "round" {
        round_target();
    }
    if only.is_empty() || only == "watch" {
        watch_target();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
