//! Issue 27.4: the rotation audit of a ppr gateway. Against the sandbox's two loopback
//! gateways: one connects to the judge from 127.0.0.2 … 127.0.0.6 in turn (a new exit
//! per request), the other always from one address. The judge reports the peer it saw,
//! so the exits counted are what really reached it.

use proxydash::probe::rotation::{Rotation, audit_collect};
use proxydash::probe::{ProbeConfig, ProxyTarget, Scheme, Verdict};
use proxydash::sandbox::proxies::{demo_fixtures, start_standalone};
use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::time::Duration;

fn config(judge: String) -> ProbeConfig {
    ProbeConfig {
        concurrency: 4,
        timeout: Duration::from_secs(5),
        probe_url: Some(judge),
        loopback_only: true,
        // The gateways and the judge are on loopback, on purpose.
        allow_private: true,
    }
}

fn gateway(addr: SocketAddr, scheme: Scheme) -> ProxyTarget {
    ProxyTarget {
        host: addr.ip().to_string(),
        port: addr.port(),
        scheme,
        login: Some("probe".into()),
        password: Some("probe-password".into()),
    }
}

#[tokio::test]
async fn a_rotating_gateway_shows_five_exits_and_a_sticky_one_shows_one() {
    let (farm, _stop) = start_standalone(&demo_fixtures(), "probe", "probe-password")
        .await
        .unwrap();
    assert_eq!(farm.gateways.len(), 2);
    let mut asked_rotating = 0;
    let mut asked_sticky = 0;
    for scheme in [Scheme::Http, Scheme::Socks5] {
        let what = format!("{scheme:?}");
        let (results, note) = audit_collect(
            gateway(farm.gateways[0], scheme),
            20,
            &config(farm.judge_url.clone()),
        )
        .await;
        assert_eq!(note, None, "{what}");
        assert_eq!(results.len(), 20, "{what}");
        assert!(
            results.iter().all(|r| r.verdict == Verdict::Alive),
            "{what}: {results:?}"
        );
        let audit = Rotation::of(&results);
        assert_eq!(audit.distinct, 5, "{what}: {audit:?}");
        let seen: BTreeSet<String> = audit.exits.iter().map(|e| e.ip.to_string()).collect();
        let truth: BTreeSet<String> = (2..=6).map(|i| format!("127.0.0.{i}")).collect();
        assert_eq!(seen, truth, "{what}: the judge saw each exit");
        assert!(
            audit.exits.iter().all(|e| e.count == 4),
            "{what}: {audit:?}"
        );
        // The truth: a new exit on every request, so every consecutive pair changed.
        assert_eq!((audit.changes, audit.pairs), (19, 19), "{what}");
        assert_eq!(audit.kind(), "rotates per request");
        asked_rotating += 20;
        assert_eq!(
            farm.gateway_accepted(0),
            asked_rotating,
            "{what}: one connection per ask"
        );

        let (results, _) = audit_collect(
            gateway(farm.gateways[1], scheme),
            20,
            &config(farm.judge_url.clone()),
        )
        .await;
        let audit = Rotation::of(&results);
        assert_eq!(
            (audit.distinct, audit.answered),
            (1, 20),
            "{what}: {audit:?}"
        );
        assert_eq!(audit.changes, 0, "{what}");
        assert_eq!(audit.change_rate, Some(0.0), "{what}");
        assert_eq!(audit.kind(), "sticky");
        asked_sticky += 20;
        assert_eq!(farm.gateway_accepted(1), asked_sticky, "{what}");
    }
}

#[tokio::test]
async fn without_a_judge_nothing_is_asked_and_the_note_says_why() {
    let (farm, _stop) = start_standalone(&demo_fixtures(), "probe", "probe-password")
        .await
        .unwrap();
    let mut off = config(String::new());
    off.probe_url = None;
    let (results, note) = audit_collect(gateway(farm.gateways[0], Scheme::Http), 5, &off).await;
    assert_eq!(results.len(), 5);
    assert!(
        results
            .iter()
            .all(|r| matches!(r.verdict, Verdict::NotChecked(_)))
    );
    assert!(note.unwrap().contains("needs the judge"));
    assert_eq!(farm.gateway_accepted(0), 0, "the gateway was not contacted");
    assert_eq!(Rotation::of(&results).kind(), "not enough answers");
}
