//! Issue 37 item 10: the write-ahead file stays bounded over a simulated day of three
//! writers on one profile's file (two dashboards and `watch`), each writing a sweep every
//! 15 s of a 30-service account. Before the bound it grew to SQLite's 4 MB checkpoint
//! and stayed there. `cargo test --release --lib history::wal_tests -- --nocapture`
//! prints the figures (BENCHMARKS.md).

use super::store::{WAL_LIMIT, WAL_PAGES};
use super::*;
use chrono::TimeZone;

/// One sweep of a 30-service account (5 rotating): about one service in twenty sees
/// its error list change, the rates move every sweep, the credit now and then.
fn sweep(rng: &mut fastrand::Rng, at: DateTime<Utc>, errors: &mut [Vec<String>]) -> Sweep {
    let mut records = Vec::new();
    if rng.u32(0..100) == 0 {
        records.push(Record::Credit {
            credit: 100.0 + f64::from(rng.u32(0..500)),
        });
    }
    for id in 0..30u64 {
        records.push(Record::Service {
            service_id: id,
            status: "Active".into(),
            nextduedate: chrono::NaiveDate::from_ymd_opt(2026, 12, 1),
        });
        let list = &mut errors[id as usize];
        if rng.u32(0..20) == 0 {
            if list.is_empty() {
                list.push(format!("10.0.{id}.{}", rng.u8(1..255)));
            } else {
                list.clear();
            }
        }
        records.push(Record::Servers {
            service_id: id,
            list: ServerList::Errors,
            servers: list.clone(),
        });
        if id < 5 {
            records.push(Record::Rate {
                service_id: id,
                rate: f64::from(rng.u32(0..50_000)),
                limit: 51_200.0,
            });
        }
    }
    Sweep { at, records }
}

fn size(path: &std::path::Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

#[test]
fn the_write_ahead_file_stays_bounded_over_a_day_of_three_writers() {
    let dir = std::env::temp_dir().join(format!("proxydash-wal-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("history-shop.sqlite");
    let mut wal = path.clone().into_os_string();
    wal.push("-wal");
    let wal = std::path::PathBuf::from(wal);
    let mut writers: Vec<Store> = (0..3).map(|_| Store::open(&path, 30).unwrap()).collect();
    let mut rng = fastrand::Rng::with_seed(37);
    let mut errors = vec![vec![Vec::new(); 30]; 3];
    let start = Utc.with_ymd_and_hms(2026, 11, 28, 0, 0, 0).unwrap();
    let (mut biggest, mut sweeps) = (0, 0);
    // A day at refresh = 15 s: 5,760 sweeps per writer, interleaved.
    for i in 0..5_760i64 {
        for (w, store) in writers.iter_mut().enumerate() {
            let at = start + chrono::Duration::seconds(i * 15 + w as i64 * 5);
            store.write(&[sweep(&mut rng, at, &mut errors[w])]).unwrap();
            sweeps += 1;
            biggest = biggest.max(size(&wal));
        }
    }
    println!(
        "WAL over a simulated day: {sweeps} sweeps by 3 writers; largest -wal {} KB (limit {} KB, checkpoint at {WAL_PAGES} pages); database {} KB; -wal at the end {} KB",
        biggest / 1024,
        WAL_LIMIT / 1024,
        size(&path) / 1024,
        size(&wal) / 1024
    );
    // A checkpoint's frames plus one transaction beyond the limit at most; SQLite's
    // default let it reach 4 MB and stay there.
    assert!(
        biggest <= (WAL_LIMIT as u64) + 512 * 1024,
        "the -wal reached {biggest} bytes"
    );
    drop(writers);
    let _ = std::fs::remove_dir_all(&dir);
}
