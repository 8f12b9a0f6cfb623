//! `proxydash watch` as a user runs it, against the sandbox on 127.0.0.1: alerts as JSON
//! lines on standard output, a summary per sweep on standard error, a metrics scrape that
//! a real parser reads, SIGTERM ending it with status 0, and `--keep-bound` rebinding
//! once per change of the public IP.
//!
//! Nothing here waits on the wall clock for an outcome: each test waits for the line
//! that says it happened (with a generous limit that only a hang reaches).

#[path = "watch/harness.rs"]
pub(crate) mod harness;

use harness::*;
use proxydash::sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

#[tokio::test(flavor = "multi_thread")]
async fn alerts_come_as_json_lines_metrics_parse_and_sigterm_exits_0() {
    let dir = dir("alerts");
    let sandbox = sandbox().await;
    let mut watch = Watch::start(&dir, &sandbox, &["-vv", "--metrics-listen", "127.0.0.1:0"]);
    let at = watch.wait_err(|l| l.starts_with("metrics at http://"));
    let addr = at
        .trim_start_matches("metrics at http://")
        .trim_end_matches("/metrics")
        .to_owned();
    // Alerts open at the second sweep (the debounce); a third makes sure none repeats.
    watch.sweeps(3);
    let body = scrape(&addr);
    let parsed = prometheus_parse::Scrape::parse(body.lines().map(|l| Ok(l.to_owned())))
        .expect("the exposition parses");
    let credit = parsed
        .samples
        .iter()
        .find(|s| s.metric == "proxydash_credit_usd")
        .expect("a credit series");
    assert_eq!(credit.labels.get("profile"), Some("default"));
    let servers_in_error = parsed.samples.iter().find(|s| {
        s.metric == "proxydash_service_servers"
            && s.labels.get("service") == Some("1001")
            && s.labels.get("state") == Some("error")
    });
    // The seed's service 1001 has two servers in error.
    assert!(
        matches!(servers_in_error.map(|s| &s.value), Some(prometheus_parse::Value::Gauge(v)) if *v == 2.0),
        "{body}"
    );
    assert!(body.contains("proxydash_api_requests_total{profile=\"default\",endpoint=\"/api/services\",status=\"200\"}"), "{body}");
    // The seed's invoice 7015 is in Collections, 40 days old; 7001 is paid (no series).
    let invoice = |id: &str| {
        parsed.samples.iter().find(|s| {
            s.metric == "proxydash_invoice_unpaid_age_seconds"
                && s.labels.get("invoice") == Some(id)
        })
    };
    let collections = invoice("7015").expect("an unpaid-invoice series");
    assert_eq!(collections.labels.get("status"), Some("Collections"));
    assert!(
        matches!(collections.value, prometheus_parse::Value::Gauge(v) if v >= 39.0 * 86_400.0),
        "{body}"
    );
    assert!(invoice("7001").is_none(), "{body}");
    let (code, outs, errs) = watch.terminate();
    assert_eq!(code, 0, "{}", errs.join("\n"));
    assert!(errs.iter().any(|l| l.contains("stopped after")), "{errs:?}");
    assert!(!outs.is_empty(), "no alert on standard output");
    let mut seen = std::collections::HashSet::new();
    for line in &outs {
        let v: serde_json::Value = serde_json::from_str(line).expect("one JSON object a line");
        assert_eq!(v["profile"], "default");
        for key in ["state", "level", "rule", "subject", "message", "at"] {
            assert!(v[key].is_string(), "{key} in {line}");
        }
        // Each alert is delivered once: no (rule, subject, state) twice.
        let id = (v["rule"].clone(), v["subject"].clone(), v["state"].clone());
        assert!(seen.insert(format!("{id:?}")), "twice: {line}");
    }
    // The seed's suspended service 1006 is one of them.
    assert!(
        outs.iter().any(|l| l.contains("\"rule\":\"service_status\"") && l.contains("\"service_id\":1006")),
        "{outs:?}"
    );
    // The history was flushed before the exit.
    assert!(dir.join("state/proxydash/history-default.sqlite").exists());
}

