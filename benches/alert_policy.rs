//! Targets 33–36 (issue 44, the alert policy), printed as figures:
//!
//! - 33: `on_alert` commands in the first minute of `watch` on a 1,000-service account
//!   (the sandbox's `--scale 1000`: hundreds of Suspended services, unpaid invoices, due
//!   dates), goal ≤ 3. Measured twice: the notices the engine hands to delivery, on
//!   tokio's paused clock (instant), and the commands the built binary really runs with
//!   `on_alert = 'cat >> FILE'` over a real minute (`ALERT_BENCH_REAL=1`; 65 s).
//! - 34: time from start to the `api_unauthorized` alert with a revoked token, goal ≤ 2
//!   refresh intervals (60 s at the default 30 s).
//! - 35: requests a minute while unauthorized, over 10 minutes, goal ≤ 2.
//! - 36: `/api/billing` failing alone: time to its `datum_failing` alerts (goal: a few
//!   refreshes, not DataStale's hour), and its requests over the next 10 minutes.
//!
//! The paused-clock parts are the same scenarios as `tests/alert_policy.rs`; run with
//! `cargo bench --bench alert_policy`.

use proxydash::account::{self, Clock, Config};
use proxydash::alerts::{Change, DigestKind, Notice, Recording};
use proxydash::api::{ApiClient, ClientConfig, Credentials};
use proxydash::sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use proxydash::watch::output::Output;
use proxydash::watch::watcher::{Options, Watcher};
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

fn tokio_clock() -> Clock {
    let (wall, base) = (chrono::Utc::now(), Instant::now());
    Arc::new(move || wall + chrono::TimeDelta::from_std(Instant::now() - base).unwrap_or_default())
}

/// A watcher of `sb` as `token`, refresh 30 s, recording what it delivers; its stop.
fn watch(
    sb: &SandboxHandle,
    token: &str,
) -> (Recording, tokio::sync::watch::Sender<bool>, Instant) {
    let clock = tokio_clock();
    let config = ClientConfig::new(sb.base_url(), Credentials::Token(token.into()));
    let client = ApiClient::new(config).unwrap();
    let engine = account::start(
        Config::new("main", &sb.base_url(), Some(Duration::from_secs(30))),
        client,
        clock.clone(),
    );
    let output = Output::spawn(Box::new(std::io::sink()), Box::new(std::io::sink())).unwrap();
    let recording = Recording::default();
    let options = Options {
        clock,
        speed: 1,
        verbose: 0,
        board: None,
        keep: None,
        history: None,
        on_alert: None,
        probe: None,
    };
    let w = Watcher::new("main", engine, Box::new(recording.clone()), output, options);
    let (stop, stopped) = tokio::sync::watch::channel(false);
    tokio::spawn(w.run(stopped));
    (recording, stop, Instant::now())
}

