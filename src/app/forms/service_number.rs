//! Open a service by its number (`#` on Services): a service ID from an e-mail, a ticket
//! or the command line, when the table is long, filtered, or does not list it.
//!
//! One field, digits only; anything else, 0, or more than 20 digits is an inline error and
//! nothing is sent. Enter sends endpoint 13 (`GET /api/service/{id}`) as any read is sent
//! ([`Cx::fetch`](crate::app::Cx::fetch)), so a listed service's answer fills its detail
//! like the detail's own request does. A listed service: its row is selected on the
//! Services tab (a filter or `!` hiding it is cleared) and its detail takes the form's
//! place. One the list does not have (not loaded yet, or not listed): the form shows what
//! the server says of it (spec 2.4, the password left out). Unknown (a 404, the API's
//! generic 422): the server's words in the form, the number kept to correct and send
//! again. It only reads, so a read-only profile has it too.

use super::field::{is_unknown_id, parse_id};
use super::{Flow, FormCore, FormLogic, FormRow, FormState, FormView, TextField};
use crate::api::{ApiError, Request, Response, Service};
use crate::app::columns::Tone;
use crate::app::keymap::steps::{CANCEL, FormStep, step_key};
use crate::app::keymap::{Action, code};
use crate::app::popups::Popup;
use crate::app::tabs::Tab;
use crate::app::tabs::services::status_tone;
use crate::app::{App, Cx};
use crate::text;
use crossterm::event::KeyCode;

/// The one step: the number.
#[rustfmt::skip]
pub static STEP: FormStep = FormStep {
    title: "open service",
    bindings: &[
        step_key(&[code(KeyCode::Enter)], Action::Submit, Some("open"), "Fetch and show the service with this ID"),
        CANCEL,
    ],
};

#[derive(Clone, Debug, PartialEq)]
pub struct ServiceNumberForm {
    pub number: TextField,
    /// The ID last asked for (what "Fetching service N" names).
    pub asked: Option<u64>,
    /// The step, the request on its way, the inline error (not a number); `Done` holds the
    /// service the list does not have.
    pub core: FormCore,
}

impl Default for ServiceNumberForm {
    fn default() -> Self {
        Self {
            number: TextField::default(),
            asked: None,
            core: FormCore::new(FormState::Editing),
        }
    }
}

/// The service ID typed, or why it is none.
pub fn parse(text: &str) -> Result<u64, String> {
    parse_id(text, "service ID", "There is no service 0: IDs start at 1.")
}

/// Shows service `id` on the Services tab: its row selected (clearing a filter or `!`
/// that hides it) and its detail open.
fn show_listed(cx: &mut Cx<'_>, id: u64) {
    cx.go_to(Tab::Services, id);
    // Enter on the row: its detail.
    Tab::Services.open(cx);
}

/// Every field of spec 2.4 but the password, as the form's rows.
fn fields(s: &Service) -> Vec<FormRow<'static>> {
    let value = |label, text: String| FormRow::Value {
        label,
        text,
        tone: Tone::Base,
    };
    vec![
        value("Service ID", s.service_id.to_string()),
        value("Order ID", text::id(s.orderid)),
        value("Product", text::or_missing(&s.product_name).into_owned()),
        value("Registered", text::date(s.regdate)),
        value("Next due", text::date(s.nextduedate)),
        FormRow::Value {
            label: "Status",
            text: s.status.as_str().to_owned(),
            tone: status_tone(&s.status),
        },
        value(
            "Billing",
            text::or_missing(s.billingcycle.as_str()).into_owned(),
        ),
        value("Username", text::or_missing(&s.username).into_owned()),
        value(
            "Bound IP",
            text::or_missing(s.bound_ip.as_deref().unwrap_or_default()).into_owned(),
        ),
        value("Type", s.product_type.label()),
        value(
            "IP count",
            s.ip_count
                .map_or_else(|| text::MISSING.to_owned(), text::count),
        ),
        value("Price", text::money(s.price)),
    ]
}

impl FormLogic for ServiceNumberForm {
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

    /// Enter: the GET for the ID typed, or an inline error and nothing.
    fn submit(&mut self, _cx: &Cx<'_>) -> Option<Request> {
        self.core
            .ask_id(&self.number, &mut self.asked, parse)
            .map(Request::Service)
    }

    /// Listed: the row is selected and the detail takes the form's place (closed while
    /// waiting: nothing more, the tab kept the answer). Not listed: its fields, here.
    fn answered(
        &mut self,
        cx: &mut Cx<'_>,
        request: &Request,
        result: Result<Response, ApiError>,
        on_screen: bool,
    ) -> Flow {
        let &Request::Service(id) = request else {
            return Flow::Stay;
        };
        self.core.state = match result {
            Ok(Response::Service(_)) if cx.services().knows(id) => {
                if on_screen {
                    show_listed(cx, id);
                }
                return Flow::Close;
            }
            Ok(found @ Response::Service(_)) => FormState::Done(found),
            Ok(_) => FormState::Failed("The server's answer was not a service.".into()),
            Err(e) if is_unknown_id(&e) => FormState::Failed(format!(
                "No service {id} on this account (the server answers \"{e}\")."
            )),
            // A read: nothing changed, whatever became of it.
            Err(e) => FormState::Failed(e.to_string()),
        };
        Flow::Stay
    }

    /// The field, its inline error, where the request is; then what the server says of a
    /// service the list does not have.
    fn view<'a>(&'a self, _app: &'a App) -> Option<FormView<'a>> {
        let number = FormRow::Field {
            label: "Service",
            field: &self.number,
            focused: true,
            typing: self.core.state.is_editable(),
        };
        if let Some(Response::Service(s)) = self.core.state.answer() {
            let done = "Not in the Services list; the server has it so:";
            let mut view = FormView::new(format!("Service {}", s.service_id), (64, 17))
                .row(number)
                .row(FormRow::Blank)
                .row(FormRow::text(format!("✓ {done}"), Tone::Good));
            view.rows.extend(fields(s));
            return Some(view);
        }
        let hint = "The service ID, as an e-mail or the Services tab gives it.";
        Some(FormView::asking_id(
            "Open service",
            hint,
            number,
            &self.core,
            ("service", self.asked),
        ))
    }
}

/// `#` on Services: the form, empty.
pub(in crate::app) fn open(cx: &mut Cx<'_>) {
    cx.shell
        .popups
        .push(Popup::form_of(ServiceNumberForm::default()));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::ProductType;
    use crate::app::popups::service::ServiceViewer;
    use crate::app::testdata as td;
    use crate::testkit::{Harness, fetches};

    /// The Services tab of the standard account with the form open.
    fn opened(mut h: Harness) -> Harness {
        assert!(fetches(&h.key('#')).is_empty(), "opening sends nothing");
        assert!(
            h.top()
                .and_then(Popup::form_as::<ServiceNumberForm>)
                .is_some()
        );
        h
    }

    fn form(h: &Harness) -> &ServiceNumberForm {
        h.top()
            .and_then(Popup::form_as::<ServiceNumberForm>)
            .expect("the form is on top")
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
        assert_eq!(parse(" 05003 "), Ok(5003));
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
        let view = f.view(&h.app).expect("a look as data");
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
