//! History on screen: answers of a real (in-memory) store, drawn on the tabs.

use super::render;
use crate::app::Msg;
use crate::history::{Answer, Store};
use crate::testkit::Harness;

/// The standard account loaded twice five minutes apart with history on, the store's answers
/// given to the app.
fn with_history() -> Harness {
    let mut h = Harness::new();
    let mut store = Store::open_in_memory(90).unwrap();
    for step in 0..2 {
        let mut cmds = if step == 0 {
            let mut c = h.app.enable_history();
            c.extend(h.app.start());
            c
        } else {
            h.advance(300);
            h.key('R')
        };
        h.settle(std::mem::take(&mut cmds));
        // What the engine records of its reads.
        let records = std::mem::take(&mut h.asked)
            .iter()
            .filter_map(|r| h.answer_of(r))
            .flat_map(|l| crate::history::records(&l))
            .collect();
        let at = h.app.now();
        store
            .write(&[crate::history::Sweep { at, records }])
            .unwrap();
    }
    let now = h.app.now();
    let overview = store.overview(now).unwrap();
    let service = store.service(5001, now).unwrap();
    h.send(Msg::History(Answer::Overview(Box::new(overview))));
    h.send(Msg::History(Answer::Service(Box::new(service))));
    h
}

#[test]
fn network_rows_say_since_when_each_server_is_listed_and_its_errors_per_hour() {
    let mut h = with_history();
    h.key('4');
    let screen = render(&mut h.app, 120, 30);
    assert!(screen.contains("Listed"), "{screen}");
    assert!(screen.contains("Errors 24h"), "{screen}");
    let row = screen
        .lines()
        .find(|l| l.contains("198.51.100.7"))
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(row.contains("since 14:03, 5m"), "{row}");
    assert!(row.contains("▁▁▁▁▁▁▁▁▁▁▁█"), "{row}");
    // At 80 columns the sparkline gives way; the since column stays.
    let narrow = render(&mut h.app, 80, 24);
    assert!(!narrow.contains("Errors 24h"), "{narrow}");
    assert!(narrow.contains("since 14:03"), "{narrow}");
}

#[test]
fn the_service_detail_shows_uptime_errors_and_since() {
    let mut h = with_history();
    let screen = render(&mut h.app, 120, 40);
    assert!(
        screen.contains("Uptime        24h 0.0% · 7d 0.0% (both of 5 min watched)"),
        "{screen}"
    );
    assert!(screen.contains("In error      since 14:03, 5m"), "{screen}");
    assert!(screen.contains("Errors"), "{screen}");
}

/// Issue 49.4: `watch --probe-every`'s rounds, kept in the profile's history, are drawn
/// in the service's detail beside its errors: the alive share of each round on a fixed
/// scale, then the last round's counts, in the alert's colour when under the share.
#[test]
fn the_service_detail_draws_the_probe_rounds_beside_the_errors() {
    let mut h = with_history();
    let mut store = Store::open_in_memory(90).unwrap();
    let now = h.app.now();
    for (i, (alive, p50)) in [
        (10, Some(40)),
        (9, Some(42)),
        (2, Some(300)),
        (3, Some(250)),
    ]
    .into_iter()
    .enumerate()
    {
        let at = now - chrono::Duration::minutes(5 * (4 - i as i64));
        let records = vec![crate::history::Record::ProbeRound {
            service_id: 5001,
            checked: 10,
            alive,
            p50_ms: p50,
        }];
        store
            .write(&[crate::history::Sweep { at, records }])
            .unwrap();
    }
    let service = store.service(5001, now).unwrap();
    assert_eq!(service.probe_rounds.len(), 4);
    h.send(Msg::History(Answer::Service(Box::new(service))));
    let screen = render(&mut h.app, 120, 40);
    assert!(
        screen.contains("Probe rounds  █▇▂▃ 3/10 alive · p50 250 ms"),
        "{screen}"
    );
}

#[test]
fn billing_shows_the_credit_over_30_days() {
    let mut h = with_history();
    h.key('3');
    let screen = render(&mut h.app, 120, 30);
    let line = screen
        .lines()
        .find(|l| l.contains("Credit"))
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(line.contains("30 days"), "{line}");
    // Known for today only: one bar at the right end of the 30 days, and its range.
    assert!(line.contains("█ $1,234.50–$1,234.50"), "{line}");
    assert!(line.contains("Unpaid  "), "{line}");
    // Issue 45: at 80 columns the Unpaid total stays whole; the trend gives way first.
    let narrow = render(&mut h.app, 80, 24);
    let line = narrow
        .lines()
        .find(|l| l.contains("Credit"))
        .unwrap_or_else(|| panic!("{narrow}"));
    assert!(line.contains(" invoice"), "{line}");
    assert!(!line.contains('…'), "{line}");
    assert!(!line.contains("–$"), "{line}");
}

#[test]
fn without_history_the_tabs_are_as_before() {
    let mut h = Harness::loaded();
    h.key('4');
    let screen = render(&mut h.app, 120, 30);
    assert!(!screen.contains("Listed"), "{screen}");
}

/// Issue 26.4: a day the credit dropped and was topped up again shows its low bar and
/// the range reaches down to it.
#[test]
fn the_credit_sparkline_keeps_a_drop_within_a_day() {
    let mut h = Harness::loaded();
    let mut low = vec![Some(100.0); 30];
    low[20] = Some(5.0);
    let overview = crate::history::Overview {
        at: h.app.now(),
        credit_30d: vec![Some(100.0); 30],
        credit_30d_low: low,
        ..Default::default()
    };
    h.send(Msg::History(Answer::Overview(Box::new(overview))));
    h.key('3');
    let screen = render(&mut h.app, 120, 30);
    let line = screen
        .lines()
        .find(|l| l.contains("30 days"))
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(
        line.contains("████████████████████▁█████████ $5.00–$100.00"),
        "{line}"
    );
}
