//! History: what the app records from reads, when it asks the store, and what an answer
//! does.

use crate::api::{Request, Response};
use crate::app::testkit::{Harness, t0};
use crate::app::{Command, Msg};
use crate::history::{Answer, Query, Record, ServerList};

/// Starts with history on and answers everything; returns the history questions asked.
fn loaded_with_history() -> (Harness, Vec<Query>) {
    let mut h = Harness::new();
    let mut asked = Vec::new();
    let mut cmds = h.app.enable_history();
    cmds.extend(h.app.start());
    while let Some(cmd) = cmds.pop() {
        match cmd {
            Command::Fetch(r) => cmds.extend(h.answer(&r)),
            Command::AskHistory(q) => asked.push(q),
            _ => {}
        }
    }
    (h, asked)
}

#[test]
fn without_history_nothing_is_recorded_or_asked() {
    let mut h = Harness::new();
    let mut cmds = h.app.start();
    while let Some(cmd) = cmds.pop() {
        assert!(!matches!(cmd, Command::AskHistory(_)), "{cmd:?}");
        if let Command::Fetch(r) = cmd {
            cmds.extend(h.answer(&r));
        }
    }
    assert!(h.app.take_history().is_none());
}

#[test]
fn every_successful_read_becomes_a_record_at_the_clock_time() {
    let (mut h, _) = loaded_with_history();
    // The statistics of a rotating service are read when it is looked at (the first ppr
    // service is selected on the Usage tab).
    let cmds = h.key('5');
    h.settle(cmds);
    let sweep = h.app.take_history().expect("records");
    assert_eq!(sweep.at, t0());
    let r = &sweep.records;
    assert!(r.contains(&Record::Credit { credit: 1234.5 }));
    assert!(r.contains(&Record::Service {
        service_id: 5003,
        status: "Suspended".into(),
        nextduedate: Some(crate::app::testdata::date("2025-12-30")),
    }));
    assert!(r.contains(&Record::Servers {
        service_id: 5001,
        list: ServerList::Errors,
        servers: vec!["198.51.100.7".into(), "198.51.100.9".into()],
    }));
    assert!(r.contains(&Record::Servers {
        service_id: 5003,
        list: ServerList::Inactive,
        servers: vec!["192.0.2.44".into()],
    }));
    assert!(r.contains(&Record::Rate {
        service_id: 5002,
        rate: 4_500.0,
        limit: 10_000.0,
    }));
    assert!(
        r.iter()
            .any(|x| matches!(x, Record::Usage { service_id: 5002, days } if days.len() == 14))
    );
    // The fpr service's 422 to stats is no usage.
    assert!(!r.iter().any(|x| matches!(
        x,
        Record::Usage {
            service_id: 5001,
            ..
        }
    )));
    assert!(h.app.take_history().is_none(), "taken once");
}

#[test]
fn a_failed_read_records_nothing() {
    let (mut h, _) = loaded_with_history();
    h.app.take_history();
    h.advance(60);
    h.fail(Request::Credit, crate::app::testkit::unprocessable());
    assert!(h.app.take_history().is_none());
    h.ok(
        Request::Credit,
        Response::Credit(crate::api::Credit { credit: 1.0 }),
    );
    let sweep = h.app.take_history().unwrap();
    assert_eq!(sweep.records, vec![Record::Credit { credit: 1.0 }]);
    assert_eq!(sweep.at, t0() + chrono::Duration::seconds(60));
}

#[test]
fn the_overview_is_asked_once_a_sweep_has_no_request_left_in_flight() {
    let (h, asked) = loaded_with_history();
    let overviews = asked
        .iter()
        .filter(|q| matches!(q, Query::Overview { .. }))
        .count();
    // One when history is turned on, one at the end of the first sweep; none per answer.
    assert_eq!(overviews, 2, "{asked:?}");
    assert_eq!(h.app.in_flight(), 0);
    // The selected service's 7 days were asked for with it.
    assert!(asked.contains(&Query::Service {
        service_id: 5001,
        now: t0()
    }));
}

#[test]
fn moving_the_selection_asks_for_that_service_s_history() {
    let (mut h, _) = loaded_with_history();
    let cmds = h.key('j');
    assert!(
        cmds.contains(&Command::AskHistory(Query::Service {
            service_id: 5002,
            now: t0()
        })),
        "{cmds:?}"
    );
    // Not again while it stays selected.
    let cmds = h.send(Msg::Tick);
    assert!(!cmds.iter().any(|c| matches!(c, Command::AskHistory(_))));
}

#[test]
fn a_store_that_cannot_open_says_so_once_and_history_stops() {
    let (mut h, _) = loaded_with_history();
    h.app.take_history();
    h.send(Msg::History(Answer::Off(
        "History off: the file is locked by another program".into(),
    )));
    assert!(
        h.status_text().contains("History off: the file is locked"),
        "{}",
        h.status_text()
    );
    assert!(!h.app.history().is_on());
    h.ok(
        Request::Credit,
        Response::Credit(crate::api::Credit { credit: 2.0 }),
    );
    assert!(h.app.take_history().is_none());
}
