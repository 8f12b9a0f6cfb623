//! The request budget and the sweeps' freshness on screen, on the fake clock.

use super::render;
use crate::api::{Request, Response, ServiceStatus, ServiceSummary};
use crate::app::Msg;
use crate::app::testdata as td;
use crate::scheduler::{Source, View};
use crate::testkit::*;
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

/// Every network request of a refresh's answer to the services list.
fn network_asked(cmds: &[crate::app::Command]) -> Vec<Request> {
    fetches(cmds)
        .into_iter()
        .filter(|r| matches!(r, Request::NetworkErrors(_) | Request::NetworkInactive(_)))
        .collect()
}

#[test]
fn a_service_whose_status_cannot_be_had_counts_as_checked_and_waits_its_turn() {
    use crate::api::ApiError;
    let mut h = Harness::new();
    let _ = h.app.start();
    let cmds = h.answer(&Request::Services);
    // 5002's network status is refused (its client is gone); 5003's did not arrive (the
    // server was unreachable): both answered, so the sweep is over, the two told apart.
    let gone = || ApiError::ClientIdNotFound {
        message: "Unprocessable Entity. ClientID not found".into(),
    };
    let down = || ApiError::Connect {
        url: "https://api.example.com".into(),
        cause: "connection refused".into(),
    };
    for r in network_asked(&cmds) {
        match r {
            Request::NetworkErrors(5002) | Request::NetworkInactive(5002) => h.fail(r, gone()),
            Request::NetworkErrors(5003) | Request::NetworkInactive(5003) => h.fail(r, down()),
            _ => h.answer(&r),
        };
    }
    let rest = cmds
        .into_iter()
        .filter(|c| network_asked(std::slice::from_ref(c)).is_empty())
        .collect();
    h.settle(rest);
    h.key('4');
    let screen = render(&mut h.app, 120, 30);
    assert!(screen.contains("Services checked: 3 of 3"), "{screen}");
    assert!(screen.contains("1 can't check"), "{screen}");
    assert!(screen.contains("✗ 2 failed"), "{screen}");
    // The next refresh, before the data is due: only the failure to reach the server is
    // asked again; the service the server cannot check waits until its answer is due.
    h.advance(10);
    h.key('R');
    let asked = network_asked(&h.answer(&Request::Services));
    assert_eq!(
        asked,
        vec![Request::NetworkErrors(5003), Request::NetworkInactive(5003)]
    );
    h.advance(30);
    h.key('R');
    let asked = network_asked(&h.answer(&Request::Services));
    assert!(asked.contains(&Request::NetworkErrors(5002)), "{asked:?}");
}

#[test]
fn only_the_selected_detail_refreshes_with_the_list_and_a_stale_one_is_read_on_sight() {
    let mut h = Harness::loaded();
    // Details of 5001 (selected at start) and 5002 are cached; 5002 is selected.
    let cmds = h.key('j');
    assert_eq!(fetches(&cmds), vec![Request::Service(5002)]);
    h.settle(cmds);
    h.advance(30);
    h.send(Msg::Tick);
    let cmds = h.answer(&Request::Services);
    let details: Vec<Request> = fetches(&cmds)
        .into_iter()
        .filter(|r| matches!(r, Request::Service(_)))
        .collect();
    assert_eq!(details, vec![Request::Service(5002)], "not 5001's");
    h.settle(cmds);
    // 5001's cached detail is 30 s old: read again when it is selected, once.
    assert_eq!(fetches(&h.key('k')), vec![Request::Service(5001)]);
    assert!(fetches(&h.send(Msg::Tick)).is_empty());
}
