//! Opening a service by its ID (`#` on Services): one GET of endpoint 13, then its row is
//! selected past the filter and its detail opens; an unknown ID says so in the form.

use super::*;
use proxydash::app::popups::Popup;
use proxydash::app::popups::service::ServiceViewer;
use proxydash::sandbox::SandboxConfig;

#[tokio::test]
async fn an_id_is_one_get_then_its_row_and_detail_and_an_unknown_one_says_so() {
    let mut e = start(SandboxConfig::default()).await;
    e.filter("1001");
    e.s.settle().await;
    let from = e.mark();
    e.s.press(KeyCode::Char('#'));
    e.shows("Open service");
    e.s.type_text("12x");
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    e.shows("✗ Digits only: \"x\" is not one.");
    assert!(e.since(from).is_empty(), "nothing sent");

    e.ctrl('u');
    e.s.type_text("1002");
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    let sent = e.since(from);
    assert_eq!(
        sent.first().map(String::as_str),
        Some("GET /api/service/1002")
    );
    let gets = sent.iter().filter(|r| *r == "GET /api/service/1002");
    assert_eq!(gets.count(), 1, "one GET: {sent:?}");
    assert_eq!(
        e.s.app.popups(),
        &[Popup::Service(ServiceViewer::new(1002))]
    );
    assert_eq!(e.s.app.services().table.selected_id(), Some(1002));
    assert_eq!(e.s.app.services().table.filter(), "", "the filter hid it");
    e.shows("Service 1002");
    e.s.press(KeyCode::Esc);

    let from = e.mark();
    e.s.press(KeyCode::Char('#'));
    e.s.type_text("99999");
    e.s.press(KeyCode::Enter);
    e.s.settle().await;
    assert_eq!(e.since(from), vec!["GET /api/service/99999"]);
    e.shows("✗ No service 99999 on this account");
    e.shows("[99999");
}
