//! Ordering (`o` on Products): success, every 422 of endpoint 5 as the sandbox produces
//! it, the double submit, the unknown outcome (and Enter pressed again and again after
//! it), a second order while one is on its way, and the short-credit warning.

use super::*;
use proxydash::api::{Client, Loaded, ProductSummary};
use proxydash::app::Msg;
use proxydash::sandbox::SandboxConfig;

/// Products tab, the first product (11, Datacenter US 10, fpr, $12) selected, form open.
async fn order_form() -> Env {
    let mut e = start(SandboxConfig::default()).await;
    e.s.press(KeyCode::Char('2'));
    e.s.settle().await;
    e.s.press(KeyCode::Char('o'));
    e.s.settle().await;
    e.shows("Order product 11");
    e
}

#[tokio::test]
async fn an_order_is_confirmed_sent_once_and_refreshes_services_credit_and_invoices() {
    let mut e = order_form().await;
    e.shows("Datacenter US 10 · fpr (static) · $12.00");
    e.shows("$250.00 → $238.00 after this order");
    e.s.type_text("alice");
    e.s.press(KeyCode::Tab);
    e.s.type_text("203.0.113.77");
    let from = e.mark();
    e.s.press(KeyCode::Enter);
    e.shows("Order product 11 · confirm");
    e.shows("alice.nguyen@example.com (client 101)");
    e.shows("Bind IP    203.0.113.77");
    assert!(
        e.writes_since(from).is_empty(),
        "nothing before the confirmation"
    );
    let services = e.sb.state().services;
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    let writes = e.writes_since(from);
    assert_eq!(writes.len(), 1);
    assert_eq!(
        (writes[0].method.as_str(), writes[0].path.as_str()),
        ("POST", "/api/product/11")
    );
    assert_eq!(
        json(&writes[0].body),
        serde_json::json!({"clientid": 101, "setip": "203.0.113.77"})
    );
    assert_eq!(e.sb.state().services, services + 1);
    let new_id = (e.sb.state().services + 1000).to_string();
    e.shows("✓ Ordered Datacenter US 10");
    e.shows(&format!("Service    {new_id}"));
    e.shows("IP         203.0.113.77");
    let after: Vec<String> = e
        .since(from)
        .into_iter()
        .skip_while(|r| !r.starts_with("POST"))
        .collect();
    for read in [
        "GET /api/services",
        "GET /api/billing/credit",
        "GET /api/billing/invoices",
    ] {
        assert!(
            after.iter().any(|r| r == read),
            "{read} after the POST: {after:?}"
        );
    }
    e.s.press(KeyCode::Enter);
    e.s.press(KeyCode::Char('1'));
    e.filter(&new_id);
    e.s.settle().await;
    e.shows("Services · 1 of 14");
}

#[tokio::test]
async fn enter_pressed_again_while_submitting_sends_one_post() {
    let mut e = order_form().await;
    e.s.press(KeyCode::Enter);
    e.shows("· confirm");
    e.sb.set_latency(Duration::from_millis(400));
    let from = e.mark();
    e.s.press(KeyCode::Enter);
    e.shows("⟳ Placing the order…");
    e.s.press(KeyCode::Enter);
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    let posts: Vec<_> = e.writes_since(from);
    assert_eq!(posts.len(), 1, "{posts:?}");
    e.shows("✓ Ordered");
}

#[tokio::test]
async fn a_connection_dropped_after_sending_is_an_unknown_outcome_and_rereads_services() {
    let mut e = order_form().await;
    e.s.press(KeyCode::Enter);
    e.sb.set_faults(Some("drop-after,method=POST".parse().unwrap()));
    let services = e.sb.state().services;
    let from = e.mark();
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    let log = e.since(from);
    let post = log
        .iter()
        .position(|r| r == "POST /api/product/11")
        .expect("sent");
    assert_eq!(
        log.iter().filter(|r| r.starts_with("POST")).count(),
        1,
        "never resent: {log:?}"
    );
    assert!(
        log[post..].iter().any(|r| r == "GET /api/services"),
        "services re-read after the POST: {log:?}"
    );
    e.shows("✗ Outcome unknown, so it was checked. Order of product 11");
    e.shows("it went through (new service");
    // It did go through, and the re-read list shows it.
    assert_eq!(e.sb.state().services, services + 1);
    // The form is closed; the next order's confirmation still warns.
    e.s.press(KeyCode::Esc);
    e.s.press(KeyCode::Char('o'));
    e.s.settle().await;
    e.s.press(KeyCode::Enter);
    e.shows("Order product 11 · confirm");
    e.shows("⚠ This product's order sent at");
    e.shows("it went through: new service");
    e.shows("Type the product ID, then Enter, to order it again.");
    e.s.press(KeyCode::Esc);
    e.s.press(KeyCode::Esc);
    e.s.press(KeyCode::Char('1'));
    e.shows(&format!("Services · {}", services + 1));
}

