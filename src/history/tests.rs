//! The store on its own: spells from lists, changes only, uptime, retention, reopening,
//! broken files, and the writer thread's order of answers.

use super::*;
use chrono::TimeZone;
use std::sync::mpsc;

fn at(secs: i64) -> DateTime<Utc> {
    Utc.timestamp_opt(1_780_000_000 + secs, 0).unwrap()
}

fn errors(id: u64, servers: &[&str]) -> Record {
    Record::Servers {
        service_id: id,
        list: ServerList::Errors,
        servers: servers.iter().map(|s| s.to_string()).collect(),
    }
}

fn sweep(secs: i64, records: Vec<Record>) -> Sweep {
    Sweep {
        at: at(secs),
        records,
    }
}

fn count(store: &Store, table: &str) -> i64 {
    store
        .conn
        .query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
        .unwrap()
}

fn temp_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("proxydash-history-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("history-test.sqlite")
}

#[test]
fn a_server_in_error_is_one_spell_from_the_read_that_listed_it_to_the_one_that_did_not() {
    let mut store = Store::open_in_memory(90).unwrap();
    store
        .write(&[sweep(0, vec![errors(1, &["a", "b"])])])
        .unwrap();
    store
        .write(&[sweep(60, vec![errors(1, &["b", "c"])])])
        .unwrap();
    store
        .write(&[sweep(120, vec![errors(1, &["b", "c"])])])
        .unwrap();
    store.write(&[sweep(180, vec![errors(1, &[])])]).unwrap();
    assert_eq!(
        count(&store, "server_spell"),
        3,
        "one row per spell, not per read"
    );
    let h = store.service(1, at(200)).unwrap();
    let mut spells: Vec<(&str, i64, Option<i64>)> = h
        .spells
        .iter()
        .map(|s| {
            let rel = |t: DateTime<Utc>| t.timestamp() - at(0).timestamp();
            (s.server.as_str(), rel(s.since), s.until.map(rel))
        })
        .collect();
    spells.sort();
    assert_eq!(
        spells,
        vec![
            ("a", 0, Some(60)),
            ("b", 0, Some(180)),
            ("c", 60, Some(180))
        ]
    );
    assert!(h.overview.in_error_since.is_none(), "nothing in error now");
}

#[test]
fn credit_states_and_rates_are_written_when_they_change() {
    let mut store = Store::open_in_memory(90).unwrap();
    let service = |status: &str| Record::Service {
        service_id: 7,
        status: status.into(),
        nextduedate: NaiveDate::from_ymd_opt(2026, 12, 1),
    };
    let rate = |rate: f64, limit: f64| Record::Rate {
        service_id: 7,
        rate,
        limit,
    };
    for i in 0..5 {
        store
            .write(&[sweep(
                i * 60,
                vec![
                    Record::Credit { credit: 10.0 },
                    service("Active"),
                    rate(1.0 + i as f64, 100.0),
                ],
            )])
            .unwrap();
    }
    store
        .write(&[sweep(
            300,
            vec![
                Record::Credit { credit: 9.5 },
                service("Suspended"),
                rate(6.0, 200.0),
            ],
        )])
        .unwrap();
    assert_eq!(count(&store, "credit"), 2);
    assert_eq!(count(&store, "service_state"), 2);
    // The first rate, then the changed limit; the growing rate alone waits RATE_EVERY.
    assert_eq!(count(&store, "rate"), 2);
    let h = store.service(7, at(400)).unwrap();
    let statuses: Vec<&str> = h.changes.iter().map(|c| c.1.as_str()).collect();
    assert_eq!(statuses, ["Active", "Suspended"]);
}

#[test]
fn uptime_is_the_share_of_watched_time_without_a_server_in_error() {
    let mut store = Store::open_in_memory(90).unwrap();
    // Watched every minute for two hours; one server in error from 60 to 90 minutes.
    for m in 0..=120 {
        let list: &[&str] = if (60..90).contains(&m) { &["x"] } else { &[] };
        store
            .write(&[sweep(m * 60, vec![errors(3, list)])])
            .unwrap();
    }
    assert_eq!(count(&store, "watched"), 1, "one watched stretch");
    let o = store.overview(at(120 * 60)).unwrap();
    let s = &o.services[&3];
    let up = s.uptime_24h.unwrap();
    assert!((up - 0.75).abs() < 1e-9, "{up}");
    assert_eq!(s.uptime_7d, s.uptime_24h);
    assert_eq!(s.errors_24h.iter().sum::<u64>(), 1, "{:?}", s.errors_24h);
    assert_eq!(s.errors_24h.len(), 24);
    assert!(s.in_error_since.is_none());
}

