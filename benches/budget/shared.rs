//! Issue 46 items 3 and 4 in real time (`BUDGET_BENCH_ONLY=shared`): a route's own limit,
//! and processes of one profile on one token.
//!
//! 1. A service's detail while the IP lists have a limit of their own (the sandbox's
//!    `ip_list_rate_limit` 5 a minute, with the headers, beside 60 a minute for the
//!    account): a person downloads three IP lists, then opens a detail, twenty times.
//! 2. `proxydash credit` in a loop, one run after the other (four reads a run).
//! 3. 8 loops of `proxydash service N --json` in parallel.
//! 4. Two `proxydash watch` and a dashboard (the headless session, in this process, on
//!    the same send log) on one token.
//!
//! 2–4 each against a sandbox of 60 a minute with the headers and one without them, for
//! `BUDGET_BENCH_SECS` (150 s by default: two windows and a half): the answers 429 and
//! the most requests the server saw in any 60 s.

use super::common::report;
use proxydash::api::{ApiClient, ClientConfig, Credentials, IpListFormat, IpListType, Request};
use proxydash::app::AppSettings;
use proxydash::sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use proxydash::scheduler::{Bucket, Budget, Door, Lane, SendLog};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

async fn sandbox(headers: bool, ip_list: Option<u32>, scale: usize) -> SandboxHandle {
    Sandbox::start(SandboxConfig {
        // A live server's round trip.
        latency: Duration::from_millis(200),
        rate_limit: Some(60),
        rate_limit_headers: headers,
        ip_list_rate_limit: ip_list,
        scale: Some(scale),
        ..SandboxConfig::ephemeral()
    })
    .await
    .unwrap()
}

fn client(sb: &SandboxHandle) -> ApiClient {
    ApiClient::new(ClientConfig::new(
        sb.base_url(),
        Credentials::Token(sb.token().into()),
    ))
    .unwrap()
}

fn state(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("proxydash-bench-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Scenario 1.
pub async fn route_detail() {
    let sb = sandbox(true, Some(5), 100).await;
    let budget = Budget::new(Bucket::new(None));
    let (fetcher, mut results) =
        proxydash::scheduler::fetcher::spawn(Door::new(client(&sb), budget.clone()), 64);
    let ids: Vec<u64> = client(&sb)
        .services()
        .await
        .unwrap()
        .iter()
        .map(|s| s.service_id)
        .collect();
    fetcher.fetch(Request::Services, Lane::Screen);
    fetcher.fetch(Request::Credit, Lane::Screen);
    let mut waits = Vec::new();
    let kinds = [
        IpListType::HttpIp,
        IpListType::SocksIp,
        IpListType::HttpAuth,
    ];
    for (n, id) in ids.iter().take(20).enumerate() {
        for kind in &kinds {
            let format = [IpListFormat::Txt, IpListFormat::Csv][n % 2].clone();
            fetcher.fetch(Request::ip_list(*id, kind.clone(), format), Lane::Person);
        }
        let asked = Instant::now();
        fetcher.fetch(Request::Service(*id), Lane::Person);
        loop {
            let done = tokio::time::timeout(Duration::from_secs(120), results.recv())
                .await
                .ok()
                .flatten()
                .expect("answers come");
            if done.loaded.request() == Request::Service(*id) {
                break;
            }
        }
        waits.push(asked.elapsed());
    }
    waits.sort();
    let lists = sb
        .requests()
        .iter()
        .filter(|r| r.path.starts_with("/api/iplist/"))
        .count();
    let refused = sb.requests().iter().filter(|r| r.status == 429).count();
    println!(
        "[shared] detail beside the IP lists' own 5/min: 20 tries, median {:.3} s, worst {:.3} s; {lists} IP lists sent, {refused} answers 429; account limit {}/min",
        waits[10].as_secs_f64(),
        waits[19].as_secs_f64(),
        budget.view().limit
    );
    report(
        "detail with a route's own limit in force (median s)",
        waits[10].as_secs_f64(),
        "≤ 2",
        waits[10] <= Duration::from_secs(2),
    );
}

/// Counts what `sb` receives, every 50 ms, until `run` is over: the arrival times.
async fn arrivals(sb: &SandboxHandle, run: Duration) -> Vec<Duration> {
    let started = Instant::now();
    let (mut times, mut seen) = (Vec::new(), 0);
    while started.elapsed() < run {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let n = sb.requests().len();
        times.extend(std::iter::repeat_n(started.elapsed(), n - seen));
        seen = n;
    }
    times
}

fn busiest(times: &[Duration], span: Duration) -> usize {
    (0..times.len())
        .map(|i| {
            times[i..]
                .iter()
                .take_while(|t| **t < times[i] + span)
                .count()
        })
        .max()
        .unwrap_or(0)
}

fn proxydash(sb: &SandboxHandle, state: &Path) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_proxydash"));
    cmd.env("XDG_STATE_HOME", state)
        .env("XDG_CONFIG_HOME", state.join("config"))
        .env_remove("PROXYDASH_PROFILE")
        .env_remove("PROXYDASH_CONFIG")
        .args(["--base-url", &sb.base_url(), "--token", sb.token()])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true);
    cmd
}

