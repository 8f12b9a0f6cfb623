//! A form's steps and the other popups as values. Each step of each form is a `static
//! FormStep` beside the form's logic (`src/app/forms/<form>.rs`), each other popup a
//! `static PopupInfo` beside its state (`src/app/popups/<popup>.rs`): its name (the help's
//! title) and its keys. The key map splices the keys of the popup on top into its table
//! ([`super::Part::Step`]), so the footer, the help and [`super::action_for`] all read them
//! there, and nothing outside the popup names them.
//!
//! The lines several steps share (Esc cancels, Tab moves between fields, the movement keys
//! of a list) are the consts below: a step lists all its keys, in the order the help shows
//! them, and each shared one is still said the same way everywhere.

use super::{Action, Binding, Key, code, k};
use crate::app::Tab;
use crossterm::event::KeyCode;
use std::fmt;

/// One step of a form: what the help calls it and the keys it takes.
pub struct FormStep {
    /// The help's title: `Keys · order confirmation`.
    pub title: &'static str,
    /// Its keys, in the order the footer and the help list them. They apply while the step
    /// is on top: their scopes are not read (make them with [`step_key`]).
    pub bindings: &'static [Binding],
}

/// A step is itself: steps are statics, compared by address (two forms may word a step
/// alike and still take other keys).
impl PartialEq for FormStep {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for FormStep {}

/// By its title: the bindings would bury it in every failed assert about a context.
impl fmt::Debug for FormStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("FormStep").field(&self.title).finish()
    }
}

/// A popup that is not a form (a viewer, a picker, a log), as the key map sees it.
pub struct PopupInfo {
    /// The help's title: `Keys · command log`.
    pub title: &'static str,
    /// Its own keys, in the order the footer and the help list them. They apply while it
    /// is on top: their scopes are not read (make them with [`step_key`]).
    pub keys: &'static [Binding],
    /// The tab whose item it shows: that tab's keys on an item (`b` on a service, `o` on a
    /// product) act on it here as on the item's row ([`super::Scope::Item`]).
    pub item_of: Option<Tab>,
}

/// A popup is itself: its info is a static, compared by address (as a step is).
impl PartialEq for PopupInfo {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for PopupInfo {}

/// By its title, as a step.
impl fmt::Debug for PopupInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("PopupInfo").field(&self.title).finish()
    }
}

/// A step's binding: its keys, what they do, the footer's word (none: help only) and the
/// help's line.
pub const fn step_key(
    keys: &'static [Key],
    action: Action,
    footer: Option<&'static str>,
    help: &'static str,
) -> Binding {
    super::b(keys, action, &[], footer, help)
}

/// Esc on the first step: the form goes.
pub const CANCEL: Binding = step_key(
    &[code(KeyCode::Esc)],
    Action::Back,
    Some("cancel"),
    "Cancel and close the form",
);

/// Esc on a later step: the step before it.
pub const BACK: Binding = step_key(
    &[code(KeyCode::Esc)],
    Action::Back,
    Some("back"),
    "Back to the previous step",
);

/// Esc on a step that only shows something: the form goes.
pub const CLOSE: Binding = step_key(
    &[code(KeyCode::Esc)],
    Action::Back,
    Some("close"),
    "Close the popup",
);

pub const NEXT_FIELD: Binding = step_key(
    &[code(KeyCode::Tab)],
    Action::NextField,
    Some("next field"),
    "Next field",
);

pub const PREV_FIELD: Binding = step_key(
    &[code(KeyCode::BackTab)],
    Action::PrevField,
    None,
    "Previous field",
);

/// The movement keys of a list a step shows (as the tabs' tables take them).
pub const MOVE_DOWN: Binding = step_key(
    &[k('j'), code(KeyCode::Down)],
    Action::Down,
    None,
    "Move down",
);

pub const MOVE_UP: Binding = step_key(&[k('k'), code(KeyCode::Up)], Action::Up, None, "Move up");

pub const TOP: Binding = step_key(
    &[k('g'), code(KeyCode::Home)],
    Action::Top,
    None,
    "Go to the top",
);

pub const BOTTOM: Binding = step_key(
    &[k('G'), code(KeyCode::End)],
    Action::Bottom,
    None,
    "Go to the bottom",
);

pub const PAGE_DOWN: Binding = step_key(
    &[code(KeyCode::PageDown)],
    Action::PageDown,
    None,
    "Page down",
);

pub const PAGE_UP: Binding = step_key(&[code(KeyCode::PageUp)], Action::PageUp, None, "Page up");
