//! Issue 26.9 and 26.10: the probe reads the common shapes of a judge's answer and classes
//! each proxy alike in all of them; a judge that cannot be reached is said once and the
//! proxies are left unchecked instead of blamed. Against the sandbox's loopback fixtures
//! and its judge, which answers each shape on a path of its own.

use proxydash::probe::runner::probe_collect;
use proxydash::probe::{Anonymity, ProbeConfig, ProbeResult, ProxyTarget, Scheme, Verdict};
use proxydash::sandbox::proxies::{Behaviour, ProxyFarm, demo_fixtures, start_standalone};
use std::time::Duration;

fn config(judge: String) -> ProbeConfig {
    ProbeConfig {
        concurrency: 4,
        timeout: Duration::from_secs(2),
        probe_url: Some(judge),
        loopback_only: true,
        // The judge and the proxies of these tests are on loopback, on purpose.
        allow_private: true,
    }
}

fn targets(farm: &ProxyFarm) -> Vec<ProxyTarget> {
    farm.addrs
        .iter()
        .map(|a| ProxyTarget {
            host: a.ip().to_string(),
            port: a.port(),
            scheme: Scheme::Http,
            login: Some("probe".into()),
            password: Some("probe-password".into()),
        })
        .collect()
}

/// The judge's URL with another path (`/judge` → `/remote`).
fn shape(farm: &ProxyFarm, path: &str) -> String {
    farm.judge_url.replace("/judge", path)
}

async fn probe(farm: &ProxyFarm, url: String) -> (Vec<ProbeResult>, Option<String>) {
    probe_collect(targets(farm), &config(url)).await
}

#[tokio::test]
async fn every_shape_with_headers_classes_the_proxies_alike() {
    let fixtures = demo_fixtures();
    let (farm, _stop) = start_standalone(&fixtures, "probe", "probe-password")
        .await
        .unwrap();
    for path in ["/judge", "/remote", "/env"] {
        let (results, note) = probe(&farm, shape(&farm, path)).await;
        assert_eq!(note, None, "{path}: the judge was asked directly");
        for (fixture, r) in fixtures.iter().zip(&results) {
            let expected = match fixture.behaviour {
                Behaviour::Elite => Anonymity::Elite,
                Behaviour::Anonymous => Anonymity::Anonymous,
                Behaviour::Transparent => Anonymity::Transparent,
                _ => continue,
            };
            let what = format!("{path} {:?}: {r:?}", fixture.behaviour);
            assert_eq!(r.verdict, Verdict::Alive, "{what}");
            let exit = r.exit_ip.expect("exit IP").to_string();
            assert!(exit.starts_with("127.1."), "{what}");
            assert_eq!(r.anonymity, Some(expected), "{what}");
        }
    }
}

#[tokio::test]
async fn shapes_without_headers_give_the_exit_and_no_false_class() {
    let fixtures = demo_fixtures();
    let (farm, _stop) = start_standalone(&fixtures, "probe", "probe-password")
        .await
        .unwrap();
    for path in ["/ip", "/text"] {
        let (results, note) = probe(&farm, shape(&farm, path)).await;
        assert_eq!(note, None, "{path}");
        let alive: Vec<_> = results.iter().filter(|r| r.verdict.is_alive()).collect();
        assert_eq!(alive.len(), 7, "{path}: {results:#?}");
        for r in alive {
            let exit = r.exit_ip.expect("exit IP").to_string();
            assert!(exit.starts_with("127.1."), "{path}: {r:?}");
            // Anonymous and elite cannot be told without headers: no class is invented.
            assert_eq!(r.anonymity, None, "{path}: {r:?}");
        }
    }
}

#[tokio::test]
async fn an_unreachable_judge_is_said_once_and_no_proxy_is_blamed() {
    let fixtures = demo_fixtures();
    let (farm, _stop) = start_standalone(&fixtures, "probe", "probe-password")
        .await
        .unwrap();
    let closed = {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        listener.local_addr().unwrap()
    };
    let before: Vec<usize> = (0..farm.addrs.len()).map(|i| farm.accepted(i)).collect();
    let (results, note) = probe(&farm, format!("http://{closed}/get")).await;
    let note = note.expect("a note");
    assert!(note.contains("cannot be reached"), "{note}");
    assert!(note.contains(&closed.to_string()), "{note}");
    assert_eq!(results.len(), fixtures.len());
    for r in &results {
        assert_eq!(r.verdict, Verdict::NotChecked("judge unreachable".into()));
        assert_eq!(r.verdict.label(), "not checked (judge unreachable)");
    }
    let after: Vec<usize> = (0..farm.addrs.len()).map(|i| farm.accepted(i)).collect();
    assert_eq!(before, after, "no proxy was contacted");
}
