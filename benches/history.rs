//! The history store's targets (issue 13), on 1,000 services swept every minute for 30
//! days, simulated with a fake clock:
//!
//! - the database stays under 100 MB;
//! - a sweep costs the UI loop under 5 ms: turning the sweep's answers into records (what
//!   `App` does per answer) and handing them to the writer's channel. Judged on the CPU
//!   time of the measuring thread (`CLOCK_THREAD_CPUTIME_ID`): the loop's cost is the work
//!   it does, and on a shared machine the wall time of one sweep also counts the moments
//!   the thread waited for a core (both are printed);
//! - the writer's own transaction per sweep is measured too (it runs on its thread);
//! - opening a service's 7-day history takes under 50 ms.
//!
//! The simulated account: 1,000 services, 200 of them rotating (stats of 30 days and a
//! rate each sweep). Per sweep about 1 % of the services see a server enter or leave
//! error, 0.5 % an inactive change, a status change is rare (one per service per ten
//! days), the credit moves on about one sweep in a hundred. The 30 days are filled in
//! transactions of 60 sweeps to save time (the size does not depend on it); the per-sweep
//! transaction is then timed one sweep at a time on the full file.
//!
//! `HISTORY_BENCH_ONLY=loop` measures the loop's share alone, without the 30-day fill
//! (which takes about 15 to 30 minutes on a shared machine).

mod common;

use chrono::{DateTime, Duration as Span, NaiveDate, TimeZone, Utc};
use common::{ms, report};
use criterion::{Criterion, criterion_group, criterion_main};
use proxydash::api::{Credit, Loaded, RateEntry, ServiceStatus, ServiceSummary, StatEntry};
use proxydash::history::{History, Record, Store, Sweep};
use std::time::{Duration, Instant};

const SERVICES: u64 = 1000;
const PPR: u64 = 200;
const DAYS: i64 = 30;

struct Account {
    rng: fastrand::Rng,
    errors: Vec<Vec<String>>,
    inactive: Vec<Vec<String>>,
    status: Vec<&'static str>,
    used: Vec<f64>,
    credit: f64,
}

impl Account {
    fn new() -> Self {
        Self {
            rng: fastrand::Rng::with_seed(13),
            errors: vec![Vec::new(); SERVICES as usize],
            inactive: vec![Vec::new(); SERVICES as usize],
            status: vec!["Active"; SERVICES as usize],
            used: vec![0.0; PPR as usize],
            credit: 5000.0,
        }
    }

    fn server(&mut self, id: u64) -> String {
        format!("10.{}.{}.{}", id / 256, id % 256, self.rng.u8(1..255))
    }

    fn toggle(&mut self, id: u64, inactive: bool) {
        let server = self.server(id);
        let list = if inactive {
            &mut self.inactive[id as usize]
        } else {
            &mut self.errors[id as usize]
        };
        if !list.is_empty() && (list.len() >= 3 || self.rng.bool()) {
            let i = self.rng.usize(..list.len());
            list.swap_remove(i);
        } else {
            list.push(server);
        }
    }

    /// The API's answers of one sweep at `at`.
    fn sweep(&mut self, at: DateTime<Utc>) -> Vec<Loaded> {
        for id in 0..SERVICES {
            if self.rng.f64() < 0.01 {
                self.toggle(id, false);
            }
            if self.rng.f64() < 0.005 {
                self.toggle(id, true);
            }
            if self.rng.f64() < 1.0 / 14_400.0 {
                let s = &mut self.status[id as usize];
                *s = if *s == "Active" {
                    "Suspended"
                } else {
                    "Active"
                };
            }
        }
        if self.rng.f64() < 0.01 {
            self.credit -= 12.5;
        }
        let today = at.date_naive();
        let mut out = vec![
            Loaded::Credit(Ok(Credit {
                credit: self.credit,
            })),
            Loaded::Services(Ok((0..SERVICES)
                .map(|id| ServiceSummary {
                    service_id: id,
                    product_name: "Datacenter US 10".into(),
                    nextduedate: NaiveDate::from_ymd_opt(2026, 12, 1),
                    orderid: Some(id),
                    status: ServiceStatus::parse(self.status[id as usize]),
                })
                .collect())),
        ];
        for id in 0..SERVICES {
            out.push(Loaded::NetworkErrors(
                id,
                Ok(self.errors[id as usize].clone()),
            ));
            out.push(Loaded::NetworkInactive(
                id,
                Ok(self.inactive[id as usize].clone()),
            ));
        }
        for id in 0..PPR {
            self.used[id as usize] += self.rng.f64() * 3.0;
            let days = (0..30)
                .map(|back| StatEntry {
                    date: Some(today - Span::days(back)),
                    rate: if back == 0 {
                        self.used[id as usize]
                    } else {
                        100.0 + back as f64
                    },
                })
                .collect();
            out.push(Loaded::Stats(id, Ok(days)));
            out.push(Loaded::Rate(
                id,
                Ok(vec![RateEntry {
                    limit: 10_000.0,
                    rate: self.used[id as usize],
                }]),
            ));
        }
        out
    }
}

/// What the app does with a sweep's answers: one record list per answer, one sweep.
fn records(at: DateTime<Utc>, answers: &[Loaded]) -> Sweep {
    let mut records: Vec<Record> = Vec::new();
    for loaded in answers {
        records.extend(proxydash::history::records(loaded));
    }
    Sweep { at, records }
}

