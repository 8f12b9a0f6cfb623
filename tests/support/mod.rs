//! Shared by the reliability tests: sandboxes on loopback, headless sessions with short
//! timeouts, seed files written to a private temporary folder, and waiting for a session
//! to go quiet.
//!
//! Time: a session's clock is driven by tokio's (the wall time at its start plus tokio's
//! elapsed time), so a test on `#[tokio::test(start_paused = true)]` runs the app, its
//! fetcher, the client's timeouts and the sandbox's delays on one paused clock: a hang or
//! a refresh interval costs no real time, and what a test measures is the program's own
//! time, not the machine's load.

#![allow(dead_code)]

use crossterm::event::KeyCode;
use proxydash::api::{ApiClient, ClientConfig, Credentials};
use proxydash::app::{App, AppSettings, Clock, Msg};
use proxydash::clipboard::Recording;
use proxydash::effects::Effects;
use proxydash::headless::{OFFLINE_MY_IP_URL, Session};
use proxydash::sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::time::Instant;

/// A folder of its own under the system's temporary folder, emptied first.
pub fn temp_dir(name: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "proxydash-rel-{name}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary folder");
    dir
}

/// The binary with nothing of this environment that could change where it connects or
/// what it reads, its config and state under `home`.
pub fn proxydash_in(home: &Path) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_proxydash"));
    for var in [
        "PROXYDASH_BASE_URL",
        "PROXYDASH_TOKEN",
        "PROXYDASH_LOGIN",
        "PROXYDASH_PASSWORD",
        "PROXYDASH_PROFILE",
        "PROXYDASH_CONFIG",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_STATE_HOME", home.join("state"))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true);
    cmd
}

/// The built-in seed as JSON.
pub fn seed_json() -> serde_json::Value {
    serde_json::from_str(include_str!("../../assets/seed.json")).expect("the seed is JSON")
}

/// The built-in seed without its orphaned service (1013, whose client was removed): its
/// network calls answer 400 on every load, which would keep a line in the status bar and
/// hide the line a test is looking for.
pub fn clean_seed() -> PathBuf {
    let mut seed = seed_json();
    seed["services"]
        .as_array_mut()
        .expect("services")
        .retain(|s| s["id"] != 1013);
    seed["invoices"]
        .as_array_mut()
        .expect("invoices")
        .retain(|i| i["serviceid"] != 1013);
    write_seed("clean", &seed)
}

pub fn write_seed(name: &str, seed: &serde_json::Value) -> PathBuf {
    let path = temp_dir(name).join("seed.json");
    std::fs::write(&path, serde_json::to_vec_pretty(seed).expect("serializes")).expect("write");
    path
}

/// With live servers' quirks (`sandbox --quirks`): the dashboard must read them, and the
/// hostile seeds put their values in `_wire`, which only quirks serve.
pub async fn sandbox(seed: Option<PathBuf>) -> SandboxHandle {
    Sandbox::start(SandboxConfig {
        seed,
        quirks: true,
        ..SandboxConfig::ephemeral()
    })
    .await
    .expect("sandbox starts")
}

/// A client with the test timings: `timeout` per request, 20 ms first backoff, and the
/// loopback budget.
pub fn client(sb: &SandboxHandle, timeout: Duration) -> proxydash::scheduler::Door {
    let mut config = ClientConfig::new(sb.base_url(), Credentials::Token(sb.token().into()));
    config.request_timeout = timeout;
    config.connect_timeout = timeout;
    config.backoff = Duration::from_millis(20);
    proxydash::headless::on_loopback(ApiClient::new(config).expect("client"))
}

/// The wall time now, moved on by tokio's clock from here (see the module docs).
pub fn tokio_clock() -> Clock {
    let (wall, base) = (chrono::Utc::now(), Instant::now());
    Arc::new(move || wall + chrono::TimeDelta::from_std(Instant::now() - base).unwrap_or_default())
}

