//! Server text reaches the log file sanitized (issue 11.8): a 429 whose message carries a
//! terminal title change, a screen clear and a bidi override leaves none of them, and no
//! remnant of them, in the log (which a user may `cat`). In a process of its own: the log
//! is a process-wide subscriber.

use proxydash::api::{ApiClient, ApiError, ClientConfig, Credentials, ServiceUpdate};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use crate::support;

const HOSTILE: &str = "Too Many Attempts (updateList). \u{1b}]0;pwned\u{7}\u{1b}[2J\u{202e}gnp.exe \u{9b}31mNext update possible: 2026-11-23 10:00:00";

#[tokio::test]
async fn a_hostile_error_message_reaches_the_log_sanitized() {
    if !support::own_process("log_sanitized::a_hostile_error_message_reaches_the_log_sanitized") {
        return;
    }
    let dir = std::env::temp_dir().join(format!("proxydash-log-clean-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let log = dir.join("proxydash.log");
    proxydash::logging::init_with(&log, "info").expect("logging starts");

    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let mut buf = vec![0u8; 8192];
            let _ = stream.read(&mut buf).await;
            let body = serde_json::json!({ "error": HOSTILE }).to_string();
            let head = format!(
                "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes()).await;
            let _ = stream.write_all(body.as_bytes()).await;
        }
    });
    let client = ApiClient::new(ClientConfig::new(
        format!("http://{addr}"),
        Credentials::Token("t0ken".into()),
    ))
    .unwrap();
    let update = ServiceUpdate {
        update_list: true,
        ..ServiceUpdate::default()
    };
    let e = client.update_service(1001, &update).await.unwrap_err();
    assert!(matches!(e, ApiError::Throttled { .. }), "{e:?}");

    let text = std::fs::read_to_string(&log).expect("the log is written");
    assert!(text.contains("request failed"), "{text}");
    assert!(text.contains("Too Many Attempts (updateList)."), "{text}");
    let bad: Vec<char> = text
        .chars()
        .filter(|c| (*c != '\n' && c.is_control()) || matches!(c, '\u{202a}'..='\u{202e}'))
        .collect();
    assert!(bad.is_empty(), "{bad:?} in {text:?}");
    for remnant in ["[2J", "]0;pwned", "31m", "\\x1b", "\\u{1b}"] {
        assert!(!text.contains(remnant), "{remnant:?} in {text:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
