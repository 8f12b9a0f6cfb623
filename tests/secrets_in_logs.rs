//! Secrets never reach the log: every action of the dashboard is run with a sentinel token
//! and sentinel passwords while logging at the most verbose level, then the log is
//! searched for them (plain and base64-encoded).

use base64::Engine as _;
use crossterm::event::KeyCode;
use proxydash::api::{ApiClient, ClientConfig, Credentials};
use proxydash::app::AppSettings;
use proxydash::clipboard::Recording;
use proxydash::headless::Session;
use proxydash::sandbox::{Sandbox, SandboxConfig};

use crate::support;

const TOKEN: &str = "SentinelTokenQ7w9e8r7t6y5u4i3o2p1a0s9d8f7";
const LOGIN_PASSWORD: &str = "SentinelLoginPw42";
const NEW_PASSWORD: &str = "SentinelProxyPw77";

#[tokio::test]
async fn a_run_of_every_action_logs_no_secret() {
    // The log subscriber is the process's: this test sets it in a process of its own.
    if !support::own_process("secrets_in_logs::a_run_of_every_action_logs_no_secret") {
        return;
    }
    let dir = std::env::temp_dir().join(format!("proxydash-log-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let log = dir.join("proxydash.log");
    proxydash::logging::init_with(&log, "trace").expect("logging starts");

    let sb = Sandbox::start(SandboxConfig {
        token: TOKEN.into(),
        login: Some(("sentinel".into(), LOGIN_PASSWORD.into())),
        ..SandboxConfig::ephemeral()
    })
    .await
    .unwrap();
    // The login + password credentials go over the wire once too.
    let by_login = ApiClient::new(ClientConfig::new(
        sb.base_url(),
        Credentials::login("sentinel", LOGIN_PASSWORD),
    ))
    .unwrap();
    by_login.credit().await.expect("the login pair is accepted");

    let client = ApiClient::new(ClientConfig::new(
        sb.base_url(),
        Credentials::Token(TOKEN.into()),
    ))
    .unwrap();
    let settings = AppSettings {
        refresh: None,
        mouse: false,
        ..AppSettings::default()
    };
    let mut s = Session::start(settings, client, Box::new(Recording::default()), (120, 40));
    s.settle().await;

    // Show the proxy password of the first service.
    s.press(KeyCode::Char('v'));
    // Change it.
    s.press(KeyCode::Char('p'));
    s.type_text(NEW_PASSWORD);
    s.press(KeyCode::Tab);
    s.type_text(NEW_PASSWORD);
    s.press(KeyCode::Enter);
    s.settle().await;
    s.press(KeyCode::Esc);
    // Bind an IP, refresh the IP list twice (the second is throttled), fetch and copy a list.
    s.press(KeyCode::Char('b'));
    s.press(KeyCode::Enter);
    s.settle().await;
    s.press(KeyCode::Esc);
    for _ in 0..2 {
        s.press(KeyCode::Char('u'));
        s.press(KeyCode::Enter);
        s.settle().await;
        s.press(KeyCode::Esc);
    }
    s.press(KeyCode::Char('i'));
    s.press(KeyCode::Enter);
    s.settle().await;
    s.press(KeyCode::Char('y'));
    s.press(KeyCode::Esc);
    // Order the first product for the first client.
    s.press(KeyCode::Char('2'));
    s.press(KeyCode::Char('o'));
    s.settle().await;
    s.press(KeyCode::Enter);
    s.press(KeyCode::Enter);
    s.settle().await;
    s.press(KeyCode::Esc);

    let methods: Vec<String> = sb.requests().iter().map(|r| r.method.clone()).collect();
    assert!(
        methods.iter().filter(|m| *m == "PUT").count() >= 3,
        "{methods:?}"
    );
    assert!(methods.iter().any(|m| m == "POST"), "{methods:?}");
    let screen = s.screen();

    let text = std::fs::read_to_string(&log).expect("the log was written");
    assert!(
        text.contains("request"),
        "requests are logged:\n{}",
        &text[..text.len().min(2000)]
    );
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    let sentinels = [
        TOKEN.to_owned(),
        LOGIN_PASSWORD.to_owned(),
        NEW_PASSWORD.to_owned(),
        b64(NEW_PASSWORD),
        b64(&format!("sentinel:{LOGIN_PASSWORD}")),
    ];
    for sentinel in &sentinels {
        assert!(
            !text.contains(sentinel.as_str()),
            "{sentinel} is in the log"
        );
        assert!(
            !screen.contains(sentinel.as_str()),
            "{sentinel} is on the screen"
        );
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            std::fs::metadata(&log).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