#[tokio::test(flavor = "multi_thread")]
async fn keep_bound_rebinds_once_per_change_of_the_public_ip() {
    let dir = dir("keep");
    let sandbox = sandbox().await;
    sandbox.set_public_ip("45.83.220.20".parse().unwrap());
    let myip = format!("{}/myip", sandbox.base_url());
    let mut watch = Watch::start(
        &dir,
        &sandbox,
        &[
            "--keep-bound",
            "1001",
            "--check-every",
            "1",
            "--my-ip-url",
            &myip,
        ],
    );
    watch.wait_err(|l| l.contains("rebound service 1001 to 45.83.220.20 (was 192.0.2.50)"));
    let writes = |s: &SandboxHandle| {
        s.requests()
            .iter()
            .filter(|r| r.method == "PUT" && r.path == "/api/service/1001")
            .map(|r| r.body.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        writes(&sandbox),
        vec![r#"{"setip":"45.83.220.20"}"#.to_owned()]
    );
    // Several more checks with the same IP: nothing more is written.
    let lookups = |s: &SandboxHandle| s.requests().iter().filter(|r| r.path == "/myip").count();
    let before = lookups(&sandbox);
    let give_up = Instant::now() + LIMIT;
    while lookups(&sandbox) < before + 3 {
        assert!(Instant::now() < give_up, "no more checks");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(writes(&sandbox).len(), 1);
    sandbox.set_public_ip("45.83.220.21".parse().unwrap());
    watch.wait_err(|l| l.contains("rebound service 1001 to 45.83.220.21 (was 45.83.220.20)"));
    assert_eq!(writes(&sandbox).len(), 2);
    let (code, _, errs) = watch.terminate();
    assert_eq!(code, 0, "{}", errs.join("\n"));
}

#[tokio::test(flavor = "multi_thread")]
async fn keep_bound_never_rebinds_to_an_address_that_is_not_public() {
    let dir = dir("keep-loopback");
    let sandbox = sandbox().await;
    sandbox.set_public_ip("127.0.0.1".parse().unwrap());
    let myip = format!("{}/myip", sandbox.base_url());
    let mut watch = Watch::start(
        &dir,
        &sandbox,
        &[
            "--keep-bound",
            "1001",
            "--check-every",
            "1",
            "--my-ip-url",
            &myip,
        ],
    );
    watch.wait_err(|l| l.contains("the answer 127.0.0.1 is a loopback address"));
    let (code, _, errs) = watch.terminate();
    assert_eq!(code, 0, "{}", errs.join("\n"));
    assert!(
        !sandbox.requests().iter().any(|r| r.method == "PUT"),
        "nothing was rebound"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_broken_history_database_is_said_once_on_stderr_and_in_the_log_with_its_path() {
    let dir = dir("broken-history");
    let sandbox = sandbox().await;
    let state = dir.join("state/proxydash");
    std::fs::create_dir_all(&state).unwrap();
    let db = state.join("history-default.sqlite");
    std::fs::write(&db, "this is not a database\n".repeat(512)).unwrap();
    let log = dir.join("watch.log");
    let mut command = Command::new(env!("CARGO_BIN_EXE_proxydash"));
    command
        .args(["--base-url", &sandbox.base_url(), "--refresh", "1", "watch"])
        // The account options work after `watch` too; the sandbox is the test's own.
        .args(["--max-rpm", "6000"])
        .arg("--log-file")
        .arg(&log)
        .env("PROXYDASH_TOKEN", sandbox.token())
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env_remove("PROXYDASH_PROFILE")
        .env_remove("PROXYDASH_CONFIG")
        .env("PROXYDASH_LOG", "info");
    let mut watch = Watch::spawn(command);
    let said =
        |l: &str| l.contains("not a history database") && l.contains("history-default.sqlite");
    watch.wait_err(said);
    // Sweeps go on after it (an alert line, or more sweeps' requests) without saying it again.
    let give_up = Instant::now() + LIMIT;
    while sandbox.requests().len() < 30 {
        assert!(Instant::now() < give_up, "the watch goes on");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (code, _, errs) = watch.terminate();
    assert_eq!(code, 0, "{}", errs.join("\n"));
    assert_eq!(errs.iter().filter(|l| said(l)).count(), 1, "once: {errs:?}");
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(logged.lines().any(said), "in the log: {logged}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_dry_run_writes_nothing_and_says_what_it_would_do() {
    let dir = dir("dry");
    let sandbox = sandbox().await;
    sandbox.set_public_ip("45.83.220.30".parse().unwrap());
    let myip = format!("{}/myip", sandbox.base_url());
    let mut watch = Watch::start(
        &dir,
        &sandbox,
        &[
            "--keep-bound",
            "1001",
            "--dry-run",
            "--check-every",
            "1",
            "--my-ip-url",
            &myip,
        ],
    );
    watch.wait_err(|l| l.contains("would rebind service 1001 to 45.83.220.30"));
    let (code, _, _) = watch.terminate();
    assert_eq!(code, 0);
    assert!(!sandbox.requests().iter().any(|r| r.method == "PUT"));
}

#[test]
fn an_unknown_profile_is_a_usage_error() {
    let dir = dir("usage");
    std::fs::create_dir_all(dir.join("config/proxydash")).unwrap();
    std::fs::write(
        dir.join("config/proxydash/config.toml"),
        "[profiles.a]\nbase_url = \"http://127.0.0.1:9\"\ntoken = \"t\"\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_proxydash"))
        .args(["watch", "--profile", "a", "--profile", "nope"])
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env_remove("PROXYDASH_PROFILE")
        .env_remove("PROXYDASH_CONFIG")
        .env_remove("PROXYDASH_TOKEN")
        .env_remove("PROXYDASH_BASE_URL")
        .env("PROXYDASH_LOG", "off")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("nope"), "{err}");
}

#[tokio::test(flavor = "multi_thread")]
async fn all_profiles_are_watched_each_with_its_own_alerts() {
    let dir = dir("profiles");
    let sandbox = sandbox().await;
    std::fs::create_dir_all(dir.join("config/proxydash")).unwrap();
    let profile = |name: &str| {
        format!(
            "[profiles.{name}]\nbase_url = \"{}\"\ntoken = \"{}\"\nrefresh = 1\nhistory_days = 0\nmax_requests_per_minute = 6000\n",
            sandbox.base_url(),
            sandbox.token()
        )
    };
    let file = dir.join("config/proxydash/config.toml");
    std::fs::write(&file, format!("{}{}", profile("shop"), profile("resale"))).unwrap();
    std::fs::set_permissions(&file, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_proxydash"));
    command
        .args(["watch", "--all-profiles", "-vv"])
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env_remove("PROXYDASH_PROFILE")
        .env_remove("PROXYDASH_CONFIG")
        .env_remove("PROXYDASH_TOKEN")
        .env_remove("PROXYDASH_BASE_URL")
        .env("PROXYDASH_LOG", "off");
    let mut watch = Watch::spawn(command);
    for name in ["shop", "resale"] {
        // Two sweeps each: the alerts open at the second.
        watch.wait_err(|l| l.starts_with(&format!("{name}: sweep done")));
        watch.wait_err(|l| l.starts_with(&format!("{name}: sweep done")));
    }
    let (code, outs, _) = watch.terminate();
    assert_eq!(code, 0);
    for name in ["shop", "resale"] {
        assert!(
            outs.iter()
                .any(|l| l.contains(&format!("\"profile\":\"{name}\""))),
            "no alert of {name}: {outs:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_metrics_address_in_use_exits_3_and_says_which() {
    let dir = dir("inuse");
    let sandbox = sandbox().await;
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let mut watch = Watch::start(&dir, &sandbox, &["--metrics-listen", &addr]);
    let status = watch.exit_status();
    assert_eq!(status.code(), Some(3));
    let errs: Vec<String> = watch.err.iter().collect();
    assert!(
        errs.iter()
            .any(|l| l.contains(&addr) && l.contains("metrics")),
        "{errs:?}"
    );
}

/// The descriptors of this process by kind, TCP sockets with their state and ports.
#[allow(dead_code)]
#[path = "../benches/common/fds.rs"]
mod fds;

/// A watcher stopped leaves no connection behind. While it runs, its connections to the
/// sandbox are open (both ends are in this process: the client's and the sandbox's);
/// once it has stopped, and its app, fetcher and client with it, only the sandbox's
/// listener is. In-process and counted by port, so the other tests' sockets do not count.
/// (The `watch` soak bench checks the same over a simulated day.)
#[tokio::test(flavor = "multi_thread")]
async fn a_stopped_watcher_leaves_no_connection_open() {
    use proxydash::account::Clock;
    use proxydash::api::{ApiClient, ClientConfig, Credentials};
    use proxydash::watch::output::{Captured, Output};
    use proxydash::watch::watcher::{Options, Watcher};
    let sandbox = sandbox().await;
    let port = sandbox.addr().port();
    let sockets = || fds::census().on_port(port).count();
    assert_eq!(sockets(), 1, "before: the listener alone");
    let clock: Clock = std::sync::Arc::new(chrono::Utc::now);
    let client = ApiClient::new(ClientConfig::new(
        sandbox.base_url(),
        Credentials::Token(sandbox.token().into()),
    ))
    .unwrap();
    let account = proxydash::account::start(
        proxydash::account::Config::new("fds", &sandbox.base_url(), Some(Duration::from_secs(30))),
        proxydash::headless::on_loopback(client),
        clock.clone(),
    );
    let output = Output::spawn(Box::new(Captured::default()), Box::new(std::io::sink())).unwrap();
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
    let sink = Box::new(proxydash::alerts::Recording::default());
    let watcher = Watcher::new("fds", account, sink, output, options);
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let drive = async {
        // Until a few answers came back on connections the client keeps open.
        let give_up = Instant::now() + LIMIT;
        loop {
            let answered = sandbox.requests().iter().filter(|r| r.status != 0).count();
            let open = sockets();
            if answered >= 3 && open >= 3 {
                break open;
            }
            assert!(
                Instant::now() < give_up,
                "{answered} answers, {open} sockets"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    let (outcome, open) = tokio::join!(watcher.run(stopped), async {
        let open = drive.await;
        let _ = stop.send(true);
        open
    });
    assert_eq!(outcome, Ok(()));
    let give_up = Instant::now() + Duration::from_secs(5);
    while sockets() > 1 && Instant::now() < give_up {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let census = fds::census();
    let left: Vec<_> = census.on_port(port).collect();
    assert_eq!(
        left.len(),
        1,
        "{open} sockets while it ran; after it stopped: {left:?} ({census})"
    );
}

/// `proxydash alerts …` with the test's state and config folders; its exit status and
/// standard output.
fn alerts_cli(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_proxydash"))
        .arg("alerts")
        .args(args)
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env_remove("PROXYDASH_PROFILE")
        .env_remove("PROXYDASH_CONFIG")
        .env("PROXYDASH_LOG", "off")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Waits (under [`LIMIT`]) until `cond` holds, polling every 50 ms; `what` names it.
fn wait_until(what: &str, mut cond: impl FnMut() -> bool) {
    let give_up = Instant::now() + LIMIT;
    while !cond() {
        assert!(Instant::now() < give_up, "never: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The alerts the `on_alert` runs so far spoke of, as (rule, service or invoice ID,
/// state): a digest (the baseline's summary, many changes at once) speaks of each alert
/// it names.
fn deliveries(file: &Path) -> Vec<(String, u64, String)> {
    let one = |v: &serde_json::Value| {
        let id = v["service_id"]
            .as_u64()
            .or(v["invoice_id"].as_u64())
            .unwrap_or(0);
        (
            v["rule"].as_str().unwrap_or("").to_owned(),
            id,
            v["state"].as_str().unwrap_or("").to_owned(),
        )
    };
    runs(file)
        .iter()
        .flat_map(|v| match v["alerts"].as_array() {
            Some(named) => named.iter().map(one).collect::<Vec<_>>(),
            None => vec![one(v)],
        })
        .collect()
}

/// The `on_alert` runs so far, as the JSON each read.
fn runs(file: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn silenced_and_acknowledged_alerts_reach_no_on_alert_command_across_a_restart() {
    let dir = dir("silence");
    let sandbox = sandbox().await;
    let delivered = dir.join("deliveries.jsonl");
    std::fs::create_dir_all(dir.join("config/proxydash")).unwrap();
    let file = dir.join("config/proxydash/config.toml");
    std::fs::write(
        &file,
        format!(
            "[profiles.shop]\nbase_url = \"{}\"\ntoken = \"{}\"\nrefresh = 1\nmax_requests_per_minute = 6000\n\n[alerts]\non_alert = \"cat >> '{}'\"\n",
            sandbox.base_url(),
            sandbox.token(),
            delivered.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&file, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    let watch = || Watch::configured(&dir, &["-vv", "--metrics-listen", "127.0.0.1:0"]);
    // Typed lengths that do not read are refused with status 2, and nothing is kept.
    let (code, _, err) = alerts_cli(
        &dir,
        &[
            "silence",
            "--service",
            "1001",
            "--for",
            "abc",
            "--reason",
            "x",
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a unit"), "{err}");
    // The seed's service 1001 has servers in error: silenced before watch starts.
    let (code, out, err) = alerts_cli(
        &dir,
        &[
            "silence",
            "--service",
            "1001",
            "--for",
            "8h",
            "--reason",
            "maintenance",
            "--json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let said: serde_json::Value = serde_json::from_str(&out).unwrap();
    let silence_id = said["id"].as_str().unwrap().to_owned();

    let mut w = watch();
    let at = w.wait_err(|l| l.starts_with("metrics at http://"));
    let addr = at
        .trim_start_matches("metrics at http://")
        .trim_end_matches("/metrics")
        .to_owned();
    let suspended = ("service_status".to_owned(), 1006, "opened".to_owned());
    wait_until("service 1006's alert delivered to on_alert", || {
        deliveries(&delivered).contains(&suspended)
    });
    // A status opens at its first sweep; the servers in error need their second full
    // sweep (the debounce of a measurement): wait for its series, by name.
    let series = |body: &str| {
        body.lines()
            .find(|l| {
                l.starts_with("proxydash_alert_open{")
                    && l.contains("alert=\"servers_in_error:1001\"")
            })
            .map(str::to_owned)
    };
    wait_until("servers_in_error:1001 listed in /metrics", || {
        series(&scrape(&addr)).is_some()
    });
    // Listed in /metrics, labelled silenced; never delivered.
    let line = series(&scrape(&addr)).expect("listed");
    assert!(line.contains("silenced=\"true\""), "{line}");
    let silenced = |d: &(String, u64, String)| d.1 == 1001;
    assert!(
        !deliveries(&delivered).iter().any(silenced),
        "{:?}",
        deliveries(&delivered)
    );

    // Acknowledged from another process while watch runs: watch reads it before its next
    // sweep and labels it so.
    // The open alerts' file is written off watch's task after the sweep that opened it:
    // until then the alert is not open to the command line (status 4).
    wait_until("service_status:1006 acknowledged", || {
        let (code, _, err) = alerts_cli(&dir, &["ack", "service_status:1006", "--by", "tester"]);
        assert!(code == 0 || code == 4, "{code}: {err}");
        code == 0
    });
    let (code, _, _) = alerts_cli(&dir, &["ack", "service_status:424242"]);
    assert_eq!(code, 4, "an alert that is not open is not acknowledged");
    wait_until("the acknowledgement labelled in /metrics", || {
        scrape(&addr).lines().any(|l| {
            l.contains("alert=\"service_status:1006\"") && l.contains("acknowledged=\"true\"")
        })
    });
    let (code, outs, _) = w.terminate();
    assert_eq!(code, 0);
    assert!(
        !outs.iter().any(|l| l.contains("\"service_id\":1001")),
        "{outs:?}"
    );

    // A restart that forgot which alerts were open: every alert opens again, but the
    // acknowledged one and the silenced one are still held back.
    std::fs::remove_file(dir.join("state/proxydash/alerts.json")).unwrap();
    let before = deliveries(&delivered).len();
    let mut w = watch();
    w.sweeps(3);
    // While it runs (a stop does not wait for commands still running): every alert it
    // printed has had its on_alert run.
    wait_until("every on_alert run of the restart written", || {
        w.outs.extend(w.out.try_iter());
        !w.outs.is_empty() && deliveries(&delivered).len() >= before + w.outs.len()
    });
    let (code, outs, _) = w.terminate();
    assert_eq!(code, 0);
    assert!(!outs.is_empty(), "the other alerts opened again");
    let all = deliveries(&delivered);
    assert_eq!(
        all.iter().filter(|d| **d == suspended).count(),
        1,
        "{all:?}"
    );
    assert!(!all.iter().any(silenced), "{all:?}");

    // The list shows both marks; unsilence ends the silence.
    let (code, json, _) = alerts_cli(&dir, &["--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let alert = |id: &str| {
        v["alerts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["id"] == id)
            .cloned()
    };
    assert_eq!(
        alert("service_status:1006").unwrap()["acknowledged"]["by"],
        "tester"
    );
    assert_eq!(
        alert("servers_in_error:1001").unwrap()["silenced_by"],
        silence_id.as_str()
    );
    let (code, _, err) = alerts_cli(&dir, &["unsilence", &silence_id]);
    assert_eq!(code, 0, "{err}");
    let (_, json, _) = alerts_cli(&dir, &["--json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(v["silences"].as_array().unwrap().is_empty(), "{json}");
}

/// Issue 35: a server that claims `X-RateLimit-Limit: 1000000` is believed up to 600 a
/// minute, and an unattended watcher says so on standard error (and says when a 429
/// pauses it, with the pause the server asked for cut to an hour).
#[test]
fn watch_says_what_it_makes_of_the_servers_limit() {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    // Every answer claims a million a minute; once the test has read watch's line about
    // that claim, the next request is refused with a pause of eleven days. (Refusing the
    // fourth request outright raced: on a loaded machine the pause could come before watch
    // said anything of the claim, and then it says only the pause.)
    let refuse = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let refusing = refuse.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { break };
            let refusing = refusing.clone();
            std::thread::spawn(move || {
                let mut head = Vec::new();
                let mut buf = [0u8; 1024];
                while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut buf) {
                        Ok(0) | Err(_) => return,
                        Ok(n) => head.extend_from_slice(&buf[..n]),
                    }
                }
                let reply = if refusing.swap(false, std::sync::atomic::Ordering::SeqCst) {
                    "HTTP/1.1 429 X\r\nretry-after: 999999\r\nx-ratelimit-limit: 1000000\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}".to_owned()
                } else {
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nx-ratelimit-limit: 1000000\r\ncontent-length: 2\r\nconnection: close\r\n\r\n[]".to_owned()
                };
                let _ = stream.write_all(reply.as_bytes());
            });
        }
    });
    let dir = dir("budget-news");
    let mut command = Command::new(env!("CARGO_BIN_EXE_proxydash"));
    command
        // A short refresh, so requests keep coming after the claim was said.
        .args(["--base-url", &url, "--refresh", "5", "watch"])
        .env("PROXYDASH_TOKEN", "t")
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env_remove("PROXYDASH_PROFILE")
        .env_remove("PROXYDASH_CONFIG")
        .env("PROXYDASH_LOG", "off");
    let mut w = Watch::spawn(command);
    w.wait_err(|l| l.contains("the server says 1,000,000/min; using 600/min"));
    refuse.store(true, std::sync::atomic::Ordering::SeqCst);
    let paused = w.wait_err(|l| l.contains("paused by the server until"));
    assert!(
        paused.contains("the server asked for 11 days; at most 60 min"),
        "{paused}"
    );
    let _ = w.child.kill();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 37 items 1, 2, 4 and 6 as a user meets them, on a sandbox of 30 services (every
/// status, ended ones among the rotating ones) whose statistics cannot be read, with an
/// alert file a dashboard left: `watch` resolves no forecast it has no statistics for,
/// keeps every alert's first sighting, ends the usage alert of a Cancelled service as
/// "service ended", exports due dates for live services only and raises no usage alert
/// for ended ones; run a second time on the same state, the same holds.
#[tokio::test(flavor = "multi_thread")]
async fn watch_twice_on_one_state_resolves_nothing_unread_and_leaves_ended_services_alone() {
    let dir = dir("truth");
    let sandbox = Sandbox::start(SandboxConfig {
        scale: Some(30),
        faults: Some("500-html,path=/api/stats".parse().unwrap()),
        ..SandboxConfig::ephemeral()
    })
    .await
    .unwrap();
    // Scale 30: services 2 and 14 are Active rotating ones, 10 a Cancelled rotating one,
    // 1 an Active static one with a server in error.
    let an_hour_ago = chrono::Utc::now() - chrono::Duration::hours(1);
    let alert = |rule: &str, service: u64, message: &str| {
        serde_json::json!({
            "key": {"rule": rule, "subject": {"service": service}},
            "level": "warn", "message": message,
            "first_seen": an_hour_ago.to_rfc3339(), "last_seen": an_hour_ago.to_rfc3339(),
            "resolved": null,
        })
    };
    let file = dir.join("state/proxydash/alerts.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let account = format!("{} default", sandbox.base_url());
    std::fs::write(
        &file,
        serde_json::json!({"accounts": {account.clone(): [
            alert("rate_forecast", 2, "Service 2: the limit is reached before its due date"),
            alert("rate_forecast", 14, "Service 14: the limit is reached before its due date"),
            alert("servers_in_error", 1, "Service 1: 1 proxy server in error"),
            alert("rate_limit", 10, "Service 10: 95% of its limit used"),
        ]}})
        .to_string(),
    )
    .unwrap();
    let first_seen = |rule: &str, service: u64| -> Option<chrono::DateTime<chrono::Utc>> {
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        v["accounts"][&account]
            .as_array()?
            .iter()
            .find(|a| a["key"]["rule"] == rule && a["key"]["subject"]["service"] == service)
            .and_then(|a| a["first_seen"].as_str()?.parse().ok())
    };
    let ended = |status: &str| ["Terminated", "Cancelled", "Fraud"].contains(&status);

    for run in 1..=2 {
        let mut w = Watch::start(&dir, &sandbox, &["-vv", "--metrics-listen", "127.0.0.1:0"]);
        let at = w.wait_err(|l| l.starts_with("metrics at http://"));
        let addr = at
            .trim_start_matches("metrics at http://")
            .trim_end_matches("/metrics")
            .to_owned();
        // Sweeps enough for the debounce, the network lists and the rates.
        w.sweeps(6);
        wait_until("every service's status is exported", || {
            scrape(&addr).matches("proxydash_service_up{").count() == 30
        });
        let metrics = scrape(&addr);
        let (code, outs, errs) = w.terminate();
        assert_eq!(code, 0, "run {run}: {errs:?}");
        let lines: Vec<serde_json::Value> = outs
            .iter()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();

        // Item 1: no statistics were read, so no forecast resolved.
        assert!(
            !lines
                .iter()
                .any(|l| l["rule"] == "rate_forecast" && l["state"] == "resolved"),
            "run {run}: {outs:#?}"
        );
        for service in [2, 14] {
            assert_eq!(
                first_seen("rate_forecast", service),
                Some(an_hour_ago),
                "run {run}: the forecast on {service} is still open as first seen"
            );
        }
        // Item 4: the dashboard's first sighting stands.
        assert_eq!(
            first_seen("servers_in_error", 1),
            Some(an_hour_ago),
            "run {run}"
        );
        assert!(
            !lines
                .iter()
                .any(|l| l["rule"] == "servers_in_error" && l["service_id"] == 1),
            "run {run}: an alert already open is not announced again: {outs:#?}"
        );

        // Items 2 and 6, from what the scrape says of each service.
        let statuses: Vec<(u64, String)> = metrics
            .lines()
            .filter(|l| l.starts_with("proxydash_service_up{"))
            .map(|l| {
                let label = |name: &str| {
                    let from = l.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
                    l[from..][..l[from..].find('"').unwrap()].to_owned()
                };
                (label("service").parse().unwrap(), label("status"))
            })
            .collect();
        assert!(statuses.iter().any(|(_, s)| ended(s)), "{metrics}");
        assert!(
            metrics.contains("proxydash_service_due_seconds{profile=\"default\",service=\"2\"}"),
            "the live ones' are: {metrics}"
        );
        for (id, status) in &statuses {
            let due =
                format!("proxydash_service_due_seconds{{profile=\"default\",service=\"{id}\"}}");
            // A live one without a due date (a trial) has none to export.
            if !ended(status) {
                continue;
            }
            assert!(
                !metrics.contains(&due),
                "run {run}: service {id} ({status}):\n{metrics}"
            );
            {
                for rule in ["rate_limit", "rate_forecast"] {
                    assert!(
                        !lines.iter().any(|l| l["rule"] == rule
                            && l["service_id"] == *id
                            && l["state"] == "opened"),
                        "run {run}: {rule} opened on {status} service {id}: {outs:#?}"
                    );
                    assert!(
                        !metrics.contains(&format!("alert=\"{rule}:{id}\"")),
                        "run {run}: {rule} open on {status} service {id}:\n{metrics}"
                    );
                }
            }
        }
        if run == 1 {
            let ended_10 = lines
                .iter()
                .find(|l| l["rule"] == "rate_limit" && l["service_id"] == 10)
                .unwrap_or_else(|| panic!("the usage alert of Cancelled service 10: {outs:#?}"));
            assert_eq!(ended_10["state"], "resolved", "{ended_10}");
            assert!(
                ended_10.to_string().contains("ended"),
                "resolved as the service ended: {ended_10}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 46.6: `on_alert='sleep 97 & sleep 97'` under SIGTERM: the commands get their
/// grace, then end with their children (none left behind), the notices they did not
/// deliver are counted on standard error and kept, and the next start delivers them first.
#[tokio::test(flavor = "multi_thread")]
async fn a_stop_ends_the_on_alert_commands_and_keeps_what_they_did_not_deliver() {
    let dir = dir("stop-on-alert");
    let sandbox = sandbox().await;
    let pids = dir.join("pids");
    let delivered = dir.join("delivered.jsonl");
    std::fs::create_dir_all(dir.join("config/proxydash")).unwrap();
    let file = dir.join("config/proxydash/config.toml");
    let config = |on_alert: &str| {
        format!(
            "[profiles.shop]\nbase_url = \"{}\"\ntoken = \"{}\"\nrefresh = 1\nmax_requests_per_minute = 6000\n\n[alerts]\non_alert = \"{on_alert}\"\n",
            sandbox.base_url(),
            sandbox.token(),
        )
    };
    let hang = format!(
        "sleep 97 & echo $! >> '{0}'; sleep 97 & echo $! >> '{0}'; wait",
        pids.display()
    );
    std::fs::write(&file, config(&hang)).unwrap();
    std::fs::set_permissions(&file, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    let watch = || Watch::configured(&dir, &["-v"]);
    let started = || {
        std::fs::read_to_string(&pids)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse::<i32>().ok())
            .collect::<Vec<_>>()
    };
    let mut w = watch();
    // The baseline's summary runs the command (it hangs, with two children).
    wait_until("the summary's command started", || started().len() >= 2);
    w.outs.extend(w.out.try_iter());
    let (code, _, errs) = w.terminate();
    assert_eq!(code, 0, "{errs:?}");
    for pid in started() {
        // SAFETY: signal 0 only asks whether the process exists.
        wait_until("the command's children ended", || unsafe {
            libc::kill(pid, 0) != 0
        });
    }
    let said = errs
        .iter()
        .find(|l| l.contains("not delivered to on_alert"))
        .unwrap_or_else(|| panic!("{errs:?}"));
    assert!(said.contains("kept in"), "{said}");
    // The next start, with a command that delivers, sends what was kept first.
    std::fs::write(
        &file,
        config(&format!(
            "cat >> '{}'; echo >> '{}'",
            delivered.display(),
            delivered.display()
        )),
    )
    .unwrap();
    let mut w = watch();
    w.wait_err(|l| l.contains("a stop kept from on_alert, delivered now"));
    wait_until("the kept notice delivered", || {
        runs(&delivered)
            .iter()
            .any(|r| r["state"] == "baseline" && r["count"].as_u64().unwrap_or(0) > 0)
    });
    let (code, _, _) = w.terminate();
    assert_eq!(code, 0);
}
