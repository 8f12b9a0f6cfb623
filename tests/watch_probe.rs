//! `watch --probe-every` (issue 49) against the sandbox's loopback proxies (`--proxies`:
//! of the ten, one refuses the connection, one the credentials and one never answers):
//! the per-service metrics of a round, the `proxies_dead` alert opening when the proxies
//! go down and resolving when they are back, the rounds in the history and what `history
//! export` makes of them, and a stop that ends a round at once.
//!
//! Every wait is for a named condition (a line, a scrape that says it, a connection a
//! fixture accepted) under the harness's generous [`LIMIT`]: no fixed sleep.

use crate::watch::harness::{LIMIT, Watch, dir, scrape};
use proxydash::sandbox::proxies::{Behaviour, Fixture};
use proxydash::sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// The sandbox with its proxies (the demo's ten unless `fixtures` says otherwise).
async fn sandbox(fixtures: Option<Vec<Fixture>>) -> SandboxHandle {
    Sandbox::start(SandboxConfig {
        proxies: true,
        proxy_fixtures: fixtures,
        ..SandboxConfig::ephemeral()
    })
    .await
    .unwrap()
}

/// A profile `main` on `sandbox` whose probe asks the sandbox's own judge, may contact
/// loopback proxies, and gives each `timeout` seconds; `extra` lines after.
fn configure(dir: &Path, sandbox: &SandboxHandle, timeout: u64, extra: &str) {
    std::fs::create_dir_all(dir.join("config/proxydash")).unwrap();
    let file = dir.join("config/proxydash/config.toml");
    let text = format!(
        "default_profile = \"main\"\n[profiles.main]\nbase_url = \"{}\"\ntoken = \"{}\"\n\
         refresh = 1\nmax_requests_per_minute = 6000\nprobe_url = \"{}\"\n\
         probe_allow_private = true\nprobe_timeout = {timeout}\n{extra}",
        sandbox.base_url(),
        sandbox.token(),
        sandbox.judge_url().expect("the sandbox runs its judge"),
    );
    std::fs::write(&file, text).unwrap();
    std::fs::set_permissions(&file, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
}

/// The `metrics at http://ADDR/metrics` line's address.
fn metrics_addr(watch: &mut Watch) -> String {
    watch
        .wait_err(|l| l.starts_with("metrics at http://"))
        .trim_start_matches("metrics at http://")
        .trim_end_matches("/metrics")
        .to_owned()
}

/// Scrapes until `want` holds of the exposition (the metrics are published after the
/// sweep that follows a round); the body that satisfied it.
fn scrape_until(addr: &str, what: &str, want: impl Fn(&str) -> bool) -> String {
    let give_up = Instant::now() + LIMIT;
    loop {
        let body = scrape(addr);
        if want(&body) {
            return body;
        }
        assert!(
            Instant::now() < give_up,
            "{what}: never scraped; last:\n{body}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The value of the sample written exactly `series` (name and labels as encoded).
fn value(body: &str, series: &str) -> Option<f64> {
    body.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
        .and_then(|v| v.trim().parse().ok())
}

fn service(name: &str, id: u64) -> String {
    format!("{name}{{profile=\"main\",service=\"{id}\"}}")
}

fn dead(id: u64, reason: &str) -> String {
    format!("proxydash_probe_dead_proxies{{profile=\"main\",service=\"{id}\",reason=\"{reason}\"}}")
}

/// A JSON line of standard output: `proxies_dead` of service `id` in `state`.
fn alert(line: &str, id: u64, state: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(line)
        .is_ok_and(|v| v["rule"] == "proxies_dead" && v["service_id"] == id && v["state"] == state)
}

#[tokio::test(flavor = "multi_thread")]
async fn rounds_give_per_service_metrics_an_outage_opens_one_alert_and_the_history_keeps_them() {
    let dir = dir("probe-rounds");
    let sandbox = sandbox(None).await;
    let farm = sandbox.proxy_farm().expect("--proxies");
    // The profile's key (not the flag) asks for rounds; the hanging fixture costs the
    // per-proxy timeout, two seconds, which a loaded machine's slow fixture (350 ms) is
    // well inside.
    configure(&dir, &sandbox, 2, "probe_every = \"1s\"\n");
    let mut watch = Watch::configured(&dir, &["-vv", "--metrics-listen", "127.0.0.1:0"]);
    let addr = metrics_addr(&mut watch);
    watch.wait_err(|l| l.contains("probe rounds every 1 s"));

    // 1. A round's metrics, per service: of 1001's ten, seven answer; one refuses the
    // connection, one the credentials, one never answers.
    let checked = service("proxydash_probe_checked_proxies", 1001);
    let alive = service("proxydash_probe_alive_proxies", 1001);
    let body = scrape_until(&addr, "a round of 1001 with its seven alive", |b| {
        value(b, &checked) == Some(10.0) && value(b, &alive) == Some(7.0)
    });
    assert_eq!(
        value(&body, &service("proxydash_probe_listed_proxies", 1001)),
        Some(10.0)
    );
    for (reason, n) in [
        ("refused", 1.0),
        ("auth_failed", 1.0),
        ("timeout", 1.0),
        ("bad_answer", 0.0),
    ] {
        assert_eq!(
            value(&body, &dead(1001, reason)),
            Some(n),
            "{reason}: {body}"
        );
    }
    assert!(
        value(&body, &service("proxydash_probe_round_age_seconds", 1001)).is_some(),
        "{body}"
    );
    let count = service("proxydash_probe_latency_seconds_count", 1001);
    assert!(value(&body, &count).is_some_and(|n| n >= 7.0), "{body}");
    let inf =
        "proxydash_probe_latency_seconds_bucket{le=\"+Inf\",profile=\"main\",service=\"1001\"}";
    assert_eq!(value(&body, inf), value(&body, &count), "{body}");
    for family in [
        "proxydash_probe_alive_proxies gauge",
        "proxydash_probe_latency_seconds histogram",
    ] {
        assert!(
            body.contains(&format!("# TYPE {family}")),
            "{family}: {body}"
        );
    }
    // Per service, never per proxy: no label names an address.
    assert!(
        !body
            .lines()
            .any(|l| l.starts_with("proxydash_probe") && l.contains("127.0.0.")),
        "{body}"
    );
    // The seed's 1001 lists two servers in error: the rest of its dead it lists as fine.
    assert!(
        value(
            &body,
            &service("proxydash_probe_dead_provider_fine_proxies", 1001)
        )
        .is_some(),
        "{body}"
    );
    prometheus_parse::Scrape::parse(body.lines().map(|l| Ok(l.to_owned())))
        .expect("the exposition parses");

    // 2. Every proxy of the static services goes down: after two rounds, one alert for
    // 1001, critical, naming the share, the reason and the first dead.
    let before = watch.errs.len();
    for i in 0..10 {
        farm.set_refusing(i, true);
    }
    let opened = watch.wait_out(|l| alert(l, 1001, "opened"));
    let v: serde_json::Value = serde_json::from_str(&opened).unwrap();
    // Critical when no proxy answers; but an alert opens at the lowest level its two
    // rounds agree on (the book's debounce), and on a loaded machine the first of them
    // may straddle the outage (some still alive then): warn, which is as right.
    assert!(v["level"] == "critical" || v["level"] == "warn", "{opened}");
    if v["level"] == "warn" {
        // Then critical, once the rounds agree that none answers.
        let up = watch.wait_out(|l| alert(l, 1001, "escalated"));
        assert!(up.contains("\"level\":\"critical\""), "{up}");
    }
    let message = v["message"].as_str().unwrap();
    assert!(
        message.contains("none of 10 proxies checked is alive"),
        "{message}"
    );
    assert!(message.contains("most dead refused"), "{message}");
    assert!(
        message.contains("127.0.0.1"),
        "the first dead are named: {message}"
    );
    assert!(
        message.contains("as fine"),
        "the provider's word beside it: {message}"
    );
    let rounds = watch.errs[before..]
        .iter()
        .filter(|l| l.contains("probe round:"))
        .count();
    assert!(
        rounds >= 2,
        "opened after {rounds} rounds:\n{}",
        watch.errs.join("\n")
    );
    let body = scrape_until(&addr, "1001 all dead", |b| value(b, &alive) == Some(0.0));
    assert_eq!(value(&body, &dead(1001, "refused")), Some(10.0), "{body}");

    // 3. Back: the alert resolves.
    for i in 0..10 {
        farm.set_refusing(i, false);
    }
    watch.wait_out(|l| alert(l, 1001, "resolved"));
    let (code, outs, errs) = watch.terminate();
    assert_eq!(code, 0, "{}", errs.join("\n"));
    let opened_1001 = outs.iter().filter(|l| alert(l, 1001, "opened")).count();
    assert_eq!(opened_1001, 1, "one alert, not one a round: {outs:?}");

    // 4. The history: one row per service and round, exported as `probe_round`.
    let export = Command::new(env!("CARGO_BIN_EXE_proxydash"))
        .args(["history", "export", "--csv", "--since", "1d"])
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env_remove("PROXYDASH_PROFILE")
        .env_remove("PROXYDASH_CONFIG")
        .env("PROXYDASH_LOG", "off")
        .output()
        .unwrap();
    let csv = String::from_utf8_lossy(&export.stdout);
    assert!(
        export.status.success(),
        "{}",
        String::from_utf8_lossy(&export.stderr)
    );
    let rows: Vec<&str> = csv
        .lines()
        .filter(|l| l.contains(",probe_round,1001,"))
        .collect();
    assert!(
        rows.iter()
            .any(|l| l.contains(",0.7,") && l.ends_with(",alive 7 of 10")),
        "{csv}"
    );
    assert!(rows.iter().any(|l| l.ends_with(",alive 0 of 10")), "{csv}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stop_ends_a_round_at_once_and_a_service_never_probed_has_no_series() {
    let dir = dir("probe-stop");
    // Three proxies that accept and never answer, each given a minute.
    let hang = Fixture::new(Behaviour::Hang, 0);
    let sandbox = sandbox(Some(vec![hang; 3])).await;
    let farm = sandbox.proxy_farm().expect("--proxies");
    configure(&dir, &sandbox, 60, "");
    let mut watch = Watch::configured(
        &dir,
        &[
            "-vv",
            "--probe-every",
            "1s",
            "--metrics-listen",
            "127.0.0.1:0",
        ],
    );
    let addr = metrics_addr(&mut watch);
    // The round is on its way: a hanging proxy holds its check.
    let give_up = Instant::now() + LIMIT;
    while farm.accepted(0) == 0 {
        assert!(Instant::now() < give_up, "no check reached the proxies");
        std::thread::sleep(Duration::from_millis(20));
    }
    // Meanwhile nothing is known of the proxies, and nothing says so with a 0.
    let body = scrape_until(&addr, "a sweep", |b| b.contains("proxydash_service_up"));
    assert!(!body.contains("proxydash_probe_"), "{body}");
    let (code, _, errs) = watch.terminate();
    assert_eq!(code, 0, "{}", errs.join("\n"));
    assert!(
        errs.iter()
            .any(|l| l.contains("the probe round running was stopped")),
        "{errs:?}"
    );
}
