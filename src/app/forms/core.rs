//! What every form shares: its step ([`FormState`]), the ID of the request it waits for,
//! its inline error ([`FormCore`]), and the [`FormLogic`] trait whose default methods are
//! the glue the forms used to copy (busy and finished steps, "Enter closes a finished
//! form, else sends", "a field was edited, the inline error goes"). The recipe for a new
//! form is in [`super`].

use super::field::TextField;
use crate::api::{ApiError, Request, Response};
use crate::app::Cx;
use crate::app::keymap::Action;
use crate::app::keymap::steps::FormStep;
use crate::app::popup::PopupKind;
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

/// The part of every form the app drives.
#[derive(Clone, Debug, PartialEq)]
pub struct FormCore {
    pub state: FormState,
    /// The ID ([`Request::attempt`]) of the last request sent; the form waits for it while
    /// `Submitting`, and its answer is routed here by that ID alone.
    pub sent: Option<u64>,
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

    /// The ID of the request this form waits for.
    pub fn awaiting(&self) -> Option<u64> {
        self.sent.filter(|_| self.state.is_submitting())
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

/// A form's logic: one form's type implements it, and [`Form`](super::Form) has a variant
/// holding it (this module names no form and not the enum of them, so each form may name it).
pub trait FormLogic: Debug + Sized {
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

    /// The ID of the request this form waits for.
    fn awaiting(&self) -> Option<u64> {
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

    /// A field was edited: what no longer applies goes (by default the inline error).
    fn edited(&mut self) {
        self.core_mut().error = None;
    }

    /// Enter on the step that sends: the request to send (its ID is added by the app), or
    /// `None` with an inline error.
    fn submit(&mut self, _cx: &Cx<'_>) -> Option<Request> {
        None
    }

    /// An action other than Enter (Tab between fields, Ctrl-L…).
    fn other(&mut self, _cx: &mut Cx<'_>, _action: Action) {}

    /// An action while the form is on top: Enter closes a finished form, else sends what
    /// [`FormLogic::submit`] gives (once: the form is then `Submitting`).
    fn action(&mut self, cx: &mut Cx<'_>, action: Action) -> Flow {
        match action {
            Action::Submit if self.finished() => Flow::Close,
            Action::Submit => {
                if !self.core().state.is_submitting()
                    && let Some(request) = self.submit(cx)
                {
                    cx.send_form(self.core_mut(), request);
                }
                Flow::Stay
            }
            _ => {
                self.other(cx, action);
                Flow::Stay
            }
        }
    }

    /// Esc: back one step, or close.
    fn back(&mut self) -> Flow {
        Flow::Close
    }

    /// The answer to the request this form sent, routed by its ID. `on_screen`: the form is
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
