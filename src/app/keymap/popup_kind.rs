//! [`PopupKind`]: a popup without its parameters, as the key bindings see it.

use super::steps::FormStep;

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