/// Waits on tokio's clock (a simulated second at a time, at most `limit`) until `holds`.
async fn until(started: Instant, limit: Duration, mut holds: impl FnMut() -> bool) -> Duration {
    while !holds() && started.elapsed() < limit {
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    started.elapsed()
}

fn opened(r: &Recording, rule: &str) -> usize {
    r.taken()
        .iter()
        .filter(|t| t.change == Change::Opened && t.alert.key.rule.as_str() == rule)
        .count()
}

async fn first_minute_on_1000_services() {
    let sb = Sandbox::start(SandboxConfig {
        scale: Some(1000),
        ..SandboxConfig::ephemeral()
    })
    .await
    .unwrap();
    let (rec, stop, started) = watch(&sb, sb.token());
    tokio::time::sleep(Duration::from_secs(60)).await;
    let notices = rec.announced();
    let summary = notices.iter().find_map(|n| match n {
        Notice::Digest(d) if d.kind == DigestKind::Baseline => Some(d.total),
        _ => None,
    });
    println!(
        "33  first minute, 1,000 services: {} notices to on_alert (goal <= 3) for {} alert transitions; the baseline's summary counts {:?}; {:?} simulated",
        notices.len(),
        rec.taken().len(),
        summary,
        started.elapsed()
    );
    let _ = stop.send(true);
}

async fn a_revoked_token() {
    let sb = Sandbox::start(SandboxConfig::ephemeral()).await.unwrap();
    let (rec, stop, started) = watch(&sb, "Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0PpOoNnMm");
    let took = until(started, Duration::from_secs(600), || {
        opened(&rec, "api_unauthorized") > 0
    })
    .await;
    println!("34  revoked token: the api_unauthorized alert after {took:?} (goal <= 60 s)");
    sb.clear_requests();
    tokio::time::sleep(Duration::from_secs(600)).await;
    let sent = sb.requests().len();
    println!(
        "35  while unauthorized: {sent} requests in 10 minutes, {:.1} a minute (goal <= 2)",
        sent as f64 / 10.0
    );
    let _ = stop.send(true);
}

async fn billing_failing_alone() {
    let sb = Sandbox::start(SandboxConfig {
        faults: Some("500:1,path=/api/billing".parse().unwrap()),
        ..SandboxConfig::ephemeral()
    })
    .await
    .unwrap();
    let (rec, stop, started) = watch(&sb, sb.token());
    let took = until(started, Duration::from_secs(3600), || {
        opened(&rec, "datum_failing") >= 2
    })
    .await;
    sb.clear_requests();
    tokio::time::sleep(Duration::from_secs(600)).await;
    let billing = sb
        .requests()
        .iter()
        .filter(|r| r.path.starts_with("/api/billing"))
        .count();
    println!(
        "36  /api/billing failing alone: datum_failing for the credit and the invoices after {took:?} (refresh 30 s); {billing} requests to it in the next 10 minutes"
    );
    let _ = stop.send(true);
}

/// 33 with the built binary and a real `on_alert` command over a real minute.
async fn the_real_binary() {
    let sb = Sandbox::start(SandboxConfig {
        scale: Some(1000),
        ..SandboxConfig::ephemeral()
    })
    .await
    .unwrap();
    let dir = std::env::temp_dir().join(format!("proxydash-alert-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("config/proxydash")).unwrap();
    let runs = dir.join("runs.jsonl");
    let file = dir.join("config/proxydash/config.toml");
    std::fs::write(
        &file,
        format!(
            "[profiles.big]\nbase_url = \"{}\"\ntoken = \"{}\"\n\n[alerts]\non_alert = \"cat >> '{}'; echo >> '{}'\"\n",
            sb.base_url(),
            sb.token(),
            runs.display(),
            runs.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&file, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_proxydash"))
        .arg("watch")
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("PROXYDASH_LOG", "off")
        .env_remove("PROXYDASH_PROFILE")
        .env_remove("PROXYDASH_CONFIG")
        .env_remove("PROXYDASH_TOKEN")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let out = child.stdout.take().unwrap();
    let lines = std::thread::spawn(move || {
        use std::io::BufRead;
        std::io::BufReader::new(out).lines().count()
    });
    std::thread::sleep(Duration::from_secs(65));
    // SAFETY: kill(2) on the child's pid: SIGTERM, its graceful stop.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let _ = child.wait();
    let transitions = lines.join().unwrap_or(0);
    let text = std::fs::read_to_string(&runs).unwrap_or_default();
    let commands = text.lines().filter(|l| !l.trim().is_empty()).count();
    println!(
        "33  the built binary, 65 real seconds on 1,000 services: {commands} on_alert commands run (goal <= 3) for {transitions} JSON lines on standard output"
    );
    let _ = std::fs::remove_dir_all(dir);
}

fn main() {
    let paused = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .start_paused(true)
        .build()
        .unwrap();
    paused.block_on(first_minute_on_1000_services());
    paused.block_on(a_revoked_token());
    paused.block_on(billing_failing_alone());
    if std::env::var_os("ALERT_BENCH_REAL").is_some() {
        let real = tokio::runtime::Runtime::new().unwrap();
        real.block_on(the_real_binary());
    } else {
        println!("33  (the built binary over a real minute: ALERT_BENCH_REAL=1)");
    }
}
