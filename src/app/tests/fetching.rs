use crate::account::{Focus, Kind};
use crate::api::{ProductType, Request, Response};
use crate::app::testdata as td;
use crate::app::{AppSettings, Command, Msg};
use crate::testkit::*;

/// The `Command::Refresh` kinds among some commands.
fn refreshed(cmds: &[Command]) -> Vec<Kind> {
    cmds.iter()
        .filter_map(|c| match c {
            Command::Refresh(kinds) => Some(kinds.clone()),
            _ => None,
        })
        .flatten()
        .collect()
}

/// The focus told among some commands, the last one.
fn focus(cmds: &[Command]) -> Option<Focus> {
    cmds.iter().rev().find_map(|c| match c {
        Command::Focus(f) => Some(f.clone()),
        _ => None,
    })
}

#[test]
fn start_tells_the_engine_what_the_screen_shows_and_asks_nothing_itself() {
    let mut h = Harness::new();
    let cmds = h.app.start();
    assert!(
        fetches(&cmds).is_empty(),
        "the engine reads, not the app: {cmds:?}"
    );
    assert_eq!(focus(&cmds).unwrap().kinds, vec![Kind::Services]);
}

#[test]
fn the_engine_fills_every_tab_whichever_is_on_screen() {
    let h = Harness::loaded();
    assert_eq!(h.app.services().rows().len(), 3);
    for id in [5001, 5002, 5003] {
        assert!(h.app.store().network_answer(id, true).is_ready(), "{id}");
    }
    // The ppr services' usage is there before the Usage tab is opened, and the fpr one's
    // rate was never asked (its type came from its detail, not from a 422).
    assert!(h.app.store().rate_answer(5002).is_ready());
    assert!(h.app.store().rate_answer(5003).is_ready());
    assert!(!h.asked.contains(&Request::Rate(5001)), "{:?}", h.asked);
    assert!(h.app.billing().credit().is_ready());
}

#[test]
fn r_refreshes_the_current_tab_and_capital_r_everything() {
    let mut h = Harness::loaded();
    h.key('3');
    assert_eq!(
        refreshed(&h.key('r')),
        vec![Kind::Credit, Kind::Invoices, Kind::Invoice]
    );
    h.key('4');
    assert_eq!(refreshed(&h.key('r')), vec![Kind::Network]);
    h.key('5');
    assert_eq!(refreshed(&h.key('r')), vec![Kind::Rate, Kind::Stats]);
    assert_eq!(refreshed(&h.key('R')), Kind::ALL.to_vec());
    // `r` on Services is read again by the engine, answered like any read.
    h.key('1');
    h.asked.clear();
    h.advance(1);
    let cmds = h.key('r');
    h.settle(cmds);
    assert!(h.asked.contains(&Request::Services), "{:?}", h.asked);
}

#[test]
fn the_focus_follows_the_tab_and_the_selection() {
    let mut h = Harness::loaded();
    let cmds = h.key('5');
    let f = focus(&cmds).expect("a new focus");
    assert_eq!(f.kinds, vec![Kind::Rate]);
    assert_eq!(f.requests, vec![Request::Stats(5002), Request::Rate(5002)]);
    let cmds = h.key('j');
    let f = focus(&cmds).expect("the selection moved");
    assert_eq!(f.requests, vec![Request::Stats(5003), Request::Rate(5003)]);
    assert!(
        focus(&h.key('?')).is_none(),
        "an unchanged focus is not told again"
    );
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
    assert_eq!(h.app.billing().credit().value().unwrap().credit, 1234.5);
    h.key('3');
    assert_eq!(h.app.billing().selected().unwrap().id, 101);
}

#[test]
fn results_no_longer_wanted_are_ignored() {
    let mut h = Harness::loaded();
    // A service that is not listed.
    let cmds = h.ok(Request::Stats(9999), Response::Stats(td::stats(3)));
    assert!(cmds.is_empty());
    assert!(h.app.store().get(&Request::Stats(9999)).is_none());
    let _ = h.ok(
        Request::Service(9999),
        Response::Service(td::service(9999, ProductType::Ppr)),
    );
    assert!(h.app.store().get(&Request::Service(9999)).is_none());
    // A write's answer (a later issue's) changes nothing.
    let _ = h.ok(Request::Clients, Response::Clients(vec![]));
    assert!(h.app.status().is_empty());
}

#[test]
fn usage_lists_ppr_services_once_their_types_are_known() {
    let mut h = Harness::loaded();
    let cmds = h.key('5');
    h.settle(cmds);
    let ids: Vec<u64> = h.app.usage().services.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids, vec![5002, 5003]);
    assert!(h.app.store().stats_answer(5002).is_ready());
    assert!(
        !h.app.store().stats_answer(5001).is_requested(),
        "fpr usage is never asked"
    );
}
