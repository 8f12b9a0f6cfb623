//! [`Form`]: the form on top of the popup stack, whichever it is (a [`FormLogic`] behind
//! a pointer), and what the app asks of it, each question one call through the trait; a
//! form's key opens it through [`open`], one arm per [`FormKind`].

use super::{Flow, FormCore, FormLogic, FormView, Next, TextField};
use crate::api::{ApiError, Request, Response};
use crate::app::form_kind::FormKind;
use crate::app::keymap::Action;
use crate::app::keymap::PopupKind;
use crate::app::{App, Cx, Popup};
use std::any::Any;

use super::by_number::Lookup;

/// A form on the popup stack, with its state: any [`FormLogic`] (a new form needs no
/// variant here; the recipe: [`forms`](super)). The popups that are forms are told apart
/// by their type ([`Popup::form_as`]).
#[derive(Debug)]
pub struct Form(Box<dyn FormLogic>);

/// Any form is a [`Form`] (a form pushes itself with `Popup::form_of`).
impl<F: FormLogic> From<F> for Form {
    fn from(form: F) -> Self {
        Form(Box::new(form))
    }
}

/// The key of a form: that form opens (or the status line says why not).
pub(in crate::app) fn open(cx: &mut Cx<'_>, kind: FormKind) {
    match kind {
        FormKind::Order => super::order::open(cx),
        FormKind::BindIp => super::bind_ip::open(cx),
        FormKind::Password => super::password::open(cx),
        FormKind::Refresh => super::refresh::open(cx),
        FormKind::IpList => super::iplist::open(cx),
        FormKind::InvoiceNumber => super::by_number::open(cx, Lookup::Invoice),
        FormKind::Silence => super::silence::open(cx),
        FormKind::ServiceNumber => super::by_number::open(cx, Lookup::Service),
    }
}

impl FormKind {
    /// The form's steps, for the checks that every step's keys do what they say.
    #[cfg(test)]
    pub fn steps(self) -> Vec<&'static crate::app::keymap::steps::FormStep> {
        match self {
            FormKind::Order => vec![&super::order::EDIT, &super::order::CONFIRM],
            FormKind::BindIp => vec![&super::bind_ip::STEP],
            FormKind::Password => vec![&super::password::STEP],
            FormKind::Refresh => vec![&super::refresh::STEP],
            FormKind::IpList => vec![
                &super::iplist::CHOOSE,
                &super::iplist::VIEW,
                &super::iplist::SAVE,
            ],
            FormKind::InvoiceNumber => vec![&super::by_number::INVOICE_STEP],
            FormKind::Silence => vec![&super::silence::STEP],
            FormKind::ServiceNumber => vec![&super::by_number::SERVICE_STEP],
        }
    }
}

impl Form {
    /// The form's core: the field every form keeps it in (see [`FormLogic`]).
    pub fn core(&self) -> &FormCore {
        self.0.core()
    }

    /// What decides the keys: busy, finished, or the form's own step.
    pub fn kind(&self) -> PopupKind {
        self.0.kind()
    }

    /// The ticket of the request the form waits for, if any.
    pub fn awaiting(&self) -> Option<crate::api::Ticket> {
        self.0.awaiting()
    }

    /// The field that takes typing now, if any.
    pub fn typing_field(&mut self) -> Option<&mut TextField> {
        self.0.typing_field()
    }

    pub fn is_typing(&self) -> bool {
        self.0.is_typing()
    }

    /// A field was edited: what no longer applies goes, the inline error with it unless
    /// the form keeps it ([`FormLogic::edited`]).
    pub fn edited(&mut self) {
        if self.0.edited() {
            self.0.core_mut().error = None;
        }
    }

    /// An action while the form is on top; a request the form asks to send goes with a
    /// new ticket, which the form's core keeps and waits for.
    pub fn action(&mut self, cx: &mut Cx<'_>, action: Action) -> Flow {
        match self.0.action(cx, action) {
            Next::Stay => Flow::Stay,
            Next::Close => Flow::Close,
            Next::Send(request) => {
                cx.send_form(self.0.core_mut(), request);
                Flow::Stay
            }
        }
    }

    /// Esc: back one step, or close.
    pub fn back(&mut self) -> Flow {
        self.0.back()
    }

    /// How the form looks, as data ([`FormLogic::view`]); `None` if it has a widget.
    pub fn view<'a>(&'a self, app: &'a App) -> Option<FormView<'a>> {
        self.0.view(app)
    }

    /// The answer to the request this form sent ([`FormLogic::answered`]).
    pub fn answered(
        &mut self,
        cx: &mut Cx<'_>,
        request: &Request,
        result: Result<Response, ApiError>,
        on_screen: bool,
    ) -> Flow {
        self.0.answered(cx, request, result, on_screen)
    }

    /// Whether `other` is this very form (forms are not compared field by field).
    pub fn is(&self, other: &Form) -> bool {
        std::ptr::addr_eq(&*self.0, &*other.0)
    }

    /// The form, if it is an `F`.
    pub fn downcast<F: FormLogic>(&self) -> Option<&F> {
        (&*self.0 as &dyn Any).downcast_ref()
    }

    pub fn downcast_mut<F: FormLogic>(&mut self) -> Option<&mut F> {
        (&mut *self.0 as &mut dyn Any).downcast_mut()
    }
}

/// What the app asks of a popup that may be a form.
/// A form on the popup stack: what it is and whether it takes typing. Its keys are routed
/// by [`forms`](super) through its steps, not by the pane.
impl crate::app::popup_pane::PopupPane for Form {
    fn kind(&self) -> PopupKind {
        Form::kind(self)
    }

    fn is_typing(&self) -> bool {
        Form::is_typing(self)
    }
}

/// A form equals only itself ([`Form::is`]).
impl PartialEq for Form {
    fn eq(&self, other: &Self) -> bool {
        self.is(other)
    }
}

impl Popup {
    /// A form, as a popup.
    pub fn form_of(form: impl Into<Form>) -> Self {
        Popup::Form(form.into())
    }

    /// The form, if this popup is one.
    pub fn form(&self) -> Option<&Form> {
        match self {
            Popup::Form(f) => Some(f),
            _ => None,
        }
    }

    pub fn form_mut(&mut self) -> Option<&mut Form> {
        match self {
            Popup::Form(f) => Some(f),
            _ => None,
        }
    }

    /// The form, if this popup is the form `F`.
    pub fn form_as<F: FormLogic + 'static>(&self) -> Option<&F> {
        self.form()?.downcast()
    }

    pub fn form_as_mut<F: FormLogic + 'static>(&mut self) -> Option<&mut F> {
        self.form_mut()?.downcast_mut()
    }

    pub fn is_form(&self) -> bool {
        matches!(self, Popup::Form(_))
    }
}
