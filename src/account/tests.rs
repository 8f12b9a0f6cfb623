//! The engine on a fake account and a fake clock: what it asks, in which order, and what
//! its sweeps and connection say.

use super::engine::{Config, Engine};
use super::freshness::Kind;
use super::planner::Focus;
use crate::alerts::{Change, Rule};
use crate::api::{ApiError, Loaded, ProductType, Request, Response, ServiceSummary};
use crate::app::testdata as td;
use chrono::{DateTime, TimeZone, Utc};
use std::collections::HashMap;
use std::time::Duration;

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 1, 2, 14, 0, 0).unwrap()
}

/// A fake account: `n` services; odd IDs are ppr products, even ones fpr; the catalogue
/// lists both products; usage climbs by `climb` a call.
struct Account {
    services: Vec<ServiceSummary>,
    rate: f64,
    climb: f64,
    up: bool,
    asked: Vec<Request>,
}

impl Account {
    fn new(n: u64) -> Self {
        let services = (1..=n)
            .map(|id| ServiceSummary {
                product_name: if id % 2 == 1 {
                    "Rotating".into()
                } else {
                    "Static".into()
                },
                ..td::summary(id)
            })
            .collect();
        Self {
            services,
            rate: 2_400.0,
            climb: 0.0,
            up: true,
            asked: Vec::new(),
        }
    }

    fn answer(&mut self, request: &Request) -> Loaded {
        self.asked.push(request.clone());
        if !self.up {
            return request.failed(ApiError::Connect {
                url: "http://127.0.0.1:1".into(),
                cause: "connection refused".into(),
            });
        }
        let response = match request {
            Request::Services => Response::Services(self.services.clone()),
            Request::Products => Response::Products(
                vec![
                    crate::api::ProductSummary {
                        product_name: "Rotating".into(),
                        ..td::product_summary(1)
                    },
                    crate::api::ProductSummary {
                        product_name: "Static".into(),
                        ..td::product_summary(2)
                    },
                ]
                .into(),
            ),
            Request::Product(1) => Response::Product(td::product(1, ProductType::Ppr)),
            Request::Product(id) => Response::Product(td::product(*id, ProductType::Fpr)),
            Request::Credit => Response::Credit(crate::api::Credit { credit: 250.0 }),
            Request::Invoices => Response::Invoices(vec![].into()),
            Request::NetworkErrors(_) => Response::NetworkErrors(vec![]),
            Request::NetworkInactive(_) => Response::NetworkInactive(vec![]),
            Request::Rate(id) if id % 2 == 0 => {
                return request.failed(ApiError::Unprocessable {
                    kind: crate::api::Unprocessable::Generic,
                    message: "Unprocessable Entity".into(),
                });
            }
            Request::Rate(_) => {
                self.rate += self.climb;
                Response::Rate(td::rate(self.rate, 10_000.0))
            }
            Request::Stats(_) => Response::Stats(td::stats(7)),
            Request::Service(id) => Response::Service(td::service(*id, ProductType::Fpr)),
            _ => panic!("not asked by the engine: {request:?}"),
        };
        Loaded::pair(request.clone(), Ok(response)).unwrap()
    }
}

/// Sends and answers everything due at `now`, at most `budget` requests; answers the
/// sweep when one comes.
fn run(
    e: &mut Engine,
    a: &mut Account,
    now: DateTime<Utc>,
    budget: usize,
) -> Vec<crate::alerts::Transition> {
    let mut sent = 0;
    let mut out = Vec::new();
    while sent < budget {
        let Some((r, _)) = e.next_request(now, true) else {
            break;
        };
        sent += 1;
        let loaded = a.answer(&r);
        e.answered(&loaded, now);
    }
    if let Some(swept) = e.sweep(now) {
        out.extend(swept.transitions);
    }
    out
}

fn engine(refresh: u64) -> Engine {
    Engine::new(Config::new(
        "test",
        "http://127.0.0.1:1",
        Some(Duration::from_secs(refresh)),
    ))
}

