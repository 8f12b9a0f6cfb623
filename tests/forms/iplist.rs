//! IP lists (`i`): fetch, view, copy as served and as URLs, the OSC 52 wording, and
//! writing a file that never overwrites.

use super::*;
use proxydash::api::{IpListFormat, IpListType};
use proxydash::clipboard::Osc52;
use proxydash::sandbox::SandboxConfig;

async fn viewing(e: &mut Env) {
    e.filter("1001");
    e.s.settle().await;
    e.s.press(KeyCode::Char('i'));
    e.shows("▶ http-auth");
    let from = e.mark();
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    assert_eq!(e.since(from), vec!["GET /api/iplist/http-auth/txt/1001"]);
    e.shows("IP list 1001 · http-auth txt · 10 entries");
}

#[tokio::test]
async fn y_copies_the_list_as_served_and_shift_y_as_urls() {
    let mut e = start(SandboxConfig::default()).await;
    viewing(&mut e).await;
    let served = client(&e.sb)
        .ip_list(1001, &IpListType::HttpAuth, &IpListFormat::Txt)
        .await
        .unwrap();
    e.s.press(KeyCode::Char('y'));
    e.shows("✓ IP list of service 1001 (10 entries, as served) copied to the clipboard");
    e.s.press(KeyCode::Char('Y'));
    e.shows("✓ IP list of service 1001 (10 entries, as URLs) copied to the clipboard");
    let copied = e.clip.texts();
    assert_eq!(copied.len(), 2);
    assert_eq!(copied[0], served.raw, "exactly as served");
    assert_eq!(copied[1], served.to_urls());
    let first = copied[1].lines().next().unwrap();
    assert!(
        first.starts_with("http://pd1001ka:") && first.ends_with(":8080"),
        "{first}"
    );
    assert_eq!(copied[1].lines().count(), 10);
}

#[tokio::test]
async fn over_osc_52_the_list_is_said_to_be_sent_not_copied() {
    let mut e = start_with(
        SandboxConfig::default(),
        Box::new(Osc52::new(Vec::new())),
        Recording::default(),
    )
    .await;
    viewing(&mut e).await;
    e.s.press(KeyCode::Char('Y'));
    e.shows(
        "✓ IP list of service 1001 (10 entries, as URLs) sent to the terminal clipboard (OSC 52)",
    );
}

#[tokio::test]
async fn w_writes_the_file_and_never_overwrites_it() {
    let dir = std::env::temp_dir().join(format!("proxydash-forms-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("list.txt");
    let mut e = start(SandboxConfig::default()).await;
    viewing(&mut e).await;
    e.s.press(KeyCode::Char('w'));
    e.shows("[iplist-1001-http-auth.txt");
    e.ctrl('u');
    e.s.type_text(&path.display().to_string());
    // Answers still on their way first, then the write alone (it runs off the UI task).
    e.s.settle().await;
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    e.shows(&format!(
        "✓ IP list of service 1001 written to {}",
        path.display()
    ));
    let served = client(&e.sb)
        .ip_list(1001, &IpListType::HttpAuth, &IpListFormat::Txt)
        .await
        .unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), served.raw);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    // Again to the same name: refused, the prompt stays to change it.
    std::fs::write(&path, "kept").unwrap();
    e.s.press(KeyCode::Char('w'));
    e.ctrl('u');
    e.s.type_text(&path.display().to_string());
    // Answers still on their way first, then the write alone (it runs off the UI task).
    e.s.settle().await;
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    e.shows("exists (never replaced)");
    e.shows("Write the IP list to a file");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "kept");
    // A free name beside it is offered (issue 16.8); Enter takes it.
    e.shows("writes list (1).txt");
    e.shows(&format!("[{}", dir.join("list (1).txt").display()));
    // Answers still on their way first, then the write alone (it runs off the UI task).
    e.s.settle().await;
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    e.shows("list (1).txt");
    assert_eq!(
        std::fs::read_to_string(dir.join("list (1).txt")).unwrap(),
        served.raw
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "kept");
    let _ = std::fs::remove_dir_all(&dir);
}
