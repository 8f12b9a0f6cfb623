//! Opening an invoice by its number (`#` on Billing): one GET of endpoint 12, then the
//! viewer shows it; an unknown number says so and sends nothing more.

use super::*;
use proxydash::sandbox::SandboxConfig;

#[tokio::test]
async fn a_number_is_one_get_then_the_viewer_and_an_unknown_one_says_so() {
    let mut e = start(SandboxConfig::default()).await;
    e.s.press(KeyCode::Char('3'));
    e.s.settle().await;
    let from = e.mark();
    e.s.press(KeyCode::Char('#'));
    e.shows("Open invoice");
    e.s.type_text("7004");
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    assert_eq!(e.since(from), vec!["GET /api/billing/invoice/7004"]);
    e.shows("Invoice 7004");
    e.shows("Datacenter EU 25 - renewal");
    assert!(
        !e.s.screen().contains("Open invoice"),
        "the viewer took its place"
    );
    e.s.press(KeyCode::Esc);
    assert!(e.s.app.popups().is_empty());

    let from = e.mark();
    e.s.press(KeyCode::Char('#'));
    e.s.type_text("12x");
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    e.shows("✗ Digits only: \"x\" is not one.");
    assert!(e.since(from).is_empty(), "nothing sent");
    e.s.press(KeyCode::Backspace);
    e.s.type_text("345");
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    assert_eq!(e.since(from), vec!["GET /api/billing/invoice/12345"]);
    e.shows("✗ No invoice 12345 on this account");
    e.shows("[12345");
}
