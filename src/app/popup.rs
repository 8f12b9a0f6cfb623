//! Popups: a stack above the tabs; the top one gets the keys.
//!
//! The viewers (help, an invoice, a service, a product) only name what they show: the data
//! stays in the tabs' caches, so a result that arrives while one is open (or after it
//! closed) lands in one place. A form holds its own state (its fields, its step, the ID of
//! the request it waits for): a [`Form`], one variant per form ([`super::forms`]).

use super::forms::{Form, FormLogic};
use super::keymap::steps::FormStep;

#[derive(Debug)]
pub enum Popup {
    /// Key help for the context under it.
    Help,
    /// One invoice (`Invoice(id)`).
    Invoice(u64),
    /// The full detail of one service.
    Service(u64),
    /// The full detail of one product.
    Product(u64),
    /// A form (boxed: the forms are large beside the other popups).
    Form(Box<Form>),
    /// `P`: switch to another profile.
    Profiles(super::profiles::ProfilePicker),
    /// `m`: the message log, scrolled this many entries down from the newest.
    Messages(usize),
    /// `h`: the proxy probe of a service.
    Probe(super::probe::ProbeView),
    /// `:` or Ctrl-P: the command palette.
    Palette(Box<super::palette::Palette>),
    /// `L`: the command log, scrolled this many lines down from the oldest.
    CommandLog(usize),
}

/// Viewers are equal when they show the same thing; a form only equals itself (forms are
/// not compared field by field).
impl PartialEq for Popup {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Popup::Help, Popup::Help) => true,
            (Popup::Invoice(a), Popup::Invoice(b))
            | (Popup::Service(a), Popup::Service(b))
            | (Popup::Product(a), Popup::Product(b)) => a == b,
            (Popup::Form(a), Popup::Form(b)) => std::ptr::eq(a.as_ref(), b.as_ref()),
            (Popup::Profiles(a), Popup::Profiles(b)) => a == b,
            (Popup::Messages(a), Popup::Messages(b)) => a == b,
            (Popup::Probe(a), Popup::Probe(b)) => a == b,
            (Popup::Palette(a), Popup::Palette(b)) => std::ptr::eq(a.as_ref(), b.as_ref()),
            (Popup::CommandLog(a), Popup::CommandLog(b)) => a == b,
            _ => false,
        }
    }
}

impl Popup {
    /// A form, as a popup.
    pub fn form_of(form: impl FormLogic) -> Self {
        Popup::Form(Box::new(form.into_form()))
    }

    /// What decides the keys: the popup, and for a form the step it is at.
    pub fn kind(&self) -> PopupKind {
        match self {
            Popup::Help => PopupKind::Help,
            Popup::Invoice(_) => PopupKind::Invoice,
            Popup::Service(_) => PopupKind::Service,
            Popup::Product(_) => PopupKind::Product,
            Popup::Form(f) => f.kind(),
            Popup::Profiles(_) => PopupKind::Profiles,
            Popup::Messages(_) => PopupKind::Messages,
            Popup::Probe(_) => PopupKind::Probe,
            Popup::Palette(_) => PopupKind::Palette,
            Popup::CommandLog(_) => PopupKind::CommandLog,
        }
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
    pub fn form_as<F: FormLogic>(&self) -> Option<&F> {
        F::of(self.form()?)
    }

    pub fn form_as_mut<F: FormLogic>(&mut self) -> Option<&mut F> {
        F::of_mut(self.form_mut()?)
    }

    /// Whether typed keys go to a field (so `q`, `j`, `?` are text).
    pub fn is_typing(&self) -> bool {
        matches!(self, Popup::Palette(_)) || self.form().is_some_and(|f| f.is_typing())
    }

    pub fn is_form(&self) -> bool {
        matches!(self, Popup::Form(_))
    }
}

/// A popup without its parameters, for the key bindings. A form is at one of its steps
/// (each form declares its own, with their keys), or busy, or showing its outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PopupKind {
    Help,
    Invoice,
    Service,
    Product,
    /// A form's step: its fields, a confirmation, a list it shows.
    Step(&'static FormStep),
    /// A form whose request is on its way.
    FormBusy,
    /// A form that shows its outcome.
    FormDone,
    /// Choosing a profile.
    Profiles,
    /// The message log.
    Messages,
    /// The proxy probe of a service.
    Probe,
    /// The command palette (its query takes typing).
    Palette,
    /// The command log.
    CommandLog,
}

impl PopupKind {
    /// What the help's title calls it: `Keys · IP list`.
    pub fn title(self) -> &'static str {
        match self {
            PopupKind::Help => "help",
            PopupKind::Invoice => "invoice",
            PopupKind::Service => "service",
            PopupKind::Product => "product",
            PopupKind::Step(step) => step.title,
            PopupKind::FormBusy => "sending",
            PopupKind::FormDone => "result",
            PopupKind::Profiles => "profiles",
            PopupKind::Messages => "messages",
            PopupKind::Probe => "proxy probe",
            PopupKind::Palette => "palette",
            PopupKind::CommandLog => "command log",
        }
    }

    pub fn is_form(self) -> bool {
        matches!(
            self,
            PopupKind::Step(_) | PopupKind::FormBusy | PopupKind::FormDone
        )
    }

    /// The form step, if this is one.
    pub fn step(self) -> Option<&'static FormStep> {
        match self {
            PopupKind::Step(step) => Some(step),
            _ => None,
        }
    }
}
