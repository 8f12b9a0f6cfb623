//! The effects runner's own tests: exports written once, copies off the UI task, the
//! public-IP lookup turned off.

use super::*;

#[test]
fn an_export_is_written_once_then_a_free_name_is_offered() {
    let dir = std::env::temp_dir().join(format!("proxydash-export-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("list.txt");
    let Msg::Written {
        result: Ok(full), ..
    } = write_export(path.clone(), b"a")
    else {
        panic!("written")
    };
    assert_eq!(full, path);
    match write_export(path.clone(), b"b") {
        Msg::FileExists { path: p, free } => {
            assert_eq!(p, path);
            assert_eq!(free, Some(dir.join("list (1).txt")));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(std::fs::read(&path).unwrap(), b"a");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A clipboard whose blocking part waits until the test lets it go, then fails, and
/// whose fallback (on the UI task) says where the text went.
struct Stuck {
    release: std::sync::Arc<std::sync::Barrier>,
}

impl Clipboard for Stuck {
    fn copy(&mut self, _: &str) -> Result<Copied, ClipboardError> {
        panic!("a clipboard with an off-loop part is not copied on the UI task")
    }

    fn off_loop(&self) -> Option<crate::clipboard::OffLoop> {
        let release = self.release.clone();
        Some(std::sync::Arc::new(move |_: &str| {
            release.wait();
            Err(ClipboardError::System("no selection owner".into()))
        }))
    }

    fn fallback(&mut self, text: &str, failed: ClipboardError) -> Result<Copied, ClipboardError> {
        assert_eq!(failed, ClipboardError::System("no selection owner".into()));
        assert_eq!(text, "1.2.3.4:80");
        Ok(Copied::Osc52)
    }
}

#[tokio::test]
async fn a_blocking_clipboard_is_copied_off_the_ui_task() {
    use crate::api::{ApiClient, ClientConfig, Credentials};
    let client = ApiClient::new(ClientConfig::new(
        "http://127.0.0.1:9",
        Credentials::Token("t".into()),
    ))
    .unwrap();
    let release = std::sync::Arc::new(std::sync::Barrier::new(2));
    let mut effects = Effects::new(
        crate::account::start(
            crate::account::Config::new("t", "http://127.0.0.1:9", None),
            client,
            std::sync::Arc::new(chrono::Utc::now),
        ),
        Box::new(Stuck {
            release: release.clone(),
        }),
        String::new(),
        None,
    );
    let answer = effects.execute(Command::Copy {
        what: "IP list of 5001".into(),
        text: "1.2.3.4:80".into(),
    });
    // Returned while the copy is still stuck: the UI task did not wait for it.
    assert!(answer.is_none());
    while let Some(msg) = effects.try_next_msg() {
        assert!(!matches!(msg, Msg::Copied { .. }), "not copied yet");
    }
    tokio::task::spawn_blocking(move || release.wait());
    loop {
        match effects.next_msg().await {
            Some(Msg::Copied { what, result }) => {
                assert_eq!(what, "IP list of 5001");
                assert_eq!(result, Ok(Copied::Osc52), "the fallback ran");
                break;
            }
            Some(_) => {}
            None => panic!("the copy was never answered"),
        }
    }
}

#[tokio::test]
async fn an_empty_my_ip_url_asks_nobody() {
    let e = super::lookup_my_ip("", false).await.unwrap_err();
    assert!(e.contains("turned off"), "{e}");
}
