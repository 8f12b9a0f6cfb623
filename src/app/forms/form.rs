//! [`Form`]: the forms, one variant each, and what the app asks of whichever is on top.
//! Every question is one exhaustive match (`each!`), so a new variant is a compile error
//! until it is handled everywhere.

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

/// From the one list of the forms ([`crate::app::form_list`]): [`Form`], one variant
/// each, each form's [`Variant`], `each!`, [`open`] and `FormKind::steps`.
macro_rules! forms {
    ($d:tt $($variant:ident {
        form: $module:ident :: $form:ident,
        writes: $writes:literal,
        keys: [$($key:expr),* $(,)?], scopes: $scopes:expr,
        footer: $footer:expr, help: $help:literal,
        steps: [$($step:ident),* $(,)?] $(,)?
    }),* $(,)?) => {
        /// A form on the popup stack, with its state.
        // The popup stack keeps it boxed (`Popup::Form`), so the variants' sizes cost nothing.
        #[allow(clippy::large_enum_variant)]
        #[derive(Debug)]
        pub enum Form {
            $($variant(super::$module::$form),)*
        }

        $(impl Variant for super::$module::$form {
            fn into_form(self) -> Form {
                Form::$variant(self)
            }
            fn of(form: &Form) -> Option<&Self> {
                match form {
                    Form::$variant(f) => Some(f),
                    #[allow(unreachable_patterns)]
                    _ => None,
                }
            }
            fn of_mut(form: &mut Form) -> Option<&mut Self> {
                match form {
                    Form::$variant(f) => Some(f),
                    #[allow(unreachable_patterns)]
                    _ => None,
                }
            }
        })*

        /// `each!(form, f => expr)`: `expr` with `f` bound to the form inside whichever
        /// variant `form` is.
        macro_rules! each {
            ($d form:expr, $d f:ident => $d body:expr) => {
                match $d form {
                    $($d crate::app::forms::Form::$variant($d f) => $d body,)*
                }
            };
        }

        /// The key of a form: that form opens (or the status line says why not).
        pub(in crate::app) fn open(cx: &mut Cx<'_>, kind: FormKind) {
            match kind {
                $(FormKind::$variant => super::$module::open(cx),)*
            }
        }

        impl FormKind {
            /// The form's steps, for the checks that every step's keys do what they say.
            #[cfg(test)]
            pub fn steps(self) -> Vec<&'static crate::app::keymap::steps::FormStep> {
                match self {
                    $(FormKind::$variant => vec![$(&super::$module::$step),*],)*
                }
            }
        }
    };
}
crate::app::form_list::with_forms!(forms $);

impl Form {
    pub fn core(&self) -> &FormCore {
        each!(self, f => f.core())
    }

    /// What decides the keys: busy, finished, or the form's own step.
    pub fn kind(&self) -> PopupKind {
        each!(self, f => f.kind())
    }

    /// The ticket of the request this form waits for.
    pub fn awaiting(&self) -> Option<crate::api::Ticket> {
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

    /// How the form looks, as data ([`FormLogic::view`]); `None` if it has a widget.
    pub fn view<'a>(&'a self, app: &'a crate::app::App) -> Option<super::FormView<'a>> {
        each!(self, f => f.view(app))
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
