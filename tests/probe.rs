//! The proxy probe against the sandbox's loopback proxies (`--proxies`): every fixture's
//! verdict, reason, exit IP and anonymity; one connection per proxy and check; and the
//! guard that a list of the plain sandbox (documentation addresses) is never contacted.

use proxydash::api::{ApiClient, ClientConfig, Credentials, IpListFormat, IpListType};
use proxydash::probe::runner::probe_collect;
use proxydash::probe::{
    Anonymity, DeadReason, ProbeConfig, ProbeResult, ProxyTarget, Scheme, Verdict, targets,
};
use proxydash::sandbox::proxies::{Behaviour, ProxyFarm, demo_fixtures, start_standalone};
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
        allow_private: false,
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

/// Probes every fixture of `farm` with `scheme` and `judge`; the results and, per fixture,
/// the connections it accepted meanwhile.
async fn probe_counting(
    farm: &ProxyFarm,
    scheme: Scheme,
    judge: String,
) -> (Vec<ProbeResult>, Vec<usize>) {
    let before: Vec<usize> = (0..farm.addrs.len()).map(|i| farm.accepted(i)).collect();
    let targets = farm
        .addrs
        .iter()
        .map(|a| ProxyTarget {
            host: a.ip().to_string(),
            port: a.port(),
            scheme,
            login: Some("probe".into()),
            password: Some("probe-password".into()),
        })
        .collect();
    let (results, _) = probe_collect(targets, &config(Some(judge))).await;
    let accepted = before
        .iter()
        .enumerate()
        .map(|(i, b)| farm.accepted(i) - b)
        .collect();
    (results, accepted)
}

#[tokio::test]
async fn each_proxy_is_connected_to_once_per_check() {
    let fixtures = demo_fixtures();
    let (farm, _stop) = start_standalone(&fixtures, "probe", "probe-password")
        .await
        .unwrap();
    for scheme in [Scheme::Http, Scheme::Socks5] {
        let (results, accepted) = probe_counting(&farm, scheme, farm.judge_url.clone()).await;
        for ((fixture, r), n) in fixtures.iter().zip(&results).zip(&accepted) {
            let what = format!("{scheme:?} {:?}: {:?}", fixture.behaviour, r.verdict);
            let expected = usize::from(fixture.behaviour != Behaviour::Dead);
            assert_eq!(*n, expected, "connections accepted, {what}");
        }
        // The count is of real checks: the working ones were asked through.
        assert_eq!(results.iter().filter(|r| r.verdict.is_alive()).count(), 7);
    }
}

#[tokio::test]
async fn an_https_target_goes_through_connect_on_the_same_connection() {
    let fixtures = demo_fixtures();
    let (farm, _stop) = start_standalone(&fixtures, "probe", "probe-password")
        .await
        .unwrap();
    // The judge speaks plain HTTP: the tunnel opens, then TLS fails on it.
    let https = farm.judge_url.replacen("http://", "https://", 1);
    for scheme in [Scheme::Http, Scheme::Socks5] {
        let (results, accepted) = probe_counting(&farm, scheme, https.clone()).await;
        for ((fixture, r), n) in fixtures.iter().zip(&results).zip(&accepted) {
            let what = format!("{scheme:?} {:?}: {:?}", fixture.behaviour, r.verdict);
            let expected = match fixture.behaviour {
                Behaviour::Dead => DeadReason::Refused,
                Behaviour::AuthFails => DeadReason::AuthFailed,
                Behaviour::Hang => DeadReason::Timeout,
                _ => DeadReason::BadAnswer,
            };
            assert!(
                matches!(&r.verdict, Verdict::Dead(reason, _) if *reason == expected),
                "{what}"
            );
            assert_eq!(
                *n,
                usize::from(fixture.behaviour != Behaviour::Dead),
                "{what}"
            );
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

/// A loopback listener that accepts and counts connections (and answers nothing).
async fn counting_listener() -> (u16, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let count = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let seen = count.clone();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            drop(stream);
        }
    });
    (port, count)
}

fn at(host: &str, port: u16) -> ProxyTarget {
    ProxyTarget {
        host: host.into(),
        port,
        scheme: Scheme::Http,
        login: Some("u".into()),
        password: Some("secret".into()),
    }
}

