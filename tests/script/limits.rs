//! The request budget of the scripting commands: learned, kept between runs, and a 429 of
//! the account's limit exits 6 saying when to try again.

use super::*;

async fn limited(limit: u32) -> SandboxHandle {
    Sandbox::start(SandboxConfig {
        listen: ([127, 0, 0, 1], 0).into(),
        rate_limit: Some(limit),
        ..SandboxConfig::default()
    })
    .await
    .expect("sandbox starts")
}

async fn run_in(sb: &SandboxHandle, state: &std::path::Path, args: &[&str]) -> Run {
    let mut cmd = proxydash();
    cmd.env("XDG_STATE_HOME", state)
        .args(["--base-url", &sb.base_url(), "--token", sb.token()])
        .args(args);
    finish(&mut cmd, None).await
}

#[tokio::test]
async fn the_learned_budget_is_kept_for_the_next_command() {
    let sb = limited(60).await;
    let state = temp_dir("budget-kept");
    run_in(&sb, &state, &["credit", "--json"]).await.ok();
    let kept: Value = serde_json::from_str(
        &std::fs::read_to_string(state.join("proxydash/budget.json")).expect("written"),
    )
    .unwrap();
    let account = &kept["accounts"][format!("default@{}", sb.base_url())];
    assert_eq!(account["limit"], 60, "{kept}");
    assert_eq!(account["source"], "headers", "{kept}");
    // The sends are in the profile's shared send log, every read of `credit` (the
    // credit, then the services, invoices and catalogue for the money ahead) one line.
    assert!(account.get("spent").is_none(), "{kept}");
    let sent = send_log(&state);
    assert_eq!(sent.lines().count(), sb.requests().len(), "{sent}");
    assert_eq!(sent.lines().count(), 4, "{sent}");
}

/// The profile's shared send log, whole (there is one account in these tests' state).
fn send_log(state: &std::path::Path) -> String {
    let dir = state.join("proxydash/sends");
    let logs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "log"))
        .collect();
    assert_eq!(logs.len(), 1, "{logs:?}");
    std::fs::read_to_string(&logs[0]).unwrap()
}

#[tokio::test]
async fn a_429_of_the_accounts_limit_exits_6_saying_when_to_try_again() {
    let sb = limited(1).await;
    let state = temp_dir("budget-429");
    // Another program spends the window.
    ApiClient::new(ClientConfig::new(
        sb.base_url(),
        Credentials::Token(sb.token().into()),
    ))
    .unwrap()
    .credit()
    .await
    .unwrap();
    let run = run_in(&sb, &state, &["credit"]).await;
    let run = run.fails(6, "try again in");
    assert!(run.stderr.contains("limit"), "{run:#?}");
    assert_eq!(requests(&sb, "GET").len(), 2, "not retried");
}

/// A loopback server whose every answer is decided by `answer` from the request's number
/// (from 1): a status and extra header lines; a 200 is a credit, anything else the common
/// framework's throttle body. It counts the requests it saw.
struct Scripted {
    url: String,
    seen: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Scripted {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Scripted {
    async fn start(answer: fn(usize) -> (u16, &'static str)) -> Self {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let seen = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let count = seen.clone();
        let task = tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let count = count.clone();
                tokio::spawn(async move {
                    let mut head = Vec::new();
                    let mut buf = [0u8; 1024];
                    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                        match stream.read(&mut buf).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => head.extend_from_slice(&buf[..n]),
                        }
                    }
                    let n = count.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
                    let (status, headers) = answer(n);
                    let body = if status == 200 {
                        r#"{"credit": 12.5}"#
                    } else {
                        r#"{"message":"Too Many Attempts."}"#
                    };
                    let reply = format!(
                        "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n{headers}\r\n{body}",
                        body.len()
                    );
                    let _ = stream.write_all(reply.as_bytes()).await;
                });
            }
        });
        Self { url, seen, task }
    }

    fn seen(&self) -> usize {
        self.seen.load(std::sync::atomic::Ordering::SeqCst)
    }

    async fn run(&self, state: &std::path::Path, args: &[&str]) -> Run {
        let mut cmd = proxydash();
        cmd.env("XDG_STATE_HOME", state)
            .args(["--base-url", &self.url, "--token", "t"])
            .args(args);
        // Generous: a command that sleeps on the server's pause would take a day.
        tokio::time::timeout(std::time::Duration::from_secs(60), finish(&mut cmd, None))
            .await
            .expect("the command ends instead of sleeping on the pause")
    }

    fn saved(&self, state: &std::path::Path) -> Value {
        let kept: Value = serde_json::from_str(
            &std::fs::read_to_string(state.join("proxydash/budget.json")).expect("written"),
        )
        .unwrap();
        kept["accounts"][format!("default@{}", self.url)].clone()
    }
}

