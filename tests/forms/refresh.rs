//! Refreshing the IP list (`u`): success, the 429 countdown (and nothing sent while it
//! runs), and the 400 of a service whose client is gone.

use super::*;
use proxydash::sandbox::SandboxConfig;

#[tokio::test]
async fn a_refresh_then_a_429_countdown_and_nothing_sent_while_it_runs() {
    let mut e = start(SandboxConfig {
        throttle: Duration::from_secs(600),
        ..SandboxConfig::default()
    })
    .await;
    e.filter("1001");
    e.s.settle().await;
    let from = e.mark();
    e.s.press(KeyCode::Char('u'));
    e.shows("Refresh the IP list of service 1001 (Datacenter US 10)?");
    assert!(e.writes_since(from).is_empty(), "asks first");
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    e.shows("✓ IP list updated successfully");
    e.s.press(KeyCode::Enter);

    e.s.press(KeyCode::Char('u'));
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    let writes = e.writes_since(from);
    assert_eq!(writes.len(), 2);
    for w in &writes {
        assert_eq!(w.path, "/api/service/1001");
        assert_eq!(json(&w.body), serde_json::json!({"update_list": "true"}));
    }
    assert_eq!(writes[1].status, 429);
    e.shows("✗ Too Many Attempts (updateList).");
    // The sandbox throttles for 10 minutes, naming the time rounded up to the second; a
    // second or two may have passed since.
    let screen = e.shows("next refresh in ");
    assert!(
        screen.contains("next refresh in 10m 0") || screen.contains("next refresh in 9m 5"),
        "{screen}"
    );
    e.s.press(KeyCode::Esc);
    // The row (after the product's name) and the detail count down too.
    let screen = e.s.screen();
    assert_eq!(screen.matches("next refresh in").count(), 1, "{screen}");
    let row = screen.lines().find(|l| l.contains("▶ 1001")).unwrap();
    assert!(
        row.contains("Datacenter US 10 ⟳ 10m") || row.contains("Datacenter US 10 ⟳ 9m"),
        "{screen}"
    );

    let before = e.mark();
    e.s.press(KeyCode::Char('u'));
    e.s.settle().await;
    e.shows("• Service 1001: next refresh in");
    assert!(e.s.app.popups().is_empty());
    assert!(
        e.writes_since(before).is_empty(),
        "nothing sent while throttled"
    );
    assert!(e.s.app.next_wakeup().is_some(), "the countdown ticks");
}

#[tokio::test]
async fn a_service_whose_client_is_gone_is_client_id_not_found() {
    let mut e = start(SandboxConfig::default()).await;
    // 1013 belongs to a removed client.
    e.filter("1013");
    e.s.settle().await;
    e.s.press(KeyCode::Char('u'));
    let from = e.mark();
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    assert_eq!(e.writes_since(from)[0].status, 400);
    e.shows("✗ Unprocessable Entity. ClientID not found");
}
