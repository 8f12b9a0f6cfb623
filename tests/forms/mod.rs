//! The forms end to end: keys into a headless session (the real App, Effects and
//! ui::draw), requests to the in-process sandbox over loopback, and what the sandbox
//! received and the user sees checked after each step.

mod bind_ip;
mod invoice_number;
mod iplist;
mod order;
mod password;
mod refresh;
mod service_number;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use proxydash::api::{ApiClient, ClientConfig, Credentials};
use proxydash::app::{App, AppSettings, Clock};
use proxydash::clipboard::{Clipboard, Recording};
use proxydash::effects::Effects;
use proxydash::headless::Session;
use proxydash::sandbox::{RecordedRequest, Sandbox, SandboxConfig, SandboxHandle};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// What this machine's public IP is, as the test's own lookup service answers it.
pub const MY_IP: &str = "45.83.220.23";

pub struct Env {
    pub sb: SandboxHandle,
    pub s: Session,
    pub clip: Recording,
}

pub async fn sandbox(config: SandboxConfig) -> SandboxHandle {
    Sandbox::start(SandboxConfig {
        listen: ([127, 0, 0, 1], 0).into(),
        ..config
    })
    .await
    .expect("sandbox starts")
}

pub fn client(sb: &SandboxHandle) -> proxydash::scheduler::Door {
    let mut config = ClientConfig::new(sb.base_url(), Credentials::Token(sb.token().into()));
    config.backoff = Duration::from_millis(10);
    config.request_timeout = Duration::from_secs(5);
    proxydash::headless::on_loopback(ApiClient::new(config).expect("client"))
}

/// A loopback service that answers every request with [`MY_IP`] as plain text, standing in
/// for the public my-IP lookup (tests never leave 127.0.0.1).
pub async fn my_ip_service() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut conn, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut buf = [0u8; 2048];
                let _ = conn.read(&mut buf).await;
                let reply = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{MY_IP}",
                    MY_IP.len()
                );
                let _ = conn.write_all(reply.as_bytes()).await;
            });
        }
    });
    format!("http://{addr}/")
}

/// A started, settled session against a new sandbox, copying into a [`Recording`].
pub async fn start(config: SandboxConfig) -> Env {
    let clip = Recording::default();
    start_with(config, Box::new(clip.clone()), clip).await
}

pub async fn start_with(
    config: SandboxConfig,
    clipboard: Box<dyn Clipboard>,
    clip: Recording,
) -> Env {
    let sb = sandbox(config).await;
    let settings = AppSettings {
        base_url: sb.base_url(),
        // No auto-refresh: every request in the log comes from the test's keys.
        refresh: None,
        ..AppSettings::default()
    };
    let clock: Clock = Arc::new(chrono::Utc::now);
    let effects = Effects::new(
        proxydash::account::start(settings.engine_config(), client(&sb), clock.clone()),
        clipboard,
        my_ip_service().await,
        None,
    );
    let mut s = Session::with(App::new(settings, clock), effects, (100, 30));
    s.settle().await;
    Env { sb, s, clip }
}

impl Env {
    pub fn ctrl(&mut self, c: char) {
        self.s.send(proxydash::app::Msg::Key(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::CONTROL,
        )));
    }

    /// Filters the current tab's table down to `text` and keeps the filter.
    pub fn filter(&mut self, text: &str) {
        self.s.press(KeyCode::Char('/'));
        self.s.type_text(text);
        self.s.press(KeyCode::Enter);
    }

    /// The requests received since index `from`, as `METHOD path`.
    pub fn since(&self, from: usize) -> Vec<String> {
        self.sb.requests()[from..]
            .iter()
            .map(|r| format!("{} {}", r.method, r.path))
            .collect()
    }

    /// The writes (POST, PUT) received since index `from`.
    pub fn writes_since(&self, from: usize) -> Vec<RecordedRequest> {
        self.sb.requests()[from..]
            .iter()
            .filter(|r| r.method != "GET")
            .cloned()
            .collect()
    }

    pub fn mark(&self) -> usize {
        self.sb.requests().len()
    }

    /// The screen, with a check that it shows `text`.
    pub fn shows(&mut self, text: &str) -> String {
        let screen = self.s.screen();
        assert!(
            screen.contains(text),
            "the screen lacks {text:?}:\n{screen}"
        );
        screen
    }
}

pub fn json(body: &str) -> serde_json::Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}