/// `Retry-After: 999999` pauses the account for an hour at most, and the command line
/// never sleeps on it: it exits 6 at once with the time, and so does the next command,
/// without sending anything.
#[tokio::test]
async fn a_huge_retry_after_exits_6_at_once_and_the_next_command_sends_nothing() {
    let server = Scripted::start(|n| match n {
        1 => (429, "retry-after: 999999\r\n"),
        _ => (200, ""),
    })
    .await;
    let state = temp_dir("budget-huge-pause");
    let run = server.run(&state, &["credit"]).await;
    let run = run.fails(6, "999999 s");
    assert!(run.stderr.contains("at most 60 min"), "{run:#?}");
    assert_eq!(server.seen(), 1);
    // A 429 naming no figure pauses its route (the credit's), not the account.
    let saved = server.saved(&state);
    let paused = saved["routes"]["GET /api/billing/credit"]["paused_until"]
        .as_i64()
        .unwrap_or_else(|| panic!("kept: {saved}"));
    assert!(saved["paused_until"].is_null(), "{saved}");
    let hour = chrono::Utc::now().timestamp_millis() + 3_600_000;
    assert!(paused <= hour + 1_000, "{paused} past an hour from now");
    // The next command meets the pause the first saved, and says so: nothing of its own
    // met the server's limit.
    let again = server
        .run(&state, &["credit"])
        .await
        .fails(6, "by a pause an earlier run saved");
    assert!(again.stderr.contains("min more (until "), "{again:#?}");
    assert_eq!(server.seen(), 1, "nothing sent while paused");
}

/// One 429 without rate headers (`Retry-After: 0`) is not carried to the next command: it
/// starts from the assumed figure, at once.
#[tokio::test]
async fn one_429_without_headers_is_not_carried_to_the_next_command() {
    let server = Scripted::start(|n| match n {
        1 => (429, "retry-after: 0\r\n"),
        _ => (200, ""),
    })
    .await;
    let state = temp_dir("budget-one-429");
    server.run(&state, &["credit"]).await.fails(6, "try again");
    let saved = server.saved(&state);
    assert!(saved.get("limit").is_none(), "{saved}");
    // The pause of a second is over by the time the next command starts; it waits for
    // nothing (a wait would be said on standard error).
    while server.saved(&state)["routes"]["GET /api/billing/credit"]["paused_until"]
        .as_i64()
        .is_some_and(|t| t > chrono::Utc::now().timestamp_millis())
    {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let run = server.run(&state, &["credit", "--json"]).await.ok();
    assert_eq!(run.json()["credit"], 12.5);
}

/// A planted `budget.json`: a figure too large to believe (or to read), a pause of ten
/// days. The figure is not believed, the pause is cut to an hour (the command exits 6
/// at once), and the other accounts' entries, readable or not, are kept as they were.
#[tokio::test]
async fn a_planted_budget_file_is_a_hint_and_loses_nothing() {
    let server = Scripted::start(|_| (200, "")).await;
    let state = temp_dir("budget-planted");
    std::fs::create_dir_all(state.join("proxydash")).unwrap();
    let path = state.join("proxydash/budget.json");
    let write = |mine: &str| {
        std::fs::write(
            &path,
            format!(
                r#"{{"accounts":{{"default@{}":{mine},"other@http://x":{{"limit":99999999999999999999,"source":"headers"}},"third@http://y":{{"limit":30,"source":"headers","spent":[]}}}}}}"#,
                server.url
            ),
        )
        .unwrap()
    };
    write(r#"{"limit":4294967295,"source":"headers","spent":[]}"#);
    for _ in 0..3 {
        server.run(&state, &["credit"]).await.ok();
    }
    // Each `credit` reads the credit, then the services for the money ahead (this
    // server answers the credit's body to everything, so it stops there: the money
    // ahead is said not known, the credit printed).
    assert_eq!(server.seen(), 3 * 2);
    let kept: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mine = &kept["accounts"][format!("default@{}", server.url)];
    assert!(
        mine.get("limit").is_none(),
        "not confirmed by an answer: {kept}"
    );
    assert_eq!(kept["accounts"]["third@http://y"]["limit"], 30, "{kept}");
    assert!(
        kept["accounts"]["other@http://x"].get("limit").is_some(),
        "an unreadable entry is kept as it was: {kept}"
    );
    // A pause of ten days: an hour at most, and no sleep.
    let ten_days = chrono::Utc::now().timestamp_millis() + 10 * 86_400_000;
    write(&format!(
        r#"{{"source":"assumed","spent":[],"paused_until":{ten_days}}}"#
    ));
    let run = server
        .run(&state, &["credit"])
        .await
        .fails(6, "nothing was sent: the account is paused for 60 min more");
    // Issue 46.7: it said "the server's limit is reached", though nothing was sent: it
    // says where the pause comes from.
    assert!(
        run.stderr.contains(
            "by a pause an earlier run saved in the request budget's state file (budget.json)"
        ),
        "{run:#?}"
    );
    assert!(!run.stderr.contains("limit is reached"), "{run:#?}");
    assert!(run.stderr.contains("try again after"), "{run:#?}");
    assert_eq!(server.seen(), 3 * 2, "nothing sent");
}
