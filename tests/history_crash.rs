//! Nothing committed is lost on a crash: a child process writes sweeps of 1,000 services
//! into a history file and says after each commit which one it was; it is killed with
//! SIGKILL in the middle of its writes; the file then opens, passes SQLite's integrity
//! check, and holds every sweep up to the last one the child reported (and nothing
//! half-written after it).

use chrono::{TimeZone, Utc};
use proxydash::history::{Record, ServerList, Store, Sweep};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

const CHILD: &str = "PROXYDASH_HISTORY_CRASH_CHILD";
const SERVICES: u64 = 1000;

fn sweep(i: u64) -> Sweep {
    let mut records = vec![Record::Credit { credit: i as f64 }];
    for id in 0..SERVICES {
        // Every sweep changes a few services' error lists, so each write has work to do.
        let servers = if (id + i).is_multiple_of(50) {
            vec![format!("10.{}.{}.1", id / 256, id % 256)]
        } else {
            Vec::new()
        };
        records.push(Record::Servers {
            service_id: id,
            list: ServerList::Errors,
            servers,
        });
    }
    Sweep {
        at: Utc.timestamp_opt(1_780_000_000 + 60 * i as i64, 0).unwrap(),
        records,
    }
}

fn child(path: &str) {
    let mut store = Store::open(std::path::Path::new(path), 90).expect("open");
    let mut out = std::io::stdout();
    for i in 0..100_000 {
        store.write(&[sweep(i)]).expect("write");
        writeln!(out, "committed {i}").unwrap();
        out.flush().unwrap();
    }
}

#[test]
fn a_writer_killed_with_sigkill_leaves_every_committed_sweep() {
    if let Ok(path) = std::env::var(CHILD) {
        return child(&path);
    }
    let dir = std::env::temp_dir().join(format!("proxydash-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("history-crash.sqlite");
    let mut process = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            // Its path in the one integration-test binary (tests/main.rs).
            "history_crash::a_writer_killed_with_sigkill_leaves_every_committed_sweep",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, &path)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut last = None;
    let lines = BufReader::new(process.stdout.take().unwrap()).lines();
    for line in lines {
        let line = line.unwrap();
        if let Some(n) = line.strip_prefix("committed ") {
            let n: u64 = n.parse().unwrap();
            last = Some(n);
            if n >= 40 {
                // SIGKILL: no destructor, no flush, no checkpoint.
                process.kill().unwrap();
                break;
            }
        }
    }
    let status = process.wait().unwrap();
    assert!(!status.success(), "the child was killed: {status:?}");
    let last = last.expect("the child committed sweeps");

    let store = Store::open(&path, 90).expect("the file opens after the crash");
    drop(store);
    let conn = rusqlite_check(&path);
    assert_eq!(conn.0, "ok", "integrity check");
    // Credit i was written by sweep i alone: no gap, and at least up to the last reported.
    assert!(
        conn.1 >= last as i64,
        "last committed {last}, found {}",
        conn.1
    );
    assert_eq!(
        conn.2,
        conn.1 + 1,
        "every sweep from 0 to the last is there"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The integrity check's answer, the highest credit and the number of credit rows, read
/// through the export (the crate's own read path) and SQLite's own check.
fn rusqlite_check(path: &std::path::Path) -> (String, i64, i64) {
    let mut csv = Vec::new();
    proxydash::script::history::export_file(
        path,
        "crash",
        0,
        proxydash::history::export::Format::Csv,
        &mut csv,
    )
    .unwrap();
    let csv = String::from_utf8(csv).unwrap();
    let credits: Vec<i64> = csv
        .lines()
        .filter(|l| l.contains(",credit,"))
        .map(|l| l.split(',').nth(4).unwrap().parse::<f64>().unwrap() as i64)
        .collect();
    let check = proxydash::history::integrity_check(path).unwrap();
    (
        check,
        credits.iter().copied().max().unwrap_or(-1),
        credits.len() as i64,
    )
}
