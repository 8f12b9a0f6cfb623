//! What every form shares: its step ([`FormState`]), the request it waits for ([`Sent`]),
//! its inline error ([`FormCore`]), and the [`FormLogic`] trait a form implements: what is
//! its own (its steps, the field that takes typing, what Enter sends, how it takes its
//! answer, its look). What is the same for every form (busy and finished steps, "Enter
//! closes a finished form, else sends", "a field was edited, the inline error goes", the
//! request sent and its ticket) is written once, in [`Form`](super::Form), which reaches
//! each form's core. The recipe for a new form is in [`super`].

use super::cx::{Answered, FileAnswer, FormCx, FormData};
use super::field::TextField;
use crate::api::{ApiError, Request, Response, Ticket};
use crate::app::keymap::Action;
use crate::app::keymap::steps::FormStep;
use crate::app::look::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use std::fmt::Debug;
use std::net::Ipv4Addr;

/// The step a form is at.
#[derive(Clone, Debug, PartialEq)]
pub enum FormState {
    /// The fields take typing.
    Editing,
    /// What will be sent is repeated, for Enter to confirm.
    Confirming,
    /// The one request is on its way: Enter is ignored, nothing is sent twice.
    Submitting,
    /// The server's typed answer, kept as data: the form's look words it.
    Done(Response),
    /// Why it failed, in the server's own words; the values stay, so the user can correct
    /// them and send again.
    Failed(String),
}

impl FormState {
    /// Fields take typing: while editing, and after a failure (to correct and resend).
    pub fn is_editable(&self) -> bool {
        matches!(self, FormState::Editing | FormState::Failed(_))
    }

    pub fn is_submitting(&self) -> bool {
        matches!(self, FormState::Submitting)
    }

    pub fn is_done(&self) -> bool {
        matches!(self, FormState::Done(_))
    }

    /// The message of `Failed`.
    pub fn message(&self) -> Option<&str> {
        match self {
            FormState::Failed(m) => Some(m),
            _ => None,
        }
    }

    /// The answer of `Done`.
    pub fn answer(&self) -> Option<&Response> {
        match self {
            FormState::Done(r) => Some(r),
            _ => None,
        }
    }
}

/// The last request a form sent: the form waits for it while `Submitting`.
#[derive(Clone, Debug, PartialEq)]
pub struct Sent {
    /// The send's own ID, made by the app: a write's answer comes back with it and is
    /// routed here by it alone.
    pub ticket: Ticket,
    /// A read's request: its answer is known by its parameters (one answer serves every
    /// form that asked for the same), so it comes here by them. `None` for a write.
    pub read: Option<Request>,
}

impl Sent {
    /// A write sent as `ticket`.
    pub fn write(ticket: Ticket) -> Self {
        Sent { ticket, read: None }
    }
}

/// The part of every form the app drives.
#[derive(Clone, Debug, PartialEq)]
pub struct FormCore {
    pub state: FormState,
    /// The last request sent ([`Sent`]), waited for while `Submitting`.
    pub sent: Option<Sent>,
    /// The inline error under the fields (empty, invalid), cleared by editing.
    pub error: Option<String>,
}

impl FormCore {
    pub fn new(state: FormState) -> Self {
        Self {
            state,
            sent: None,
            error: None,
        }
    }

    /// The ticket of the request this form waits for.
    pub fn awaiting(&self) -> Option<Ticket> {
        self.waiting().map(|sent| sent.ticket)
    }

    /// The read this form waits for, if it waits for a read.
    pub fn reading(&self) -> Option<&Request> {
        self.waiting().and_then(|sent| sent.read.as_ref())
    }

    fn waiting(&self) -> Option<&Sent> {
        self.sent.as_ref().filter(|_| self.state.is_submitting())
    }

    /// Sends the form's `request` with a new ticket, which the core keeps and waits for.
    pub(in crate::app) fn send(&mut self, cx: &mut FormCx<'_>, request: Request) {
        let ticket = cx.ticket();
        self.send_as(cx, request, ticket);
    }

    /// Sends the form's `request` with `ticket` (an order's attempt, recorded first): a
    /// write exactly once, a read (an IP list, an invoice) through [`FormCx::fetch`], known
    /// by its parameters. The form is then `Submitting`, waiting for it.
    pub(in crate::app) fn send_as(
        &mut self,
        cx: &mut FormCx<'_>,
        request: Request,
        ticket: Ticket,
    ) {
        self.state = FormState::Submitting;
        if request.is_write() {
            self.sent = Some(Sent::write(ticket));
            cx.send_write(request, ticket);
        } else {
            self.sent = Some(Sent {
                ticket,
                read: Some(request.clone()),
            });
            cx.fetch(request);
        }
    }

    /// The server answered: `Done` with its answer, or `Failed` with `failure`'s words.
    pub fn finish(&mut self, result: Result<Response, ApiError>) {
        self.state = match result {
            Ok(r) => FormState::Done(r),
            Err(e) => FormState::Failed(super::failure(&e)),
        };
    }
}