/// A headless session on `sb`, auto-refresh every `refresh` (driven by [`tick`]), on
/// [`tokio_clock`].
pub fn session(
    sb: &SandboxHandle,
    timeout: Duration,
    refresh: Option<Duration>,
    size: (u16, u16),
) -> Session {
    let settings = AppSettings {
        profile: "demo".into(),
        base_url: sb.base_url(),
        demo: true,
        refresh,
        mouse: false,
        ..AppSettings::default()
    };
    let clock = tokio_clock();
    let effects = Effects::new(
        proxydash::account::start(settings.engine_config(), client(sb, timeout), clock.clone()),
        Box::new(Recording::default()),
        OFFLINE_MY_IP_URL.into(),
        None,
    );
    Session::with(App::new(settings, clock), effects, size)
}

/// Feeds results to the session until nothing is in flight (the engine settled, every ask
/// taken), or until `limit` (a bound on a hang, not a timing check) has passed on tokio's
/// clock; returns how long that took.
pub async fn wait_idle(s: &mut Session, limit: Duration) -> Duration {
    let started = Instant::now();
    let mut idle = s.effects.account().idle();
    loop {
        while let Some(msg) = s.effects.try_next_msg() {
            s.send(msg);
        }
        idle.borrow_and_update();
        if s.effects.account().is_settled() && s.app.in_flight() == 0 {
            break;
        }
        let Some(left) = limit.checked_sub(started.elapsed()) else {
            break;
        };
        tokio::select! {
            msg = tokio::time::timeout(left, s.effects.next_msg()) => match msg {
                Ok(Some(msg)) => s.send(msg),
                Ok(None) | Err(_) => break,
            },
            _ = idle.changed() => {}
        }
    }
    started.elapsed()
}

/// Waits on tokio's clock (free when it is paused) for one refresh interval, in which the
/// engine reads again what is due, and sends a tick as the run loop would; false when
/// there is no refresh interval.
pub async fn tick(s: &mut Session) -> bool {
    let Some(every) = s.app.settings().refresh else {
        return false;
    };
    tokio::time::sleep(every + Duration::from_millis(5)).await;
    s.send(Msg::Tick);
    true
}

#[derive(Clone, Copy, Debug)]
pub enum Key {
    C(char),
    Enter,
    Esc,
}

pub fn press(s: &mut Session, keys: &[Key]) {
    for key in keys {
        s.press(match key {
            Key::C(c) => KeyCode::Char(*c),
            Key::Enter => KeyCode::Enter,
            Key::Esc => KeyCode::Esc,
        });
    }
}

/// Control characters found in the screen text (rows are joined by `\n`, which is not
/// counted).
pub fn controls_in(screen: &str) -> Vec<char> {
    screen
        .chars()
        .filter(|c| *c != '\n' && (c.is_control() || *c == '\u{1b}' || invisible(*c)))
        .collect()
}

/// Bidi controls, zero-width characters, variation selectors (written out here, not taken
/// from the code under test).
pub fn invisible(c: char) -> bool {
    matches!(c, '\u{61c}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
        | '\u{2060}'..='\u{2069}' | '\u{feff}' | '\u{fe00}'..='\u{fe0f}')
}

/// The environment variable that marks a test's own process (see [`own_process`]).
const OWN_PROCESS: &str = "PROXYDASH_TEST_OWN_PROCESS";

/// For a test that sets something once per process (the global log subscriber): every
/// integration test shares one binary, so the test runs again alone in a child process of
/// that binary. True in the child (run the test's body); in the parent, runs the child,
/// fails with its output when it fails, and returns false (the body is not run twice).
/// `name` is the test's path in the binary (`module::test`).
pub fn own_process(name: &str) -> bool {
    if std::env::var(OWN_PROCESS).is_ok_and(|n| n == name) {
        return true;
    }
    let out = std::process::Command::new(std::env::current_exe().expect("the test binary"))
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env(OWN_PROCESS, name)
        .output()
        .expect("the test binary runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{name} in its own process:\n{text}");
    // `--exact` with a name that is not a test runs nothing and succeeds: say so.
    assert!(text.contains("1 passed"), "{name} did not run:\n{text}");
    false
}

/// A child's stream, line by line, read on a thread of its own (a test waits on the
/// receiver for the line it names, under a timeout).
pub fn lines(stream: impl std::io::Read + Send + 'static) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}