#[test]
fn every_live_service_is_watched_and_types_come_from_the_catalogue_without_a_422() {
    let mut a = Account::new(6);
    let mut e = engine(30);
    run(&mut e, &mut a, t0(), usize::MAX);
    for id in 1..=6 {
        assert!(a.asked.contains(&Request::NetworkErrors(id)), "{id}");
        assert!(a.asked.contains(&Request::NetworkInactive(id)), "{id}");
        let ppr = id % 2 == 1;
        assert_eq!(a.asked.contains(&Request::Rate(id)), ppr, "rate of {id}");
        assert_eq!(
            e.types().get(id),
            Some(if ppr {
                &ProductType::Ppr
            } else {
                &ProductType::Fpr
            })
        );
    }
    // One product detail per distinct product, and no service detail at all.
    let details: Vec<_> = a
        .asked
        .iter()
        .filter(|r| matches!(r, Request::Product(_) | Request::Service(_)))
        .collect();
    assert_eq!(details, vec![&Request::Product(1), &Request::Product(2)]);
}

#[test]
fn the_rate_of_every_ppr_service_is_read_every_refresh_and_the_catalogue_hourly() {
    let mut a = Account::new(4);
    let mut e = engine(10);
    run(&mut e, &mut a, t0(), usize::MAX);
    a.asked.clear();
    for step in 1..=9 {
        run(
            &mut e,
            &mut a,
            t0() + chrono::Duration::seconds(10 * step),
            usize::MAX,
        );
    }
    for id in [1, 3] {
        let n = a.asked.iter().filter(|r| **r == Request::Rate(id)).count();
        assert_eq!(n, 9, "rate of {id} read once per refresh");
    }
    assert!(
        !a.asked.contains(&Request::Products),
        "the catalogue is hourly"
    );
    assert!(!a.asked.contains(&Request::Rate(2)));
    // The statistics nobody looks at are hourly too; shown, they follow the refresh.
    assert!(!a.asked.contains(&Request::Stats(1)));
    e.set_focus(Focus {
        kinds: vec![],
        requests: vec![Request::Stats(1)],
        ..Focus::default()
    });
    run(
        &mut e,
        &mut a,
        t0() + chrono::Duration::seconds(100),
        usize::MAX,
    );
    assert!(a.asked.contains(&Request::Stats(1)));
}

#[test]
fn a_climbing_usage_opens_its_alert_without_anyone_looking() {
    let mut a = Account::new(2);
    a.climb = 2_000.0;
    let mut e = engine(10);
    let mut opened = None;
    for step in 0..15 {
        let at = t0() + chrono::Duration::seconds(10 * step);
        for t in run(&mut e, &mut a, at, usize::MAX) {
            if t.alert.key.rule == Rule::RateLimit && t.change == Change::Opened {
                opened = Some(step);
            }
        }
    }
    assert!(opened.is_some_and(|s| s <= 6), "opened at sweep {opened:?}");
    let s = e.summary(t0());
    let facts = s.snapshot.services.unwrap();
    let (rate, limit) = facts.iter().find(|f| f.id == 1).unwrap().rate.unwrap();
    assert!(rate / limit >= 0.95, "{rate}/{limit}");
}

#[test]
fn an_unreachable_api_opens_one_alert_after_a_minute_probes_politely_and_resolves_on_the_first_answer()
 {
    let mut a = Account::new(2);
    let mut e = engine(30);
    run(&mut e, &mut a, t0(), usize::MAX);
    a.up = false;
    a.asked.clear();
    let mut transitions = Vec::new();
    for s in 1..=100 {
        transitions.extend(run(
            &mut e,
            &mut a,
            t0() + chrono::Duration::seconds(30 + s),
            usize::MAX,
        ));
    }
    let opened: Vec<_> = transitions
        .iter()
        .filter(|t| t.alert.key.rule == Rule::ApiUnreachable && t.change == Change::Opened)
        .collect();
    assert_eq!(opened.len(), 1, "{transitions:#?}");
    assert!(e.connection().unreachable_since().is_some());
    // 100 s without an answer: the due reads at first, then one probe every 10 s.
    assert!(
        a.asked.len() <= 20,
        "{} requests into the void: {:?}",
        a.asked.len(),
        a.asked
    );
    a.up = true;
    let mut resolved = false;
    for s in 131..=150 {
        for t in run(
            &mut e,
            &mut a,
            t0() + chrono::Duration::seconds(s),
            usize::MAX,
        ) {
            resolved |= t.alert.key.rule == Rule::ApiUnreachable && t.change == Change::Resolved;
        }
    }
    assert!(resolved);
    assert!(e.connection().is_up());
}

