//! Binding an IP (`b` on an fpr service): the form's own refusal of an invalid address,
//! "use my IP", success, and the server's `IP already binded`.

use super::*;
use proxydash::sandbox::SandboxConfig;

/// Services tab filtered to one service, its detail loaded.
async fn on_service(id: &str) -> Env {
    let mut e = start(SandboxConfig::default()).await;
    e.filter(id);
    e.s.settle().await;
    e
}

#[tokio::test]
async fn an_invalid_address_is_refused_by_the_form_and_never_sent() {
    let mut e = on_service("1002").await;
    e.s.press(KeyCode::Char('b'));
    e.shows("Bind IP · service 1002");
    let from = e.mark();
    for bad in ["256.1.1.1", "1.2.3", "01.2.3.4", "1.2.3.4.5", "a.b.c.d"] {
        e.ctrl('u');
        e.s.type_text(bad);
        e.s.press(KeyCode::Enter);
        e.s.settle().await;
        e.shows("✗ ");
    }
    e.shows("✗ \"a\" is not a number from 0 to 255");
    assert!(e.writes_since(from).is_empty(), "nothing sent");
}

#[tokio::test]
async fn use_my_ip_fills_the_field_and_the_bind_succeeds() {
    let mut e = on_service("1002").await;
    e.s.press(KeyCode::Char('b'));
    e.ctrl('l');
    e.s.settle().await;
    e.shows(&format!("[{MY_IP}"));
    let from = e.mark();
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    let writes = e.writes_since(from);
    assert_eq!(writes.len(), 1);
    assert_eq!(
        (writes[0].method.as_str(), writes[0].path.as_str()),
        ("PUT", "/api/service/1002")
    );
    assert_eq!(json(&writes[0].body), serde_json::json!({"setip": MY_IP}));
    e.shows("✓ IP address updated successfully");
    let log = e.since(from);
    assert!(
        log.iter().skip(1).any(|r| r == "GET /api/service/1002"),
        "the detail is re-read: {log:?}"
    );
    e.s.press(KeyCode::Enter);
    e.shows(&format!("Bound IP      {MY_IP} (this machine)"));
}

#[tokio::test]
async fn an_address_bound_to_another_service_is_refused_by_the_server() {
    // Service 1001 bound to a public address: the seed's documentation ones (RFC 5737)
    // are refused before sending (issue 46.7), so the server's own check is not reached.
    let mut seed = crate::support::seed_json();
    for s in seed["services"].as_array_mut().unwrap() {
        if s["id"] == 1001 {
            s["bindedip"] = "45.83.223.50".into();
        }
    }
    let seed = crate::support::write_seed("bound-public", &seed);
    let mut e = start(SandboxConfig {
        seed: Some(seed),
        ..SandboxConfig::default()
    })
    .await;
    e.filter("1002");
    e.s.settle().await;
    e.s.press(KeyCode::Char('b'));
    e.s.type_text("45.83.223.50");
    let from = e.mark();
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    let writes = e.writes_since(from);
    assert_eq!(
        json(&writes[0].body),
        serde_json::json!({"setip": "45.83.223.50"})
    );
    assert_eq!(writes[0].status, 422);
    e.shows("✗ Unprocessable Entity. IP already binded");
    // The form stays, with the value, to correct it.
    e.shows("[45.83.223.50");
}

/// Issue 46.7: a documentation address (RFC 5737) was sent; no proxy user comes from one.
#[tokio::test]
async fn a_documentation_address_is_refused_by_the_form_and_never_sent() {
    let mut e = on_service("1002").await;
    e.s.press(KeyCode::Char('b'));
    let from = e.mark();
    for ip in ["192.0.2.1", "198.51.100.7", "203.0.113.5"] {
        e.ctrl('u');
        e.s.type_text(ip);
        e.s.press(KeyCode::Enter);
        e.s.settle().await;
        e.shows(&format!("✗ {ip} is a documentation address"));
    }
    assert!(e.writes_since(from).is_empty());
}

#[tokio::test]
async fn the_detail_says_whether_the_bound_ip_is_this_machine() {
    let mut e = on_service("1001").await;
    e.shows("Bound IP      192.0.2.50 (not this machine)");
}

#[tokio::test]
async fn b_on_a_rotating_service_says_so_and_opens_nothing() {
    let mut e = on_service("1003").await;
    let from = e.mark();
    e.s.press(KeyCode::Char('b'));
    e.shows("Service 1003 is ppr (rotating): only static (fpr) services have an IP to bind");
    assert!(e.s.app.popups().is_empty());
    assert!(e.writes_since(from).is_empty());
}
