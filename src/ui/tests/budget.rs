//! The request budget and the sweeps' freshness on screen, on the fake clock.

use super::render;
use crate::api::{Request, Response, ServiceStatus, ServiceSummary};
use crate::app::Msg;
use crate::app::testdata as td;
use crate::app::testkit::*;
use crate::scheduler::{Source, View};
use std::time::Duration;

fn view(limit: u32, left: u32, paused: Option<u64>) -> View {
    View {
        limit,
        left,
        source: Source::Headers,
        paused_for: paused.map(Duration::from_secs),
        next_in: None,
        throttled: 0,
    }
}

#[test]
fn the_learned_budget_is_in_the_header() {
    let mut h = Harness::loaded();
    h.send(Msg::Budget(view(60, 12, None)));
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("60/min · 12 left"), "{screen}");
    // A limit not told by the server's headers is marked as a guess.
    h.send(Msg::Budget(View {
        source: Source::Assumed,
        ..view(60, 60, None)
    }));
    assert!(render(&mut h.app, 80, 24).contains("~60/min · 60 left"));
}

#[test]
fn while_throttled_the_screen_counts_down_to_the_next_request_not_failures() {
    let mut h = Harness::new();
    let _ = h.app.start(); // four lists in flight
    h.send(Msg::Budget(view(60, 0, Some(23))));
    let screen = render(&mut h.app, 100, 30);
    assert!(
        screen.contains("waiting for the server's limit (next in 23 s)"),
        "{screen}"
    );
    assert!(
        !screen.contains("failed") && !screen.contains('✗'),
        "{screen}"
    );
    // The countdown runs on the app's clock, a tick a second.
    let wake = h.app.next_wakeup().expect("a tick while waiting");
    assert_eq!(wake, t0() + chrono::Duration::seconds(1));
    h.advance(10);
    h.send(Msg::Tick);
    assert!(render(&mut h.app, 100, 30).contains("(next in 13 s)"));
    h.advance(13);
    h.send(Msg::Tick);
    assert!(!render(&mut h.app, 100, 30).contains("waiting for"));
}

#[test]
fn network_rows_say_how_old_their_check_is() {
    let mut h = Harness::loaded();
    h.key('4');
    h.advance(150);
    h.send(Msg::Tick);
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("2m ago"), "{screen}");
    assert!(
        screen.contains("checked: 3 of 3 · oldest 2m ago"),
        "{screen}"
    );
}

#[test]
fn sweeps_go_active_first_oldest_first_and_skip_the_dead() {
    let mut h = Harness::new();
    let _ = h.app.start();
    let list = vec![
        ServiceSummary {
            status: ServiceStatus::Suspended,
            ..td::summary(1)
        },
        ServiceSummary {
            status: ServiceStatus::Terminated,
            ..td::summary(2)
        },
        td::summary(3),
        ServiceSummary {
            status: ServiceStatus::Fraud,
            ..td::summary(4)
        },
        ServiceSummary {
            status: ServiceStatus::Cancelled,
            ..td::summary(5)
        },
        td::summary(6),
    ];
    let cmds = h.ok(Request::Services, Response::Services(list.clone()));
    let network: Vec<u64> = fetches(&cmds)
        .iter()
        .filter_map(|r| match r {
            Request::NetworkErrors(id) => Some(*id),
            _ => None,
        })
        .collect();
    assert_eq!(network, vec![3, 6, 1], "Active first; 2, 4, 5 never");
    // 3 and 6 answered now, 1 later: the next sweep starts with the oldest.
    for id in [3, 6] {
        h.ok(Request::NetworkErrors(id), Response::NetworkErrors(vec![]));
        h.ok(
            Request::NetworkInactive(id),
            Response::NetworkInactive(vec![]),
        );
    }
    h.advance(20);
    h.ok(Request::NetworkErrors(6), Response::NetworkErrors(vec![]));
    h.ok(
        Request::NetworkInactive(6),
        Response::NetworkInactive(vec![]),
    );
    h.ok(Request::NetworkErrors(1), Response::NetworkErrors(vec![]));
    h.ok(
        Request::NetworkInactive(1),
        Response::NetworkInactive(vec![]),
    );
    h.advance(40);
    h.key('R');
    let cmds = h.ok(Request::Services, Response::Services(list));
    let order: Vec<u64> = fetches(&cmds)
        .iter()
        .filter_map(|r| match r {
            Request::NetworkErrors(id) => Some(*id),
            _ => None,
        })
        .collect();
    assert_eq!(order, vec![3, 6, 1], "3 is older than 6; 1 is not Active");
    h.key('4');
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("checked: 3 of 3"), "{screen}");
}
