//! The forms driven through `App::update`: keys in, state and commands out.

use crate::api::*;
use crate::app::forms::FormState;
use crate::app::forms::order::{self, done_message};
use crate::app::popups::PopupKind;
use crate::app::{AppSettings, Command, Msg};
use crate::testkit::*;
use crossterm::event::KeyCode;
use std::net::Ipv4Addr;

pub(super) fn clients() -> Vec<Client> {
    vec![
        Client {
            id: 101,
            email: "alice@example.com".into(),
        },
        Client {
            id: 102,
            email: "ops@brightline.example".into(),
        },
    ]
}

pub(super) fn writes(cmds: &[Command]) -> Vec<Request> {
    fetches(cmds)
        .into_iter()
        .filter(Request::is_write)
        .collect()
}

/// The order form for product 1 (fpr in the standard account), clients loaded.
pub(super) fn order_form() -> Harness {
    let mut h = Harness::loaded();
    let cmds = h.key('2');
    h.settle(cmds);
    let cmds = h.key('o');
    let asked = fetches(&cmds);
    assert!(asked.contains(&Request::Clients), "{asked:?}");
    assert!(asked.contains(&Request::Credit), "{asked:?}");
    h.ok(Request::Clients, Response::Clients(clients()));
    h.answer(&Request::Credit);
    h
}

pub(super) fn order(h: &Harness) -> &crate::app::forms::order::OrderForm {
    match crate::app::tests::top::order(h) {
        Some(f) => f,
        None => panic!("{:?}", h.top()),
    }
}

#[test]
fn order_types_into_the_picker_confirms_and_sends_one_post() {
    let mut h = order_form();
    assert_eq!(h.app.context().popup, Some(PopupKind::Step(&order::EDIT)));
    assert!(h.app.context().typing);
    // q, j and ? are text here.
    assert!(h.keys("qj?").is_empty());
    assert!(!h.app.should_quit());
    assert_eq!(order(&h).client_filter.value(), "qj?");
    h.ctrl('u');
    h.keys("ops");
    h.code(KeyCode::Tab);
    h.paste("\n203.0.113.9\nignored");
    assert!(
        writes(&h.code(KeyCode::Enter)).is_empty(),
        "Enter checks first"
    );
    assert_eq!(
        h.app.context().popup,
        Some(PopupKind::Step(&order::CONFIRM))
    );
    let expected = Request::order(
        1,
        OrderRequest {
            clientid: 102,
            setip: Some("203.0.113.9".into()),
        },
    );
    let cmds = h.code(KeyCode::Enter);
    assert_eq!(writes(&cmds), vec![expected.clone()]);
    // The app's first attempt.
    assert_eq!(tickets(&cmds), vec![Ticket(1)]);
    assert_eq!(order(&h).core.state, FormState::Submitting);
    for _ in 0..3 {
        assert!(h.code(KeyCode::Enter).is_empty(), "Enter while submitting");
    }
    let cmds = h.ok(
        expected,
        Response::Order(OrderResult {
            service_id: 5004,
            order_id: Some(15004),
            invoice_id: Some(104),
            amount: 11.0,
            ip: Some("203.0.113.9".into()),
        }),
    );
    let asked = fetches(&cmds);
    for r in [Request::Services, Request::Credit, Request::Invoices] {
        assert!(asked.contains(&r), "{r:?} refreshed: {asked:?}");
    }
    assert_eq!(
        order(&h).result().map(done_message).as_deref(),
        Some("Ordered: service 5004, order 15004, invoice 104, $11.00, IP 203.0.113.9")
    );
    h.code(KeyCode::Enter);
    assert!(h.app.popups().is_empty());
}

