//! The dashboard end to end: the real App, fetcher and views, headless, against the
//! in-process sandbox on loopback.

use crossterm::event::KeyCode;
use futures::StreamExt;
use proxydash::api::{ApiClient, ClientConfig, Credentials};
use proxydash::app::AppSettings;
use proxydash::app::settings::Profiles;
use proxydash::clipboard::Recording;
use proxydash::headless::Session;
use proxydash::sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use std::time::Duration;

async fn sandbox(latency: Duration) -> SandboxHandle {
    Sandbox::start(SandboxConfig {
        listen: ([127, 0, 0, 1], 0).into(),
        latency,
        ..SandboxConfig::default()
    })
    .await
    .expect("sandbox starts")
}

fn session(sb: &SandboxHandle, size: (u16, u16)) -> Session {
    let client = ApiClient::new(ClientConfig::new(
        sb.base_url(),
        Credentials::Token(sb.token().into()),
    ))
    .unwrap();
    let settings = AppSettings {
        profile: "demo".into(),
        base_url: sb.base_url(),
        demo: true,
        refresh: None,
        mouse: false,
        ..AppSettings::default()
    };
    Session::start(settings, client, Box::new(Recording::default()), size)
}

#[tokio::test]
async fn every_tab_fills_with_the_sandbox_data() {
    let sb = sandbox(Duration::ZERO).await;
    let mut s = session(&sb, (120, 40));
    let first = s.screen();
    assert!(
        first.contains("loading"),
        "the first frame says it is loading:\n{first}"
    );
    s.settle().await;

    let services = s.screen();
    assert!(
        services.contains("1001") && services.contains("Active"),
        "{services}"
    );
    assert!(services.contains("DEMO"), "{services}");
    assert!(
        services.contains("Suspended") && services.contains("Fraud"),
        "{services}"
    );

    s.press(KeyCode::Char('2'));
    let products = s.screen();
    assert!(products.contains("Datacenter US 10"), "{products}");

    s.press(KeyCode::Char('3'));
    let billing = s.screen();
    assert!(
        billing.contains('$') && billing.contains("Payment Pending"),
        "{billing}"
    );

    s.press(KeyCode::Char('4'));
    let network = s.screen();
    assert!(
        network.contains("error") && network.contains("inactive"),
        "{network}"
    );

    s.press(KeyCode::Char('5'));
    let usage = s.screen();
    assert!(usage.contains("1003"), "{usage}");
    assert!(
        usage.contains('%') || usage.contains("unlimited"),
        "{usage}"
    );

    // Every GET of the start-up was sent once: nothing was asked twice.
    let mut gets: Vec<String> = sb
        .requests()
        .into_iter()
        .filter(|r| r.method == "GET")
        .map(|r| r.path)
        .collect();
    let total = gets.len();
    gets.sort();
    gets.dedup();
    assert_eq!(gets.len(), total, "a GET was sent twice");
}

/// On tokio's paused clock (the sandbox's latency, the fetcher and the client all use
/// tokio timers): the time is the program's own, whatever the machine's load.
#[tokio::test(start_paused = true)]
async fn the_initial_requests_run_concurrently() {
    let latency = Duration::from_millis(200);
    let sb = sandbox(latency).await;
    let started = tokio::time::Instant::now();
    let mut s = session(&sb, (120, 40));
    while s.app.in_flight() > 0 && started.elapsed() < Duration::from_secs(30) {
        if let Some(msg) = s.effects.next_msg().await {
            s.send(msg);
        }
    }
    let took = started.elapsed();
    let requests = sb.requests().len();
    let one_by_one = latency * requests as u32;
    assert!(requests > 20, "{requests} requests");
    // Six at once (the scheduler's politeness, POLITE_CONCURRENCY), with no slot left idle
    // beyond the one round trip the lists must take before the per-service calls.
    let waves = requests.div_ceil(6) as u32 + 1;
    assert!(
        took <= latency * waves + latency / 2,
        "{requests} requests took {took:?}; in waves of six: {:?}; one by one: {one_by_one:?}",
        latency * waves
    );
}