/// What is on screen and never shown goes first (a first screen, a row scrolled into
/// view); once shown it goes by age like the rest, unless a list or a detail on screen
/// falls a whole refresh overdue (its pane would show its age).
#[test]
fn the_screen_goes_first_while_never_shown_then_by_age() {
    let mut a = Account::new(40);
    let mut e = engine(30);
    // The first services list, then rows 31 to 40 on screen: their cells before the
    // sweep of the other 30 services, in the screen's lane.
    let (first, _) = e.next_request(t0(), true).unwrap();
    assert_eq!(first, Request::Services);
    e.answered(&a.answer(&first), t0());
    let rows: Vec<Request> = (31..=40)
        .flat_map(|id| [Request::NetworkErrors(id), Request::NetworkInactive(id)])
        .collect();
    e.set_focus(Focus {
        rows: rows.clone(),
        ..Focus::default()
    });
    let mut screen = Vec::new();
    while let Some((r, lane)) = e.next_request(t0(), false) {
        assert_eq!(lane, crate::scheduler::Lane::Screen);
        screen.push(r);
    }
    // The first screen's other lists (on any tab), then the rows.
    let lists = [Request::Products, Request::Credit, Request::Invoices];
    assert_eq!(screen[..3], lists, "{screen:?}");
    assert_eq!(&screen[3..], &rows[..], "{screen:?}");
    run(&mut e, &mut a, t0(), usize::MAX);
    // Everything answered once, the details of 20 services looked at: due again 30 s
    // later, the details go by age among the rest.
    let details: Vec<Request> = (1..=20).map(Request::Service).collect();
    for r in &details {
        assert!(e.ask(r, t0()));
        e.answered(&a.answer(r), t0());
    }
    e.set_focus(Focus {
        requests: details.clone(),
        ..Focus::default()
    });
    a.asked.clear();
    run(&mut e, &mut a, t0() + chrono::Duration::seconds(31), 20);
    assert_eq!(a.asked.len(), 20);
    assert!(
        a.asked.iter().filter(|r| details.contains(r)).count() < 20,
        "{:?}",
        a.asked
    );
    // A whole refresh overdue, the details on screen go first.
    let later = t0() + chrono::Duration::seconds(61);
    let mut picks = Vec::new();
    for _ in 0..20 {
        let (r, lane) = e.next_request(later, true).unwrap();
        e.answered(&a.answer(&r), later);
        picks.push((r, lane));
    }
    let overdue: Vec<&Request> = picks
        .iter()
        .filter(|(_, lane)| *lane == crate::scheduler::Lane::Screen)
        .map(|(r, _)| r)
        .collect();
    assert!(
        !overdue.is_empty() && overdue.iter().all(|r| details.contains(r)),
        "{picks:?}"
    );
}

#[test]
fn what_a_whole_tab_shows_per_service_goes_by_age() {
    let mut a = Account::new(40);
    let mut e = engine(30);
    run(&mut e, &mut a, t0(), usize::MAX);
    // The network lists answered again ten seconds later than the rest: on the Network
    // tab they are still read after the data that has waited longer.
    let later = t0() + chrono::Duration::seconds(10);
    for id in 1..=40 {
        for r in [Request::NetworkErrors(id), Request::NetworkInactive(id)] {
            e.answered(&a.answer(&r), later);
        }
    }
    e.set_focus(Focus {
        kinds: vec![Kind::Network],
        requests: vec![],
        ..Focus::default()
    });
    a.asked.clear();
    run(&mut e, &mut a, t0() + chrono::Duration::seconds(45), 20);
    let network = a
        .asked
        .iter()
        .filter(|r| matches!(r, Request::NetworkErrors(_) | Request::NetworkInactive(_)))
        .count();
    assert_eq!(a.asked.len(), 20);
    assert_eq!(network, 0, "older data first: {:?}", a.asked);
}

