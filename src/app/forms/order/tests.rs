//! The order form's own tests.
use super::*;
use crate::api::Unprocessable;

/// What the app does on Enter at the confirmation: the POST with ticket `ticket`, then
/// busy.
fn send(f: &mut OrderForm, ticket: u64) -> Option<Request> {
    let request = f.confirmed()?;
    f.core.state = FormState::Submitting;
    f.core.sent = Some(crate::app::forms::Sent::write(crate::api::Ticket(ticket)));
    Some(request)
}

fn clients() -> Vec<Client> {
    vec![
        Client {
            id: 101,
            email: "alice@example.com".into(),
        },
        Client {
            id: 102,
            email: "ops@brightline.example".into(),
        },
        Client {
            id: 210,
            email: "bob@example.net".into(),
        },
    ]
}

#[test]
fn the_picker_filters_by_email_or_id() {
    let mut f = OrderForm::new(11, "Datacenter US 10", 12.0);
    let all = clients();
    assert_eq!(f.matching(&all).len(), 3);
    f.client_filter.set("EXAMPLE.COM");
    assert_eq!(f.matching(&all)[0].id, 101);
    f.client_filter.set("10");
    let ids: Vec<u64> = f.matching(&all).iter().map(|c| c.id).collect();
    assert_eq!(ids, vec![101, 102, 210]);
    f.client_filter.set("21");
    assert_eq!(f.selected_client(&all).map(|c| c.id), Some(210));
    f.move_client(5, &all);
    assert_eq!(f.client_pos, 0, "clamped to the one match");
}

#[test]
fn checking_builds_the_request_or_says_what_is_wrong() {
    let all = clients();
    let mut f = OrderForm::new(11, "Datacenter US 10", 12.0);
    f.check(None, Some(&ProductType::Fpr));
    assert_eq!(f.core.state, FormState::Editing);
    assert!(f.client_error.is_some());

    f.setip.set("203.0.113.256");
    f.move_client(1, &all);
    f.check(Some(&all), Some(&ProductType::Fpr));
    assert_eq!(f.core.state, FormState::Editing);
    assert_eq!(f.ip_error.as_deref(), Some("256 is over 255"));
    assert_eq!(f.focus, OrderField::SetIp);

    f.setip.set(" 203.0.113.9 ");
    f.check(Some(&all), Some(&ProductType::Fpr));
    assert_eq!(f.core.state, FormState::Confirming);
    let expected = Request::order(
        11,
        OrderRequest {
            clientid: 102,
            setip: Some("203.0.113.9".into()),
        },
    );
    assert_eq!(f.request, Some(expected.clone()));
    assert!(f.core.awaiting().is_none(), "nothing is sent before Enter");
    assert_eq!(send(&mut f, 3), Some(expected.clone()));
    assert_eq!(f.core.awaiting(), Some(crate::api::Ticket(3)));
    assert_eq!(send(&mut f, 4), None, "a second Enter sends nothing");

    // A ppr product never sends setip, whatever was typed.
    let mut g = OrderForm::new(21, "Residential 5 GB", 25.0);
    g.setip.set("203.0.113.9");
    g.check(Some(&all), Some(&ProductType::Ppr));
    assert!(matches!(&g.request, Some(Request::Order { body, .. }) if body.setip.is_none()));
}

#[test]
fn outcomes() {
    let all = clients();
    let mut f = OrderForm::new(11, "Datacenter US 10", 12.0);
    f.check(Some(&all), Some(&ProductType::Fpr));
    send(&mut f, 1);
    f.finish(Err(ApiError::Unprocessable {
        kind: Unprocessable::NotEnoughFunds,
        message: "Unprocessed entity or not enough funds to order".into(),
    }));
    assert_eq!(
        f.core.state,
        FormState::Failed("Unprocessed entity or not enough funds to order".into())
    );
    assert!(
        f.core.state.is_editable(),
        "the values stay, ready to correct"
    );
    f.check(Some(&all), Some(&ProductType::Fpr));
    send(&mut f, 1);
    f.finish(Err(ApiError::Transport {
        url: "http://127.0.0.1:1/api/product/11".into(),
        cause: "connection closed".into(),
    }));
    assert!(
        f.core
            .state
            .message()
            .unwrap()
            .starts_with("Outcome unknown")
    );
    f.check(Some(&all), Some(&ProductType::Fpr));
    send(&mut f, 1);
    f.finish(Ok(Response::Order(OrderResult {
        service_id: 1014,
        order_id: Some(515),
        invoice_id: Some(7021),
        amount: 12.0,
        ip: Some(String::new()),
    })));
    assert_eq!(
        f.result().map(done_message).as_deref(),
        Some("Ordered: service 1014, order 515, invoice 7021, $12.00")
    );
}