/// On tokio's paused clock: the retries' backoff costs no real time, and the failure is
/// looked at once every attempt has been answered, not after a quiet spell that a slow
/// machine could outlast.
#[tokio::test(start_paused = true)]
async fn a_failed_refresh_keeps_the_data_and_says_why() {
    let sb = sandbox(Duration::ZERO).await;
    let mut s = session(&sb, (100, 30));
    s.settle().await;
    sb.set_faults(Some("500-html".parse().unwrap()));
    s.press(KeyCode::Char('r'));
    // The engine sends it: wait for its word, then for its answer.
    s.until("the refresh sent", |app| app.in_flight() > 0).await;
    s.settle().await;
    let screen = s.screen();
    assert!(
        screen.contains("1001"),
        "the list stays on screen:\n{screen}"
    );
    assert!(screen.contains("stale"), "and is marked stale:\n{screen}");
    // Every endpoint answers 500 now: the newest failure is on the status line, named
    // with what it was for and the server's status.
    assert!(
        screen.contains(": HTTP 500"),
        "the status line says why:\n{screen}"
    );
    sb.set_faults(None);
    s.press(KeyCode::Char('r'));
    s.until("the refresh sent", |app| app.in_flight() > 0).await;
    s.settle().await;
    let screen = s.screen();
    assert!(
        !screen.contains("stale") && !screen.contains("HTTP 500"),
        "recovers:\n{screen}"
    );
}

#[tokio::test]
async fn a_wrong_token_names_the_profile() {
    let sb = sandbox(Duration::ZERO).await;
    let client = ApiClient::new(ClientConfig::new(
        sb.base_url(),
        Credentials::Token("d3Jvbmc6dG9rZW4=".into()),
    ))
    .unwrap();
    let settings = AppSettings {
        profile: "work".into(),
        base_url: sb.base_url(),
        demo: false,
        refresh: None,
        mouse: false,
        ..AppSettings::default()
    };
    let mut s = Session::start(settings, client, Box::new(Recording::default()), (100, 30));
    s.settle().await;
    let screen = s.screen();
    assert!(
        screen.contains("Services: Unauthenticated: check the token (profile work)"),
        "{screen}"
    );
}

#[tokio::test]
async fn the_run_loop_hands_a_chosen_profile_back_to_reconnect() {
    use crossterm::event::{Event, KeyEvent, KeyModifiers};
    use proxydash::app::{App, Clock};
    use proxydash::effects::Effects;
    use proxydash::run::{Exit, Input};
    use std::sync::Arc;

    let sb = sandbox(Duration::ZERO).await;
    let client = ApiClient::new(ClientConfig::new(
        sb.base_url(),
        Credentials::Token(sb.token().into()),
    ))
    .unwrap();
    let clock: Clock = Arc::new(chrono::Utc::now);
    let settings = AppSettings {
        profile: "main".into(),
        profiles: Profiles {
            names: vec!["main".into(), "work".into()],
            ..Profiles::default()
        },
        refresh: None,
        mouse: false,
        ..AppSettings::default()
    };
    let app = App::new(settings, clock.clone());
    let effects = Effects::new(
        proxydash::account::start(
            app.engine_config(),
            proxydash::headless::on_loopback(client),
            clock.clone(),
        ),
        Box::new(Recording::default()),
        String::new(),
        None,
    );
    let key = |c: KeyCode| {
        Ok(Input::Terminal(Event::Key(KeyEvent::new(
            c,
            KeyModifiers::NONE,
        ))))
    };
    let input = futures::stream::iter(vec![
        key(KeyCode::Char('P')),
        key(KeyCode::Char('j')),
        key(KeyCode::Enter),
    ])
    .chain(futures::stream::pending());
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(100, 30)).unwrap();
    let mut desk = proxydash::desk::Desk::single(app, effects);
    let exit = tokio::time::timeout(
        Duration::from_secs(10),
        proxydash::run::run(&mut terminal, &mut desk, Box::pin(input), &clock),
    )
    .await
    .expect("the loop ends")
    .unwrap();
    assert_eq!(exit, Exit::SwitchProfile("work".into()));
}