#[test]
fn an_fpr_service_is_never_asked_its_rate_even_with_types_from_an_earlier_run() {
    let mut a = Account::new(2);
    let mut config = Config::new("test", "http://127.0.0.1:1", Some(Duration::from_secs(30)));
    config.saved_types = HashMap::from([(1, ProductType::Ppr), (2, ProductType::Fpr)]);
    let mut e = Engine::new(config);
    run(&mut e, &mut a, t0(), usize::MAX);
    assert!(!a.asked.contains(&Request::Rate(2)));
    assert!(a.asked.contains(&Request::Rate(1)));
    // Known types: the catalogue's details are not needed.
    assert!(
        !a.asked.iter().any(|r| matches!(r, Request::Product(_))),
        "{:?}",
        a.asked
    );
}

#[test]
fn a_lost_answer_is_asked_again_after_the_in_flight_timeout() {
    let mut e = engine(30);
    assert!(e.ask(&Request::Credit, t0()));
    assert!(
        !e.ask(&Request::Credit, t0() + chrono::Duration::seconds(60)),
        "in flight"
    );
    let later = t0() + chrono::Duration::from_std(super::store::IN_FLIGHT_TIMEOUT).unwrap();
    assert!(
        e.ask(&Request::Credit, later + chrono::Duration::seconds(1)),
        "lost: asked again"
    );
    // A write is never held back as "in flight": each is a person's deliberate act.
    let write = Request::UpdateService {
        service_id: 1,
        update: Box::new(crate::api::ServiceUpdate::default()),
    };
    assert!(e.ask(&write, t0()) && e.ask(&write, t0()));
}

/// The account of [`Account::new`] with service 2 suspended from `at` (a critical
/// `service_status` alert); `repeat_mins` apart its repeats.
fn suspended_engine(repeat_mins: u64) -> (Engine, Account) {
    let mut a = Account::new(2);
    a.services[1].status = crate::api::ServiceStatus::Suspended;
    let mut config = Config::new("test", "http://127.0.0.1:1", Some(Duration::from_secs(10)));
    config.rules.repeat_after = Duration::from_secs(repeat_mins * 60);
    (Engine::new(config), a)
}

/// The `service_status` transitions of service 2 delivered at `at`.
fn status_of_2(e: &mut Engine, a: &mut Account, at: DateTime<Utc>) -> Vec<Change> {
    run(e, a, at, usize::MAX)
        .into_iter()
        .filter(|t| {
            t.alert.key.rule == Rule::ServiceStatus
                && t.alert.key.subject == crate::alerts::Subject::Service(2)
        })
        .map(|t| t.change)
        .collect()
}

fn key_of_2() -> crate::alerts::AlertKey {
    crate::alerts::AlertKey {
        rule: Rule::ServiceStatus,
        subject: crate::alerts::Subject::Service(2),
    }
}

fn minutes(m: i64) -> DateTime<Utc> {
    t0() + chrono::Duration::minutes(m)
}

#[test]
fn an_acknowledged_alert_is_not_delivered_again_until_it_resolves() {
    use crate::alerts::marks::{Ack, MarkChange};
    let (mut e, mut a) = suspended_engine(30);
    // A status is a record: it opens at the first sweep that sees it (no debounce).
    assert_eq!(status_of_2(&mut e, &mut a, minutes(0)), [Change::Opened]);
    e.mark(MarkChange::Ack(Ack {
        key: key_of_2(),
        by: "tester".into(),
        at: minutes(2),
    }));
    // The repeats at 30 and 90 minutes are held back; the alert stays open, acknowledged.
    for m in [31, 45, 92] {
        assert!(status_of_2(&mut e, &mut a, minutes(m)).is_empty(), "at {m}");
    }
    assert!(
        e.book()
            .open()
            .any(|al| al.key == key_of_2() && al.repeats >= 2)
    );
    assert!(e.marks().ack(&key_of_2()).is_some());
    // Its resolution is delivered and ends the acknowledgement.
    a.services[1].status = crate::api::ServiceStatus::Active;
    assert_eq!(status_of_2(&mut e, &mut a, minutes(93)), [Change::Resolved]);
    assert!(e.marks().ack(&key_of_2()).is_none());
    // The next time the problem comes, it is announced.
    a.services[1].status = crate::api::ServiceStatus::Suspended;
    assert_eq!(status_of_2(&mut e, &mut a, minutes(95)), [Change::Opened]);
}

