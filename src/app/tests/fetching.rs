use crate::api::{ProductType, Request, Response};
use crate::app::testdata as td;
use crate::app::{AppSettings, Msg};
use crate::testkit::*;
use std::collections::HashSet;

fn set(requests: Vec<Request>) -> HashSet<Request> {
    requests.into_iter().collect()
}

#[test]
fn start_asks_for_every_tabs_lists() {
    let mut h = Harness::new();
    let cmds = h.app.start();
    assert_eq!(
        fetches(&cmds),
        vec![
            Request::Services,
            Request::Products,
            Request::Credit,
            Request::Invoices
        ]
    );
    assert!(h.app.services().list.is_loading());
}

#[test]
fn loaded_services_ask_every_per_service_request_at_once() {
    let mut h = Harness::new();
    let _ = h.app.start();
    let cmds = h.ok(Request::Services, Response::Services(services()));
    // The detail of the selected service only: the others are fetched when looked at.
    // The type of each is probed with one request (rate), not two.
    let mut want = vec![Request::Service(5001)];
    for id in [5001, 5002, 5003] {
        want.extend([
            Request::NetworkErrors(id),
            Request::NetworkInactive(id),
            Request::Rate(id),
        ]);
    }
    let got = fetches(&cmds);
    assert_eq!(got.len(), want.len(), "no duplicates: {got:?}");
    assert_eq!(set(got), set(want));
}

#[test]
fn later_refreshes_ask_stats_and_rate_of_ppr_services_only() {
    let mut h = Harness::loaded();
    let cmds = h.key('r');
    assert_eq!(fetches(&cmds), vec![Request::Services]);
    let cmds = h.answer(&Request::Services);
    // Everything per service is fresh: only the cached detail is read again.
    assert_eq!(fetches(&cmds), vec![Request::Service(5001)]);
    h.settle(cmds);
    // Once the data is as old as the refresh interval, it is due.
    h.advance(30);
    let cmds = h.key('r');
    assert_eq!(fetches(&cmds), vec![Request::Services]);
    let cmds = h.answer(&Request::Services);
    let got = set(fetches(&cmds));
    assert!(got.contains(&Request::Service(5001)) && got.contains(&Request::NetworkErrors(5001)));
    // Network for all three and the cached detail of 5001; the types are known, and usage
    // is read for the service selected on the Usage tab only.
    assert_eq!(got.len(), 3 * 2 + 1, "{got:?}");
    h.settle(cmds);
    let cmds = h.key('5');
    h.settle(cmds);
    h.advance(30);
    h.key('R');
    let got = set(fetches(&h.answer(&Request::Services)));
    assert!(got.contains(&Request::Stats(5002)) && got.contains(&Request::Rate(5002)));
    assert!(!got.contains(&Request::Stats(5003)) && !got.contains(&Request::Rate(5001)));
}

#[test]
fn r_refreshes_the_current_tab_and_capital_r_everything() {
    let mut h = Harness::loaded();
    h.key('3');
    assert_eq!(
        set(fetches(&h.key('r'))),
        set(vec![Request::Credit, Request::Invoices])
    );
    let mut h = Harness::loaded();
    let cmds = h.key('2');
    h.settle(cmds);
    assert_eq!(
        set(fetches(&h.key('r'))),
        set(vec![Request::Products, Request::Product(1)])
    );
    let mut h = Harness::loaded();
    h.key('4');
    let got = fetches(&h.key('r'));
    assert_eq!(got.len(), 6);
    assert!(
        got.iter()
            .all(|r| matches!(r, Request::NetworkErrors(_) | Request::NetworkInactive(_)))
    );
    let mut h = Harness::loaded();
    let cmds = h.key('5');
    h.settle(cmds);
    assert_eq!(
        set(fetches(&h.key('r'))),
        set(vec![Request::Stats(5002), Request::Rate(5002)]),
        "the selected service's usage"
    );
    let mut h = Harness::loaded();
    assert_eq!(
        fetches(&h.key('R')),
        vec![
            Request::Services,
            Request::Products,
            Request::Credit,
            Request::Invoices
        ]
    );
    assert!(
        fetches(&h.key('R')).is_empty(),
        "nothing is sent twice while in flight"
    );
}

#[test]
fn auto_refresh_runs_on_ticks_from_next_wakeup() {
    let mut h = Harness::loaded();
    let due = h.app.next_wakeup().expect("a refresh is scheduled");
    assert_eq!(due, t0() + chrono::Duration::seconds(30));
    h.advance(10);
    assert!(
        fetches(&h.send(Msg::Tick)).is_empty(),
        "an early tick does nothing"
    );
    h.advance(20);
    let cmds = h.send(Msg::Tick);
    assert_eq!(
        fetches(&cmds),
        vec![
            Request::Services,
            Request::Products,
            Request::Credit,
            Request::Invoices
        ]
    );
    assert_eq!(
        h.app.next_wakeup(),
        Some(t0() + chrono::Duration::seconds(60))
    );
    h.settle(cmds);
    // A manual refresh restarts its group's interval.
    h.advance(5);
    h.key('3');
    h.key('r');
    h.settle(vec![]);
    h.advance(25);
    let cmds = h.send(Msg::Tick);
    assert_eq!(fetches(&cmds), vec![Request::Services, Request::Products]);
}

#[test]
fn no_refresh_interval_means_no_wakeup() {
    let mut h = Harness::with(AppSettings {
        refresh: None,
        ..settings()
    });
    let cmds = h.app.start();
    h.settle(cmds);
    assert_eq!(h.app.next_wakeup(), None);
    h.advance(3600);
    assert!(fetches(&h.send(Msg::Tick)).is_empty());
}

#[test]
fn a_result_for_another_tab_is_stored() {
    let mut h = Harness::new();
    let _ = h.app.start();
    assert_eq!(h.app.tab(), crate::app::tabs::Tab::Services);
    h.answer(&Request::Invoices);
    h.answer(&Request::Credit);
    assert_eq!(h.app.billing().rows().len(), 3);
    assert_eq!(h.app.billing().credit.value().unwrap().credit, 1234.5);
    h.key('3');
    assert_eq!(h.app.billing().selected().unwrap().id, 101);
}

#[test]
fn results_no_longer_wanted_are_ignored() {
    let mut h = Harness::loaded();
    // A service that is not listed.
    let cmds = h.ok(Request::Stats(9999), Response::Stats(td::stats(3)));
    assert!(cmds.is_empty());
    assert!(!h.app.usage().stats.contains_key(&9999));
    let _ = h.ok(
        Request::Service(9999),
        Response::Service(td::service(9999, ProductType::Ppr)),
    );
    assert!(!h.app.services().details.contains_key(&9999));
    // A write's answer (a later issue's) changes nothing.
    let _ = h.ok(Request::Clients, Response::Clients(vec![]));
    assert!(h.app.status().is_empty());
}

#[test]
fn usage_lists_ppr_services_once_their_details_say_so() {
    let mut h = Harness::loaded();
    let cmds = h.key('5');
    // The type probe asked rates only; the selected service's statistics follow on sight.
    assert_eq!(fetches(&cmds), vec![Request::Stats(5002)]);
    h.settle(cmds);
    let ids: Vec<u64> = h.app.usage().services.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids, vec![5002, 5003]);
    assert!(h.app.usage().stats_of(5002).is_ready());
    assert!(
        !h.app.usage().stats.contains_key(&5001),
        "fpr usage is forgotten"
    );
}
