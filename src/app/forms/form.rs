//! [`Form`]: the forms, one variant each, and what the app asks of whichever is on top,
//! each question one plain match over the forms (so a new variant is a compile error until
//! it is handled everywhere).

use super::{Flow, FormCore, FormLogic, FormView, Next, TextField};
use crate::api::{ApiError, Request, Response};
use crate::app::form_kind::FormKind;
use crate::app::keymap::Action;
use crate::app::keymap::PopupKind;
use crate::app::{App, Cx, Popup};
use std::any::Any;

use super::bind_ip::BindIpForm;
use super::by_number::{ByNumberForm, Lookup};
use super::iplist::IpListForm;
use super::order::OrderForm;
use super::password::PasswordForm;
use super::refresh::RefreshForm;
use super::silence::SilenceForm;

/// A form on the popup stack, with its state.
///
/// A new form is its file here, a variant here and in [`FormKind`], and the arms the
/// compiler asks for: its `From` below, its arm of [`open`] and of each question, its
/// steps (the recipe: [`forms`](super)).
// The popup stack keeps it boxed (`Popup::Form`), so the variants' sizes cost nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Form {
    Order(OrderForm),
    BindIp(BindIpForm),
    Password(PasswordForm),
    Refresh(RefreshForm),
    IpList(IpListForm),
    ByNumber(ByNumberForm),
    Silence(SilenceForm),
}

// Each form into its variant, written here, where the enum names the forms, so that no
// form names the enum (a form pushes itself with `Popup::form_of`).
impl From<OrderForm> for Form {
    fn from(form: OrderForm) -> Self {
        Form::Order(form)
    }
}

impl From<BindIpForm> for Form {
    fn from(form: BindIpForm) -> Self {
        Form::BindIp(form)
    }
}

impl From<PasswordForm> for Form {
    fn from(form: PasswordForm) -> Self {
        Form::Password(form)
    }
}

impl From<RefreshForm> for Form {
    fn from(form: RefreshForm) -> Self {
        Form::Refresh(form)
    }
}

impl From<IpListForm> for Form {
    fn from(form: IpListForm) -> Self {
        Form::IpList(form)
    }
}

impl From<ByNumberForm> for Form {
    fn from(form: ByNumberForm) -> Self {
        Form::ByNumber(form)
    }
}

impl From<SilenceForm> for Form {
    fn from(form: SilenceForm) -> Self {
        Form::Silence(form)
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
        match self {
            Form::Order(f) => &f.core,
            Form::BindIp(f) => &f.core,
            Form::Password(f) => &f.core,
            Form::Refresh(f) => &f.core,
            Form::IpList(f) => &f.core,
            Form::ByNumber(f) => &f.core,
            Form::Silence(f) => &f.core,
        }
    }

    fn core_mut(&mut self) -> &mut FormCore {
        match self {
            Form::Order(f) => &mut f.core,
            Form::BindIp(f) => &mut f.core,
            Form::Password(f) => &mut f.core,
            Form::Refresh(f) => &mut f.core,
            Form::IpList(f) => &mut f.core,
            Form::ByNumber(f) => &mut f.core,
            Form::Silence(f) => &mut f.core,
        }
    }

    /// What decides the keys: busy, finished, or the form's own step.
    pub fn kind(&self) -> PopupKind {
        match self {
            Form::Order(f) => f.kind(),
            Form::BindIp(f) => f.kind(),
            Form::Password(f) => f.kind(),
            Form::Refresh(f) => f.kind(),
            Form::IpList(f) => f.kind(),
            Form::ByNumber(f) => f.kind(),
            Form::Silence(f) => f.kind(),
        }
    }

    /// The ticket of the request this form waits for.
    pub fn awaiting(&self) -> Option<crate::api::Ticket> {
        match self {
            Form::Order(f) => f.awaiting(),
            Form::BindIp(f) => f.awaiting(),
            Form::Password(f) => f.awaiting(),
            Form::Refresh(f) => f.awaiting(),
            Form::IpList(f) => f.awaiting(),
            Form::ByNumber(f) => f.awaiting(),
            Form::Silence(f) => f.awaiting(),
        }
    }

    /// The text field that takes typed keys now, if any.
    pub fn typing_field(&mut self) -> Option<&mut TextField> {
        match self {
            Form::Order(f) => f.typing_field(),
            Form::BindIp(f) => f.typing_field(),
            Form::Password(f) => f.typing_field(),
            Form::Refresh(f) => f.typing_field(),
            Form::IpList(f) => f.typing_field(),
            Form::ByNumber(f) => f.typing_field(),
            Form::Silence(f) => f.typing_field(),
        }
    }

