//! Open something by its number: an invoice (`#` on Billing: operators get invoice
//! numbers by e-mail) or a service (`#` on Services: an ID from an e-mail, a ticket or the
//! command line), when the table is long, filtered, or does not list it. One form: what
//! is looked up ([`Lookup`]) holds the few differences.
//!
//! One field, digits only (a paste is trimmed by the field); anything else, 0, or more
//! than 20 digits is an inline error and nothing is sent. Enter sends the GET (endpoint 12
//! for an invoice, 13 for a service) as any read is sent ([`FormCx::fetch`]: through the
//! scheduler, one GET however often it is asked), so its answer is kept in the account's
//! store like the viewer's own request's.
//! Found, the viewer takes the form's place and shows it from there without asking again:
//! an invoice's viewer; a listed service's row selected on the Services tab (a filter or
//! `!` hiding it cleared) and its detail. A service the list does not have (not loaded
//! yet, or not listed) is shown in the form, as the server has it (spec 2.4, the password
//! left out). Not found (an empty array, a 404, the API's generic 422) says so; any other
//! failure is the server's words. Either way the number stays, to correct and send again.
//! It only reads, so a read-only profile has it too.

use super::TextField;
use super::field::{is_unknown_id, parse_id};
use super::{
    Answered, Flow, FormCore, FormCx, FormData, FormLogic, FormRow, FormState, FormView, Intent,
};
use crate::api::{Request, Response, Service};
use crate::app::columns::Tone;
use crate::app::keymap::steps::{CANCEL, FormStep, step_key};
use crate::app::keymap::{Action, code};
use crate::app::look::theme::Theme;
use crate::text;
use crossterm::event::KeyCode;
use ratatui::Frame;
use ratatui::layout::Rect;

/// The one step of the invoice form: the number.
#[rustfmt::skip]
pub static INVOICE_STEP: FormStep = FormStep {
    title: "open invoice",
    bindings: &[
        step_key(&[code(KeyCode::Enter)], Action::Submit, Some("open"), "Fetch and show the invoice with this number"),
        CANCEL,
    ],
};

/// The one step of the service form: the ID.
#[rustfmt::skip]
pub static SERVICE_STEP: FormStep = FormStep {
    title: "open service",
    bindings: &[
        step_key(&[code(KeyCode::Enter)], Action::Submit, Some("open"), "Fetch and show the service with this ID"),
        CANCEL,
    ],
};

/// What the number is of: the words, the request and what a found one opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    Invoice,
    Service,
}

