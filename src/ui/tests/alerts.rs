//! The Alerts tab on screen, and the open count on the tab line.

use super::render;
use crate::testkit::Harness;
use crossterm::event::KeyCode;

/// The standard account after two refreshes: its alerts are open.
fn alerting() -> Harness {
    let mut h = Harness::loaded();
    h.advance(30);
    let cmds = h.key('R');
    h.settle(cmds);
    h
}

#[test]
fn the_tab_line_counts_open_alerts_and_the_tab_lists_them() {
    let mut h = alerting();
    let open = h.app.alerts().open_count();
    assert!(open > 0);
    let screen = render(&mut h.app, 80, 24);
    let tab_line = screen.lines().next().unwrap();
    assert!(tab_line.contains(&format!("6 Alerts {open}")), "{tab_line}");
    h.key('6');
    let screen = render(&mut h.app, 80, 24);
    assert!(
        screen.contains("● critical Service 5003 (Rotating 50GB) is Suspended"),
        "{screen}"
    );
    assert!(
        screen.contains(&format!("Alerts · {open} open")),
        "{screen}"
    );
    insta::assert_snapshot!(screen);
    let wide = render(&mut h.app, 130, 30);
    assert!(wide.contains("service_status"), "{wide}");
    insta::assert_snapshot!(wide);
}

#[test]
fn before_the_first_alert_the_tab_says_how_it_works() {
    let mut h = Harness::loaded();
    // Shift-Tab from the first tab wraps to the last, Alerts.
    h.code(KeyCode::BackTab);
    let screen = render(&mut h.app, 80, 24);
    assert!(screen.contains("seen twice in a row"), "{screen}");
}

#[test]
fn a_resolved_alert_stays_listed_below_the_open_ones() {
    let mut h = alerting();
    // The invoices come back paid: after two refreshes the unpaid-invoice alert resolves.
    h.answers.insert(
        crate::api::Request::Invoices,
        crate::api::Response::Invoices(Vec::new()),
    );
    for _ in 0..2 {
        h.advance(30);
        let cmds = h.key('R');
        h.settle(cmds);
    }
    h.key('6');
    h.key('G');
    let screen = render(&mut h.app, 120, 30);
    assert!(screen.contains("✓ warn"), "{screen}");
    assert!(screen.contains("resolved"), "{screen}");
}