#[test]
fn order_refuses_an_invalid_ip_and_an_unmatched_client_before_anything_is_sent() {
    let mut h = order_form();
    h.keys("nobody");
    assert!(writes(&h.code(KeyCode::Enter)).is_empty());
    assert_eq!(
        order(&h).client_error.as_deref(),
        Some("No client matches \"nobody\".")
    );
    h.ctrl('u');
    h.code(KeyCode::Down);
    h.code(KeyCode::Tab);
    h.keys("1.2.3.04");
    assert!(writes(&h.code(KeyCode::Enter)).is_empty());
    assert_eq!(order(&h).ip_error.as_deref(), Some("04 has a leading zero"));
    assert_eq!(h.app.context().popup, Some(PopupKind::Step(&order::EDIT)));
    // Esc asks first when something was typed, then closes.
    h.code(KeyCode::Esc);
    assert!(order(&h).discard_asked);
    h.code(KeyCode::Esc);
    assert!(h.app.popups().is_empty());
}

#[test]
fn order_esc_on_the_confirmation_goes_back_to_the_fields() {
    let mut h = order_form();
    h.code(KeyCode::Enter);
    assert_eq!(
        h.app.context().popup,
        Some(PopupKind::Step(&order::CONFIRM))
    );
    h.code(KeyCode::Esc);
    assert_eq!(h.app.context().popup, Some(PopupKind::Step(&order::EDIT)));
}

#[test]
fn order_unknown_outcome_rereads_services_and_is_not_resent() {
    let mut h = order_form();
    h.code(KeyCode::Enter);
    let sent = writes(&h.code(KeyCode::Enter));
    assert_eq!(sent.len(), 1);
    let cmds = h.fail(
        sent[0].clone(),
        ApiError::Transport {
            url: "https://api.example.com/api/product/1".into(),
            cause: "connection closed before message completed".into(),
        },
    );
    assert!(fetches(&cmds).contains(&Request::Services));
    assert!(writes(&cmds).is_empty(), "never resent by itself");
    let f = order(&h);
    assert!(h.app.order_in_doubt());
    assert!(
        f.core
            .state
            .message()
            .unwrap()
            .starts_with("Outcome unknown:"),
        "{:?}",
        f.core.state
    );
    // Closed and opened again: the doubt is not forgotten with the form.
    h.code(KeyCode::Esc);
    assert_eq!(h.app.context().popup, None);
    assert!(h.app.order_in_doubt());
    h.settle(cmds);
    h.key('o');
    // An order that succeeds settles it (confirmed by typing the product ID: see
    // tests/orders.rs).
    h.code(KeyCode::Enter);
    h.keys("1");
    let sent = writes(&h.code(KeyCode::Enter));
    assert_eq!(sent.len(), 1);
    h.ok(
        sent[0].clone(),
        Response::Order(OrderResult {
            service_id: 9001,
            order_id: Some(1),
            invoice_id: Some(2),
            amount: 12.0,
            ip: None,
        }),
    );
    assert!(!h.app.order_in_doubt(), "an order that succeeds settles it");
}

#[test]
fn order_422_is_shown_and_the_values_stay() {
    let mut h = order_form();
    h.keys("ops");
    h.code(KeyCode::Enter);
    let sent = writes(&h.code(KeyCode::Enter));
    let cmds = h.fail(
        sent[0].clone(),
        ApiError::Unprocessable {
            kind: Unprocessable::NotEnoughFunds,
            message: "Unprocessed entity or not enough funds to order".into(),
        },
    );
    assert_eq!(
        fetches(&cmds),
        vec![Request::Credit],
        "the credit is re-read"
    );
    let f = order(&h);
    assert_eq!(
        f.core.state,
        FormState::Failed("Unprocessed entity or not enough funds to order".into())
    );
    assert_eq!(f.client_filter.value(), "ops");
    assert!(h.app.context().typing);
}

#[test]
fn an_answer_for_a_closed_order_form_goes_to_the_status_line() {
    let mut h = order_form();
    h.code(KeyCode::Enter);
    let sent = writes(&h.code(KeyCode::Enter));
    h.code(KeyCode::Esc);
    assert!(h.app.popups().is_empty());
    h.ok(
        sent[0].clone(),
        Response::Order(OrderResult {
            service_id: 5004,
            order_id: None,
            invoice_id: None,
            amount: 11.0,
            ip: None,
        }),
    );
    assert_eq!(
        h.status_text(),
        "Order of product 1 (Proxy plan 1) for client 101: \
         Ordered: service 5004, order —, invoice —, $11.00"
    );
}