#[tokio::test]
async fn a_hostile_list_pointing_at_this_machine_is_skipped_unless_the_user_opts_in() {
    let (port, count) = counting_listener().await;
    // A live run (not loopback-only), not opted in: loopback by address and by name.
    let live = ProbeConfig {
        loopback_only: false,
        ..config(None)
    };
    let hostile = vec![at("127.0.0.1", port), at("localhost", port)];
    let (results, _) = probe_collect(hostile.clone(), &live).await;
    for r in &results {
        let Verdict::Skipped(why) = &r.verdict else {
            panic!("contacted: {r:?}")
        };
        assert!(
            why.contains("loopback address") && why.contains("--allow-private"),
            "{why}"
        );
    }
    assert_eq!(
        count.load(std::sync::atomic::Ordering::SeqCst),
        0,
        "no connection"
    );
    // Opted in for the run: both are contacted.
    let opted = ProbeConfig {
        allow_private: true,
        ..live
    };
    let (results, _) = probe_collect(hostile, &opted).await;
    assert!(
        results
            .iter()
            .all(|r| !matches!(r.verdict, Verdict::Skipped(_))),
        "{results:?}"
    );
    assert_eq!(count.load(std::sync::atomic::Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_run_contacts_at_most_its_cap_and_reports_the_rest() {
    let (port, count) = counting_listener().await;
    let n = proxydash::probe::MAX_TARGETS + 20;
    let many = vec![at("127.0.0.1", port); n];
    let config = ProbeConfig {
        concurrency: 65_535,
        ..config(None)
    };
    let (results, _) = probe_collect(many, &config).await;
    assert_eq!(results.len(), n, "every entry reported");
    let beyond = results
        .iter()
        .filter(
            |r| matches!(&r.verdict, Verdict::Skipped(w) if w.contains("beyond the first 1000")),
        )
        .count();
    assert_eq!(beyond, 20);
    assert_eq!(
        count.load(std::sync::atomic::Ordering::SeqCst),
        proxydash::probe::MAX_TARGETS
    );
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

mod dashboard {
    use super::*;
    use crossterm::event::KeyCode;
    use proxydash::app::AppSettings;
    use proxydash::app::probe::Stage;
    use proxydash::clipboard::Recording;
    use proxydash::headless::Session;

    fn session(sb: &SandboxHandle, clipboard: &Recording) -> Session {
        let settings = AppSettings {
            profile: "demo".into(),
            base_url: sb.base_url(),
            demo: true,
            refresh: None,
            mouse: false,
            ..AppSettings::default()
        };
        let mut s = Session::start(settings, client(sb), Box::new(clipboard.clone()), (120, 40));
        s.effects.set_probe(config(sb.judge_url()));
        s
    }

    /// Feeds outcomes until the probe of `id` is done (at most 20 s).
    async fn until_probed(s: &mut Session, id: u64) {
        s.until(&format!("probed {id}"), |app| {
            app.probes().get(id).is_some_and(|r| r.stage == Stage::Done)
        })
        .await;
    }

    #[tokio::test]
    async fn h_probes_the_service_and_the_view_and_health_show_it() {
        let sb = sandbox(true).await;
        let clipboard = Recording::default();
        let mut s = session(&sb, &clipboard);
        s.settle().await;
        sb.clear_requests();
        s.press(KeyCode::Char('h'));
        let first = s.screen();
        assert!(
            first.contains("Probe · service 1001 · http-auth"),
            "{first}"
        );
        // Keys are answered while the probe runs (the hanging fixture holds it open).
        s.settle().await;
        assert!(matches!(
            s.app.probes().get(1001).unwrap().stage,
            Stage::Running | Stage::FetchingList(_)
        ));
        s.press(KeyCode::Char('?'));
        assert!(
            s.screen().contains("Probe the failed proxies again"),
            "the help of the probe view is up"
        );
        s.press(KeyCode::Esc);
        until_probed(&mut s, 1001).await;
        let screen = s.screen();
        for text in [
            "✓ 7/10 · p50",
            "refused",
            "auth failed",
            "timeout",
            "transparent",
            "anonymous",
            "error ≠",
        ] {
            assert!(screen.contains(text), "{text} not on\n{screen}");
        }
        // The probe asked the API for the list only; the rest went to the proxies.
        let paths: Vec<String> = sb.requests().into_iter().map(|r| r.path).collect();
        assert_eq!(paths, ["/api/iplist/http-auth/txt/1001"]);

        // `y` copies only the working ones, with the first template.
        s.press(KeyCode::Char('y'));
        let copied = clipboard.texts();
        let lines: Vec<&str> = copied.last().expect("a copy").lines().collect();
        assert_eq!(lines.len(), 7, "{lines:?}");
        assert!(
            lines.iter().all(|l| l.ends_with(":pd1001ka:Xk4v9QmL2t")),
            "{lines:?}"
        );
        // `t` then `y`: the next template (URLs).
        s.press(KeyCode::Char('t'));
        s.press(KeyCode::Char('y'));
        let copied = clipboard.texts();
        assert!(
            copied
                .last()
                .unwrap()
                .starts_with("http://pd1001ka:Xk4v9QmL2t@127.0.0.")
        );

        // `r` re-checks the three failed ones only: the others keep their results.
        s.press(KeyCode::Char('r'));
        let run = s.app.probes().get(1001).unwrap();
        assert_eq!(run.stage, Stage::Running);
        assert_eq!(run.checked(), 7, "the working ones are kept");
        assert_eq!(run.pending, 3);
        until_probed(&mut s, 1001).await;
        assert_eq!(s.app.probes().get(1001).unwrap().checked(), 10);

        // Esc: the Services table keeps the health of the service.
        s.press(KeyCode::Esc);
        let services = s.screen();
        let row = services.lines().find(|l| l.contains("▶ 1001")).unwrap();
        assert!(row.contains("7/10"), "{services}");
    }

    /// Issues 26.11 and 27.4 in the dashboard: each run's results go to the history and
    /// come back as the trend; `R` audits the ppr gateway's rotation (five exits, a change
    /// on every ask) and keeps the audit; `b` probes both protocols in one run.
    #[tokio::test]
    async fn trends_come_from_the_history_r_audits_the_rotation_and_b_probes_both_protocols() {
        let sb = sandbox(true).await;
        let clipboard = Recording::default();
        let mut s = session(&sb, &clipboard);
        let place = std::path::PathBuf::from(proxydash::history::IN_MEMORY);
        let _writer = s.effects.attach_history(place, 90);
        for command in s.app.enable_history() {
            if let Some(msg) = s.effects.execute(command) {
                s.send(msg);
            }
        }
        s.settle().await;
        s.press(KeyCode::Down);
        s.press(KeyCode::Down);
        assert!(s.screen().contains("▶ 1003"), "{}", s.screen());
        s.press(KeyCode::Char('h'));
        until_probed(&mut s, 1003).await;
        assert!(
            s.screen().contains("Probe · service 1003 · ppr-http"),
            "{}",
            s.screen()
        );
        // Twice, so each proxy has two points; the rotating gateway answered from two exits.
        s.press(KeyCode::Char('a'));
        until_probed(&mut s, 1003).await;
        let points = |app: &proxydash::app::App, n: usize| {
            app.history()
                .probes(1003)
                .is_some_and(|t| t.proxies.len() == 2 && t.proxies.values().all(|p| p.len() == n))
        };
        s.until("two points per proxy in the history", |app| points(app, 2))
            .await;
        let screen = s.screen();
        let gateway = s.app.probes().get(1003).unwrap().targets[0].address();
        let row = screen
            .lines()
            .find(|l| l.contains(&gateway))
            .unwrap_or_else(|| panic!("{gateway} on\n{screen}"));
        assert!(row.contains("↻2"), "two exits in the trend: {row}");
        assert_eq!(
            row.chars().filter(|c| ('▁'..='█').contains(c)).count(),
            2,
            "{row}"
        );

        s.press(KeyCode::Char('R'));
        s.until("the audit done", |app| {
            app.probes().audit(1003).is_some_and(|a| a.done)
        })
        .await;
        let audit = s.app.probes().audit(1003).unwrap().summary();
        assert_eq!((audit.asked, audit.answered, audit.distinct), (20, 20, 5));
        assert_eq!((audit.changes, audit.pairs), (19, 19));
        let screen = s.screen();
        assert!(
            screen.contains("5 exit IPs in 20/20 answers · changed 19/19 (100%)"),
            "{screen}"
        );
        s.until("the audit in the history", |app| {
            app.history()
                .probes(1003)
                .is_some_and(|t| t.rotations.len() == 1 && t.rotations[0].distinct == 5)
        })
        .await;
        // The audit is one row: the proxies' trends did not grow by twenty.
        assert!(points(&s.app, 2));

        s.press(KeyCode::Char('b'));
        // Drawn while the two lists come in, one after the other.
        let fetching = s.screen();
        assert!(fetching.contains("ppr-http + ppr-socks"), "{fetching}");
        until_probed(&mut s, 1003).await;
        let run = s.app.probes().get(1003).unwrap();
        assert_eq!(run.targets.len(), 4);
        assert_eq!(run.checked(), 4);
        let screen = s.screen();
        assert!(screen.contains("✓ 4/4"), "{screen}");
        assert_eq!(screen.matches("socks5 127.0.0.").count(), 2, "{screen}");
        assert_eq!(screen.matches("http   127.0.0.").count(), 2, "{screen}");

        // On a static service, R says what it is for.
        s.press(KeyCode::Esc);
        s.press(KeyCode::Up);
        s.press(KeyCode::Up);
        s.press(KeyCode::Char('h'));
        s.press(KeyCode::Char('R'));
        assert!(
            s.screen()
                .contains("a rotation audit is for rotating (ppr)"),
            "{}",
            s.screen()
        );
        assert!(s.app.probes().audit(1001).is_none());
    }
}
