//! The request budget and the sweeps' freshness on screen, on the fake clock.

use super::render;
use crate::api::Request;
use crate::app::Msg;
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
        claimed: None,
        asked_pause: None,
        elsewhere: 0,
    }
}

#[test]
fn the_learned_budget_is_in_the_header() {
    let mut h = Harness::loaded();
    h.send(Msg::Budget(view(60, 12, None)));
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("60/min · 12 left"), "{screen}");
    // A limit not told by the server's headers says where it comes from.
    h.send(Msg::Budget(View {
        source: Source::Assumed,
        ..view(60, 60, None)
    }));
    assert!(render(&mut h.app, 80, 24).contains("~60/min assumed · 60 left"));
    h.send(Msg::Budget(View {
        source: Source::Learned,
        ..view(30, 4, None)
    }));
    assert!(render(&mut h.app, 80, 24).contains("~30/min after a 429 · 4 left"));
    // A claim above the ceiling is shown beside what is used.
    h.send(Msg::Budget(View {
        claimed: Some(1_000_000),
        ..view(600, 590, None)
    }));
    let screen = render(&mut h.app, 100, 30);
    assert!(
        screen.contains("600/min (server says 1,000,000) · 590 left"),
        "{screen}"
    );
}

#[test]
fn while_throttled_the_screen_counts_down_to_the_next_request_not_failures() {
    let mut h = Harness::new();
    let _ = h.app.start();
    h.send(Msg::Sent(Request::Services)); // the engine's first read, held back
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

/// Whatever the status line shows (an alert, a message), the header says when the budget
/// holds reads back, beside the limit.
#[test]
fn the_header_says_when_the_budget_holds_reads() {
    let mut h = Harness::loaded();
    h.send(Msg::Sent(Request::Services));
    h.send(Msg::Budget(View {
        next_in: Some(Duration::from_secs(3)),
        ..view(60, 0, None)
    }));
    let screen = render(&mut h.app, 120, 30);
    let header = screen.lines().nth(1).unwrap();
    assert!(header.contains("60/min · 0 left · next in 3 s"), "{header}");
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

/// Issue 45: at 80 columns the Network summary keeps the wait's reason and its seconds
/// (the labels take fewer words first).
#[test]
fn the_network_summary_keeps_the_wait_at_80_columns() {
    let mut h = Harness::new();
    let _ = h.app.start();
    h.answer(&Request::Services);
    h.key('4');
    // The network reads go out, and wait.
    h.send(Msg::Sent(Request::NetworkErrors(5001)));
    h.send(Msg::Budget(View {
        next_in: Some(Duration::from_secs(3)),
        ..view(60, 0, None)
    }));
    let wide = render(&mut h.app, 160, 30);
    let line = wide.lines().nth(2).unwrap();
    assert!(
        line.contains(
            "Servers in error: 0   Inactive: 0   ⏸ paced by the request budget (next in 3 s)"
        ),
        "{wide}"
    );
    let narrow = render(&mut h.app, 80, 24);
    let line = narrow.lines().nth(2).unwrap();
    assert!(line.contains("⏸ paced, next in 3 s"), "{narrow}");
    assert!(line.contains("In error: "), "{line}");
    // The server's count says so.
    h.send(Msg::Budget(view(60, 0, Some(23))));
    let narrow = render(&mut h.app, 80, 24);
    let line = narrow.lines().nth(2).unwrap();
    assert!(line.contains("⏸ server's limit, next in 23 s"), "{narrow}");
}

/// Issue 45: a restart within the server's minute says why reads go slowly (the earlier
/// run's requests still count), once.
#[test]
fn a_restart_within_the_servers_minute_says_so_once() {
    let mut h = Harness::loaded();
    h.send(Msg::Budget(View {
        elsewhere: 42,
        ..view(60, 18, None)
    }));
    let said = h.status_text();
    assert!(
        said.contains("42 of the last minute's requests were sent by this profile's other runs"),
        "{said}"
    );
    assert!(said.contains("60/min"), "{said}");
    h.code(crossterm::event::KeyCode::Esc);
    h.send(Msg::Budget(View {
        elsewhere: 40,
        ..view(60, 20, None)
    }));
    assert!(
        !h.status_text().contains("other runs"),
        "{}",
        h.status_text()
    );
}

/// Issue 45: `m` lists what the header's `⟳ N pending` stands for: why it waits and each
/// request with how long ago it was asked.
#[test]
fn m_lists_what_is_pending_and_why() {
    let mut h = Harness::loaded();
    h.send(Msg::Sent(Request::Services));
    h.send(Msg::Sent(Request::Credit));
    h.advance(90);
    h.send(Msg::Tick);
    h.key('m');
    let screen = render(&mut h.app, 120, 30);
    assert!(
        screen.contains("⟳ 2 pending · sent, waiting for the answers"),
        "{screen}"
    );
    assert!(screen.contains("Services  asked 1m ago"), "{screen}");
    // Held back by the budget, it says so.
    h.send(Msg::Budget(View {
        next_in: Some(Duration::from_secs(3)),
        ..view(60, 0, None)
    }));
    let screen = render(&mut h.app, 120, 30);
    assert!(
        screen.contains("⟳ 2 pending · paced by the request budget (next in 3 s)"),
        "{screen}"
    );
}