/// Runs `args` again and again, one run after the other, until `until`.
async fn loop_of(sb: &SandboxHandle, state: &Path, args: &[String], until: Instant) -> usize {
    let mut runs = 0;
    while Instant::now() < until {
        let mut child = proxydash(sb, state).args(args).spawn().unwrap();
        let left = until.saturating_duration_since(Instant::now());
        if tokio::time::timeout(left, child.wait()).await.is_err() {
            let _ = child.kill().await;
        }
        runs += 1;
    }
    runs
}

fn said(name: &str, headers: bool, sb: &SandboxHandle, times: &[Duration], extra: String) {
    let refused = sb.requests().iter().filter(|r| r.status == 429).count();
    let minute = busiest(times, Duration::from_secs(60));
    let second = busiest(times, Duration::from_secs(1));
    let with = if headers { "with" } else { "without" };
    println!(
        "[shared] {name}, 60/min {with} headers: {} requests, busiest minute {minute}, busiest second {second}, {refused} answers 429{extra}",
        times.len()
    );
    let pass = if headers { refused == 0 } else { minute <= 60 };
    let target = if headers {
        "0 answers 429"
    } else {
        "busiest minute ≤ 60"
    };
    report(
        &format!("{name}, {with} headers"),
        refused as f64,
        target,
        pass,
    );
}

/// Scenario 2.
pub async fn credit_loop(headers: bool, run: Duration) {
    let sb = sandbox(headers, None, 20).await;
    let state = state(&format!("credit-{headers}"));
    let until = Instant::now() + run;
    let args = vec!["credit".to_owned()];
    let (runs, times) = tokio::join!(loop_of(&sb, &state, &args, until), arrivals(&sb, run));
    said(
        "credit in a loop",
        headers,
        &sb,
        &times,
        format!(", {runs} runs"),
    );
}

/// Scenario 3.
pub async fn parallel_scripts(headers: bool, run: Duration) {
    let sb = sandbox(headers, None, 20).await;
    let state = state(&format!("parallel-{headers}"));
    let until = Instant::now() + run;
    let loops = (0..8).map(|i| {
        let args = vec![
            "service".to_owned(),
            (1001 + i).to_string(),
            "--json".into(),
        ];
        let (sb, state) = (&sb, &state);
        async move { loop_of(sb, state, &args, until).await }
    });
    let (runs, times) = tokio::join!(futures::future::join_all(loops), arrivals(&sb, run));
    let runs: usize = runs.iter().sum();
    said(
        "8 scripts in parallel",
        headers,
        &sb,
        &times,
        format!(", {runs} runs"),
    );
}

/// Scenario 4.
pub async fn watch_and_dashboard(headers: bool, run: Duration) {
    let sb = sandbox(headers, None, 100).await;
    let state = state(&format!("watch-{headers}"));
    let mut watches: Vec<_> = (0..2)
        .map(|_| proxydash(&sb, &state).arg("watch").spawn().unwrap())
        .collect();
    // The dashboard, on the same send log as the `watch`es (the key they use).
    let key = format!("default@{}", sb.base_url());
    let log = state
        .join("proxydash/sends")
        .join(SendLog::name_for("default", &key));
    let budget = Budget::new(Bucket::new(None)).shared(SendLog::new(log));
    let settings = AppSettings {
        mouse: false,
        ..AppSettings::default()
    };
    let mut s = proxydash::headless::Session::start_on(
        settings,
        Door::new(client(&sb), budget),
        Box::new(proxydash::clipboard::Off),
        (120, 40),
    );
    s.press(crossterm::event::KeyCode::Char('4'));
    let (_, times) = tokio::join!(super::pump(&mut s, run), arrivals(&sb, run));
    for w in &mut watches {
        let _ = w.kill().await;
    }
    said(
        "2 watch and a dashboard",
        headers,
        &sb,
        &times,
        String::new(),
    );
}