#[test]
fn a_gap_in_watching_counts_neither_up_nor_down_and_since_names_the_start_of_the_spell() {
    let mut store = Store::open_in_memory(90).unwrap();
    store.write(&[sweep(0, vec![errors(4, &[])])]).unwrap();
    store.write(&[sweep(600, vec![errors(4, &[])])]).unwrap();
    // The dashboard was closed for an hour; the server was found in error on return.
    store
        .write(&[sweep(4200, vec![errors(4, &["y"])])])
        .unwrap();
    store
        .write(&[sweep(4800, vec![errors(4, &["y"])])])
        .unwrap();
    let o = store.overview(at(4800)).unwrap();
    let s = &o.services[&4];
    let up = s.uptime_24h.unwrap();
    assert!((up - 0.5).abs() < 1e-9, "600 s up, 600 s down: {up}");
    assert_eq!(s.in_error_since, Some(at(4200)));
    assert_eq!(o.open[&(4, ServerList::Errors, "y".into())], at(4200));
}

/// Issue 26.4: a drop and a top-up within one day stay visible as that day's lowest.
#[test]
fn the_credit_of_a_day_keeps_its_lowest() {
    let mut store = Store::open_in_memory(90).unwrap();
    let day = 86_400;
    let credit = |at: i64, credit: f64| sweep(at, vec![Record::Credit { credit }]);
    store.write(&[credit(0, 100.0)]).unwrap();
    store.write(&[credit(40 * day + 3600, 5.0)]).unwrap();
    store.write(&[credit(40 * day + 7200, 120.0)]).unwrap();
    let o = store.overview(at(55 * day)).unwrap();
    assert_eq!(o.credit_30d_low.len(), 30);
    // The window starts on day 25: index 15 is the day ending at day 41.
    assert_eq!(o.credit_30d[15], Some(120.0), "the end of the day");
    assert_eq!(o.credit_30d_low[15], Some(5.0), "the day's lowest");
    assert_eq!(o.credit_30d_low[14], Some(100.0));
    assert_eq!(o.credit_30d_low[16], Some(120.0));
}

#[test]
fn the_credit_of_30_days_carries_the_last_value_forward() {
    let mut store = Store::open_in_memory(90).unwrap();
    let day = 86_400;
    store
        .write(&[sweep(0, vec![Record::Credit { credit: 50.0 }])])
        .unwrap();
    store
        .write(&[sweep(40 * day, vec![Record::Credit { credit: 40.0 }])])
        .unwrap();
    store
        .write(&[sweep(50 * day, vec![Record::Credit { credit: 30.0 }])])
        .unwrap();
    let o = store.overview(at(55 * day)).unwrap();
    assert_eq!(o.credit_30d.len(), 30);
    // The window starts on day 25: its first days carry the value from before it.
    assert_eq!(o.credit_30d[0], Some(50.0), "known from before the window");
    assert_eq!(o.credit_30d[13], Some(50.0));
    assert_eq!(
        o.credit_30d[14],
        Some(40.0),
        "the day that ends after day 40"
    );
    assert_eq!(o.credit_30d[29], Some(30.0));
    let fresh = Store::open_in_memory(90).unwrap();
    assert!(
        fresh
            .overview(at(0))
            .unwrap()
            .credit_30d
            .iter()
            .all(Option::is_none)
    );
}

