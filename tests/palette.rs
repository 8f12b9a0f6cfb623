//! The command palette end to end (issue 27.2): in a headless dashboard on one sandbox it
//! finds a service by a fragment of its bound IP and of its product name, and runs "bind"
//! and "order" through their forms and confirmations; the command lines it then lists in
//! its command log, run with the real binary against a fresh sandbox, send the very same
//! request (method, path, body).

use crate::support;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use proxydash::app::palette::candidates::Target;
use proxydash::app::popups::Popup;
use proxydash::app::{App, Msg};
use proxydash::headless::Session;
use proxydash::sandbox::{RecordedRequest, Sandbox, SandboxConfig, SandboxHandle};
use std::process::Stdio;
use std::time::Duration;

async fn fresh_sandbox() -> SandboxHandle {
    Sandbox::start(SandboxConfig::ephemeral())
        .await
        .expect("sandbox starts")
}

fn palette(app: &App) -> &proxydash::app::palette::Palette {
    match app.popups().last() {
        Some(Popup::Palette(p)) => p,
        other => panic!("no palette on top: {other:?}"),
    }
}

/// Opens the palette, types `query` and moves the highlight to the first match for which
/// `wanted` holds.
fn highlight(s: &mut Session, query: &str, wanted: impl Fn(&Target) -> bool) {
    s.press(KeyCode::Char(':'));
    s.type_text(query);
    let at = palette(&s.app).shown().position(|c| wanted(&c.target));
    let Some(at) = at else {
        panic!("nothing wanted for {query:?}:\n{}", s.screen())
    };
    for _ in 0..at {
        s.press(KeyCode::Down);
    }
}

fn writes(sb: &SandboxHandle) -> Vec<RecordedRequest> {
    sb.requests()
        .into_iter()
        .filter(|r| r.method != "GET")
        .collect()
}

/// A command line as `sh` splits it.
fn words(line: &str) -> Vec<String> {
    shlex::split(line).unwrap_or_else(|| panic!("not a shell line: {line}"))
}

/// Runs `line` (`proxydash …`) with the real binary, the account from the environment as a
/// script's would be; returns its exit status and output.
async fn run_line(sb: &SandboxHandle, line: &str) -> (Option<i32>, String) {
    let args = words(line);
    assert_eq!(
        args.first().map(String::as_str),
        Some("proxydash"),
        "{line}"
    );
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_proxydash"));
    for var in ["PROXYDASH_LOGIN", "PROXYDASH_PASSWORD", "PROXYDASH_PROFILE"] {
        cmd.env_remove(var);
    }
    let dir = support::temp_dir("palette-cli");
    let out = cmd
        .args(&args[1..])
        .env("PROXYDASH_BASE_URL", sb.base_url())
        .env("PROXYDASH_TOKEN", sb.token())
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("XDG_STATE_HOME", dir.join("state"))
        .stdin(Stdio::null())
        .kill_on_drop(true)
        .output()
        .await
        .expect("the binary runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code(), text)
}

fn log_lines(app: &App) -> Vec<String> {
    app.command_log()
        .entries()
        .map(|e| e.line.clone())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bind_and_order_through_the_palette_and_their_command_lines_do_the_same() {
    let dashboard_sb = fresh_sandbox().await;
    let mut s = support::session(&dashboard_sb, Duration::from_secs(10), None, (120, 40));
    s.settle().await;
    s.until("the detail of 1001 (its bound IP)", |app| {
        app.services().detail(1001).is_ready()
    })
    .await;

    // A fragment of the bound IP (192.0.2.50) and of a product name find their services.
    s.press(KeyCode::Char(':'));
    s.type_text("2.50");
    let first = palette(&s.app).selected().map(|c| c.target.clone());
    assert_eq!(first, Some(Target::Service(1001)), "{}", s.screen());
    s.press(KeyCode::Esc);
    s.press(KeyCode::Char(':'));
    s.type_text("eu 25");
    let first = palette(&s.app).selected().map(|c| c.target.clone());
    assert_eq!(first, Some(Target::Service(1002)), "{}", s.screen());
    s.press(KeyCode::Esc);

    // Bind: the palette's action opens the bind form; its Enter sends the one PUT.
    highlight(&mut s, "bind", |t| {
        matches!(t, Target::Action(proxydash::app::palette::Act::Bind(1001)))
    });
    let shown = palette(&s.app).selected().and_then(|c| c.command.clone());
    assert_eq!(shown.as_deref(), Some("proxydash bind 1001 <IP>"));
    assert!(s.screen().contains("$ proxydash bind 1001 <IP>"));
    s.press(KeyCode::Enter);
    assert!(
        writes(&dashboard_sb).is_empty(),
        "the form opens; nothing sent"
    );
    s.send(Msg::Key(KeyEvent::new(
        KeyCode::Char('u'),
        KeyModifiers::CONTROL,
    )));
    s.type_text("45.83.222.77");
    s.press(KeyCode::Enter);
    s.until("the bind in the command log", |app| {
        app.command_log().len() == 1
    })
    .await;
    s.press(KeyCode::Esc);

    // Order: product 11 chosen with Tab, its "order" action, the form, the confirmation.
    s.press(KeyCode::Char('2'));
    s.settle().await;
    highlight(&mut s, "datacenter us 10", |t| *t == Target::Product(11));
    s.press(KeyCode::Tab);
    assert_eq!(palette(&s.app).product, Some(11));
    s.type_text("order");
    let shown = palette(&s.app).selected().and_then(|c| c.command.clone());
    assert!(
        shown
            .as_deref()
            .is_some_and(|l| l.starts_with("proxydash order 11 --client <CLIENT_ID>")),
        "{shown:?}"
    );
    s.press(KeyCode::Enter);
    s.until("the clients for the order form", |app| {
        app.clients().is_ready()
    })
    .await;
    s.type_text("alice");
    s.press(KeyCode::Enter);
    assert!(s.screen().contains("place order"), "{}", s.screen());
    assert_eq!(writes(&dashboard_sb).len(), 1, "only the bind so far");
    s.press(KeyCode::Enter);
    s.until("the order in the command log", |app| {
        app.command_log().len() == 2
    })
    .await;

    let lines = log_lines(&s.app);
    assert_eq!(
        lines,
        [
            "proxydash bind 1001 45.83.222.77",
            "proxydash order 11 --client 101 --yes"
        ]
    );
    let sent = writes(&dashboard_sb);
    assert_eq!(sent.len(), 2, "{sent:#?}");

    // The same lines, run in a shell against a fresh sandbox, send the same requests.
    let script_sb = fresh_sandbox().await;
    for (line, expected) in lines.iter().zip(&sent) {
        let before = writes(&script_sb).len();
        let (code, output) = run_line(&script_sb, line).await;
        assert_eq!(code, Some(0), "{line}: {output}");
        let done = writes(&script_sb);
        assert_eq!(done.len(), before + 1, "{line} sent one write: {done:#?}");
        let got = &done[before];
        assert_eq!(
            (&got.method, &got.path),
            (&expected.method, &expected.path),
            "{line}"
        );
        let json = |body: &str| serde_json::from_str::<serde_json::Value>(body).unwrap();
        assert_eq!(json(&got.body), json(&expected.body), "{line}");
    }
}
