//! The by-number form (`#`) driven through `App::update`, as the invoice form on Billing
//! and as the service form on Services: keys in, state, requests and popups out.

use crate::app::forms::FormState;
use crate::app::forms::by_number::ByNumberForm;
use crate::testkit::{Harness, fetches};
use crossterm::event::KeyCode;

/// `typed` in the open form (`form` finds it), then Enter: an inline error starting with
/// `error`, nothing sent, and what was typed kept to correct.
fn refused(h: &mut Harness, form: fn(&Harness) -> &ByNumberForm, typed: &str, error: &str) {
    h.ctrl('u');
    h.keys(typed);
    assert!(fetches(&h.code(KeyCode::Enter)).is_empty(), "{typed:?}");
    let f = form(h);
    let shown = f.core.error.as_deref().unwrap_or_default();
    assert!(shown.starts_with(error), "{typed:?}: {shown}");
    assert_eq!(f.number.value(), typed, "kept to correct");
    assert_eq!(f.core.state, FormState::Editing);
}

/// `#` on Billing: an invoice by its number.
mod invoice {
    use crate::api::{ApiError, Request, Response};
    use crate::app::forms::by_number::{ByNumberForm, Lookup};
    use crate::app::popups::Popup;
    use crate::app::popups::PopupKind;
    use crate::app::popups::invoice::InvoiceViewer;
    use crate::app::status::Shown;
    use crate::testkit::{Harness, fetches, settings};
    use crossterm::event::KeyCode;

    /// The Billing tab of the standard account with the form open.
    fn opened(mut h: Harness) -> Harness {
        let cmds = h.key('3');
        h.settle(cmds);
        assert!(fetches(&h.key('#')).is_empty(), "opening sends nothing");
        h
    }

    fn form(h: &Harness) -> &ByNumberForm {
        crate::app::tests::top::by_number(h)
            .filter(|f| f.lookup == Lookup::Invoice)
            .expect("the invoice form is on top")
    }

    #[test]
    fn a_number_is_fetched_once_then_the_viewer_takes_the_forms_place() {
        let mut h = opened(Harness::loaded());
        h.keys("102");
        let sent = fetches(&h.code(KeyCode::Enter));
        assert_eq!(sent, vec![Request::Invoice(102)]);
        assert!(form(&h).core.state.is_submitting());
        assert!(fetches(&h.code(KeyCode::Enter)).is_empty(), "not twice");
        let after = h.answer(&Request::Invoice(102));
        assert!(fetches(&after).is_empty(), "the viewer asks nothing more");
        assert_eq!(h.app.popups(), &[Popup::Invoice(InvoiceViewer(102))]);
        let shown = h.app.billing().invoice(102).value();
        assert_eq!(shown.and_then(|l| l.first()).map(|i| i.id), Some(102));
    }

    /// Help opened over the waiting form stays on top: the viewer takes the form's place.
    #[test]
    fn the_viewer_takes_the_forms_place_under_what_is_above_it() {
        let mut h = opened(Harness::loaded());
        h.keys("103");
        h.code(KeyCode::Enter);
        h.key('?');
        h.answer(&Request::Invoice(103));
        assert_eq!(
            h.app.popups().iter().map(Popup::kind).collect::<Vec<_>>(),
            [
                PopupKind::Shows(&crate::app::popups::invoice::INFO),
                PopupKind::Shows(&crate::app::popups::help::INFO)
            ]
        );
        assert_eq!(h.app.popups()[0], Popup::Invoice(InvoiceViewer(103)));
    }

    #[test]
    fn what_is_not_a_number_is_an_inline_error_and_nothing_is_sent() {
        let mut h = opened(Harness::loaded());
        for (typed, error) in [
            ("", "Type the invoice number."),
            ("#102", "Digits only: \"#\" is not one."),
            ("10 2", "Digits only: \" \" is not one."),
            ("0", "There is no invoice 0"),
            ("000", "There is no invoice 0"),
            (&"1".repeat(21), "At most 20 digits"),
            ("99999999999999999999", "No invoice number is that large."),
        ] {
            super::refused(&mut h, form, typed, error);
        }
        h.keys("x");
        assert_eq!(form(&h).core.error, None, "editing clears it");
        // A paste is trimmed to its first line.
        h.ctrl('u');
        h.paste("  7021 \nthanks");
        assert_eq!(form(&h).number.value(), "7021");
        assert_eq!(Lookup::Invoice.parse(" 0102 "), Ok(102));
        assert_eq!(Lookup::Invoice.parse(&u64::MAX.to_string()), Ok(u64::MAX));
    }