#[tokio::test]
async fn short_credit_is_warned_about_and_the_server_refuses() {
    let mut e = order_form().await;
    e.s.press(KeyCode::Esc);
    // 14: ISP Multi-Geo 50, $299 against a credit of $250.
    e.s.type_text("jjj");
    e.s.press(KeyCode::Char('o'));
    e.s.settle().await;
    e.shows("Order product 14");
    e.s.press(KeyCode::Enter);
    e.shows("$250.00 (short of the price by $49.00)");
    e.shows("⚠ The credit shown is $49.00 short of the price:");
    let from = e.mark();
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    assert_eq!(e.writes_since(from).len(), 1, "the user may still send");
    assert_eq!(e.writes_since(from)[0].status, 422);
    e.shows("✗ Unprocessed entity or not enough funds to order");
    // The form stays with its values.
    e.shows("Order product 14");
}

#[tokio::test]
async fn an_ip_bound_elsewhere_is_incorrect_posted_data() {
    let mut e = order_form().await;
    e.s.press(KeyCode::Tab);
    // Bound to service 1001.
    e.s.type_text("192.0.2.50");
    e.s.press(KeyCode::Enter);
    let from = e.mark();
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    assert_eq!(json(&e.writes_since(from)[0].body)["setip"], "192.0.2.50");
    e.shows("✗ Unprocessable Entity. Incorrect posted data");
    e.shows("[192.0.2.50");
}

#[tokio::test]
async fn a_client_removed_since_the_list_was_read_is_client_id_not_found() {
    let mut e = order_form().await;
    // The list on screen is stale: it still has client 199, who is gone.
    e.s.send(Msg::loaded(Loaded::Clients(Ok(vec![Client {
        id: 199,
        email: "gone@example.com".into(),
    }]))));
    e.s.press(KeyCode::Enter);
    e.shows("gone@example.com (client 199)");
    let from = e.mark();
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    assert_eq!(json(&e.writes_since(from)[0].body)["clientid"], 199);
    e.shows("✗ Unprocessable Entity. ClientID not found");
}

#[tokio::test]
async fn a_product_removed_since_the_list_was_read_is_product_not_found() {
    let mut e = order_form().await;
    e.s.press(KeyCode::Esc);
    // A stale product list with a product the server no longer has.
    e.s.send(Msg::loaded(Loaded::Products(Ok(vec![ProductSummary {
        product_id: 999,
        product_name: "Withdrawn plan".into(),
        price: 5.0,
        group_id: Some(1),
        group_name: "Static Datacenter".into(),
        created_at: None,
    }]
    .into()))));
    e.s.press(KeyCode::Char('o'));
    e.s.settle().await;
    e.shows("Order product 999");
    e.shows("Withdrawn plan · type unknown · $5.00");
    e.shows("— (the product's type could not be read)");
    e.s.press(KeyCode::Enter);
    let from = e.mark();
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    let writes = e.writes_since(from);
    assert_eq!(writes[0].path, "/api/product/999");
    e.shows("✗ Unprocessable Entity or product ID not found");
}

/// Issue 11.1: the server carries the order out and resets the connection; Enter pressed
/// ten more times (the answers handled in between, as they would be at 150 ms apart) must
/// not order again. Only the product ID typed into the confirmation does.
#[tokio::test]
async fn a_lost_answer_then_enter_ten_times_is_exactly_one_post() {
    let mut e = order_form().await;
    e.s.press(KeyCode::Enter);
    e.sb.set_faults(Some("drop-after,method=POST".parse().unwrap()));
    let services = e.sb.state().services;
    let from = e.mark();
    for _ in 0..11 {
        e.s.press(KeyCode::Enter);
        e.s.settle().await;
    }
    let posts = e.writes_since(from);
    assert_eq!(posts.len(), 1, "exactly one POST: {posts:?}");
    assert_eq!(e.sb.state().services, services + 1, "it was carried out");
    // The check read services and invoices again, after the POST, and says what it found.
    let log = e.since(from);
    let post = log.iter().position(|r| r.starts_with("POST")).unwrap();
    for read in ["GET /api/services", "GET /api/billing/invoices"] {
        assert!(log[post..].iter().any(|r| r == read), "{read}: {log:?}");
    }
    let new_id = services + 1000 + 1;
    e.shows(&format!("it went through: new service {new_id}"));
    e.shows("✗ Not sent: type the product ID (11), then Enter, to order it again.");
    // The status line says it too, and the log (m) keeps the whole story.
    e.shows("✓ Order of product 11 (Datacenter US 10) sent at");
    e.s.press(KeyCode::Esc);
    e.s.press(KeyCode::Esc);
    e.s.press(KeyCode::Char('m'));
    e.shows("Messages · 1 of");
    e.shows("⚠ warn    Order of product 11 (Datacenter US 10) for client 101: Outcome unknown");
    e.shows("• info    Order of product 11 (Datacenter US 10) for client 101: sent");
    e.s.press(KeyCode::Esc);
    // A deliberate second order: the product ID typed, then Enter.
    e.sb.set_faults(None);
    e.s.press(KeyCode::Char('o'));
    e.s.settle().await;
    e.s.press(KeyCode::Enter);
    e.s.type_text("11");
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    assert_eq!(e.writes_since(from).len(), 2, "one more, typed for");
    e.shows("✓ Ordered Datacenter US 10");
}

