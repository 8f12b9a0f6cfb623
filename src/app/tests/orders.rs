//! Money: an order whose answer was lost, a second order while one is on its way, answers
//! routed to the attempt (its ticket) that sent them, outcomes that stay on screen, the
//! message log.

use crate::api::*;
use crate::app::forms::FormState;
use crate::app::forms::order::done_message;
use crate::app::messages::Level;
use crate::app::popups::Popup;
use crate::app::popups::messages::MessagesPopup;
use crate::app::status::{NoticeKind, Shown};
use crate::testkit::*;
// The order form as the form tests open it: product 1, clients and credit loaded.
use super::forms::{order as form, order_form, writes};
use crossterm::event::KeyCode;

fn lost() -> ApiError {
    ApiError::Transport {
        url: "https://api.example.com/api/product/1".into(),
        cause: "connection reset by peer".into(),
    }
}

fn placed(service_id: u64) -> Response {
    Response::Order(OrderResult {
        service_id,
        order_id: Some(1),
        invoice_id: Some(2),
        amount: 11.0,
        ip: None,
    })
}

/// Enter `n` times, returning the writes they caused.
fn enters(h: &mut Harness, n: usize) -> Vec<Request> {
    (0..n)
        .flat_map(|_| writes(&h.code(KeyCode::Enter)))
        .collect()
}

#[test]
fn a_lost_answer_then_enter_ten_times_sends_one_post() {
    let mut h = order_form();
    let sent = enters(&mut h, 2);
    assert_eq!(sent.len(), 1);
    let check = h.fail(sent[0].clone(), lost());
    // While the check is on its way, and after it answered: Enter alone never orders.
    assert_eq!(enters(&mut h, 10), vec![], "Enter ×10 while checking");
    assert!(
        form(&h).note.as_deref().unwrap().contains("still checking"),
        "{:?}",
        form(&h).note
    );
    h.settle(check);
    assert_eq!(enters(&mut h, 10), vec![], "Enter ×10 after the check");
    assert_eq!(
        form(&h).note.as_deref(),
        Some("Not sent: type the product ID (1), then Enter, to order it again.")
    );
    // The check's result is on the status line and in the log.
    assert!(
        h.status_text()
            .contains("no new service of this product and no new invoice since"),
        "{}",
        h.status_text()
    );
    // A wrong ID is not a confirmation either.
    h.keys("2");
    assert_eq!(enters(&mut h, 3), vec![]);
    // The product ID typed: one deliberate order, a new attempt.
    h.ctrl('u');
    h.keys("1");
    let again = h.code(KeyCode::Enter);
    assert!(
        matches!(&writes(&again)[..], [Request::Order { product_id: 1, .. }])
            && tickets(&again) == vec![Ticket(2)],
        "{again:?}"
    );
}

/// The same order twice (a lost answer, then the product ID typed) is the same request
/// sent twice with two tickets: an answer carrying the first attempt's ticket never lands
/// in the form waiting for the second, and the second's own answer does.
#[test]
fn the_same_order_twice_is_two_tickets_and_an_old_ticket_never_answers_the_new_attempt() {
    let mut h = order_form();
    let first = enters(&mut h, 2);
    let check = h.fail(first[0].clone(), lost());
    h.settle(check);
    assert_eq!(
        enters(&mut h, 1),
        vec![],
        "in doubt: Enter alone sends nothing"
    );
    h.keys("1");
    let again = h.code(KeyCode::Enter);
    assert_eq!(writes(&again), first, "the same request");
    assert_eq!(tickets(&again), vec![Ticket(2)], "a new attempt");
    h.ok_as(Some(Ticket(1)), first[0].clone(), placed(7001));
    assert_eq!(form(&h).core.state, FormState::Submitting);
    assert!(
        h.app.is_in_flight(&first[0]),
        "the second attempt is still on its way"
    );
    h.ok(first[0].clone(), placed(7002));
    assert!(
        form(&h)
            .result()
            .is_some_and(|r| done_message(r).contains("service 7002"))
    );
}

#[test]
fn the_check_finds_the_new_service_and_invoice_of_the_lost_order() {
    let mut h = order_form();
    let sent = enters(&mut h, 2);
    let check = fetches(&h.fail(sent[0].clone(), lost()));
    assert!(check.contains(&Request::Services) && check.contains(&Request::Invoices));
    let mut listed = services();
    listed.push(ServiceSummary {
        product_name: "Proxy plan 1".into(),
        ..crate::app::testdata::summary(5004)
    });
    h.ok(Request::Services, Response::Services(listed));
    let mut invoices = vec![crate::app::testdata::invoice(101)];
    invoices.push(crate::app::testdata::invoice(104));
    h.ok(Request::Invoices, Response::Invoices(invoices.into()));
    let line = h.status_text();
    assert!(
        line.contains("it went through (new service 5004, new invoice 104 since)"),
        "{line}"
    );
    // The form shows it too, and still will not order on Enter.
    assert_eq!(
        form(&h).core.state,
        FormState::Failed(format!("Outcome unknown, so it was checked. {line}"))
    );
    assert_eq!(enters(&mut h, 5), vec![]);
}

#[test]
fn a_list_asked_before_the_answer_was_lost_is_asked_again() {
    let mut h = order_form();
    let sent = enters(&mut h, 2);
    // A refresh of services goes out while the order is on its way.
    let before = fetches(&h.key('R'));
    assert!(before.is_empty(), "a form is open: R is not a key here");
    h.code(KeyCode::Esc); // the busy form closes; its order is still tracked
    h.key('R');
    // The engine sends the services list `R` asked for.
    h.send(crate::app::Msg::Sent(Request::Services));
    h.advance(1);
    let on_loss = fetches(&h.fail(sent[0].clone(), lost()));
    assert!(
        !on_loss.contains(&Request::Services),
        "already in flight: {on_loss:?}"
    );
    // The old list arrives: it cannot show the order, so it is asked again.
    let again = fetches(&h.answer(&Request::Services));
    assert!(again.contains(&Request::Services), "{again:?}");
    assert!(!h.app.order_doubt(1).unwrap().check.is_done());
}

