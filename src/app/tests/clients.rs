//! The Clients tab: read once it is shown, kept fresh by the engine, filtered like any
//! table; its rows follow each answer.

use crate::account::Kind;
use crate::api::{Client, Request, Response};
use crate::app::Command;
use crate::app::tabs::Tab;
use crate::testkit::*;

fn client(id: u64, email: &str) -> Client {
    Client {
        id,
        email: email.into(),
    }
}

fn clients(list: Vec<Client>) -> Response {
    Response::Clients(list)
}

#[test]
fn the_clients_are_read_once_the_tab_is_shown_and_listed() {
    let mut h = Harness::loaded();
    assert!(
        !h.asked.contains(&Request::Clients),
        "nothing shows the clients yet: {:?}",
        h.asked
    );
    h.answers.insert(
        Request::Clients,
        clients(vec![
            client(7, "ann@example.com"),
            client(9, "bob@example.org"),
        ]),
    );
    let cmds = h.key('7');
    assert_eq!(h.app.tab(), Tab::Clients);
    assert_eq!(fetches(&cmds), vec![Request::Clients], "{cmds:?}");
    assert!(
        cmds.iter()
            .any(|c| matches!(c, Command::Focus(f) if f.kinds == vec![Kind::Clients])),
        "the engine is told the clients are on screen: {cmds:?}"
    );
    h.settle(cmds);
    assert_eq!(
        h.asked.iter().filter(|r| **r == Request::Clients).count(),
        1
    );
    assert_eq!(h.app.table(Tab::Clients).len(), 2);
    assert_eq!(h.app.table(Tab::Clients).selected_id(), Some(7));

    h.keys("/bob");
    assert_eq!(h.app.table(Tab::Clients).len(), 1);
    assert_eq!(h.app.table(Tab::Clients).selected_id(), Some(9));
}

#[test]
fn r_reads_the_clients_again_and_the_rows_follow_the_answer() {
    let mut h = Harness::loaded();
    h.answers.insert(
        Request::Clients,
        clients(vec![client(7, "ann@example.com")]),
    );
    let cmds = h.key('7');
    h.settle(cmds);
    assert_eq!(h.app.table(Tab::Clients).len(), 1);

    h.answers.insert(
        Request::Clients,
        clients(vec![
            client(7, "ann@example.com"),
            client(8, "cy@example.net"),
            client(9, "bob@example.org"),
        ]),
    );
    h.advance(5);
    let cmds = h.key('r');
    assert!(
        cmds.contains(&Command::Refresh(vec![Kind::Clients])),
        "{cmds:?}"
    );
    h.settle(cmds);
    assert_eq!(
        h.asked.iter().filter(|r| **r == Request::Clients).count(),
        2
    );
    assert_eq!(h.app.table(Tab::Clients).len(), 3);
}

/// Enter on a client: their card, which lists the orders this session placed for them
/// (the services list names no client: only the app knows), and `y` copies the e-mail.
#[test]
fn enter_opens_the_clients_card_with_its_orders_and_y_copies_the_e_mail() {
    use crate::api::{OrderRequest, OrderResult};
    use crate::app::popups::client::ClientCard;
    use crate::app::popups::{Popup, PopupKind};
    use crossterm::event::KeyCode;

    let mut h = super::forms::order_form();
    h.keys("ops");
    h.code(KeyCode::Enter);
    let sent = Request::order(
        1,
        OrderRequest {
            clientid: 102,
            setip: None,
        },
    );
    assert_eq!(
        super::forms::writes(&h.code(KeyCode::Enter)),
        vec![sent.clone()]
    );
    h.ok(
        sent,
        Response::Order(OrderResult {
            service_id: 5004,
            order_id: Some(15004),
            invoice_id: Some(104),
            amount: 11.0,
            ip: None,
        }),
    );
    h.code(KeyCode::Enter);
    assert!(h.app.popups().is_empty(), "{:?}", h.app.popups());

    let cmds = h.key('7');
    h.settle(cmds);
    h.code(KeyCode::Down);
    assert_eq!(h.app.table(Tab::Clients).selected_id(), Some(102));
    h.code(KeyCode::Enter);
    assert_eq!(h.app.popups(), &[Popup::Client(ClientCard(102))]);
    assert_eq!(
        h.app.context().popup,
        Some(PopupKind::Shows(&crate::app::popups::client::INFO))
    );
    let placed = h.app.orders().for_client(102).placed;
    assert_eq!(placed.len(), 1, "{placed:?}");
    assert_eq!(placed[0].result.service_id, 5004);
    assert!(h.app.orders().for_client(101).is_empty());

    let cmds = h.key('y');
    assert_eq!(
        cmds,
        vec![Command::Copy {
            what: "E-mail of client 102".into(),
            text: "ops@brightline.example".into(),
        }]
    );
    // Keys the card does not take are the shared ones: Esc closes it.
    h.code(KeyCode::Esc);
    assert!(h.app.popups().is_empty());
}
