//! The `on_alert` runner end to end: what the command reads, failures said, timeouts
//! killing the command's children, output capped, a flood merged into few commands with
//! nothing dropped, and a stop that ends what runs and counts what was not delivered.
//! Every wait is for a file or a message, under a generous limit.

use super::herald::{Digest, DigestKind, Notice};
use super::runner::{self, OnAlert, Report};
use super::*;
use chrono::{TimeZone, Utc};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The longest any condition is waited for: reached only when something hangs.
const LIMIT: Duration = Duration::from_secs(60);

fn t(minutes: i64) -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap() + chrono::Duration::minutes(minutes)
}

fn transition(id: u64, level: Level) -> Transition {
    Transition {
        change: Change::Opened,
        alert: Alert {
            key: AlertKey {
                rule: Rule::ServiceStatus,
                subject: Subject::Service(id),
            },
            level,
            message: format!("Service {id} (Datacenter \"US\" 10) is Suspended; $(rm -rf /)"),
            first_seen: t(0),
            last_seen: t(1),
            resolved: None,
            repeats: 0,
            next_repeat: None,
            level_unsure: false,
            unchecked_since: None,
        },
        at: t(1),
        baseline: false,
    }
}

fn temp(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("proxydash-on-alert-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Waits (polling every 10 ms, at most [`LIMIT`]) until `cond` holds.
async fn until(what: &str, mut cond: impl FnMut() -> bool) {
    let give_up = tokio::time::Instant::now() + LIMIT;
    while !cond() {
        assert!(
            tokio::time::Instant::now() < give_up,
            "waited {LIMIT:?} for {what}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// A report whose lines arrive on a channel.
fn reported() -> (Report, tokio::sync::mpsc::UnboundedReceiver<String>) {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    (std::sync::Arc::new(move |line| drop(tx.send(line))), rx)
}

fn lines(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

#[tokio::test]
async fn on_alert_gets_json_on_stdin_and_the_variables() {
    let dir = temp("json");
    // Written aside, then moved: the file is whole once it is there.
    let command = format!(
        "cat > '{0}/in.json'; env | grep '^PROXYDASH_ALERT_' | sort > '{0}/env.part'; mv '{0}/env.part' '{0}/env'",
        dir.display()
    );
    let (report, _) = reported();
    let runner = OnAlert::start(command, Duration::from_secs(10), "work".into(), report);
    runner.submit(Notice::One(transition(1006, Level::Critical)));
    until("the command's files", || dir.join("env").exists()).await;
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("in.json")).unwrap()).unwrap();
    assert_eq!(json["state"], "opened");
    assert_eq!(json["level"], "critical");
    assert_eq!(json["rule"], "service_status");
    assert_eq!(json["subject"], "service 1006");
    assert_eq!(json["service_id"], 1006);
    assert_eq!(json["profile"], "work");
    assert_eq!(json["baseline"], false);
    assert_eq!(
        json["message"],
        transition(1006, Level::Critical).alert.message
    );
    assert!(json["resolved"].is_null());
    let env = std::fs::read_to_string(dir.join("env")).unwrap();
    for line in [
        "PROXYDASH_ALERT_LEVEL=critical",
        "PROXYDASH_ALERT_RULE=service_status",
        "PROXYDASH_ALERT_SUBJECT=service 1006",
        "PROXYDASH_ALERT_STATE=opened",
        "PROXYDASH_ALERT_PROFILE=work",
        "PROXYDASH_ALERT_COUNT=1",
        // The message is a value, never run: the `$(…)` is still text.
        "PROXYDASH_ALERT_MESSAGE=Service 1006 (Datacenter \"US\" 10) is Suspended; $(rm -rf /)",
    ] {
        assert!(env.lines().any(|l| l == line), "{line} in\n{env}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_failing_command_says_why() {
    let out = runner::run(
        "echo 'no such webhook' >&2; exit 3",
        Duration::from_secs(10),
        Vec::new(),
        Vec::new(),
    )
    .await
    .unwrap_err();
    assert!(
        out.contains("3") && out.contains("no such webhook"),
        "{out}"
    );
}

#[tokio::test]
async fn a_hanging_command_is_killed_at_its_timeout_with_its_children() {
    let dir = temp("hang");
    let pidfile = dir.join("pid");
    // The shell starts a child that would outlive it, and waits on it.
    let command = format!("sleep 600 & echo $! > '{}'; wait", pidfile.display());
    let (report, mut said) = reported();
    // Submitting does not wait for the command: the caller (the UI loop) goes on, and the
    // outcome arrives later.
    let runner = OnAlert::start(command, Duration::from_millis(300), "work".into(), report);
    runner.submit(Notice::One(transition(1006, Level::Critical)));
    let outcome = tokio::time::timeout(LIMIT, said.recv())
        .await
        .expect("the outcome by the command's timeout")
        .unwrap();
    assert!(outcome.contains("killed"), "{outcome}");
    let pid: i32 = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // SAFETY: signal 0 only asks whether the process exists.
    until(
        "the command's child to be gone",
        || unsafe { libc::kill(pid, 0) } != 0,
    )
    .await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn chatty_output_is_capped() {
    // 1 MB on each stream: read and dropped past the cap, the command not blocked.
    let out = runner::run(
        "head -c 1000000 /dev/zero; head -c 1000000 /dev/zero >&2; exit 1",
        Duration::from_secs(20),
        Vec::new(),
        Vec::new(),
    )
    .await
    .unwrap_err();
    assert!(out.len() < 300, "{} bytes", out.len());
}

/// Issue 44: 200 notices in a burst, a critical among the warnings, into a command that
/// takes a while: a handful of commands, every notice counted in what they read, the
/// critical named. Nothing is dropped.
#[tokio::test]
async fn a_flood_becomes_a_few_digests_and_drops_nothing() {
    let dir = temp("flood");
    let log = dir.join("runs.jsonl");
    // Each run appends what it read as one line, then takes a moment (a slow webhook).
    let command = format!(
        "tr -d '\\n' >> '{0}'; echo >> '{0}'; sleep 0.3",
        log.display()
    );
    let (report, _) = reported();
    let runner = OnAlert::start(command, Duration::from_secs(10), "work".into(), report);
    for id in 0..200u64 {
        let level = if id == 150 {
            Level::Critical
        } else {
            Level::Warn
        };
        runner.submit(Notice::One(transition(2000 + id, level)));
    }
    let counted = |runs: &[serde_json::Value]| {
        runs.iter()
            .map(|r| r["count"].as_u64().unwrap_or(1))
            .sum::<u64>()
    };
    until("every notice in a run", || counted(&lines(&log)) == 200).await;
    let runs = lines(&log);
    assert!(runs.len() <= 2 * runner::MAX_RUNNING, "{} runs", runs.len());
    let digest = runs
        .iter()
        .find(|r| r["state"] == "digest" && r["alerts"].to_string().contains("2150"))
        .unwrap_or_else(|| panic!("the critical is named in a digest: {runs:?}"));
    assert_eq!(digest["level"], "critical");
    assert!(digest["message"].as_str().unwrap().contains("Service 2150"));
    let _ = std::fs::remove_dir_all(dir);
}

/// Issue 46.6: a stop gives the runs a grace, then ends their process groups (children
/// included), and says how many notices were not delivered.
#[tokio::test]
async fn a_stop_ends_the_runs_and_counts_what_was_not_delivered() {
    let dir = temp("stop");
    let command = format!(
        "sleep 97 & echo $! >> '{0}/pids'; sleep 97 & echo $! >> '{0}/pids'; wait",
        dir.display()
    );
    let (report, _) = reported();
    let runner = OnAlert::start(command, Duration::from_secs(300), "work".into(), report);
    let mut digest = Digest::new(DigestKind::Changes, t(1));
    for id in 0..4 {
        digest.add(transition(3000 + id, Level::Warn));
    }
    for id in 0..3 {
        runner.submit(Notice::One(transition(id, Level::Warn)));
    }
    let pids = || {
        std::fs::read_to_string(dir.join("pids"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse::<i32>().ok())
            .collect::<Vec<_>>()
    };
    until("three runs, two children each", || pids().len() == 6).await;
    runner.submit(Notice::Digest(digest));
    let lost = runner.finish(Duration::from_millis(200)).await;
    // Three running (ended) and a digest of four waiting, handed back whole.
    assert_eq!(lost.len(), 4);
    assert_eq!(lost.iter().map(Notice::count).sum::<usize>(), 7);
    for pid in pids() {
        // SAFETY: signal 0 only asks whether the process exists.
        until(
            "the command's children to end",
            || unsafe { libc::kill(pid, 0) } != 0,
        )
        .await;
    }
    let _ = std::fs::remove_dir_all(dir);
}
