//! Answers routed by ticket: each form request is sent with its own ticket (beside the
//! request, never in it), the answer goes to the form holding it (open, or closed while
//! waiting), never to one guessed from the payload, and what the answer implies happens
//! either way.

use super::forms::writes;
use crate::api::*;
use crate::app::Command;
use crate::app::forms::FormState;
use crate::app::popups::PopupKind;
use crate::testkit::*;
use crossterm::event::KeyCode;

fn bound(message: &str) -> Response {
    Response::UpdateService(UpdateResult {
        setip: Some(UpdateOutcome {
            success: message.into(),
        }),
        ..UpdateResult::default()
    })
}

#[test]
fn two_identical_binds_are_two_ids_and_each_answer_goes_to_its_own_form() {
    let mut h = Harness::loaded();
    h.key('b');
    h.ctrl('u');
    h.keys("45.83.222.200");
    let first = h.code(KeyCode::Enter);
    // Esc closes the busy form; it is kept out of sight for its answer.
    h.code(KeyCode::Esc);
    assert!(h.top().is_none());
    h.key('b');
    h.ctrl('u');
    h.keys("45.83.222.200");
    let second = h.code(KeyCode::Enter);
    assert_eq!(
        (tickets(&first), tickets(&second)),
        (vec![Ticket(1)], vec![Ticket(2)])
    );
    let (first, second) = (writes(&first), writes(&second));
    assert_eq!(first, second, "the same PUT twice: two sends, never one");
    let (first, second) = (first[0].clone(), second[0].clone());

    // The first answer is the closed form's: the status line says it, the open form
    // still waits for its own.
    let cmds = h.ok(first, bound("IP address updated successfully"));
    assert_eq!(
        h.status_text(),
        "Service 5001 (Static US 25, account work) · bind IP 45.83.222.200: IP address updated successfully"
    );
    assert_eq!(h.app.context().popup, Some(PopupKind::FormBusy));
    assert!(
        fetches(&cmds).contains(&Request::Service(5001)),
        "the closed form's answer still re-reads the detail: {cmds:?}"
    );

    h.fail(second, unprocessable());
    let form = crate::app::tests::top::bind(&h).unwrap();
    assert!(matches!(form.core.state, FormState::Failed(_)), "{form:?}");
}

#[test]
fn a_refresh_closed_while_waiting_still_starts_its_countdown() {
    let mut h = Harness::loaded();
    h.key('u');
    let sent = writes(&h.code(KeyCode::Enter));
    h.code(KeyCode::Esc);
    assert!(h.top().is_none());
    let at = "2026-01-02 14:07:17";
    let cmds = h.fail(
        sent[0].clone(),
        ApiError::Throttled {
            next_possible: Some(
                chrono::NaiveDateTime::parse_from_str(at, "%Y-%m-%d %H:%M:%S").unwrap(),
            ),
            message: format!("Too Many Attempts (updateList). Next update possible: {at}"),
        },
    );
    assert!(
        cmds.iter().any(|c| matches!(c, Command::SaveThrottles(_))),
        "{cmds:?}"
    );
    assert!(h.app.countdown(5001).is_some());
    assert!(
        h.status_text().contains("Too Many Attempts"),
        "{}",
        h.status_text()
    );
}

#[test]
fn an_answer_with_an_id_no_form_holds_changes_no_form() {
    let mut h = Harness::loaded();
    h.key('b');
    h.ctrl('u');
    h.keys("45.83.222.200");
    let sent = writes(&h.code(KeyCode::Enter));
    // The same PUT under a ticket this app never gave: not this form's answer.
    h.ok_as(
        Some(Ticket(99)),
        sent[0].clone(),
        bound("IP address updated successfully"),
    );
    assert_eq!(h.app.context().popup, Some(PopupKind::FormBusy));
    h.ok(sent[0].clone(), bound("IP address updated successfully"));
    assert_eq!(h.app.context().popup, Some(PopupKind::FormDone));
}

/// Issue 26.5: binding one service to four addresses logs four lines, each naming the
/// address, the service and the account; the same bind again is folded into its line.
#[test]
fn the_message_log_folds_only_identical_updates() {
    let mut h = Harness::loaded();
    let bind = |h: &mut Harness, ip: &str| {
        h.key('b');
        h.ctrl('u');
        h.keys(ip);
        let sent = writes(&h.code(KeyCode::Enter));
        h.ok(sent[0].clone(), bound("IP address updated successfully"));
        h.code(KeyCode::Esc);
    };
    for ip in ["45.83.222.1", "45.83.222.2", "45.83.222.3", "45.83.222.4"] {
        bind(&mut h, ip);
    }
    bind(&mut h, "45.83.222.4");
    let log: Vec<(String, u32)> = h
        .app
        .status()
        .messages()
        .newest_first()
        .filter(|e| e.text.contains("bind IP"))
        .map(|e| (e.text.clone(), e.count))
        .collect();
    assert_eq!(log.len(), 4, "{log:#?}");
    assert_eq!(
        log[0],
        (
            "Service 5001 (Static US 25, account work) · bind IP 45.83.222.4: IP address updated successfully".to_owned(),
            2
        )
    );
    assert!(log[3].0.contains("bind IP 45.83.222.1"), "{log:#?}");
}
