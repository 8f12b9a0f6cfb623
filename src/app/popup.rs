//! Popups ([`Popup`], the shell's type): a stack above the tabs; the top one gets the keys.
//!
//! The viewers (help, an invoice, a service, a product) only name what they show: the data
//! stays in the tabs' caches, so a result that arrives while one is open (or after it
//! closed) lands in one place. A form holds its own state (its fields, its step, the ID of
//! the request it waits for): a [`Form`](super::forms::Form), one variant per form; what
//! the app asks of a popup that is a form is in [`super::forms`]. This module names no
//! component, so each may name the popups.

pub use super::Popup;
pub use super::keymap::PopupKind;

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

    /// Whether typed keys go to a field (so `q`, `j`, `?` are text).
    pub fn is_typing(&self) -> bool {
        match self {
            Popup::Palette(_) => true,
            Popup::Form(f) => f.is_typing(),
            _ => false,
        }
    }
}
