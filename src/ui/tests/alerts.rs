//! The Alerts tab on screen, and the open count on the tab line.

use super::render;
use crate::testkit::Harness;
use crossterm::event::KeyCode;

/// The standard account after two refreshes: its alerts are open.
pub(super) fn alerting() -> Harness {
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
    let mut h = Harness::new();
    let _ = h.app.start();
    h.key('6');
    let screen = render(&mut h.app, 80, 24);
    assert!(screen.contains("seen twice in a row"), "{screen}");
}

#[test]
fn a_resolved_alert_stays_listed_below_the_open_ones() {
    let mut h = alerting();
    // The invoices come back paid: after two refreshes the unpaid-invoice alert resolves.
    h.answers.insert(
        crate::api::Request::Invoices,
        crate::api::Response::Invoices(Vec::new().into()),
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
    // The Resolved column is there while something resolved is listed, and the title
    // says the rows listed are more than those open.
    assert!(screen.contains("Since       Resolved"), "{screen}");
    assert!(screen.contains("Alerts · 3 open · 4 listed"), "{screen}");
}

/// The row of the Suspended service's alert, selected (it is the first: critical).
fn on_the_suspended_alert(h: &mut Harness) {
    h.key('6');
    h.key('g');
    let selected = h.app.alerts().selected().expect("a row").key;
    assert_eq!(
        selected.rule,
        crate::alerts::Rule::ServiceStatus,
        "{selected:?}"
    );
}

#[test]
fn a_acknowledges_the_selected_alert_and_the_tab_marks_who() {
    let mut h = alerting();
    on_the_suspended_alert(&mut h);
    let cmds = h.key('a');
    assert!(
        cmds.iter().any(|c| matches!(
            c,
            crate::app::Command::Mark(crate::alerts::marks::MarkChange::Ack(_))
        )),
        "{cmds:?}"
    );
    h.settle(cmds);
    let key = h.app.alerts().selected().unwrap().key;
    assert!(h.app.alerts().marks.ack(&key).is_some());
    let screen = render(&mut h.app, 80, 24);
    assert!(screen.contains("acked"), "{screen}");
    assert!(screen.contains("Acknowledged by"), "{screen}");
    // Again: already acknowledged, nothing asked.
    assert!(h.key('a').is_empty());
    assert!(
        h.status_text().contains("already acknowledged"),
        "{}",
        h.status_text()
    );
}

#[test]
fn the_silence_form_refuses_a_length_that_does_not_read_and_keeps_what_was_typed() {
    let mut h = alerting();
    on_the_suspended_alert(&mut h);
    h.key('s');
    // The length field holds the first preset; ↓ goes to the next.
    h.code(KeyCode::Down);
    let screen = render(&mut h.app, 80, 24);
    assert!(screen.contains("[8h"), "{screen}");
    for _ in 0..2 {
        h.code(KeyCode::Backspace);
    }
    h.keys("abc");
    h.code(KeyCode::Tab);
    h.keys("moving racks");
    let cmds = h.code(KeyCode::Enter);
    assert!(cmds.is_empty(), "nothing asked: {cmds:?}");
    let screen = render(&mut h.app, 80, 24);
    assert!(screen.contains("not a unit"), "{screen}");
    assert!(screen.contains("[abc"), "the length stays: {screen}");
    assert!(
        screen.contains("moving racks"),
        "the reason stays: {screen}"
    );
    // Corrected: 2h30m on service_status of this service.
    for _ in 0..3 {
        h.code(KeyCode::Backspace);
    }
    h.keys("2h30m");
    let cmds = h.code(KeyCode::Enter);
    let Some(crate::app::Command::Mark(crate::alerts::marks::MarkChange::Silence(s))) =
        cmds.first()
    else {
        panic!("{cmds:?}");
    };
    assert_eq!(s.until - h.app.now(), chrono::Duration::minutes(150));
    assert_eq!(s.reason, "moving racks");
    // The ID is random and the name the login's: fixed for the snapshot.
    let fixed = crate::alerts::marks::Silence {
        id: "5ca1ab".into(),
        by: "tester".into(),
        ..s.clone()
    };
    h.settle(vec![crate::app::Command::Mark(
        crate::alerts::marks::MarkChange::Silence(fixed),
    )]);
    let screen = render(&mut h.app, 80, 24);
    assert!(screen.contains("silenced"), "{screen}");
    insta::assert_snapshot!(screen);
    let wide = render(&mut h.app, 200, 60);
    assert!(wide.contains("Silences (1"), "{wide}");
    assert!(wide.contains("moving racks"), "{wide}");
    // u ends it.
    let cmds = h.key('u');
    h.settle(cmds);
    assert_eq!(h.app.alerts().marks.active(h.app.now()).count(), 0);
}
