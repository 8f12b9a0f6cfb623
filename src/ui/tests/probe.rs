//! The probe view (issue 26.11): both protocols drawn as their lists come in, and each
//! proxy's trend from the history.

use super::render;
use crate::api::{IpList, IpListFormat, IpListType, Request, Response};
use crate::app::{Command, Msg};
use crate::history::{Answer, ProbePoint, ProbeTrends};
use crate::testkit::*;

fn list(list_type: IpListType) -> IpList {
    IpList::parse(
        list_type,
        IpListFormat::Txt,
        "127.0.0.1:8001\n127.0.0.1:8002\n".into(),
    )
}

fn ip_list_requests(cmds: &[Command]) -> Vec<Request> {
    fetches(cmds)
        .into_iter()
        .filter(|r| matches!(r, Request::IpList { .. }))
        .collect()
}

/// The probe view of the selected service, its first run done (nothing answered): the
/// harness and the service.
fn probing() -> (Harness, u64) {
    let mut h = Harness::new();
    let mut cmds = h.app.enable_history();
    cmds.extend(h.app.start());
    h.settle(cmds);
    let cmds = h.key('h');
    let request = ip_list_requests(&cmds)
        .pop()
        .expect("the list is asked for");
    let Request::IpList { service_id, .. } = request else {
        unreachable!()
    };
    let _ = h.ok(request, Response::IpList(list(IpListType::HttpAuth)));
    let run = h.app.probes().get(service_id).unwrap().run;
    let _ = h.send(crate::app::probe::msg(
        service_id,
        run,
        crate::probe::ProbeEvent::Finished,
    ));
    (h, service_id)
}

#[test]
fn both_protocols_are_drawn_as_their_lists_come_and_probed_in_one_run() {
    let (mut h, _) = probing();
    let cmds = h.key('b');
    let asked = ip_list_requests(&cmds);
    assert_eq!(asked.len(), 2, "{cmds:?}");
    let screen = render(&mut h.app, 120, 40);
    assert!(screen.contains("http-auth + socks-ip"), "{screen}");
    assert!(screen.contains("Fetching the IP lists"), "{screen}");
    // The SOCKS5 list first: drawn, in its place after the HTTP one to come.
    let socks = asked
        .iter()
        .find(
            |r| matches!(r, Request::IpList { list, .. } if list.list_type == IpListType::SocksIp),
        )
        .unwrap()
        .clone();
    let cmds = h.ok(socks, Response::IpList(list(IpListType::SocksIp)));
    assert!(!cmds.iter().any(|c| matches!(c, Command::Probe { .. })));
    let screen = render(&mut h.app, 120, 40);
    assert_eq!(
        screen.matches("socks5 127.0.0.1:800").count(),
        2,
        "{screen}"
    );
    let http = asked
        .iter()
        .find(
            |r| matches!(r, Request::IpList { list, .. } if list.list_type == IpListType::HttpAuth),
        )
        .unwrap()
        .clone();
    let cmds = h.ok(http, Response::IpList(list(IpListType::HttpAuth)));
    let targets = cmds
        .iter()
        .find_map(|c| match c {
            Command::Probe { targets, .. } => Some(targets.clone()),
            _ => None,
        })
        .expect("one run of both lists");
    let schemes: Vec<&str> = targets.iter().map(|(_, t)| t.scheme.as_str()).collect();
    assert_eq!(schemes, ["http", "http", "socks5", "socks5"]);
    let screen = render(&mut h.app, 120, 40);
    let first = screen
        .find("http   127.0.0.1:8001")
        .expect("http rows first");
    assert!(
        first < screen.find("socks5 127.0.0.1:8001").unwrap(),
        "{screen}"
    );
    let narrow = render(&mut h.app, 80, 24);
    assert!(narrow.contains("S 127.0.0.1:8002"), "{narrow}");
    // `b` again: one protocol.
    let cmds = h.key('b');
    assert!(ip_list_requests(&cmds).is_empty(), "not while it runs");
}

#[test]
fn each_proxy_shows_its_trend_from_the_history() {
    let (mut h, service_id) = probing();
    let point = |ok: bool, ms: u32, exit: &str| ProbePoint {
        at: chrono::Utc::now(),
        ok,
        latency_ms: ok.then_some(ms),
        exit_ip: ok.then(|| exit.to_owned()),
    };
    let mut trends = ProbeTrends {
        service_id,
        ..ProbeTrends::default()
    };
    trends.proxies.insert(
        "http://127.0.0.1:8001".into(),
        vec![
            point(true, 10, "127.1.0.1"),
            point(false, 0, ""),
            point(true, 80, "127.1.0.2"),
        ],
    );
    let _ = h.send(Msg::History(Answer::Probes(Box::new(trends))));
    let screen = render(&mut h.app, 120, 40);
    let row = screen
        .lines()
        .find(|l| l.contains("127.0.0.1:8001"))
        .unwrap();
    assert!(row.contains("▁✗█ ↻2"), "{row}");
    assert!(screen.contains("Trend"), "{screen}");
    let other = screen
        .lines()
        .find(|l| l.contains("127.0.0.1:8002"))
        .unwrap();
    assert!(!other.contains('✗'), "no history, no trend: {other}");
    // Narrow: the last five points still fit, the exit IP keeps its width and the
    // anonymity gives way.
    let narrow = render(&mut h.app, 80, 24);
    assert!(narrow.contains("▁✗█ ↻2"), "{narrow}");
    assert!(narrow.contains("Exit IP"), "{narrow}");
    assert!(!narrow.contains("Anonymity"), "{narrow}");
}
