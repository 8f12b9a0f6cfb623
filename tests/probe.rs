//! The proxy probe against the sandbox's loopback proxies (`--proxies`): every fixture's
//! verdict, reason, exit IP and anonymity; and the guard that a list of the plain sandbox
//! (documentation addresses) is never contacted.

use proxydash::api::{ApiClient, ClientConfig, Credentials, IpListFormat, IpListType};
use proxydash::probe::runner::probe_collect;
use proxydash::probe::{Anonymity, DeadReason, ProbeConfig, Verdict, targets};
use proxydash::sandbox::proxies::{Behaviour, demo_fixtures};
use proxydash::sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use proxydash::secret::Secret;
use std::time::Duration;

async fn sandbox(proxies: bool) -> SandboxHandle {
    Sandbox::start(SandboxConfig {
        proxies,
        ..SandboxConfig::ephemeral()
    })
    .await
    .expect("sandbox starts")
}

fn client(sb: &SandboxHandle) -> ApiClient {
    let config = ClientConfig::new(sb.base_url(), Credentials::Token(Secret::new(sb.token())));
    ApiClient::new(config).expect("client")
}

fn config(judge: Option<String>) -> ProbeConfig {
    ProbeConfig {
        concurrency: 4,
        timeout: Duration::from_secs(1),
        probe_url: judge,
        loopback_only: true,
    }
}

#[tokio::test]
async fn every_fixture_gets_its_verdict_through_http_and_socks() {
    let sb = sandbox(true).await;
    let api = client(&sb);
    let service = api.service(1001).await.unwrap();
    for list_type in [IpListType::HttpAuth, IpListType::SocksIp] {
        let list = api
            .ip_list(1001, &list_type, &IpListFormat::Txt)
            .await
            .unwrap();
        let creds = (service.username.as_str(), service.password.expose());
        let targets = targets::from_list(&list, Some(creds));
        assert_eq!(targets.len(), 10, "{list_type}");
        let (results, note) = probe_collect(targets, &config(sb.judge_url())).await;
        assert_eq!(note, None, "the judge was asked directly");
        let socks = list_type == IpListType::SocksIp;
        for (fixture, r) in demo_fixtures().iter().zip(&results) {
            let what = format!("{list_type} {:?}: {:?}", fixture.behaviour, r.verdict);
            assert!(r.target.host.starts_with("127.0."), "{what}");
            match fixture.behaviour {
                Behaviour::Dead => {
                    assert!(
                        matches!(r.verdict, Verdict::Dead(DeadReason::Refused, _)),
                        "{what}"
                    )
                }
                Behaviour::AuthFails => {
                    assert!(
                        matches!(r.verdict, Verdict::Dead(DeadReason::AuthFailed, _)),
                        "{what}"
                    )
                }
                Behaviour::Hang => {
                    assert!(
                        matches!(r.verdict, Verdict::Dead(DeadReason::Timeout, _)),
                        "{what}"
                    )
                }
                b => {
                    assert_eq!(r.verdict, Verdict::Alive, "{what}");
                    // The judge saw the fixture's own exit address.
                    let exit = r.exit_ip.expect("exit IP").to_string();
                    assert!(exit.starts_with("127.1."), "{what}: {exit}");
                    let expected = match (b, socks) {
                        (_, true) | (Behaviour::Elite, _) => Anonymity::Elite,
                        (Behaviour::Anonymous, _) => Anonymity::Anonymous,
                        _ => Anonymity::Transparent,
                    };
                    assert_eq!(r.anonymity, Some(expected), "{what}");
                    let latency = r.latency.expect("latency");
                    assert!(latency >= fixture.latency, "{what}: {latency:?}");
                }
            }
        }
    }
}

#[tokio::test]
async fn a_changed_password_is_refused_by_the_proxies() {
    let sb = sandbox(true).await;
    let api = client(&sb);
    let list = api
        .ip_list(1001, &IpListType::HttpAuth, &IpListFormat::Txt)
        .await
        .unwrap();
    let mut targets = targets::from_list(&list, None);
    targets.truncate(1);
    targets[0].password = Some("not-the-password".into());
    let (results, _) = probe_collect(targets, &config(sb.judge_url())).await;
    assert!(
        matches!(results[0].verdict, Verdict::Dead(DeadReason::AuthFailed, _)),
        "{:?}",
        results[0].verdict
    );
}

#[tokio::test]
async fn a_list_of_the_plain_sandbox_is_never_contacted() {
    let sb = sandbox(false).await;
    let api = client(&sb);
    for id in [1001, 1003, 1012] {
        let service = api.service(id).await.unwrap();
        let list_type = targets::default_type(&service.product_type);
        let list = api
            .ip_list(id, &list_type, &IpListFormat::Txt)
            .await
            .unwrap();
        let targets = targets::from_list(&list, None);
        assert!(!targets.is_empty());
        // Even without the loopback rule, documentation addresses are never dialled.
        let mut open = config(None);
        open.loopback_only = false;
        let (results, _) = probe_collect(targets, &open).await;
        for r in &results {
            assert!(matches!(r.verdict, Verdict::Skipped(_)), "{id}: {r:?}");
            assert_eq!(r.connect, None, "{id}: nothing was connected");
        }
    }
}

#[tokio::test]
async fn a_target_outside_loopback_is_not_asked_in_loopback_mode() {
    let sb = sandbox(true).await;
    let api = client(&sb);
    let list = api
        .ip_list(1001, &IpListType::HttpAuth, &IpListFormat::Txt)
        .await
        .unwrap();
    let mut targets = targets::from_list(&list, None);
    targets.truncate(1);
    let (results, note) =
        probe_collect(targets, &config(Some("http://192.0.2.1/get".into()))).await;
    assert!(note.unwrap().contains("outside loopback"));
    assert_eq!(results[0].verdict, Verdict::Alive, "TCP connect only");
    assert_eq!(results[0].latency, None, "no request was sent");
}
