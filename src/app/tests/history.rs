//! History: what the app records from reads, when it asks the store, and what an answer
//! does.

use crate::api::{Request, Response};
use crate::app::{Command, Msg};
use crate::history::{Answer, Query, Record, ServerList};
use crate::testkit::{Harness, t0};

/// Starts with history on and answers everything; returns the history questions asked.
fn loaded_with_history() -> (Harness, Vec<Query>) {
    let mut h = Harness::new();
    let mut cmds = h.app.enable_history();
    cmds.extend(h.app.start());
    h.settle(cmds);
    let asked = std::mem::take(&mut h.history_asked);
    (h, asked)
}

#[test]
fn without_history_nothing_is_recorded_or_asked() {
    let mut h = Harness::new();
    let cmds = h.app.start();
    h.settle(cmds);
    assert!(h.history_asked.is_empty(), "{:?}", h.history_asked);
    assert!(h.app.take_history().is_none());
}

/// The engine records every successful read ([`crate::history::records`]); the app
/// records only its probes.
#[test]
fn every_successful_read_the_engine_makes_becomes_a_record() {
    let (mut h, _) = loaded_with_history();
    let r: Vec<Record> = h
        .asked
        .clone()
        .iter()
        .filter_map(|q| h.answer_of(q))
        .flat_map(|l| crate::history::records(&l))
        .collect();
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
    // The fpr service has no usage at all: none was asked.
    assert!(!r.iter().any(|x| matches!(
        x,
        Record::Usage {
            service_id: 5001,
            ..
        }
    )));
    assert!(
        h.app.take_history().is_none(),
        "reads are the engine's to record"
    );
}

#[test]
fn a_failed_read_records_nothing() {
    let failed = Request::Credit.failed(crate::testkit::unprocessable());
    assert!(crate::history::records(&failed).is_empty());
    let ok = crate::api::Loaded::pair(
        Request::Credit,
        Ok(Response::Credit(crate::api::Credit { credit: 1.0 })),
    )
    .unwrap();
    assert_eq!(
        crate::history::records(&ok),
        vec![Record::Credit { credit: 1.0 }]
    );
}

#[test]
fn the_overview_is_asked_once_per_sweep_of_the_engine() {
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

/// A probe run is history (issue 13: "probe results where they exist"): each proxy it
/// contacted becomes a record as its result arrives, alive with its latency or dead;
/// a skipped proxy (never contacted) does not.
#[test]
fn each_probed_proxy_is_recorded_with_its_state_and_latency() {
    use crate::api::{IpList, IpListFormat};
    use crate::probe::{DeadReason, ProbeEvent, ProbeResult, Verdict};
    use std::time::Duration;

    let (mut h, _) = loaded_with_history();
    let _ = h.app.take_history();
    let cmds = h.key('1');
    h.settle(cmds);
    let cmds = h.key('h');
    let request = crate::testkit::fetches(&cmds)
        .into_iter()
        .find(|r| matches!(r, Request::IpList { .. }))
        .expect("the probe asks for the IP list");
    let Request::IpList { service_id, .. } = request.clone() else {
        unreachable!()
    };
    let run = h.app.probes().get(service_id).expect("a run").clone();
    let list = IpList::parse(
        run.list_types[0].clone(),
        IpListFormat::Txt,
        "127.0.0.1:8001\n127.0.0.1:8002\n192.0.2.9:8003\n".into(),
    );
    let cmds = h.ok(request, Response::IpList(list));
    assert!(
        cmds.iter().any(|c| matches!(c, Command::Probe { .. })),
        "{cmds:?}"
    );
    let targets = h.app.probes().get(service_id).unwrap().targets.clone();
    assert_eq!(targets.len(), 3);
    let result = |i: usize, verdict: Verdict, ms: u64| ProbeResult {
        target: targets[i].clone(),
        verdict,
        connect: Some(Duration::from_millis(1)),
        latency: Some(Duration::from_millis(ms)),
        exit_ip: "127.1.0.1".parse().ok(),
        anonymity: None,
    };
    let checked = [
        result(0, Verdict::Alive, 84),
        result(1, Verdict::Dead(DeadReason::Refused, "refused".into()), 3),
        result(2, Verdict::Skipped("documentation range".into()), 0),
    ];
    for (index, result) in checked.into_iter().enumerate() {
        h.send(crate::app::probe::msg(
            service_id,
            run.run,
            ProbeEvent::Checked { index, result },
        ));
    }
    let sweep = h.app.take_history().expect("the probe's records");
    assert_eq!(sweep.at, t0());
    assert_eq!(
        sweep.records,
        vec![
            Record::Probe {
                service_id,
                server: "127.0.0.1:8001".into(),
                scheme: "http".into(),
                ok: true,
                latency_ms: Some(84),
                exit_ip: Some("127.1.0.1".into()),
            },
            Record::Probe {
                service_id,
                server: "127.0.0.1:8002".into(),
                scheme: "http".into(),
                ok: false,
                latency_ms: None,
                exit_ip: None,
            },
        ]
    );
}