#[test]
fn a_silenced_rule_delivers_nothing_until_its_end_then_the_next_transition() {
    use crate::alerts::marks::{MarkChange, Silence, Target};
    let (mut e, mut a) = suspended_engine(600);
    e.mark(MarkChange::Silence(Silence {
        id: "abc123".into(),
        target: Target {
            rule: Some(Rule::ServiceStatus),
            service: None,
        },
        until: minutes(60),
        reason: "maintenance".into(),
        by: "tester".into(),
        created: t0(),
    }));
    assert!(
        status_of_2(&mut e, &mut a, minutes(0)).is_empty(),
        "opened, silenced"
    );
    assert!(
        e.book().open().any(|al| al.key == key_of_2()),
        "the book still knows it"
    );
    // After the silence's end, the next transition (its resolution) is delivered.
    a.services[1].status = crate::api::ServiceStatus::Active;
    assert_eq!(status_of_2(&mut e, &mut a, minutes(61)), [Change::Resolved]);
}

#[test]
fn marks_survive_a_restart_and_another_process_sees_them_from_its_next_sweep() {
    use crate::alerts::marks::{Ack, MarkChange, Silence, Target};
    use crate::history::marks::MarksDb;
    let dir = std::env::temp_dir().join(format!("proxydash-marks-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("history-test.sqlite");
    // The dashboard's process writes; `watch`'s reads the same file.
    let mut dashboard = MarksDb::open(&path).unwrap();
    let mut watch = MarksDb::open(&path).unwrap();
    assert_eq!(watch.load_if_changed().unwrap(), Some(Default::default()));
    assert_eq!(
        watch.load_if_changed().unwrap(),
        None,
        "unchanged: one row read"
    );
    let silence = Silence {
        id: "5ca1ab".into(),
        target: Target {
            rule: Some(Rule::ServiceStatus),
            service: Some(2),
        },
        until: minutes(120),
        reason: "moving racks".into(),
        by: "tester".into(),
        created: t0(),
    };
    dashboard
        .apply(&MarkChange::Silence(silence.clone()))
        .unwrap();
    let ack = Ack {
        key: key_of_2(),
        by: "tester".into(),
        at: t0(),
    };
    dashboard.apply(&MarkChange::Ack(ack.clone())).unwrap();
    let seen = watch.load_if_changed().unwrap().expect("changed");
    assert_eq!(seen.silences, vec![silence]);
    assert_eq!(seen.ack(&key_of_2()), Some(&ack));
    drop((dashboard, watch));
    // A restart: a new engine and a new connection find both, and hold the alert back.
    let marks = MarksDb::open(&path).unwrap().load().unwrap();
    assert_eq!(marks, seen);
    let (mut e, mut a) = suspended_engine(30);
    assert!(e.set_marks(marks));
    assert!(status_of_2(&mut e, &mut a, minutes(0)).is_empty());
    assert!(status_of_2(&mut e, &mut a, minutes(1)).is_empty());
    assert!(e.book().open().any(|al| al.key == key_of_2()));
    // Ended from the other process: the engine takes the file's word before its sweep.
    let mut other = MarksDb::open(&path).unwrap();
    other
        .apply(&MarkChange::Unsilence("5ca1ab".into()))
        .unwrap();
    other.apply(&MarkChange::Unack(key_of_2())).unwrap();
    let mut reader = MarksDb::open(&path).unwrap();
    assert!(e.set_marks(reader.load_if_changed().unwrap().unwrap()));
    assert_eq!(status_of_2(&mut e, &mut a, minutes(31)), [Change::Repeated]);
    let _ = std::fs::remove_dir_all(&dir);
}
