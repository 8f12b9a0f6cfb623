//! Open an invoice by its number (`#` on Billing): operators get invoice numbers by
//! e-mail, and the table may be long, filtered or not loaded yet.
//!
//! One field, digits only (a paste is trimmed by the field); anything else, 0, or more
//! than 20 digits is an inline error and nothing is sent. Enter sends endpoint 12 as any
//! read is sent ([`Cx::fetch`](crate::app::Cx::fetch): through the scheduler, one GET however often it is
//! asked), so its answer fills the Billing tab's cache of opened invoices like the
//! viewer's own request does; found, the viewer takes the form's place and shows it from
//! there without asking again. Not found (an empty array, a 404, the API's generic 422)
//! says so; any other failure is the server's words. Either way the number stays, to
//! correct and send again. It only reads, so a read-only profile has it too.

use super::field::{is_unknown_id, parse_id};
use super::{Flow, FormCore, FormLogic, FormRow, FormState, FormView, TextField};
use crate::api::{ApiError, Request, Response};
use crate::app::keymap::steps::{CANCEL, FormStep, step_key};
use crate::app::keymap::{Action, code};
use crate::app::popups::Popup;
use crate::app::popups::invoice::InvoiceViewer;
use crate::app::{App, Cx};
use crossterm::event::KeyCode;

/// The one step: the number.
#[rustfmt::skip]
pub static STEP: FormStep = FormStep {
    title: "open invoice",
    bindings: &[
        step_key(&[code(KeyCode::Enter)], Action::Submit, Some("open"), "Fetch and show the invoice with this number"),
        CANCEL,
    ],
};

#[derive(Clone, Debug, PartialEq)]
pub struct InvoiceNumberForm {
    pub number: TextField,
    /// The number last asked for (what "Fetching invoice N" names).
    pub asked: Option<u64>,
    /// The step, the request on its way, the inline error (not a number).
    pub core: FormCore,
}

impl Default for InvoiceNumberForm {
    fn default() -> Self {
        Self {
            number: TextField::default(),
            asked: None,
            core: FormCore::new(FormState::Editing),
        }
    }
}

/// The invoice number typed, or why it is none.
pub fn parse(text: &str) -> Result<u64, String> {
    parse_id(
        text,
        "invoice number",
        "There is no invoice 0: numbers start at 1.",
    )
}

impl FormLogic for InvoiceNumberForm {
    fn core(&self) -> &FormCore {
        &self.core
    }

    fn core_mut(&mut self) -> &mut FormCore {
        &mut self.core
    }

    fn step(&self) -> &'static FormStep {
        &STEP
    }

    fn typing_field(&mut self) -> Option<&mut TextField> {
        self.core.state.is_editable().then_some(&mut self.number)
    }

    fn is_typing(&self) -> bool {
        self.core.state.is_editable()
    }

    /// Enter: the GET for the number typed, or an inline error and nothing.
    fn submit(&mut self, _cx: &Cx<'_>) -> Option<Request> {
        self.core
            .ask_id(&self.number, &mut self.asked, parse)
            .map(Request::Invoice)
    }

    /// The field, its inline error, and where the request is (found, the viewer takes the
    /// form's place, so there is no "done" to show).
    fn view<'a>(&'a self, _app: &'a App) -> Option<FormView<'a>> {
        let number = FormRow::Field {
            label: "Number",
            field: &self.number,
            focused: true,
            typing: self.core.state.is_editable(),
        };
        let hint = "The invoice number, as its e-mail gives it.";
        Some(FormView::asking_id(
            "Open invoice",
            hint,
            number,
            &self.core,
            ("invoice", self.asked),
        ))
    }

    /// Found: the viewer takes the form's place (the Billing tab has the invoice by now).
    /// Closed while waiting: nothing more to do, the tab kept the answer.
    fn answered(
        &mut self,
        cx: &mut Cx<'_>,
        request: &Request,
        result: Result<Response, ApiError>,
        on_screen: bool,
    ) -> Flow {
        let &Request::Invoice(id) = request else {
            return Flow::Stay;
        };
        let why = match result {
            Ok(Response::Invoice(found)) if !found.is_empty() => {
                if on_screen {
                    cx.shell.popups.push(Popup::Invoice(InvoiceViewer(id)));
                }
                return Flow::Close;
            }
            Ok(Response::Invoice(_)) => format!("No invoice {id} on this account."),
            Err(e) if is_unknown_id(&e) => {
                format!("No invoice {id} on this account (the server answers \"{e}\").")
            }
            Ok(_) => "The server's answer was not an invoice.".into(),
            // A read: nothing changed, whatever became of it.
            Err(e) => e.to_string(),
        };
        self.core.state = FormState::Failed(why);
        Flow::Stay
    }
}

/// `#`: the form, empty.
pub(in crate::app) fn open(cx: &mut Cx<'_>) {
    cx.shell
        .popups
        .push(Popup::form_of(InvoiceNumberForm::default()));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::popups::PopupKind;
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

    fn form(h: &Harness) -> &InvoiceNumberForm {
        h.top()
            .and_then(Popup::form_as::<InvoiceNumberForm>)
            .expect("the form is on top")
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
            [PopupKind::Invoice, PopupKind::Help]
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
            h.ctrl('u');
            h.keys(typed);
            assert!(fetches(&h.code(KeyCode::Enter)).is_empty(), "{typed:?}");
            let f = form(&h);
            let shown = f.core.error.as_deref().unwrap_or_default();
            assert!(shown.starts_with(error), "{typed:?}: {shown}");
            assert_eq!(f.number.value(), typed, "kept to correct");
            assert_eq!(f.core.state, FormState::Editing);
        }
        h.keys("x");
        assert_eq!(form(&h).core.error, None, "editing clears it");
        // A paste is trimmed to its first line.
        h.ctrl('u');
        h.paste("  7021 \nthanks");
        assert_eq!(form(&h).number.value(), "7021");
        assert_eq!(parse(" 0102 "), Ok(102));
        assert_eq!(parse(&u64::MAX.to_string()), Ok(u64::MAX));
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