/// What an action leaves of the form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Stay,
    Close,
}

/// What a form's action asks for: a [`Flow`], or its request sent (by
/// [`Form`](super::Form), which gives the request its ticket and the core the form keeps).
#[derive(Clone, Debug, PartialEq)]
pub enum Next {
    Stay,
    Close,
    Send(Request),
}

impl From<Flow> for Next {
    fn from(flow: Flow) -> Self {
        match flow {
            Flow::Stay => Next::Stay,
            Flow::Close => Next::Close,
        }
    }
}

/// A form's logic and look: one form's type implements it, and [`Form`](super::Form) (one
/// variant per form) holds it; this module names no form, so each form may name it.
///
/// Every form keeps its [`FormCore`] in a field named `core`, which its own methods read
/// and change; the app reaches it through [`Form`](super::Form) alone, for the glue
/// written once there. A form acts through a [`FormCx`] (the account's data to read,
/// reads and writes to send, the status line, [`Intent`](super::Intent)s the app carries
/// out) and is drawn from a [`FormData`]: never the whole app, never another part's state.
pub trait FormLogic: Debug {
    /// The step the form is at while it is neither busy nor finished: one of the form's
    /// `static` [`FormStep`]s, which carry the step's keys.
    fn step(&self) -> &'static FormStep;

    /// Whether `state` shows the outcome, so that Enter closes (by default: `Done`).
    fn ends_at(&self, state: &FormState) -> bool {
        state.is_done()
    }

    /// The text field that takes typed keys now, if any.
    fn typing_field(&mut self) -> Option<&mut TextField> {
        None
    }

    /// Whether typed keys go to a field (so `q`, `j`, `?` are text): whether
    /// [`FormLogic::typing_field`] gives one.
    fn is_typing(&self) -> bool {
        false
    }

    /// A field was edited: what no longer applies goes. Returns whether the inline error
    /// goes too (by default it does; the password form keeps its own until the next
    /// Enter).
    fn edited(&mut self) -> bool {
        true
    }

    /// Enter on the step that sends: the request to send (the app gives it its ticket), or
    /// `None` with an inline error.
    fn submit(&mut self, _cx: &FormCx<'_>) -> Option<Request> {
        None
    }

    /// An action other than Enter (Tab between fields, Ctrl-L…).
    fn other(&mut self, _cx: &mut FormCx<'_>, _action: Action) {}

    /// An action while the form is on top and neither finished nor busy with Enter (the
    /// glue, [`Form::action`](super::Form::action), answers those): Enter sends what
    /// [`FormLogic::submit`] gives; any other action goes to [`FormLogic::other`].
    fn action(&mut self, cx: &mut FormCx<'_>, action: Action) -> Next {
        match action {
            Action::Submit => self.submit(cx).map_or(Next::Stay, Next::Send),
            _ => {
                self.other(cx, action);
                Next::Stay
            }
        }
    }

    /// Esc: back one step, or close.
    fn back(&mut self) -> Flow {
        Flow::Close
    }

    /// The answer to the request this form sent, routed by its ticket (a write) or its
    /// parameters (a read).
    ///
    /// What it leaves of the form: `Stay` (it shows the outcome), or `Close` (a form that
    /// fetched something to show gives way to it: what it asked to open meanwhile, a
    /// viewer, takes the form's place in the stack).
    fn answered(&mut self, cx: &mut FormCx<'_>, answer: Answered<'_>) -> Flow;

    /// Draws the form over `area` (the body under the tab line), its popup's frame
    /// included, from the account's data. A look that is rows of fields, values and text
    /// builds a [`FormView`](super::FormView) and draws it; one that needs more (the
    /// order's pickers, the IP-list viewer) draws with the pieces of [`super::look`].
    fn render(&self, frame: &mut Frame, area: Rect, data: &FormData<'_>, theme: &Theme);

    // What the app hands every form on the stack, besides the answers to its own
    // requests; a form that has no use for one keeps the default.

    /// This machine's IP was looked up (`Command::LookupMyIp`): whether this form had
    /// asked for it (it then uses or shows the answer).
    fn my_ip(&mut self, _result: &Result<Ipv4Addr, String>) -> bool {
        false
    }

    /// Whether the form shows a failed lookup of this machine's IP itself, so the status
    /// line need not.
    fn shows_my_ip(&self) -> bool {
        false
    }

    /// Whether a file the form asked to write is on its way (its answer comes to it).
    fn is_writing(&self) -> bool {
        false
    }

    /// The answer to the file the form asked to write.
    fn file_answer(&mut self, _cx: &mut FormCx<'_>, _answer: &FileAnswer) {}

    /// The check of product `product_id`'s order in doubt came to `line`.
    fn order_checked(&mut self, _product_id: u64, _line: &str) {}

    /// The service whose IP-list countdown the form shows, if it shows one (the loop
    /// ticks every second while it runs on screen).
    fn countdown_of(&self) -> Option<u64> {
        None
    }
}