#[test]
fn read_only_opens_no_writing_form_and_says_why() {
    let mut h = Harness::with(AppSettings {
        read_only: true,
        ..settings()
    });
    let cmds = h.app.start();
    h.settle(cmds);
    for c in ['b', 'p', 'u'] {
        assert!(h.key(c).is_empty(), "{c}");
        assert!(h.app.popups().is_empty(), "{c}");
        assert!(
            h.status_text().starts_with("Profile work is read-only"),
            "{c}"
        );
    }
    h.key('i');
    assert!(
        crate::app::tests::top::iplist(&h).is_some(),
        "IP lists stay"
    );
    h.code(KeyCode::Esc);
    h.key('2');
    h.key('o');
    assert!(h.app.popups().is_empty());
    assert_eq!(
        h.status_text(),
        "Profile work is read-only: ordering is turned off"
    );
}

#[test]
fn bind_on_a_ppr_service_says_so() {
    let mut h = Harness::loaded();
    h.key('j');
    assert!(h.key('b').is_empty());
    assert!(h.app.popups().is_empty());
    assert_eq!(
        h.status_text(),
        "Service 5002 is ppr (rotating): only static (fpr) services have an IP to bind"
    );
}

/// `b` pressed before the service's detail (its type) is in opens the form at once and
/// asks for the detail; the form says it is checking, and Enter waits for it instead of
/// sending the person away.
#[test]
fn bind_before_the_type_is_known_opens_the_form_and_waits_for_the_detail() {
    let mut h = Harness::new();
    let _ = h.app.start();
    // The services list only: no detail, no type yet.
    let mut asked = fetches(&h.send(Msg::loaded(crate::api::Loaded::Services(Ok(services())))));
    asked.extend(fetches(&h.key('b')));
    assert!(
        asked.contains(&Request::Service(5001)),
        "the detail is asked for: {asked:?}"
    );
    assert!(
        crate::app::tests::top::bind(&h).is_some(),
        "the form opened: {:?} / {}",
        h.top(),
        h.status_text()
    );
    h.keys("45.83.222.23");
    assert!(writes(&h.code(KeyCode::Enter)).is_empty(), "nothing sent");
    let f = crate::app::tests::top::bind(&h).unwrap();
    assert!(
        f.core
            .error
            .as_deref()
            .is_some_and(|e| e.contains("still loading")),
        "{:?}",
        f.core.error
    );
    // The detail arrives: the same Enter binds.
    let detail = h.answer_of(&Request::Service(5001)).unwrap();
    h.send(Msg::loaded(detail));
    let sent = writes(&h.code(KeyCode::Enter));
    assert!(
        matches!(&sent[..], [Request::UpdateService { service_id: 5001, update }]
            if update.setip.as_deref() == Some("45.83.222.23")),
        "{sent:?}"
    );
}