    #[test]
    fn no_such_invoice_says_so_and_keeps_the_number() {
        let mut h = opened(Harness::loaded());
        for (id, answer) in [
            (999, Ok(Response::Invoice(Vec::new()))),
            (998, Err(crate::testkit::unprocessable())),
            (
                997,
                Err(ApiError::Http {
                    status: 404,
                    excerpt: "Not Found".into(),
                    retry_after: None,
                }),
            ),
        ] {
            h.ctrl('u');
            h.keys(&id.to_string());
            assert_eq!(fetches(&h.code(KeyCode::Enter)), vec![Request::Invoice(id)]);
            match answer {
                Ok(r) => h.ok(Request::Invoice(id), r),
                Err(e) => h.fail(Request::Invoice(id), e),
            };
            let f = form(&h);
            let said = f.core.state.message().unwrap_or_default();
            assert!(
                said.starts_with(&format!("No invoice {id} on this account")),
                "{said}"
            );
            assert_eq!(f.number.value(), id.to_string());
            assert_eq!(h.app.popups().len(), 1, "no viewer");
        }
        // Corrected and sent again.
        h.ctrl('u');
        h.keys("101");
        assert_eq!(
            fetches(&h.code(KeyCode::Enter)),
            vec![Request::Invoice(101)]
        );
        h.answer(&Request::Invoice(101));
        assert_eq!(h.app.popups(), &[Popup::Invoice(InvoiceViewer(101))]);
    }

    #[test]
    fn other_failures_are_the_servers_words_inline_not_in_the_status_line() {
        let mut h = opened(Harness::loaded());
        let html = ApiError::Http {
            status: 502,
            excerpt: "Bad Gateway".into(),
            retry_after: None,
        };
        let lost = ApiError::Transport {
            url: "https://api.example.com/api/billing/invoice/103".into(),
            cause: "connection reset".into(),
        };
        for (error, words) in [
            (ApiError::Unauthenticated, "Unauthenticated"),
            (
                ApiError::RateLimited { retry_after: None },
                "Too many requests",
            ),
            (html, "HTTP 502: Bad Gateway"),
            (
                lost,
                "Connection to https://api.example.com/api/billing/invoice/103 lost",
            ),
        ] {
            h.ctrl('u');
            h.keys("103");
            assert_eq!(
                fetches(&h.code(KeyCode::Enter)),
                vec![Request::Invoice(103)]
            );
            h.fail(Request::Invoice(103), error);
            let said = form(&h).core.state.message().unwrap_or_default().to_owned();
            assert!(said.starts_with(words), "{said}");
            assert!(!said.contains("Outcome unknown"), "a read changes nothing");
            assert!(
                !matches!(h.app.status().shown(), Some(Shown::Failure(..))),
                "said once, in the form: {}",
                h.status_text()
            );
        }
    }

    #[test]
    fn closed_while_waiting_opens_nothing_but_the_tab_keeps_the_answer() {
        let mut h = opened(Harness::loaded());
        h.keys("101");
        h.code(KeyCode::Enter);
        h.code(KeyCode::Esc);
        assert!(h.app.popups().is_empty());
        h.answer(&Request::Invoice(101));
        assert!(h.app.popups().is_empty(), "no viewer out of nowhere");
        assert!(h.app.billing().invoice(101).value().is_some());
    }

    #[test]
    fn a_read_only_profile_has_it() {
        let ro = crate::app::AppSettings {
            read_only: true,
            ..settings()
        };
        let mut h = Harness::with(ro);
        let cmds = h.app.start();
        h.settle(cmds);
        let mut h = opened(h);
        h.keys("102");
        assert_eq!(
            fetches(&h.code(KeyCode::Enter)),
            vec![Request::Invoice(102)]
        );
    }
}

/// `#` on Services: a service by its ID.
mod service {
    use crate::api::ProductType;
    use crate::api::{ApiError, Request, Response, Service};
    use crate::app::forms::by_number::{ByNumberForm, Lookup};
    use crate::app::forms::{FormLogic, FormState};
    use crate::app::popups::Popup;
    use crate::app::popups::service::ServiceViewer;
    use crate::app::testdata as td;
    use crate::testkit::{Harness, fetches};
    use crossterm::event::KeyCode;

    /// The Services tab of the standard account with the form open.
    fn opened(mut h: Harness) -> Harness {
        assert!(fetches(&h.key('#')).is_empty(), "opening sends nothing");
        assert!(crate::app::tests::top::by_number(&h).is_some());
        h
    }

    fn form(h: &Harness) -> &ByNumberForm {
        crate::app::tests::top::by_number(h)
            .filter(|f| f.lookup == Lookup::Service)
            .expect("the service form is on top")
    }