#[test]
fn one_order_in_flight_per_product_and_client_and_answers_go_to_their_attempt() {
    let mut h = order_form();
    let first = enters(&mut h, 2);
    assert_eq!(first.len(), 1);
    // Esc closes the busy form; the order is still on its way.
    h.code(KeyCode::Esc);
    assert!(h.app.popups().is_empty());
    h.key('o');
    assert_eq!(enters(&mut h, 5), vec![], "same product and client: waits");
    let note = form(&h).note.clone().unwrap();
    assert!(
        note.starts_with("Not sent: the order of product 1 for client 101 sent at 14:03:05"),
        "{note}"
    );
    // Another client is another order.
    h.code(KeyCode::Esc);
    h.code(KeyCode::Down);
    let second = enters(&mut h, 2);
    assert_eq!(second.len(), 1);
    assert_ne!(first[0], second[0], "two attempts, two keys");
    assert!(h.app.is_in_flight(&first[0]) && h.app.is_in_flight(&second[0]));
    // The first answer does not go to the second form.
    h.ok(first[0].clone(), placed(7001));
    assert_eq!(form(&h).core.state, FormState::Submitting);
    assert!(
        h.status_text().contains("service 7001"),
        "{}",
        h.status_text()
    );
    h.ok(second[0].clone(), placed(7002));
    assert!(
        form(&h)
            .result()
            .is_some_and(|r| done_message(r).contains("service 7002"))
    );
}

#[test]
fn an_outcome_stays_on_the_status_line_until_esc_and_is_in_the_log() {
    let mut h = order_form();
    let sent = enters(&mut h, 2);
    h.code(KeyCode::Esc);
    h.ok(sent[0].clone(), placed(5004));
    // A background failure a moment later does not hide it.
    h.advance(1);
    h.fail(Request::Credit, unprocessable());
    assert!(
        matches!(h.app.status().shown(), Some(Shown::Notice(n)) if n.kind == NoticeKind::Done
            && n.text.contains("Ordered: service 5004")),
        "{:?}",
        h.app.status().shown()
    );
    let log: Vec<_> = h.app.status().messages().newest_first().collect();
    assert_eq!(log[0].level, Level::Error);
    assert!(log[0].text.starts_with("Credit:"));
    assert_eq!(log[1].level, Level::Success);
    assert!(log[1].text.contains("Ordered: service 5004"));
    assert!(log.iter().any(|e| e.text.ends_with("for client 101: sent")));
    h.code(KeyCode::Esc);
    assert_eq!(h.app.status().pinned(), None);
}

/// Issue 45.1: the order's outcome gives way to the next thing the person does (here
/// `a` on an alert: its acknowledgement is said), and stays in the log.
#[test]
fn the_next_thing_the_person_does_replaces_an_order_outcome() {
    let mut h = order_form();
    let sent = enters(&mut h, 2);
    h.code(KeyCode::Esc);
    h.ok(sent[0].clone(), placed(5004));
    h.key('6');
    let cmds = h.key('a');
    h.settle(cmds);
    let shown = format!("{:?}", h.app.status().shown());
    assert!(shown.contains("Acknowledged"), "{shown}");
    assert!(h.app.status().pinned().is_none());
    let log: Vec<_> = h.app.status().messages().newest_first().collect();
    assert!(
        log.iter().any(|e| e.text.contains("Ordered: service 5004")),
        "{log:?}"
    );
}

#[test]
fn m_opens_the_message_log_and_it_scrolls() {
    let mut h = Harness::loaded();
    for i in 0..5 {
        h.fail(Request::Invoice(i), unprocessable());
    }
    h.key('m');
    assert_eq!(
        h.top(),
        Some(&Popup::Messages(MessagesPopup {
            scroll: 0,
            all: None
        }))
    );
    h.key('j');
    // Five failures (the first sweep's alerts are the baseline: one summary later).
    h.code(KeyCode::End);
    assert_eq!(
        h.top(),
        Some(&Popup::Messages(MessagesPopup {
            scroll: 4,
            all: None
        }))
    );
    h.key('k');
    assert_eq!(
        h.top(),
        Some(&Popup::Messages(MessagesPopup {
            scroll: 3,
            all: None
        }))
    );
    h.code(KeyCode::Esc);
    assert!(h.app.popups().is_empty());
}

#[test]
fn a_failed_profile_switch_is_one_error_naming_the_profile_once() {
    let mut h = Harness::loaded();
    h.app.shell_mut().profile_switch_failed(
        "delta",
        "profile delta: the token command `pass show x` failed: exit status 1",
    );
    match h.app.status().shown() {
        Some(Shown::Notice(n)) => {
            assert_eq!(n.kind, NoticeKind::Error);
            assert_eq!(
                n.text,
                "Cannot switch to profile delta: the token command `pass show x` failed: \
                 exit status 1 (still on work)"
            );
        }
        other => panic!("{other:?}"),
    }
    let newest = h.app.status().messages().newest_first().next().unwrap();
    assert_eq!(newest.level, Level::Error);
    // The restarted session's own failures do not hide it.
    h.fail(Request::Credit, unprocessable());
    assert!(
        h.status_text()
            .starts_with("Cannot switch to profile delta")
    );
}