    /// Whether typed keys go to a field (so `q`, `j`, `?` are text).
    pub fn is_typing(&self) -> bool {
        match self {
            Form::Order(f) => f.is_typing(),
            Form::BindIp(f) => f.is_typing(),
            Form::Password(f) => f.is_typing(),
            Form::Refresh(f) => f.is_typing(),
            Form::IpList(f) => f.is_typing(),
            Form::ByNumber(f) => f.is_typing(),
            Form::Silence(f) => f.is_typing(),
        }
    }

    /// A field was edited: what no longer applies goes, the inline error with it unless
    /// the form keeps it ([`FormLogic::edited`]).
    pub fn edited(&mut self) {
        let clears_error = match self {
            Form::Order(f) => f.edited(),
            Form::BindIp(f) => f.edited(),
            Form::Password(f) => f.edited(),
            Form::Refresh(f) => f.edited(),
            Form::IpList(f) => f.edited(),
            Form::ByNumber(f) => f.edited(),
            Form::Silence(f) => f.edited(),
        };
        if clears_error {
            self.core_mut().error = None;
        }
    }

    /// An action while the form is on top; a request the form asks to send goes with a
    /// new ticket, which the form's core keeps and waits for.
    pub fn action(&mut self, cx: &mut Cx<'_>, action: Action) -> Flow {
        let next = match self {
            Form::Order(f) => f.action(cx, action),
            Form::BindIp(f) => f.action(cx, action),
            Form::Password(f) => f.action(cx, action),
            Form::Refresh(f) => f.action(cx, action),
            Form::IpList(f) => f.action(cx, action),
            Form::ByNumber(f) => f.action(cx, action),
            Form::Silence(f) => f.action(cx, action),
        };
        match next {
            Next::Stay => Flow::Stay,
            Next::Close => Flow::Close,
            Next::Send(request) => {
                cx.send_form(self.core_mut(), request);
                Flow::Stay
            }
        }
    }

    /// Esc: back one step, or close.
    pub fn back(&mut self) -> Flow {
        match self {
            Form::Order(f) => f.back(),
            Form::BindIp(f) => f.back(),
            Form::Password(f) => f.back(),
            Form::Refresh(f) => f.back(),
            Form::IpList(f) => f.back(),
            Form::ByNumber(f) => f.back(),
            Form::Silence(f) => f.back(),
        }
    }

    /// How the form looks, as data ([`FormLogic::view`]); `None` if it has a widget.
    pub fn view<'a>(&'a self, app: &'a App) -> Option<FormView<'a>> {
        match self {
            Form::Order(f) => f.view(app),
            Form::BindIp(f) => f.view(app),
            Form::Password(f) => f.view(app),
            Form::Refresh(f) => f.view(app),
            Form::IpList(f) => f.view(app),
            Form::ByNumber(f) => f.view(app),
            Form::Silence(f) => f.view(app),
        }
    }

    /// The answer to the request this form sent ([`FormLogic::answered`]).
    pub fn answered(
        &mut self,
        cx: &mut Cx<'_>,
        request: &Request,
        result: Result<Response, ApiError>,
        on_screen: bool,
    ) -> Flow {
        match self {
            Form::Order(f) => f.answered(cx, request, result, on_screen),
            Form::BindIp(f) => f.answered(cx, request, result, on_screen),
            Form::Password(f) => f.answered(cx, request, result, on_screen),
            Form::Refresh(f) => f.answered(cx, request, result, on_screen),
            Form::IpList(f) => f.answered(cx, request, result, on_screen),
            Form::ByNumber(f) => f.answered(cx, request, result, on_screen),
            Form::Silence(f) => f.answered(cx, request, result, on_screen),
        }
    }

    /// The form as [`Any`], for [`Popup::form_as`]: one match here, where a trait to reach
    /// each form by its type would be implemented once per form.
    fn as_any(&self) -> &dyn Any {
        match self {
            Form::Order(f) => f,
            Form::BindIp(f) => f,
            Form::Password(f) => f,
            Form::Refresh(f) => f,
            Form::IpList(f) => f,
            Form::ByNumber(f) => f,
            Form::Silence(f) => f,
        }
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        match self {
            Form::Order(f) => f,
            Form::BindIp(f) => f,
            Form::Password(f) => f,
            Form::Refresh(f) => f,
            Form::IpList(f) => f,
            Form::ByNumber(f) => f,
            Form::Silence(f) => f,
        }
    }
}

/// What the app asks of a popup that may be a form.
impl Popup {
    /// A form, as a popup.
    pub fn form_of(form: impl Into<Form>) -> Self {
        Popup::Form(Box::new(form.into()))
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
        self.form()?.as_any().downcast_ref()
    }

    pub fn form_as_mut<F: FormLogic + 'static>(&mut self) -> Option<&mut F> {
        self.form_mut()?.as_any_mut().downcast_mut()
    }

    pub fn is_form(&self) -> bool {
        matches!(self, Popup::Form(_))
    }
}
