//! [`Form`]: the forms, one variant each, and what the app asks of whichever is on top.
//! Every question is one exhaustive match ([`each`]), so a new variant is a compile error
//! until it is handled everywhere.

use super::bind_ip::BindIpForm;
use super::invoice_number::InvoiceNumberForm;
use super::iplist::IpListForm;
use super::order::OrderForm;
use super::password::PasswordForm;
use super::refresh::RefreshForm;
use super::silence::SilenceForm;
use super::{Flow, FormCore, FormLogic, TextField};
use crate::api::{ApiError, Request, Response};
use crate::app::Cx;
use crate::app::Popup;
use crate::app::keymap::PopupKind;
use crate::app::keymap::{Action, FormKind};

/// Each form as its variant, and back (`Popup::form_of`, `Popup::form_as`): written here,
/// where the enum names the forms, so no form names the enum.
pub trait Variant: Sized {
    fn into_form(self) -> Form;
    /// The form, if `form` is this one.
    fn of(form: &Form) -> Option<&Self>;
    fn of_mut(form: &mut Form) -> Option<&mut Self>;
}

/// The one list of the forms: [`Form`], one variant each, and each form's [`Variant`].
macro_rules! forms {
    ($($variant:ident($form:ty)),* $(,)?) => {
        /// A form on the popup stack, with its state.
        // The popup stack keeps it boxed (`Popup::Form`), so the variants' sizes cost nothing.
        #[allow(clippy::large_enum_variant)]
        #[derive(Debug)]
        pub enum Form {
            $($variant($form),)*
        }

        $(impl Variant for $form {
            fn into_form(self) -> Form {
                Form::$variant(self)
            }
            fn of(form: &Form) -> Option<&Self> {
                match form {
                    Form::$variant(f) => Some(f),
                    _ => None,
                }
            }
            fn of_mut(form: &mut Form) -> Option<&mut Self> {
                match form {
                    Form::$variant(f) => Some(f),
                    _ => None,
                }
            }
        })*
    };
}

forms!(
    Order(OrderForm),
    BindIp(BindIpForm),
    Password(PasswordForm),
    Refresh(RefreshForm),
    IpList(IpListForm),
    InvoiceNumber(InvoiceNumberForm),
    Silence(SilenceForm),
);

/// `each!(form, f => expr)`: `expr` with `f` bound to the form inside whichever variant
/// `form` is (the ui draws with it too).
macro_rules! each {
    ($form:expr, $f:ident => $body:expr) => {
        match $form {
            $crate::app::forms::Form::Order($f) => $body,
            $crate::app::forms::Form::BindIp($f) => $body,
            $crate::app::forms::Form::Password($f) => $body,
            $crate::app::forms::Form::Refresh($f) => $body,
            $crate::app::forms::Form::IpList($f) => $body,
            $crate::app::forms::Form::InvoiceNumber($f) => $body,
            $crate::app::forms::Form::Silence($f) => $body,
        }
    };
}
pub(crate) use each;

impl Form {
    pub fn core(&self) -> &FormCore {
        each!(self, f => f.core())
    }

    /// What decides the keys: busy, finished, or the form's own step.
    pub fn kind(&self) -> PopupKind {
        each!(self, f => f.kind())
    }

    /// The ID of the request this form waits for.
    pub fn awaiting(&self) -> Option<u64> {
        each!(self, f => f.awaiting())
    }

    /// The text field that takes typed keys now, if any.
    pub fn typing_field(&mut self) -> Option<&mut TextField> {
        each!(self, f => f.typing_field())
    }

    /// Whether typed keys go to a field (so `q`, `j`, `?` are text).
    pub fn is_typing(&self) -> bool {
        each!(self, f => f.is_typing())
    }

    /// A field was edited.
    pub fn edited(&mut self) {
        each!(self, f => f.edited())
    }

    /// An action while the form is on top.
    pub fn action(&mut self, cx: &mut Cx<'_>, action: Action) -> Flow {
        each!(self, f => f.action(cx, action))
    }

    /// Esc: back one step, or close.
    pub fn back(&mut self) -> Flow {
        each!(self, f => f.back())
    }

    /// The answer to the request this form sent ([`FormLogic::answered`]).
    pub fn answered(
        &mut self,
        cx: &mut Cx<'_>,
        request: &Request,
        result: Result<Response, ApiError>,
        on_screen: bool,
    ) -> Flow {
        each!(self, f => f.answered(cx, request, result, on_screen))
    }
}

/// What the app asks of a popup that may be a form.
impl Popup {
    /// A form, as a popup.
    pub fn form_of(form: impl Variant) -> Self {
        Popup::Form(Box::new(form.into_form()))
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
    pub fn form_as<F: Variant>(&self) -> Option<&F> {
        F::of(self.form()?)
    }

    pub fn form_as_mut<F: Variant>(&mut self) -> Option<&mut F> {
        F::of_mut(self.form_mut()?)
    }

    pub fn is_form(&self) -> bool {
        matches!(self, Popup::Form(_))
    }
}

/// The key of a form: that form opens (or the status line says why not).
pub(in crate::app) fn open(cx: &mut Cx<'_>, kind: FormKind) {
    use super::{bind_ip, invoice_number, iplist, order, password, refresh, silence};
    match kind {
        FormKind::Order => order::open(cx),
        FormKind::BindIp => bind_ip::open(cx),
        FormKind::Password => password::open(cx),
        FormKind::Refresh => refresh::open(cx),
        FormKind::IpList => iplist::open(cx),
        FormKind::InvoiceNumber => invoice_number::open(cx),
        FormKind::Silence => silence::open(cx),
    }
}

impl FormKind {
    /// The form's steps, for the checks that every step's keys do what they say.
    #[cfg(test)]
    pub fn steps(self) -> Vec<&'static crate::app::keymap::steps::FormStep> {
        use super::{bind_ip, invoice_number, iplist, order, password, refresh, silence};
        match self {
            FormKind::Order => vec![&order::EDIT, &order::CONFIRM],
            FormKind::BindIp => vec![&bind_ip::STEP],
            FormKind::Password => vec![&password::STEP],
            FormKind::Refresh => vec![&refresh::STEP],
            FormKind::IpList => vec![&iplist::CHOOSE, &iplist::VIEW, &iplist::SAVE],
            FormKind::InvoiceNumber => vec![&invoice_number::STEP],
            FormKind::Silence => vec![&silence::STEP],
        }
    }
}