/// CPU time used by this thread so far.
fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid timespec for the calling thread's clock.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// The loop's share of 100 sweeps after `first`: records from the answers and the channel
/// send, as (wall, thread CPU) per sweep, each sorted.
fn loop_share(account: &mut Account, first: i64) -> (Vec<Duration>, Vec<Duration>) {
    // The channel's far end writes to a store of its own, so the caller's file sees each
    // sweep once.
    let history = History::spawn_with(|| Store::open_in_memory(90), Box::new(|_| {}));
    let (mut wall, mut cpu) = (Vec::new(), Vec::new());
    for i in 0..100 {
        let at = start() + Span::minutes(first + i);
        let answers = account.sweep(at);
        let (t, c) = (Instant::now(), thread_cpu());
        let sweep = records(at, &answers);
        history.record(sweep);
        cpu.push(thread_cpu().saturating_sub(c));
        wall.push(t.elapsed());
    }
    wall.sort();
    cpu.sort();
    (wall, cpu)
}

fn report_loop(wall: &[Duration], cpu: &[Duration]) {
    println!(
        "loop per sweep: CPU median {}, p90 {}, worst {}; wall median {}, p90 {}, worst {}",
        ms(cpu[50]),
        ms(cpu[90]),
        ms(cpu[99]),
        ms(wall[50]),
        ms(wall[90]),
        ms(wall[99]),
    );
    report(
        "loop CPU time per sweep, worst of 100 (ms)",
        cpu[99].as_secs_f64() * 1000.0,
        "< 5 ms",
        cpu[99] < Duration::from_millis(5),
    );
}

fn start() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 10, 1, 0, 0, 0).unwrap()
}

fn bench(c: &mut Criterion) {
    if std::env::var("HISTORY_BENCH_ONLY").as_deref() == Ok("loop") {
        let mut account = Account::new();
        let (wall, cpu) = loop_share(&mut account, 0);
        report_loop(&wall, &cpu);
        return;
    }
    let dir = std::env::temp_dir().join(format!("proxydash-bench-history-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("history-bench.sqlite");
    let mut account = Account::new();
    let sweeps = DAYS * 24 * 60;
    let fill = Instant::now();
    {
        let mut store = Store::open(&path, 90).unwrap();
        let mut batch = Vec::with_capacity(60);
        for i in 0..sweeps {
            let at = start() + Span::minutes(i);
            let answers = account.sweep(at);
            batch.push(records(at, &answers));
            if batch.len() == 60 {
                store.write(&batch).unwrap();
                batch.clear();
            }
        }
        store.write(&batch).unwrap();
    }
    println!(
        "filled {sweeps} sweeps of {SERVICES} services in {:.1} s",
        fill.elapsed().as_secs_f64()
    );
    let bytes: u64 = ["", "-wal", "-shm"]
        .iter()
        .filter_map(|s| std::fs::metadata(format!("{}{s}", path.display())).ok())
        .map(|m| m.len())
        .sum();
    let mb = bytes as f64 / 1e6;
    report(
        "history database after 30 days of 1,000 services (MB)",
        mb,
        "< 100 MB",
        mb < 100.0,
    );

    // The loop's share: records from the answers, and the channel send.
    let (wall, cpu) = loop_share(&mut account, sweeps);
    report_loop(&wall, &cpu);

    // The writer's transaction per sweep, on the 30-day file.
    let mut writes = Vec::new();
    let mut store = Store::open(&path, 90).unwrap();
    for i in 100..200 {
        let at = start() + Span::minutes(sweeps + i);
        let sweep = records(at, &account.sweep(at));
        let t = Instant::now();
        store.write(&[sweep]).unwrap();
        writes.push(t.elapsed());
    }
    writes.sort();
    println!(
        "writer transaction per sweep: median {}, p90 {}, worst {}",
        ms(writes[50]),
        ms(writes[90]),
        ms(writes[99])
    );
    report(
        "writer transaction per sweep, median (ms; on its own thread)",
        writes[50].as_secs_f64() * 1000.0,
        "< 5 ms",
        writes[50] < Duration::from_millis(5),
    );

    // Opening a service's 7-day history on the full file.
    let now = start() + Span::minutes(sweeps + 200);
    let mut opens = Vec::new();
    for id in (0..SERVICES).step_by(50) {
        let t = Instant::now();
        let h = store.service(id, now).unwrap();
        opens.push(t.elapsed());
        assert_eq!(h.errors_7d.len(), 168);
    }
    opens.sort();
    let worst = opens[opens.len() - 1];
    report(
        "open a service's 7-day history, worst of 20 (ms)",
        worst.as_secs_f64() * 1000.0,
        "< 50 ms",
        worst < Duration::from_millis(50),
    );
    let t = Instant::now();
    let o = store.overview(now).unwrap();
    println!(
        "overview of {} services: {}",
        o.services.len(),
        ms(t.elapsed())
    );

    c.bench_function("history/service-7d", |b| {
        b.iter(|| store.service(500, now).unwrap())
    });
    c.bench_function("history/overview", |b| {
        b.iter(|| store.overview(now).unwrap())
    });
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