#[test]
fn bind_checks_the_address_then_sends_it() {
    let mut h = Harness::loaded();
    h.key('b');
    let Some(f) = crate::app::tests::top::bind(&h) else {
        panic!("{:?}", h.top());
    };
    assert_eq!(f.ip.value(), "203.0.113.5", "prefilled with bindedip");
    // Moved into, the prefilled value is edited (typed over, it would be replaced).
    h.code(KeyCode::End);
    h.code(KeyCode::Backspace);
    h.keys("500");
    assert!(h.code(KeyCode::Enter).is_empty(), "refused before sending");
    let Some(f) = crate::app::tests::top::bind(&h) else {
        panic!()
    };
    assert_eq!(f.core.error.as_deref(), Some("500 is over 255"));
    // The lookup made on first need (the Services tab shows a bound IP) answers Ctrl-L
    // too; after it failed, Ctrl-L asks again.
    assert!(h.ctrl('l').is_empty(), "one lookup on its way is enough");
    h.send(Msg::MyIp(Err("offline".into())));
    assert_eq!(h.ctrl('l'), vec![Command::LookupMyIp]);
    h.send(Msg::MyIp(Ok(Ipv4Addr::new(45, 83, 222, 23))));
    let Some(f) = crate::app::tests::top::bind(&h) else {
        panic!()
    };
    assert_eq!(f.ip.value(), "45.83.222.23");
    assert_eq!(f.core.error, None);
    let cmds = h.code(KeyCode::Enter);
    let expected = Request::UpdateService {
        service_id: 5001,
        update: Box::new(ServiceUpdate {
            setip: Some("45.83.222.23".into()),
            ..ServiceUpdate::default()
        }),
    };
    assert_eq!(writes(&cmds), vec![expected.clone()]);
    // The app's first form request: its ticket routes the answer to this form.
    assert_eq!(tickets(&cmds), vec![Ticket(1)]);
    assert!(h.code(KeyCode::Enter).is_empty());
    let cmds = h.fail(
        expected,
        ApiError::Unprocessable {
            kind: Unprocessable::IpAlreadyBound,
            message: "Unprocessable Entity. IP already binded".into(),
        },
    );
    assert_eq!(fetches(&cmds), vec![Request::Service(5001)]);
    let Some(f) = crate::app::tests::top::bind(&h) else {
        panic!()
    };
    assert_eq!(
        f.core.state,
        FormState::Failed("Unprocessable Entity. IP already binded".into())
    );
    // The form shows it, and the message log keeps it as an error.
    let newest = h.app.status().messages().newest_first().next().unwrap();
    assert_eq!(newest.level, crate::app::messages::Level::Error);
    assert_eq!(
        newest.text,
        "Service 5001 (Static US 25, account work) · bind IP 45.83.222.23: Unprocessable Entity. IP already binded"
    );
}

#[test]
fn password_is_typed_twice_masked_and_never_printed() {
    let mut h = Harness::loaded();
    h.key('p');
    h.keys("n3w-Passw0rd");
    h.code(KeyCode::Enter);
    h.keys("n3w-Passw0r");
    assert!(h.code(KeyCode::Enter).is_empty());
    let Some(f) = crate::app::tests::top::password(&h) else {
        panic!("{:?}", h.top());
    };
    assert_eq!(f.core.error.as_deref(), Some("The two passwords differ."));
    h.key('d');
    let cmds = h.code(KeyCode::Enter);
    let sent = writes(&cmds);
    assert!(matches!(
        &sent[..],
        [Request::UpdateService { service_id: 5001, update }]
            if update.password.as_ref().map(|p| p.expose()) == Some("n3w-Passw0rd")
    ));
    for text in [format!("{cmds:?}"), format!("{:?}", h.app.popups())] {
        assert!(!text.contains("n3w"), "{text}");
    }
}

#[test]
fn ctrl_c_quits_from_a_form_field() {
    let mut h = order_form();
    h.ctrl('c');
    assert!(h.app.should_quit());
}

/// Issue 11.4: 100 KB pasted into a form field or the table filter is cut to what the
/// field holds (15 characters for an IPv4 address, 256 for a filter), in one splice, and
/// the status line says so.
#[test]
fn a_huge_paste_is_cut_to_the_field_and_says_so() {
    let mut h = order_form();
    h.code(KeyCode::Tab);
    h.paste(&"203.0.113.9".repeat(10_000));
    assert_eq!(order(&h).setip.value(), "203.0.113.9203.");
    assert_eq!(
        h.status_text(),
        "Pasted text cut to 15 characters: the field holds no more"
    );
    h.code(KeyCode::Esc);
    h.code(KeyCode::Esc);
    h.key('/');
    h.paste(&"x".repeat(100_000));
    assert!(
        h.app.context().editing_filter,
        "the filter input stays open"
    );
    assert_eq!(
        h.status_text(),
        "Pasted text cut to 256 characters: a filter holds no more"
    );
}
