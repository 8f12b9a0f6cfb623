//! Issue 22's freshness targets, on the account engine itself:
//!
//! 1. **The oldest watched datum** (services list, credit, invoices, every live service's
//!    network lists, every ppr service's rate) of 1,000 services behind a 60/min limit
//!    stays within 1.2 × (requests one full sweep needs ÷ the limit), whichever tab is on
//!    screen. Simulated time: the budget lets one request a second go out, each answered
//!    at once; four simulated hours, measured after the first full sweep.
//! 2. **The UI task while an alert sweep runs**, at 10,000 services: the sweep itself runs
//!    on the engine's task; what the UI task does with it (take the book, rebuild the
//!    Alerts tab, announce, draw a frame) is timed, worst of 20, against one frame (16 ms).
//!    The engine's own sweep (evaluate + book) is timed too, for the record.
//!
//! `cargo bench --bench freshness`

mod common;

use chrono::{DateTime, TimeZone, Utc};
use common::*;
use criterion::{Criterion, criterion_group, criterion_main};
use proxydash::account::{Config, Engine, Focus, Kind};
use proxydash::api::{Loaded, ProductType, Request, Response, ServiceSummary};
use proxydash::app::Msg;
use proxydash::app::testdata as td;
use std::collections::HashMap;
use std::time::{Duration, Instant};

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 1, 15, 12, 0, 0).unwrap()
}

/// `n` services, every third one ppr, each with its type known (as after a first run).
fn services(n: u64) -> Vec<ServiceSummary> {
    (1..=n).map(td::summary).collect()
}

fn is_ppr(id: u64) -> bool {
    id.is_multiple_of(3)
}

fn answer(request: &Request) -> Loaded {
    let response = match request {
        Request::Services => Response::Services(services(1000)),
        Request::Credit => Response::Credit(proxydash::api::Credit { credit: 100.0 }),
        Request::Invoices => Response::Invoices(vec![].into()),
        Request::Products => Response::Products(vec![].into()),
        Request::NetworkErrors(_) => Response::NetworkErrors(vec![]),
        Request::NetworkInactive(_) => Response::NetworkInactive(vec![]),
        Request::Rate(_) => Response::Rate(td::rate(100.0, 1000.0)),
        Request::Stats(_) => Response::Stats(td::stats(7)),
        Request::Service(id) => Response::Service(td::service(*id, ProductType::Fpr)),
        other => panic!("not planned: {other:?}"),
    };
    Loaded::pair(request.clone(), Ok(response)).unwrap()
}

/// The oldest watched datum's age, worst over the run after the first sweep, in seconds;
/// and the requests one full sweep needs.
fn oldest_under_a_limit(focus: Focus) -> (i64, usize) {
    let n = 1000;
    let mut config = Config::new("bench", "http://127.0.0.1:1", Some(Duration::from_secs(30)));
    config.saved_types = (1..=n)
        .map(|id| {
            (
                id,
                if is_ppr(id) {
                    ProductType::Ppr
                } else {
                    ProductType::Fpr
                },
            )
        })
        .collect::<HashMap<_, _>>();
    let mut engine = Engine::new(config);
    engine.set_focus(focus);
    let sweep = 3 + 2 * n as usize + (1..=n).filter(|id| is_ppr(*id)).count();
    let limit_per_min = 60;
    let first_sweep = sweep as i64 * 60 / limit_per_min;
    let mut worst = 0;
    for second in 0..5 * 3600 {
        let now = t0() + chrono::Duration::seconds(second);
        if let Some((r, _)) = engine.next_request(now, true) {
            engine.answered(&answer(&r), now);
        }
        let _ = engine.sweep(now);
        if second > 2 * first_sweep && second % 60 == 0 {
            let summary = engine.summary(now);
            for (kind, age) in summary.oldest {
                if kind.is_watched() {
                    worst = worst.max(age.unwrap_or(i64::MAX));
                }
            }
        }
    }
    (worst, sweep)
}

fn freshness_target(_: &mut Criterion) {
    // Each tab as the dashboard tells it: its lists, the selection's reads and the cells
    // of the rows on screen (30 rows).
    let cells = |ids: std::ops::RangeInclusive<u64>, rate: bool| -> Vec<Request> {
        ids.flat_map(|id| {
            let mut r = vec![Request::NetworkErrors(id), Request::NetworkInactive(id)];
            if rate {
                r.push(Request::Rate(id));
            }
            r
        })
        .collect()
    };
    let tabs = [
        (
            "Services",
            Focus {
                kinds: vec![Kind::Services],
                requests: vec![Request::Services, Request::Service(1)],
                rows: cells(1..=30, true),
            },
        ),
        (
            "Network",
            Focus {
                kinds: vec![Kind::Network],
                requests: vec![],
                rows: cells(1..=15, false),
            },
        ),
        (
            "Usage",
            Focus {
                kinds: vec![Kind::Rate],
                requests: vec![Request::Stats(3), Request::Rate(3)],
                rows: (1..=30).map(|i| Request::Rate(3 * i)).collect(),
            },
        ),
        (
            "Billing",
            Focus {
                kinds: vec![Kind::Credit, Kind::Invoices],
                requests: vec![Request::Credit, Request::Invoices],
                rows: vec![],
            },
        ),
    ];
    for (tab, focus) in tabs {
        let (worst, sweep) = oldest_under_a_limit(focus);
        let bound = 1.2 * sweep as f64;
        report(
            &format!("oldest watched datum, 1,000 services at 60/min, {tab} tab (s)"),
            worst as f64,
            &format!("<= 1.2 x {sweep} requests / 60 per min = {bound:.0} s"),
            (worst as f64) <= bound,
        );
    }
}

fn sweep_step_target(_: &mut Criterion) {
    let n = 10_000;
    let now = t0();
    let mut engine = Engine::new(Config::new(
        "bench",
        "http://127.0.0.1:1",
        Some(Duration::from_secs(30)),
    ));
    engine.answered(&Loaded::Services(Ok(services(n))), now);
    for id in 1..=n {
        let errors = if id % 7 == 0 {
            vec![format!("198.18.{}.1", id % 250)]
        } else {
            vec![]
        };
        engine.answered(&Loaded::NetworkErrors(id, Ok(errors)), now);
        engine.answered(&Loaded::NetworkInactive(id, Ok(vec![])), now);
    }
    let mut app = with_services(n, (120, 40));
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 40)).unwrap();
    let mut engine_worst = Duration::ZERO;
    let mut ui_worst = Duration::ZERO;
    for i in 0..20 {
        let at = now + chrono::Duration::seconds(30 * (i + 1));
        engine.answered(
            &Loaded::Credit(Ok(proxydash::api::Credit { credit: 1.0 })),
            at,
        );
        let started = Instant::now();
        let swept = engine.sweep(at).expect("a sweep after new data");
        engine_worst = engine_worst.max(started.elapsed());
        let started = Instant::now();
        app.update(Msg::Swept(swept));
        terminal.draw(|f| proxydash::ui::draw(&app, f)).unwrap();
        ui_worst = ui_worst.max(started.elapsed());
    }
    report(
        "UI-task step taking an alert sweep of 10,000 services, worst of 20 (ms)",
        ui_worst.as_secs_f64() * 1000.0,
        "< 16 ms (one frame)",
        ui_worst < Duration::from_millis(16),
    );
    println!(
        "[figure] the engine's own sweep of 10,000 services (its task, not the UI's), worst of 20: {}",
        ms(engine_worst)
    );
}

criterion_group!(benches, freshness_target, sweep_step_target);
criterion_main!(benches);