impl Lookup {
    /// What the number is of, as "Fetching … N" and "No … N" say it.
    fn noun(self) -> &'static str {
        match self {
            Lookup::Invoice => "invoice",
            Lookup::Service => "service",
        }
    }

    fn step(self) -> &'static FormStep {
        match self {
            Lookup::Invoice => &INVOICE_STEP,
            Lookup::Service => &SERVICE_STEP,
        }
    }

    /// The number typed, or why it is none.
    pub fn parse(self, text: &str) -> Result<u64, String> {
        match self {
            Lookup::Invoice => parse_id(
                text,
                "invoice number",
                "There is no invoice 0: numbers start at 1.",
            ),
            Lookup::Service => {
                parse_id(text, "service ID", "There is no service 0: IDs start at 1.")
            }
        }
    }

    fn request(self, id: u64) -> Request {
        match self {
            Lookup::Invoice => Request::Invoice(id),
            Lookup::Service => Request::Service(id),
        }
    }

    /// The number `request` asks for, if it is this lookup's.
    fn asked(self, request: &Request) -> Option<u64> {
        match (self, request) {
            (Lookup::Invoice, &Request::Invoice(id)) | (Lookup::Service, &Request::Service(id)) => {
                Some(id)
            }
            _ => None,
        }
    }

    /// What an answer found: `Ok(true)` something the viewer shows (the store has the
    /// invoice, the Services list the service), `Ok(false)` a service the list does not
    /// have (the form shows it), else what the form says.
    fn found(self, cx: &FormCx<'_>, id: u64, answer: &Response) -> Result<bool, String> {
        match (self, answer) {
            (Lookup::Invoice, Response::Invoice(found)) if found.is_empty() => {
                Err(format!("No invoice {id} on this account."))
            }
            (Lookup::Invoice, Response::Invoice(_)) => Ok(true),
            (Lookup::Service, Response::Service(_)) => Ok(cx.listed(id).is_some()),
            (Lookup::Invoice, _) => Err("The server's answer was not an invoice.".into()),
            (Lookup::Service, _) => Err("The server's answer was not a service.".into()),
        }
    }

    /// What shows what was found: the invoice's viewer, or the service's row selected
    /// (clearing a filter or `!` that hides it) and its detail open.
    fn show(self, id: u64) -> Intent {
        match self {
            Lookup::Invoice => Intent::ShowInvoice(id),
            Lookup::Service => Intent::ShowService(id),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ByNumberForm {
    pub lookup: Lookup,
    pub number: TextField,
    /// The number last asked for (what "Fetching invoice N" names).
    pub asked: Option<u64>,
    /// The step, the request on its way, the inline error (not a number); `Done` holds the
    /// service the list does not have.
    pub core: FormCore,
}

impl ByNumberForm {
    pub fn new(lookup: Lookup) -> Self {
        Self {
            lookup,
            number: TextField::default(),
            asked: None,
            core: FormCore::new(FormState::Editing),
        }
    }

    /// The hint, the field, its inline error and where the request is ("Fetching invoice
    /// N…" while on its way).
    fn asking<'a>(&'a self, number: FormRow<'a>) -> FormView<'a> {
        let (title, hint) = match self.lookup {
            Lookup::Invoice => (
                "Open invoice",
                "The invoice number, as its e-mail gives it.",
            ),
            Lookup::Service => (
                "Open service",
                "The service ID, as an e-mail or the Services tab gives it.",
            ),
        };
        let asked = self.asked.map(|id| format!(" {id}")).unwrap_or_default();
        let sending = format!("Fetching {}{asked}…", self.lookup.noun());
        FormView::new(title, (64, 9))
            .row(FormRow::text(hint, Tone::Dim))
            .row(FormRow::Blank)
            .row(number)
            .row(FormRow::Error(self.core.error.as_deref()))
            .row(FormRow::State {
                state: &self.core.state,
                sending,
                done: String::new(),
            })
    }

    /// The field, its inline error, where the request is; then what the server says of a
    /// service the list does not have (found, the viewer takes the form's place, so there
    /// is no other "done" to show).
    pub fn view(&self) -> FormView<'_> {
        let number = FormRow::Field {
            label: match self.lookup {
                Lookup::Invoice => "Number",
                Lookup::Service => "Service",
            },
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
            return view;
        }
        self.asking(number)
    }
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
            tone: Tone::of_service(&s.status),
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

impl FormLogic for ByNumberForm {
    fn step(&self) -> &'static FormStep {
        self.lookup.step()
    }

    fn typing_field(&mut self) -> Option<&mut TextField> {
        self.core.state.is_editable().then_some(&mut self.number)
    }

    fn is_typing(&self) -> bool {
        self.core.state.is_editable()
    }

    /// Enter: the GET for the number typed, or an inline error and nothing.
    fn submit(&mut self, _cx: &FormCx<'_>) -> Option<Request> {
        if !self.core.state.is_editable() {
            return None;
        }
        match self.lookup.parse(self.number.value()) {
            Ok(id) => {
                self.core.error = None;
                self.asked = Some(id);
                Some(self.lookup.request(id))
            }
            Err(why) => {
                self.core.error = Some(why);
                None
            }
        }
    }

    /// Found: the viewer takes the form's place (closed while waiting: nothing more to
    /// do, the store kept the answer). A service the list does not have: its fields, here.
    fn answered(&mut self, cx: &mut FormCx<'_>, answer: Answered<'_>) -> Flow {
        let Some(id) = self.lookup.asked(answer.request) else {
            return Flow::Stay;
        };
        self.core.state = match answer.result {
            Ok(found) => match self.lookup.found(cx, id, &found) {
                Ok(true) => {
                    if answer.on_screen {
                        cx.intend(self.lookup.show(id));
                    }
                    return Flow::Close;
                }
                Ok(false) => FormState::Done(found),
                Err(why) => FormState::Failed(why),
            },
            Err(e) if is_unknown_id(&e) => FormState::Failed(format!(
                "No {} {id} on this account (the server answers \"{e}\").",
                self.lookup.noun()
            )),
            // A read: nothing changed, whatever became of it.
            Err(e) => FormState::Failed(e.to_string()),
        };
        Flow::Stay
    }

    fn render(&self, frame: &mut Frame, area: Rect, data: &FormData<'_>, theme: &Theme) {
        self.view().draw(frame, area, data, theme);
    }
}