#[test]
fn what_ended_before_the_retention_is_pruned_and_the_value_in_force_stays() {
    let mut store = Store::open_in_memory(2).unwrap();
    let day = 86_400;
    store
        .write(&[sweep(
            0,
            vec![errors(1, &["old"]), Record::Credit { credit: 5.0 }],
        )])
        .unwrap();
    store.write(&[sweep(60, vec![errors(1, &[])])]).unwrap();
    store
        .write(&[sweep(5 * day, vec![errors(1, &["new"])])])
        .unwrap();
    assert_eq!(count(&store, "server_spell"), 1, "the old spell is gone");
    assert_eq!(count(&store, "credit"), 1, "the credit in force stays");
    let old_watch: i64 = store
        .conn
        .query_row(
            "SELECT count(*) FROM watched WHERE since < ?1",
            [at(day).timestamp()],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(old_watch, 0);
}

#[test]
fn a_reopened_file_goes_on_where_it_stopped() {
    let path = temp_file("reopen");
    {
        let mut store = Store::open(&path, 90).unwrap();
        store
            .write(&[sweep(
                0,
                vec![errors(1, &["a"]), Record::Credit { credit: 1.0 }],
            )])
            .unwrap();
    }
    let mut store = Store::open(&path, 90).unwrap();
    store
        .write(&[sweep(
            60,
            vec![errors(1, &["a"]), Record::Credit { credit: 1.0 }],
        )])
        .unwrap();
    assert_eq!(count(&store, "server_spell"), 1, "the open spell was known");
    assert_eq!(count(&store, "credit"), 1);
    assert_eq!(count(&store, "watched"), 1);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}

fn answers(path: PathBuf) -> (History, mpsc::Receiver<Answer>) {
    let (tx, rx) = mpsc::channel();
    let tx = std::sync::Mutex::new(tx);
    let history = History::spawn(
        path,
        90,
        Box::new(move |a| {
            let _ = tx.lock().unwrap().send(a);
        }),
    );
    (history, rx)
}

#[test]
fn a_file_that_is_not_a_database_turns_history_off_with_one_line() {
    let path = temp_file("corrupt");
    std::fs::write(&path, vec![0x5a; 8192]).unwrap();
    let (history, rx) = answers(path.clone());
    let answer = rx.recv_timeout(std::time::Duration::from_secs(30)).unwrap();
    match answer {
        Answer::Off(line) => assert!(line.contains("not a history database"), "{line}"),
        other => panic!("{other:?}"),
    }
    history.record(sweep(0, vec![Record::Credit { credit: 1.0 }]));
    history.ask(Query::Overview { now: at(0) });
    assert!(
        rx.recv_timeout(std::time::Duration::from_millis(200))
            .is_err()
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        vec![0x5a; 8192],
        "left as it was"
    );
}

#[test]
fn a_file_locked_by_another_program_turns_history_off_with_one_line() {
    let path = temp_file("locked");
    drop(Store::open(&path, 90).unwrap());
    let other = rusqlite::Connection::open(&path).unwrap();
    other
        .execute_batch("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;")
        .unwrap();
    let (_history, rx) = answers(path);
    match rx.recv_timeout(std::time::Duration::from_secs(30)).unwrap() {
        Answer::Off(line) => assert!(line.contains("locked"), "{line}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_answer_sees_every_sweep_sent_before_the_question() {
    let (history, rx) = answers(temp_file("order"));
    for i in 0..50 {
        history.record(sweep(
            i * 60,
            vec![errors(9, if i >= 40 { &["z"] } else { &[] })],
        ));
    }
    history.ask(Query::Service {
        service_id: 9,
        now: at(49 * 60),
    });
    match rx.recv_timeout(std::time::Duration::from_secs(30)).unwrap() {
        Answer::Service(h) => {
            assert_eq!(h.service_id, 9);
            assert_eq!(h.overview.in_error_since, Some(at(40 * 60)));
            assert_eq!(h.errors_7d.len(), 168);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn export_lists_every_change_in_time_order_as_csv_and_json() {
    let mut store = Store::open_in_memory(90).unwrap();
    store
        .write(&[sweep(
            0,
            vec![
                Record::Credit { credit: 12.5 },
                errors(1, &["=cmd|' /C calc'!A0", "10.0.0.1"]),
            ],
        )])
        .unwrap();
    store
        .write(&[sweep(60, vec![errors(1, &["10.0.0.1"])])])
        .unwrap();
    let mut csv = Vec::new();
    let n = export::export(
        &store.conn,
        at(0).timestamp(),
        export::Format::Csv,
        &mut csv,
    )
    .unwrap();
    let csv = String::from_utf8(csv).unwrap();
    assert_eq!(n, 4, "{csv}");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "at,kind,service_id,subject,value,extra,detail");
    assert_eq!(lines[1], "2026-05-28T20:26:40Z,credit,,,12.5,,");
    assert!(
        lines
            .iter()
            .any(|l| l.ends_with(",error_end,1,\"'=cmd|' /C calc'!A0\",,,")),
        "{csv}"
    );
    let mut json = Vec::new();
    export::export(
        &store.conn,
        at(30).timestamp(),
        export::Format::Json,
        &mut json,
    )
    .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 1, "only what happened since");
    assert_eq!(v[0]["kind"], "error_end");
    assert_eq!(v[0]["service_id"], 1);
}

/// Issue 49.4: a probe round of `watch --probe-every` is one row per service: the alive
/// share, the p50 of the alive ones and the counts.
#[test]
fn export_lists_probe_rounds_with_their_share_and_p50() {
    let mut store = Store::open_in_memory(90).unwrap();
    let round = |service_id, checked, alive, p50_ms| Record::ProbeRound {
        service_id,
        checked,
        alive,
        p50_ms,
    };
    store
        .write(&[sweep(
            0,
            vec![round(7, 20, 15, Some(84)), round(8, 3, 0, None)],
        )])
        .unwrap();
    let mut csv = Vec::new();
    let n = export::export(
        &store.conn,
        at(0).timestamp(),
        export::Format::Csv,
        &mut csv,
    )
    .unwrap();
    let csv = String::from_utf8(csv).unwrap();
    assert_eq!(n, 2, "{csv}");
    assert!(
        csv.contains("2026-05-28T20:26:40Z,probe_round,7,,0.75,84,alive 15 of 20"),
        "{csv}"
    );
    assert!(
        csv.contains("2026-05-28T20:26:40Z,probe_round,8,,0,,alive 0 of 3"),
        "{csv}"
    );
    let rounds = super::probes::rounds(&store.conn, 7, at(0), 10).unwrap();
    assert_eq!(rounds.len(), 1);
    assert_eq!(
        (rounds[0].checked, rounds[0].alive, rounds[0].p50_ms),
        (20, 15, Some(84))
    );
}

#[test]
fn since_takes_spans_and_dates_and_refuses_the_rest() {
    let now = at(0);
    assert_eq!(
        export::parse_since("7d", now).unwrap(),
        now.timestamp() - 7 * 86_400
    );
    assert_eq!(
        export::parse_since("30m", now).unwrap(),
        now.timestamp() - 1800
    );
    assert_eq!(
        export::parse_since("2026-11-01", now).unwrap(),
        Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0)
            .unwrap()
            .timestamp()
    );
    for bad in ["", "7", "d", "7w", "-3d", "99999999999999999999d"] {
        assert!(export::parse_since(bad, now).is_err(), "{bad}");
    }
}

#[cfg(unix)]
#[test]
fn a_link_at_the_database_or_its_wal_is_refused_and_what_is_there_is_made_private() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let dir = std::env::temp_dir().join(format!("proxydash-links-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // A dangling link at the database: nothing is created where it points.
    let db = dir.join("history.sqlite");
    let target = dir.join("elsewhere.sqlite");
    std::os::unix::fs::symlink(&target, &db).unwrap();
    let e = Store::open(&db, 90).err().expect("refused").to_string();
    assert!(e.contains("is a symbolic link"), "{e}");
    assert!(!target.exists(), "nothing created through the link");
    std::fs::remove_file(&db).unwrap();
    // A link at the WAL beside a real database.
    let wal = dir.join("history.sqlite-wal");
    std::os::unix::fs::symlink(&target, &wal).unwrap();
    let e = Store::open(&db, 90).err().expect("refused").to_string();
    assert!(e.contains("-wal is a symbolic link"), "{e}");
    assert!(!target.exists());
    std::fs::remove_file(&wal).unwrap();
    // A database left 0644 in a folder left 0755 is made 0600 in 0700.
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(&db, b"").unwrap();
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o644)).unwrap();
    drop(Store::open(&db, 90).unwrap());
    assert_eq!((mode(&db), mode(&dir)), (0o600, 0o700));
    let _ = std::fs::remove_dir_all(&dir);
}

fn probed(id: u64, server: &str, scheme: &str, ok: bool, ms: u32, exit: &str) -> Record {
    Record::Probe {
        service_id: id,
        server: server.into(),
        scheme: scheme.into(),
        ok,
        latency_ms: ok.then_some(ms),
        exit_ip: ok.then(|| exit.to_owned()),
    }
}

#[test]
fn probe_results_keep_protocol_and_exit_and_the_trend_keeps_the_last_ones() {
    let mut store = Store::open_in_memory(90).unwrap();
    for i in 0..15 {
        let ok = i % 5 != 3;
        store
            .write(&[sweep(
                i * 60,
                vec![
                    probed(
                        7,
                        "127.0.0.10:8080",
                        "http",
                        ok,
                        10 + i as u32,
                        "127.1.0.10",
                    ),
                    probed(7, "127.0.0.10:8080", "socks5", true, 3, "127.1.0.10"),
                ],
            )])
            .unwrap();
    }
    store
        .write(&[sweep(
            1000,
            vec![Record::Rotation {
                service_id: 7,
                server: "127.0.0.20:8000".into(),
                scheme: "http".into(),
                asked: 20,
                answered: 20,
                distinct: 5,
                changes: 19,
                pairs: 19,
                latency_ms: Some((1, 2, 9)),
            }],
        )])
        .unwrap();
    let trends = store.probes(7, at(1000)).unwrap();
    let http = &trends.proxies["http://127.0.0.10:8080"];
    assert_eq!(http.len(), TREND_POINTS, "the last ones only");
    assert_eq!(http.last().unwrap().latency_ms, Some(24));
    assert!(!http[http.len() - 2].ok, "minute 13 failed");
    assert_eq!(http[1].exit_ip.as_deref(), Some("127.1.0.10"));
    assert_eq!(
        trends.proxies["socks5://127.0.0.10:8080"].len(),
        TREND_POINTS
    );
    assert_eq!(trends.rotations.len(), 1);
    assert_eq!(trends.rotations[0].gateway, "http://127.0.0.20:8000");
    assert_eq!(trends.rotations[0].distinct, 5);

    let mut csv = Vec::new();
    export::export(
        &store.conn,
        at(14 * 60).timestamp(),
        export::Format::Csv,
        &mut csv,
    )
    .unwrap();
    let csv = String::from_utf8(csv).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 4, "{csv}");
    assert!(
        lines.contains(&"2026-05-28T20:40:40Z,probe,7,http://127.0.0.10:8080,1,24,127.1.0.10"),
        "{csv}"
    );
    assert!(
        lines.contains(&"2026-05-28T20:40:40Z,probe,7,socks5://127.0.0.10:8080,1,3,127.1.0.10"),
        "{csv}"
    );
    assert!(
        lines.contains(
            &"2026-05-28T20:43:20Z,rotation,7,http://127.0.0.20:8000,5,1,\"asked 20, answered 20, changed 19/19, latency 1-9 ms p50 2 ms\""
        ),
        "{csv}"
    );
}

/// Issue 38 item 1: a FIFO at the history file (or its WAL) is refused at once, by the
/// writer and by `history export`, instead of holding SQLite's first read for ever.
#[cfg(unix)]
#[test]
fn a_fifo_at_the_database_is_refused_at_once() {
    let dir = std::env::temp_dir().join(format!("proxydash-fifo-db-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["history.sqlite", "history.sqlite-wal"] {
        let fifo = dir.join(name);
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo reads the path given.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let db = dir.join("history.sqlite");
        let e = Store::open(&db, 90).err().expect("refused").to_string();
        assert!(e.contains(name) && e.contains("FIFO"), "{e}");
        if name == "history.sqlite" {
            let e = Store::open_read_only(&db).expect_err("refused").to_string();
            assert!(e.contains("FIFO"), "{e}");
        }
        std::fs::remove_file(&fifo).unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The marks' thread opens its file again at the next job when it could not (here its
/// folder is a plain file at first): the engine then gets the file's marks, not only
/// what it kept in memory for the rest of the run.
#[tokio::test]
async fn a_marks_file_that_could_not_be_opened_is_opened_at_a_later_job() {
    use crate::alerts::marks::{MarkChange, Silence, Target};
    let dir = temp_file("marks-reopen");
    let dir = dir.parent().unwrap().to_owned();
    let folder = dir.join("profile");
    std::fs::write(&folder, b"not a folder").unwrap();
    let file = marks::MarksFile::spawn(folder.join("history-main.sqlite"));
    assert_eq!(
        file.changed().await,
        None,
        "nothing to read while it cannot open"
    );
    std::fs::remove_file(&folder).unwrap();
    std::fs::create_dir(&folder).unwrap();
    let now = Utc::now();
    file.apply(MarkChange::Silence(Silence {
        id: "r1".into(),
        target: Target {
            rule: None,
            service: Some(7),
        },
        until: now + chrono::Duration::hours(1),
        reason: "moving racks".into(),
        by: "tester".into(),
        created: now,
    }));
    let marks = file.changed().await.expect("opened, and the marks read");
    assert!(marks.find("r1").is_some(), "{marks:?}");
}
