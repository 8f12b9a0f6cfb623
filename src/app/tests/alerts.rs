//! Alerts in the app: a sweep per refresh, the debounce across real refreshes, the
//! status line, the Alerts tab and its key, and what reaches delivery.

use crate::alerts::{AlertSink, Change, Level, Recording, Rule, Subject, Transition};
use crate::api::ServiceStatus;
use crate::app::tabs::Tab;
use crate::testkit::{Harness, services};
use crossterm::event::KeyCode;

/// One refresh of everything (`R`), answered by the engine and the standard account,
/// with service 5001 Suspended when `suspended`; the clock moves on 30 s first. The
/// transitions that reached delivery.
fn sweep(h: &mut Harness, suspended: bool) -> Vec<Transition> {
    h.advance(30);
    h.listed = services();
    if suspended {
        h.listed[0].status = ServiceStatus::Suspended;
    }
    let cmds = h.key('R');
    h.settle(cmds);
    std::mem::take(&mut h.delivered)
}

/// The same with service 5001's proxy servers in error when `bad` (a measurement: the
/// debounce counts refreshes of it).
fn sweep_errors(h: &mut Harness, bad: bool) -> Vec<Transition> {
    h.advance(30);
    let errors = if bad {
        vec!["198.51.100.7".to_owned()]
    } else {
        vec![]
    };
    h.answers.insert(
        crate::api::Request::NetworkErrors(5001),
        crate::api::Response::NetworkErrors(errors),
    );
    let cmds = h.key('R');
    h.settle(cmds);
    std::mem::take(&mut h.delivered)
}

fn errors_of_5001(ts: &[Transition]) -> Vec<Change> {
    ts.iter()
        .filter(|t| {
            t.alert.key.rule == Rule::ServersInError
                && t.alert.key.subject == Subject::Service(5001)
        })
        .map(|t| t.change)
        .collect()
}

fn about_5001(ts: &[Transition]) -> Vec<Change> {
    ts.iter()
        .filter(|t| {
            t.alert.key.rule == Rule::ServiceStatus && t.alert.key.subject == Subject::Service(5001)
        })
        .map(|t| t.change)
        .collect()
}

#[test]
fn a_status_alert_opens_at_the_first_sweep_that_sees_it() {
    let mut h = Harness::loaded();
    sweep(&mut h, false);
    assert!(about_5001(&sweep(&mut h, false)).is_empty());
    // A status is a record, which does not blip: the first sweep that sees the
    // suspension opens it, once.
    let out = sweep(&mut h, true);
    assert_eq!(about_5001(&out), vec![Change::Opened]);
    assert!(
        h.app
            .alerts()
            .book
            .open()
            .any(|a| a.key.subject == Subject::Service(5001) && a.level == Level::Critical)
    );
    assert!(about_5001(&sweep(&mut h, true)).is_empty(), "not again");
    assert_eq!(about_5001(&sweep(&mut h, false)), vec![Change::Resolved]);
    // Issue 36.7: the end reads as an end, not as the failure again.
    let line = h
        .app
        .status()
        .messages()
        .newest_first()
        .find(|e| e.text.contains("resolved"))
        .map(|e| e.text.clone())
        .unwrap_or_default();
    assert!(
        line.starts_with("Alert resolved (service_status): no longer \""),
        "{line}"
    );
    let resolved = &h.app.alerts().rows;
    assert!(
        resolved
            .iter()
            .any(|a| a.key.subject == Subject::Service(5001) && a.resolved.is_some())
    );
}

#[test]
fn answers_trickling_in_make_one_sweep_not_one_per_answer() {
    let mut h = Harness::loaded();
    let before = h.app.alerts().book.sweeps();
    sweep(&mut h, false);
    assert_eq!(h.app.alerts().book.sweeps(), before + 1);
    // Moving to another service fetches its detail: that is not a sweep.
    h.key('j');
    let cmds = h.key('j');
    h.settle(cmds);
    assert_eq!(h.app.alerts().book.sweeps(), before + 1);
}

#[test]
fn one_notification_per_transition_across_1000_flapping_sweeps() {
    // Per 10 sweeps: a one-sweep blip, three bad sweeps with a one-sweep gap, three
    // clear ones; with the default debounce of 2 that is one opening and one recovery.
    const FLAP: [bool; 10] = [
        true, false, true, true, true, false, true, false, false, false,
    ];
    let mut h = Harness::loaded();
    let mut deliverer = Recording::default();
    for i in 0..1000 {
        for t in sweep_errors(&mut h, FLAP[i % FLAP.len()]) {
            deliverer.record(&t);
        }
    }
    let changes = errors_of_5001(&deliverer.taken());
    let opened = changes.iter().filter(|c| **c == Change::Opened).count();
    let resolved = changes.iter().filter(|c| **c == Change::Resolved).count();
    assert_eq!((opened, resolved, changes.len()), (100, 100, 200));
}

#[test]
fn the_alerts_tab_lists_them_and_enter_goes_to_the_service() {
    let mut h = Harness::loaded();
    // The first sweep of the standard account opens its alerts (5003 is suspended, an
    // invoice unpaid): they are listed and counted, but what was true at start is one
    // summary once the first full picture is in (issue 44), not news now.
    assert!(!h.status_text().contains("Alert"), "{}", h.status_text());
    assert!(h.app.alerts().book.open_count() >= 2);
    // 5001 suspended in the next refresh is news: it leads the line, before the
    // baseline's summary (at the same level), which the notices carry too.
    sweep(&mut h, true);
    let status = h.status_text();
    assert!(
        status.starts_with("Alert critical: Service 5001 (Static US 25) is Suspended")
            && status.contains("more on tab 6"),
        "{status}"
    );
    let summary = h
        .announced
        .iter()
        .find_map(|n| match n {
            crate::alerts::Notice::Digest(d) if d.kind == crate::alerts::DigestKind::Baseline => {
                Some(d.message("demo"))
            }
            _ => None,
        })
        .expect("the baseline's summary is announced");
    assert!(summary.contains("already open at start"), "{summary}");
    assert!(summary.contains("Service 5003"), "{summary}");
    h.key('6');
    assert_eq!(h.app.tab(), Tab::Alerts);
    let rows = &h.app.alerts().rows;
    assert!(!rows.is_empty());
    // Critical first.
    assert_eq!(rows[0].level, Level::Critical);
    assert!(rows.windows(2).all(|w| w[0].level >= w[1].level));
    // Filter to the suspended 5001 and go to it.
    h.key('/');
    h.keys("5001 (static us 25) is suspended");
    h.code(KeyCode::Enter);
    assert_eq!(h.app.alerts().table.len(), 1, "{:?}", h.app.alerts().rows);
    h.code(KeyCode::Enter);
    assert_eq!(h.app.tab(), Tab::Services);
    assert_eq!(h.app.services().table.selected_id(), Some(5001));
    // Tab cycles through Alerts too.
    h.key('5');
    h.code(KeyCode::Tab);
    assert_eq!(h.app.tab(), Tab::Alerts);
}

#[test]
fn a_failed_on_alert_command_is_said_in_the_status_line() {
    let mut h = Harness::loaded();
    h.send(crate::app::Msg::AlertDeliveryFailed(
        "on_alert: exit status: 3: no such webhook".into(),
    ));
    assert_eq!(h.status_text(), "on_alert: exit status: 3: no such webhook");
}
