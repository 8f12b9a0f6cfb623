//! Every tab loaded, at 100×30 and at the smallest size, 80×24, and wide.

use super::render;
use crate::testkit::*;
use crossterm::event::KeyCode;
use insta::assert_snapshot;

#[test]
fn services_loaded() {
    let mut h = Harness::loaded();
    assert_snapshot!(render(&mut h.app, 100, 30));
}

#[test]
fn services_loaded_80x24() {
    let mut h = Harness::loaded();
    assert_snapshot!(render(&mut h.app, 80, 24));
}

#[test]
fn services_wide_shows_the_detail_beside() {
    let mut h = Harness::loaded();
    assert_snapshot!(render(&mut h.app, 140, 30));
}

#[test]
fn services_password_shown() {
    let mut h = Harness::loaded();
    h.key('v');
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("pw-5001-secret"));
    assert_snapshot!(screen);
}

#[test]
fn services_password_hidden() {
    let mut h = Harness::loaded();
    let screen = render(&mut h.app, 100, 30);
    assert!(!screen.contains("pw-5001-secret"));
    assert!(screen.contains(crate::ui::services::MASK));
}

#[test]
fn services_filtered() {
    let mut h = Harness::loaded();
    // The filter selects 5002, whose detail is fetched then.
    let cmds = h.keys("/rot");
    h.settle(cmds);
    assert_snapshot!(render(&mut h.app, 100, 30));
}

#[test]
fn products_loaded_sorted() {
    let mut h = Harness::loaded();
    let cmds = h.key('2');
    h.settle(cmds);
    let cmds = h.keys("ss");
    h.settle(cmds);
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("sorted by productName"));
    assert_snapshot!(screen);
}

#[test]
fn products_loaded_80x24() {
    let mut h = Harness::loaded();
    let cmds = h.key('2');
    h.settle(cmds);
    assert_snapshot!(render(&mut h.app, 80, 24));
}

#[test]
fn billing_loaded() {
    let mut h = Harness::loaded();
    h.key('3');
    assert_snapshot!(render(&mut h.app, 100, 30));
}

#[test]
fn billing_wide() {
    let mut h = Harness::loaded();
    h.key('3');
    assert_snapshot!(render(&mut h.app, 120, 24));
}

#[test]
fn invoice_popup() {
    let mut h = Harness::loaded();
    h.key('3');
    let cmds = h.code(KeyCode::Enter);
    h.settle(cmds);
    assert_snapshot!(render(&mut h.app, 100, 30));
}

#[test]
fn network_loaded() {
    let mut h = Harness::loaded();
    h.key('4');
    assert_snapshot!(render(&mut h.app, 100, 30));
}

#[test]
fn usage_loaded() {
    let mut h = Harness::loaded();
    // The selected service's statistics are read when it is shown.
    let cmds = h.key('5');
    h.settle(cmds);
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("45% — 4,500 of 10,000"), "{screen}");
    assert_snapshot!(screen);
}

#[test]
fn usage_over_limit() {
    let mut h = Harness::loaded();
    let cmds = h.key('5');
    h.settle(cmds);
    let cmds = h.key('G');
    h.settle(cmds);
    let screen = render(&mut h.app, 100, 30);
    assert!(
        screen.contains("132% — 13,200 of 10,000, over limit by 3,200"),
        "{screen}"
    );
    assert_snapshot!(screen);
}

#[test]
fn help_overlay() {
    let mut h = Harness::loaded();
    h.key('?');
    assert_snapshot!(render(&mut h.app, 100, 30));
}

#[test]
fn help_overlay_products() {
    let mut h = Harness::loaded();
    h.key('2');
    h.key('?');
    assert_snapshot!(render(&mut h.app, 80, 24));
}

#[test]
fn service_detail_popup() {
    let mut h = Harness::loaded();
    h.code(KeyCode::Enter);
    assert_snapshot!(render(&mut h.app, 100, 30));
}

#[test]
fn too_small() {
    let mut h = Harness::loaded();
    let screen = render(&mut h.app, 39, 24);
    assert!(
        screen.starts_with("\"terminal too small (need 40×8)"),
        "{screen}"
    );
    assert_snapshot!(screen);
    let screen = render(&mut h.app, 80, 7);
    assert!(screen.contains("terminal too small"));
    // Issue 26.1: a wide but short terminal (160×20) lays out what fits.
    let screen = render(&mut h.app, 160, 20);
    assert!(!screen.contains("terminal too small"), "{screen}");
    assert!(
        screen.contains("5001") && screen.contains("5003"),
        "{screen}"
    );
}

#[test]
fn a_hundred_thousand_products_filter_and_render() {
    use crate::api::{Request, Response};
    let mut h = Harness::new();
    let _ = h.app.start();
    let list = (1..=100_000)
        .map(crate::app::testdata::product_summary)
        .collect();
    let _ = h.ok(Request::Products, Response::Products(list));
    h.key('2');
    h.key('G');
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("Proxy plan 100000"), "{screen}");
    assert!(screen.contains("Products · 100,000"));
    h.keys("/plan 9999");
    assert_eq!(h.app.products().table.len(), 11); // 9999, 99990..=99999
    let screen = render(&mut h.app, 100, 30);
    assert!(screen.contains("11 of 100,000"), "{screen}");
}

#[test]
fn clients_loaded() {
    use crate::api::{Client, Request, Response};
    let mut h = Harness::loaded();
    let long = "a.very.long.mailbox.name.for.the.reseller@clients.example.com";
    h.answers.insert(
        Request::Clients,
        Response::Clients(vec![
            Client {
                id: 7,
                email: "ann@example.com".into(),
            },
            Client {
                id: 12,
                email: long.into(),
            },
            // A server's control characters are not drawn.
            Client {
                id: 9,
                email: "bob\u{1b}[31m@example.org".into(),
            },
        ]),
    );
    let cmds = h.key('7');
    h.settle(cmds);
    let screen = render(&mut h.app, 80, 24);
    assert!(screen.contains("Clients · 3"), "{screen}");
    assert!(screen.contains("ann@example.com"), "{screen}");
    assert!(screen.contains(long), "{screen}");
    assert!(!screen.contains('\u{1b}'), "{screen}");
    assert_snapshot!(screen);
    h.keys("/zzz");
    let screen = render(&mut h.app, 80, 24);
    assert!(
        screen.contains("No clients match \"zzz\" (Esc clears the filter)."),
        "{screen}"
    );
}
