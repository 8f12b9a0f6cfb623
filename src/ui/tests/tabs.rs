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
    // Every word, each anywhere in the row: the plans whose number holds 9999.
    h.keys("/plan 9999");
    let holding = (1..=100_000u32)
        .filter(|i| i.to_string().contains("9999"))
        .count();
    assert_eq!(h.app.products().table.len(), holding);
    let screen = render(&mut h.app, 100, 30);
    assert!(
        screen.contains(&format!("{holding} of 100,000")),
        "{screen}"
    );
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

/// Orders product 1 for client 102 through the order form, as attempt `attempt`: placed
/// as service `Ok(id)`, or lost on its way (`Err`), and the form closed.
fn order_for_client_102(h: &mut Harness, attempt: u64, answer: Result<u64, ()>) {
    use crate::api::{ApiError, OrderRequest, OrderResult, Request, Response, Ticket};
    use crossterm::event::KeyCode;
    let cmds = h.key('o');
    h.settle(cmds);
    h.keys("ops");
    h.code(KeyCode::Enter);
    let sent = Request::order(
        1,
        OrderRequest {
            clientid: 102,
            setip: None,
        },
    );
    let cmds = h.code(KeyCode::Enter);
    assert!(
        cmds.iter().any(
            |c| matches!(c, crate::app::Command::Write { request, ticket }
            if *request == sent && *ticket == Ticket(attempt))
        ),
        "{cmds:?}"
    );
    h.advance(60);
    match answer {
        Ok(service_id) => h.ok(
            sent,
            Response::Order(OrderResult {
                service_id,
                order_id: Some(15004),
                invoice_id: Some(104),
                amount: 11.0,
                ip: Some("203.0.113.9".into()),
            }),
        ),
        Err(()) => h.fail(
            sent,
            ApiError::Timeout {
                url: "https://api.example/api/product/1".into(),
                secs: 30,
            },
        ),
    };
    // Esc until the form is gone (a failed form goes back a step, then asks).
    for _ in 0..4 {
        if h.app.popups().is_empty() {
            break;
        }
        h.code(KeyCode::Esc);
    }
    assert!(h.app.popups().is_empty(), "{:?}", h.app.popups());
}

/// The Products tab read, with the order form's clients (101 and 102) ready.
fn on_products_with_clients() -> Harness {
    use crate::api::{Client, Request, Response};
    let mut h = Harness::loaded();
    let clients = vec![
        Client {
            id: 101,
            email: "alice@example.com".into(),
        },
        Client {
            id: 102,
            email: "ops@brightline.example".into(),
        },
    ];
    h.answers
        .insert(Request::Clients, Response::Clients(clients));
    let cmds = h.key('2');
    h.settle(cmds);
    assert_eq!(h.app.products().rows()[0].product_id, 1);
    h
}

/// Client 102's card, from the Clients tab, drawn at 80×24.
fn card_of_client_102(h: &mut Harness) -> String {
    use crossterm::event::KeyCode;
    let cmds = h.key('7');
    h.settle(cmds);
    h.code(KeyCode::Down);
    h.code(KeyCode::Enter);
    let screen = render(&mut h.app, 80, 24);
    assert!(
        screen.contains("Client 102 · ops@brightline.example"),
        "{screen}"
    );
    screen
}

/// Enter on a client: the card, with the orders this session placed for that client (one
/// placed, one whose outcome is unknown and being checked), newest first.
#[test]
fn client_card_lists_this_sessions_orders() {
    let mut h = on_products_with_clients();
    order_for_client_102(&mut h, 1, Ok(5004));
    order_for_client_102(&mut h, 2, Err(()));
    let screen = card_of_client_102(&mut h);
    assert!(screen.contains("service 5004"), "{screen}");
    assert!(screen.contains("in doubt"), "{screen}");
    insta::assert_snapshot!(screen);
}

/// More orders than the card holds: the newest are shown, the rest counted.
#[test]
fn client_card_counts_the_orders_it_does_not_show() {
    let mut h = on_products_with_clients();
    for n in 1..=10 {
        order_for_client_102(&mut h, n, Ok(6000 + n));
    }
    // At 80×24 the screen holds six (two lines each), and the card stays whole.
    let screen = card_of_client_102(&mut h);
    assert!(
        screen.contains("service 6010"),
        "the newest first: {screen}"
    );
    assert!(screen.contains("service 6005"), "{screen}");
    assert!(!screen.contains("service 6004"), "{screen}");
    assert!(screen.contains("… and 4 more"), "{screen}");
    assert!(screen.contains("y copies the e-mail"), "{screen}");
    // A taller screen shows at most eight.
    let screen = render(&mut h.app, 120, 40);
    assert!(screen.contains("service 6003"), "{screen}");
    assert!(!screen.contains("service 6002"), "{screen}");
    assert!(screen.contains("… and 2 more"), "{screen}");
}

/// The money ahead on the Billing tab is the engine's one working out, the one
/// `/metrics` and the alert rules read (the tab once worked out its own from the
/// catalogue rows it showed), drawn with its caveats in the words `credit` uses.
#[test]
fn the_billing_tabs_money_ahead_is_the_engines() {
    let mut h = Harness::loaded();
    let engine = h.engine.money().cloned().expect("worked out");
    let shown = h.app.runway().expect("published");
    assert!(std::ptr::eq(shown, &*engine));
    let summary = h
        .engine
        .summary(h.app.now())
        .runway
        .expect("in the summary");
    assert!(std::sync::Arc::ptr_eq(&engine, &summary));
    // A service whose detail is not read is priced from the catalogue, its cycle taken
    // as Monthly: said on the tab in the words of `credit` (`Runway::line`).
    h.listed.push(crate::api::ServiceSummary {
        product_name: crate::app::testdata::product_summary(1).product_name,
        nextduedate: Some(crate::app::testdata::date("2026-01-20")),
        ..crate::app::testdata::summary(7777)
    });
    let services = h.listed.clone();
    h.read_through_engine(
        crate::api::Request::Services,
        crate::api::Response::Services(services),
    );
    let r = h.app.runway().expect("published").clone();
    assert_eq!(r.assumed_monthly, 1, "{r:?}");
    assert_eq!(r.caveats().len(), 2, "{r:?}");
    h.key('3');
    let screen = render(&mut h.app, 200, 30);
    for (words, _) in r.caveats() {
        assert!(screen.contains(&words), "{words:?} not on\n{screen}");
        assert!(r.line().contains(&words));
    }
}