/// Issue 11.2: Esc while the POST is on its way, then the same order again: it waits and
/// says why; the first outcome stays on the status line.
#[tokio::test]
async fn a_second_identical_order_waits_for_the_first_and_its_outcome_stays() {
    let mut e = order_form().await;
    e.s.press(KeyCode::Enter);
    e.sb.set_latency(Duration::from_millis(400));
    let from = e.mark();
    e.s.press(KeyCode::Enter);
    e.shows("⟳ Placing the order…");
    e.s.press(KeyCode::Esc);
    e.s.press(KeyCode::Char('o'));
    e.s.press(KeyCode::Enter);
    e.s.press(KeyCode::Enter);
    e.shows("Not sent: the order of product 11 for client 101 sent at");
    e.s.press(KeyCode::Esc);
    e.s.press(KeyCode::Esc);
    e.s.settle().await;
    assert_eq!(
        e.writes_since(from).len(),
        1,
        "the same order is not sent twice"
    );
    e.shows("✓ Order of product 11 (Datacenter US 10) for client 101: Ordered: service");
}

/// Issue 11.10: a price the server did not send is not `$0.00`, a price or credit past
/// any real sum is out of range (not `$184,467,440,737,095,516.15`), a table cell never
/// shows a number with digits cut off, and the confirmation says the price is unknown.
#[tokio::test]
async fn missing_and_absurd_money_is_shown_as_such() {
    let mut seed: serde_json::Value =
        serde_json::from_str(include_str!("../../assets/seed.json")).unwrap();
    seed["credit"] = 1e300.into();
    seed["products"][0]["_wire"] = serde_json::json!({ "price": null });
    seed["products"][1]["_wire"] = serde_json::json!({ "price": 123456789.0 });
    let dir = std::env::temp_dir().join(format!("proxydash-money-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("seed.json");
    std::fs::write(&path, seed.to_string()).unwrap();
    let mut e = start(SandboxConfig {
        seed: Some(path),
        quirks: true,
        ..SandboxConfig::default()
    })
    .await;
    e.s.press(KeyCode::Char('3'));
    e.s.settle().await;
    let billing = e.shows(">$1T");
    assert!(!billing.contains("184,467"), "{billing}");
    e.s.press(KeyCode::Char('2'));
    e.s.settle().await;
    let products = e.shows("Datacenter US 10");
    let row = |name: &str| {
        products
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("{name} in {products}"))
            .to_owned()
    };
    assert!(row("Datacenter US 10").contains('—'), "{products}");
    assert!(!row("Datacenter US 10").contains("$0.00"), "{products}");
    // $123,456,789.00 is shown whole (the column widens to it) or as `…`: never cut to
    // `456,789.00`.
    let eu = row("Datacenter EU 25");
    assert!(
        eu.contains("$123,456,789.00") || (eu.contains('…') && !eu.contains("789.00")),
        "{products}"
    );
    e.s.press(KeyCode::Char('o'));
    e.s.settle().await;
    e.shows("Datacenter US 10 · fpr (static) · price unknown");
    e.s.type_text("alice");
    e.s.press(KeyCode::Enter);
    e.shows("Order product 11 · confirm");
    e.shows("price unknown");
    e.shows("The server sent no price for this product");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 26.7: Esc on fields holding typed text asks first; typing on keeps everything,
/// a second Esc throws it away.
#[tokio::test]
async fn esc_asks_before_throwing_away_what_was_typed() {
    let mut e = order_form().await;
    e.s.type_text("alice");
    e.s.press(KeyCode::Tab);
    e.s.type_text("203.0.113.7");
    e.s.press(KeyCode::Esc);
    e.shows("Order product 11");
    e.shows("Esc again throws away what was typed");
    // Another key keeps editing, with what was typed.
    e.s.type_text("7");
    let screen = e.shows("203.0.113.77");
    assert!(!screen.contains("Esc again"), "{screen}");
    e.shows("alice");
    e.s.press(KeyCode::Esc);
    e.shows("Esc again throws away what was typed");
    e.s.press(KeyCode::Esc);
    let screen = e.s.screen();
    assert!(!screen.contains("Order product 11"), "closed:\n{screen}");
    // An empty form closes on the first Esc.
    e.s.press(KeyCode::Char('o'));
    e.s.settle().await;
    e.shows("Order product 11");
    e.s.press(KeyCode::Esc);
    let screen = e.s.screen();
    assert!(!screen.contains("Order product 11"), "closed:\n{screen}");
}
