//! The scopes' rules one by one on a fake clock (issue 46.3).

use super::*;
use crate::api::{IpListFormat, IpListType, Request};
use std::time::{Duration, Instant};

fn iplist() -> Route {
    Request::ip_list(1, IpListType::HttpIp, IpListFormat::Txt).route()
}

fn detail() -> Route {
    Request::Service(1).route()
}

fn figure(limit: u32, remaining: u32) -> Signal {
    Signal {
        limit: Some(limit),
        remaining: Some(remaining),
        ..Signal::default()
    }
}

/// An IP list's `X-RateLimit-Limit: 5` is the IP list's: the account keeps its 60, and
/// a person's read of another route goes at once while the IP list waits.
#[test]
fn a_routes_own_limit_holds_that_route_alone() {
    let now = Instant::now();
    let mut s = Scopes::new(Bucket::new(None));
    // Its burst: half its limit, then its even pace (12 s apart).
    for i in 0..3 {
        let t = s.try_take(now, Lane::Person, iplist()).unwrap();
        s.observe(t, &figure(5, 4 - i), now);
    }
    assert_eq!(s.account().limit(), 60);
    let held = s.try_take(now, Lane::Person, iplist()).unwrap_err();
    assert_eq!(held.scope, Scope::Route);
    // Every read of another route goes, up to the account's own burst.
    for i in 0..25 {
        assert!(s.try_take(now, Lane::Person, detail()).is_ok(), "read {i}");
    }
}

/// A figure two routes show is the account's count: believed for the account, and the
/// route that showed it first keeps nothing of its own.
#[test]
fn a_figure_two_routes_show_is_the_accounts() {
    let now = Instant::now();
    let mut s = Scopes::new(Bucket::new(None));
    let t = s.try_take(now, Lane::Screen, detail()).unwrap();
    s.observe(t, &figure(20, 19), now);
    assert_eq!(s.account().limit(), 60, "one route's word");
    assert_eq!(s.routes().count(), 1);
    let services = Request::Services.route();
    let t = s.try_take(now, Lane::Screen, services).unwrap();
    s.observe(t, &figure(20, 18), now);
    assert_eq!(s.account().limit(), 20);
    assert_eq!(
        s.routes().count(),
        0,
        "the account's count, not the routes'"
    );
    // From then on a route showing 20 speaks of the account, one showing 5 of its own.
    let t = s.try_take(now, Lane::Person, iplist()).unwrap();
    s.observe(t, &figure(5, 4), now);
    assert_eq!(s.account().limit(), 20);
    assert_eq!(
        s.routes().map(|(r, b)| (r, b.limit())).collect::<Vec<_>>(),
        vec![(iplist(), 5)]
    );
}

/// A 429 without a figure pauses its route; a second route refused within the window
/// says the count is the account's.
#[test]
fn a_429_pauses_its_route_unless_a_second_route_is_refused() {
    let now = Instant::now();
    let refused = Signal {
        throttled: true,
        retry_after: Some(30),
        ..Signal::default()
    };
    let mut s = Scopes::new(Bucket::new(None));
    let t = s.try_take(now, Lane::Person, iplist()).unwrap();
    s.observe(t, &refused, now);
    let held = s.try_take(now, Lane::Person, iplist()).unwrap_err();
    assert_eq!((held.scope, held.hold), (Scope::Route, Hold::Paused));
    assert_eq!(held.at, now + Duration::from_secs(30));
    assert!(s.account().paused_until().is_none());
    assert_eq!(s.account().limit(), 60);
    let t = s.try_take(now, Lane::Person, detail()).unwrap();
    s.observe(t, &refused, now);
    let held = s
        .try_take(now, Lane::Person, Request::Credit.route())
        .unwrap_err();
    assert_eq!((held.scope, held.hold), (Scope::Account, Hold::Paused));
    assert_eq!(s.account().limit(), 30, "halved once");
}

/// A 429 carrying the account's figure is the account's at once.
#[test]
fn a_429_with_the_accounts_figure_pauses_the_account() {
    let now = Instant::now();
    let mut s = Scopes::new(Bucket::new(None));
    for route in [Request::Services.route(), Request::Credit.route()] {
        let t = s.try_take(now, Lane::Screen, route).unwrap();
        s.observe(t, &figure(60, 50), now);
    }
    let t = s.try_take(now, Lane::Person, detail()).unwrap();
    let spent = Signal {
        throttled: true,
        retry_after: Some(20),
        reset_in: Some(20),
        ..figure(60, 0)
    };
    s.observe(t, &spent, now);
    let held = s.try_take(now, Lane::Person, iplist()).unwrap_err();
    assert_eq!((held.scope, held.hold), (Scope::Account, Hold::Paused));
}

/// A route's limit learned from a 429 climbs back, and the route is forgotten once it
/// holds nothing of its own.
#[test]
fn a_route_that_holds_nothing_is_forgotten() {
    let now = Instant::now();
    let mut s = Scopes::new(Bucket::new(None));
    let t = s.try_take(now, Lane::Person, iplist()).unwrap();
    let refused = Signal {
        throttled: true,
        retry_after: Some(1),
        ..Signal::default()
    };
    s.observe(t, &refused, now);
    assert_eq!(s.routes().count(), 1);
    // Five clean windows later (30 → 60 a step of 6 each), an answer of the route.
    let later = now + (WINDOW + MARGIN) * 6;
    let t = s.try_take(later, Lane::Person, iplist()).unwrap();
    s.observe(t, &Signal::default(), later);
    assert_eq!(s.routes().count(), 0);
}

/// Another process's sends count in the account's log and pace (and in the route's own).
#[test]
fn the_others_sends_count() {
    let now = Instant::now();
    let mut s = Scopes::new(Bucket::new(None));
    for i in 0..60 {
        let at = now - Duration::from_millis(100 * (60 - i));
        s.count_elsewhere(at, Lane::Person, Some(detail()), now);
    }
    let held = s.try_take(now, Lane::Person, detail()).unwrap_err();
    assert_eq!(held.scope, Scope::Account);
    assert!(
        held.at > now + Duration::from_secs(50),
        "{:?}",
        held.at - now
    );
    // Sends older than the window do not count.
    let mut fresh = Scopes::new(Bucket::new(None));
    fresh.count_elsewhere(now - Duration::from_secs(90), Lane::Person, None, now);
    assert_eq!(fresh.account_mut().view(now).left, 60);
}

use super::super::bucket::{MARGIN, WINDOW};

/// A route's sends that left before its first answer (a batch sent at once) count in the
/// budget its answer gives it: the server counted them too.
#[test]
fn a_first_batch_counts_in_the_routes_own_budget() {
    let now = Instant::now();
    let mut s = Scopes::new(Bucket::new(None));
    let tokens: Vec<Token> = (0..3)
        .map(|_| s.try_take(now, Lane::Person, iplist()).unwrap())
        .collect();
    s.observe(tokens[0], &figure(5, 2), now);
    // Five in the window: two more, then the route holds.
    for _ in 0..2 {
        assert!(s.try_take(now, Lane::Person, iplist()).is_ok());
    }
    let held = s.try_take(now, Lane::Person, iplist()).unwrap_err();
    assert_eq!(held.scope, Scope::Route);
    assert!(
        held.at >= now + WINDOW,
        "until the first batch leaves the window"
    );
    assert!(s.try_take(now, Lane::Person, detail()).is_ok());
}
