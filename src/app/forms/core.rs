//! What every form shares: its step ([`FormState`]), the request it waits for ([`Sent`]),
//! its inline error ([`FormCore`]), and the [`FormLogic`] trait whose default methods are
//! the glue the forms used to copy (busy and finished steps, "Enter closes a finished
//! form, else sends", "a field was edited, the inline error goes"). The recipe for a new
//! form is in [`super`].
//!
//! And how a form looks, as data: a [`FormView`] is a framed popup of rows (a labelled
//! text field, a value, text, a hint or the inline error under a field, where the request
//! is), which the ui draws the same way for every form. A form whose look is no more than
//! that returns one from [`FormLogic::view`] and needs no ui code; a form whose look needs
//! more (the order's pickers, the IP-list viewer) keeps a widget of its own in the ui.

use super::field::TextField;
use crate::api::{ApiError, Request, Response, Ticket};
use crate::app::columns::Tone;
use crate::app::keymap::Action;
use crate::app::keymap::steps::FormStep;
use crate::app::popups::PopupKind;
use crate::app::{App, Cx};
use std::any::Any;
use std::fmt::Debug;

/// The step a form is at.
#[derive(Clone, Debug, PartialEq)]
pub enum FormState {
    /// The fields take typing.
    Editing,
    /// What will be sent is repeated, for Enter to confirm.
    Confirming,
    /// The one request is on its way: Enter is ignored, nothing is sent twice.
    Submitting,
    /// The server's typed answer, kept as data: the form's widget words it.
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

/// A form's logic: one form's type implements it, and [`Form`](super::Form) holds it
/// behind a pointer (this module names no form, so each form may name it).
///
/// Every form keeps its [`FormCore`] in a field named `core`, returned by the trait's two
/// accessors: [`FormLogic::core`] for the glue written once here (the key kind of each
/// step, the ticket waited for, "Enter closes a finished form, else sends"), and
/// `core_mut` for what changes the core the same way for every form (the request sent,
/// the inline error cleared by editing), done once by [`Form`](super::Form).
pub trait FormLogic: Any + Debug {
    fn core(&self) -> &FormCore;
    fn core_mut(&mut self) -> &mut FormCore;

    /// The step the form is at while it is neither busy nor finished: one of the form's
    /// `static` [`FormStep`]s, which carry the step's keys.
    fn step(&self) -> &'static FormStep;

    /// The outcome is shown and Enter closes (by default: `Done`).
    fn finished(&self) -> bool {
        self.core().state.is_done()
    }

    /// What decides the keys: busy, finished, or the form's own step.
    fn kind(&self) -> PopupKind {
        if self.core().state.is_submitting() {
            PopupKind::FormBusy
        } else if self.finished() {
            PopupKind::FormDone
        } else {
            PopupKind::Step(self.step())
        }
    }

    /// The ticket of the request this form waits for.
    fn awaiting(&self) -> Option<Ticket> {
        self.core().awaiting()
    }

    /// The text field that takes typed keys now, if any.
    fn typing_field(&mut self) -> Option<&mut TextField> {
        None
    }

    /// Whether typed keys go to a field (so `q`, `j`, `?` are text).
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
    fn submit(&mut self, _cx: &Cx<'_>) -> Option<Request> {
        None
    }

    /// An action other than Enter (Tab between fields, Ctrl-L…).
    fn other(&mut self, _cx: &mut Cx<'_>, _action: Action) {}

    /// An action while the form is on top: Enter closes a finished form, else sends what
    /// [`FormLogic::submit`] gives (once: the form is then `Submitting`); any other action
    /// goes to [`FormLogic::other`].
    fn action(&mut self, cx: &mut Cx<'_>, action: Action) -> Next {
        match action {
            Action::Submit if self.finished() => Next::Close,
            Action::Submit if self.core().state.is_submitting() => Next::Stay,
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

    /// How the form looks, as data the ui draws ([`FormView`]); `None` (the default): the
    /// form has a widget of its own in the ui.
    fn view<'a>(&'a self, _app: &'a App) -> Option<FormView<'a>> {
        None
    }

    /// The answer to the request this form sent, routed by its ticket (a write) or its
    /// parameters (a read). `on_screen`: the form is
    /// open (false once it was closed while waiting: the app kept it for this answer).
    ///
    /// What it leaves of the form: `Stay` (it shows the outcome), or `Close` (a form that
    /// fetched something to show gives way to it: the popup it pushed meanwhile, a viewer,
    /// takes the form's place in the stack).
    fn answered(
        &mut self,
        cx: &mut Cx<'_>,
        request: &Request,
        result: Result<Response, ApiError>,
        on_screen: bool,
    ) -> Flow;
}

/// A form's look: its popup's title and size, and what is in it, from the top.
#[derive(Debug)]
pub struct FormView<'a> {
    pub title: String,
    /// Width and height of the popup, frame included.
    pub size: (u16, u16),
    /// Row `i` starts at row `i` of the popup's inside. A field, a value and a blank take
    /// their row only; text, a hint, an error and the state wrap onto the rows below, and
    /// the rows after them are drawn over what ran into theirs.
    pub rows: Vec<FormRow<'a>>,
}

/// One row of a [`FormView`].
#[derive(Debug)]
pub enum FormRow<'a> {
    /// `›Label     [text      ]`: the marker and, while it takes typing, the terminal
    /// cursor, when `focused`.
    Field {
        label: &'a str,
        field: &'a TextField,
        focused: bool,
        typing: bool,
    },
    /// `Label     value`, the label dim, the value in its tone.
    Value {
        label: &'a str,
        text: String,
        tone: Tone,
    },
    /// Lines of text, each in its tone, wrapped as one paragraph.
    Text(Vec<(String, Tone)>),
    /// A line under a field, indented to the field's text.
    Hint(String, Tone),
    /// The inline error under a field (`✗ …`), or nothing.
    Error(Option<&'a str>),
    /// Nothing.
    Blank,
    /// Where the form's request is: `sending` while on its way, `done` once answered (the
    /// answer worded by the form), the server's words if it failed; nothing while editing.
    State {
        state: &'a FormState,
        sending: String,
        done: String,
    },
}

impl<'a> FormView<'a> {
    pub fn new(title: impl Into<String>, size: (u16, u16)) -> Self {
        Self {
            title: title.into(),
            size,
            rows: Vec::new(),
        }
    }

    /// The next row.
    pub fn row(mut self, row: FormRow<'a>) -> Self {
        self.rows.push(row);
        self
    }

    /// Blank rows up to row `at`, so the next row starts there.
    pub fn at(mut self, at: usize) -> Self {
        while self.rows.len() < at {
            self.rows.push(FormRow::Blank);
        }
        self
    }
}

impl FormRow<'_> {
    /// A line of text in one tone.
    pub fn text(text: impl Into<String>, tone: Tone) -> Self {
        FormRow::Text(vec![(text.into(), tone)])
    }
}