    fn not_found() -> ApiError {
        ApiError::Http {
            status: 404,
            excerpt: "Service not found".into(),
            retry_after: None,
        }
    }

    #[test]
    fn hash_opens_it_on_services_and_not_on_products() {
        let mut h = Harness::loaded();
        let cmds = h.key('2');
        h.settle(cmds);
        h.key('#');
        assert!(h.app.popups().is_empty(), "Products has no #");
        let cmds = h.key('1');
        h.settle(cmds);
        let h = opened(h);
        assert_eq!(form(&h).core.state, FormState::Editing);
    }

    #[test]
    fn what_is_not_a_number_is_an_inline_error_and_nothing_is_sent() {
        let mut h = opened(Harness::loaded());
        for (typed, error) in [
            ("", "Type the service ID."),
            ("#5001", "Digits only: \"#\" is not one."),
            ("50 01", "Digits only: \" \" is not one."),
            ("0", "There is no service 0"),
            (&"1".repeat(21), "At most 20 digits"),
            ("99999999999999999999", "No service ID is that large."),
        ] {
            super::refused(&mut h, form, typed, error);
        }
        h.keys("x");
        assert_eq!(form(&h).core.error, None, "editing clears it");
        assert_eq!(Lookup::Service.parse(" 05003 "), Ok(5003));
    }

    #[test]
    fn a_listed_service_is_selected_past_the_filter_and_its_detail_takes_the_forms_place() {
        let mut h = Harness::loaded();
        h.key('/');
        h.keys("static");
        h.code(KeyCode::Enter);
        assert_eq!(h.app.services().table.selected_id(), Some(5001));
        let mut h = opened(h);
        h.keys("5003");
        let sent = fetches(&h.code(KeyCode::Enter));
        assert_eq!(
            sent,
            vec![Request::Service(5003)],
            "one GET, through the context"
        );
        assert!(form(&h).core.state.is_submitting());
        assert!(fetches(&h.code(KeyCode::Enter)).is_empty(), "not twice");
        let after = h.answer(&Request::Service(5003));
        assert!(fetches(&after).is_empty(), "the detail asks nothing more");
        assert_eq!(h.app.popups(), &[Popup::Service(ServiceViewer::new(5003))]);
        assert_eq!(h.app.services().table.selected_id(), Some(5003));
        assert_eq!(h.app.services().table.filter(), "", "the filter hid it");
        assert!(h.app.services().detail(5003).value().is_some());
    }

    #[test]
    fn a_service_the_list_does_not_have_is_shown_in_the_form() {
        let mut h = opened(Harness::loaded());
        h.keys("7001");
        assert_eq!(
            fetches(&h.code(KeyCode::Enter)),
            vec![Request::Service(7001)]
        );
        let found = Service {
            product_name: "Residential DE 5GB".into(),
            ..td::service(7001, ProductType::Ppr)
        };
        h.ok(Request::Service(7001), Response::Service(found.clone()));
        let f = form(&h);
        assert_eq!(f.core.state, FormState::Done(Response::Service(found)));
        let view = f.view();
        assert_eq!(view.title, "Service 7001");
        let shown = format!("{:?}", view.rows);
        for text in ["Residential DE 5GB", "7001", "Active"] {
            assert!(shown.contains(text), "{text}: {shown}");
        }
        assert!(!shown.contains("Password"), "the password is left out");
        h.code(KeyCode::Enter);
        assert!(h.app.popups().is_empty(), "Enter closes it");
    }

    #[test]
    fn an_unknown_id_is_the_servers_words_and_keeps_the_number() {
        let mut h = opened(Harness::loaded());
        h.keys("9999");
        h.code(KeyCode::Enter);
        h.fail(Request::Service(9999), not_found());
        let f = form(&h);
        let said = f.core.state.message().unwrap_or_default();
        assert!(
            said.starts_with("No service 9999 on this account"),
            "{said}"
        );
        assert!(
            said.contains("Service not found"),
            "the server's words: {said}"
        );
        assert_eq!(f.number.value(), "9999");
        assert!(f.is_typing(), "to correct and send again");
        h.ctrl('u');
        h.keys("5002");
        assert_eq!(
            fetches(&h.code(KeyCode::Enter)),
            vec![Request::Service(5002)]
        );
        h.answer(&Request::Service(5002));
        assert_eq!(h.app.popups(), &[Popup::Service(ServiceViewer::new(5002))]);
    }

    #[test]
    fn closed_while_waiting_opens_nothing() {
        let mut h = opened(Harness::loaded());
        h.keys("5002");
        h.code(KeyCode::Enter);
        h.code(KeyCode::Esc);
        h.answer(&Request::Service(5002));
        assert!(h.app.popups().is_empty(), "no detail out of nowhere");
    }
}
