//! The popups: one file per popup (its state, its keys and what they do), the
//! [`PopupPane`] each implements, and what the app asks the popup on top ([`Popup`]'s
//! methods here, one plain match over the popups each). [`Popup`] (the popup stack's
//! entries) and [`PopupKind`] (a popup as the key map sees it) are enums in the app's root.
//!
//! A popup is a stack entry above the tabs; the top one gets the keys. A viewer (an
//! invoice, a service, a product, a client) only names what it shows: the data stays in
//! the account's store, so a result that arrives while one is open (or after
//! it closed) lands in one place. A form is a popup too (`Popup::Form`), any form's logic
//! behind a pointer ([`Form`](super::forms::Form)): what the app asks of it is in
//! [`super::forms`].
//!
//! **Adding a popup** (the one place this recipe is written): a file here (or in the
//! folder of the feature it belongs to, as the probe's view and the palette are) with the
//! popup's state and its `impl PopupPane`: its title, its keys (`KEYS`, made with
//! [`step_key`](super::keymap::steps::step_key): the footer and the help list them while it
//! is on top, and [`action_for`](super::keymap::action_for) matches them), what they do
//! (`action`, through the context, never the whole app), and the function that opens it;
//! its `mod` line here; then its variant in [`Popup`] and in [`PopupKind`] (in the app's
//! root, `src/app/mod.rs`), and the arms the compiler then asks for: its routing below, its
//! title and keys (`src/app/popup_kind.rs`), and its arm in `ui::popups::draw`, which
//! calls its look: a `render(&self, frame, area, &TabData, &Theme)` in the popup's own
//! file when it draws from the account's data and the look kit (`crate::app::look`), as
//! [`client`] (Enter on the Clients tab) and [`invoice`] do. The keys every popup shares
//! (`?` help, `Esc` and `q` on one that only shows something, `Ctrl-C`) are the key map's.

pub mod accounts;
pub mod client;
pub mod command_log;
pub mod help;
pub mod invoice;
pub mod messages;
pub mod product;
pub mod profiles;
pub mod service;

pub use super::popup_pane::{PopupPane, Reply, scroll};
pub use super::{Popup, PopupKind};

use super::Cx;
use super::keymap::Action;
use super::keymap::steps::FormStep;
use crossterm::event::KeyEvent;

/// Popups are equal when their states are; a form only equals itself (forms are not
/// compared field by field).
impl PartialEq for Popup {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Popup::Help(a), Popup::Help(b)) => a == b,
            (Popup::Invoice(a), Popup::Invoice(b)) => a == b,
            (Popup::Service(a), Popup::Service(b)) => a == b,
            (Popup::Product(a), Popup::Product(b)) => a == b,
            (Popup::Profiles(a), Popup::Profiles(b)) => a == b,
            (Popup::Messages(a), Popup::Messages(b)) => a == b,
            (Popup::Probe(a), Popup::Probe(b)) => a == b,
            (Popup::Palette(a), Popup::Palette(b)) => a == b,
            (Popup::CommandLog(a), Popup::CommandLog(b)) => a == b,
            (Popup::Client(a), Popup::Client(b)) => a == b,
            (Popup::Accounts(a), Popup::Accounts(b)) => a == b,
            (Popup::Form(a), Popup::Form(b)) => a.is(b),
            _ => false,
        }
    }
}

/// What the app asks the popup on top: one match over the popups per question, each arm
/// the popup's [`PopupPane`] (a form's are routed by [`forms`](super::forms)).
impl Popup {
    /// What decides the keys: the popup, and for a form the step it is at.
    pub fn kind(&self) -> PopupKind {
        match self {
            Popup::Help(_) => PopupKind::Help,
            Popup::Invoice(_) => PopupKind::Invoice,
            Popup::Service(_) => PopupKind::Service,
            Popup::Product(_) => PopupKind::Product,
            Popup::Profiles(_) => PopupKind::Profiles,
            Popup::Messages(_) => PopupKind::Messages,
            Popup::Probe(_) => PopupKind::Probe,
            Popup::Palette(_) => PopupKind::Palette,
            Popup::CommandLog(_) => PopupKind::CommandLog,
            Popup::Client(_) => PopupKind::Client,
            Popup::Accounts(_) => PopupKind::Accounts,
            Popup::Form(f) => f.kind(),
        }
    }

    /// Whether typed keys go to a field (so `q`, `j`, `?` are text).
    pub fn is_typing(&self) -> bool {
        match self {
            Popup::Help(p) => p.is_typing(),
            Popup::Invoice(p) => p.is_typing(),
            Popup::Service(p) => p.is_typing(),
            Popup::Product(p) => p.is_typing(),
            Popup::Profiles(p) => p.is_typing(),
            Popup::Messages(p) => p.is_typing(),
            Popup::Probe(p) => p.is_typing(),
            Popup::Palette(p) => p.is_typing(),
            Popup::CommandLog(p) => p.is_typing(),
            Popup::Client(p) => p.is_typing(),
            Popup::Accounts(p) => p.is_typing(),
            Popup::Form(f) => f.is_typing(),
        }
    }

    /// A bound key's action, to a popup that is not a form (a form's are routed by
    /// [`forms`](super::forms)).
    pub(in crate::app) fn action(&mut self, cx: &mut Cx<'_>, action: Action) -> Reply {
        match self {
            Popup::Help(p) => p.action(cx, action),
            Popup::Invoice(p) => p.action(cx, action),
            Popup::Service(p) => p.action(cx, action),
            Popup::Product(p) => p.action(cx, action),
            Popup::Profiles(p) => p.action(cx, action),
            Popup::Messages(p) => p.action(cx, action),
            Popup::Probe(p) => p.action(cx, action),
            Popup::Palette(p) => p.action(cx, action),
            Popup::CommandLog(p) => p.action(cx, action),
            Popup::Client(p) => p.action(cx, action),
            Popup::Accounts(p) => p.action(cx, action),
            Popup::Form(_) => Reply::Ignored,
        }
    }

    /// A typed key no binding claimed, to a popup that is not a form.
    pub(in crate::app) fn key(&mut self, key: &KeyEvent) -> bool {
        match self {
            Popup::Help(p) => p.key(key),
            Popup::Invoice(p) => p.key(key),
            Popup::Service(p) => p.key(key),
            Popup::Product(p) => p.key(key),
            Popup::Profiles(p) => p.key(key),
            Popup::Messages(p) => p.key(key),
            Popup::Probe(p) => p.key(key),
            Popup::Palette(p) => p.key(key),
            Popup::CommandLog(p) => p.key(key),
            Popup::Client(p) => p.key(key),
            Popup::Accounts(p) => p.key(key),
            Popup::Form(_) => false,
        }
    }

    /// A paste, to a popup that is not a form.
    pub(in crate::app) fn paste(&mut self, text: &str) -> bool {
        match self {
            Popup::Help(p) => p.paste(text),
            Popup::Invoice(p) => p.paste(text),
            Popup::Service(p) => p.paste(text),
            Popup::Product(p) => p.paste(text),
            Popup::Profiles(p) => p.paste(text),
            Popup::Messages(p) => p.paste(text),
            Popup::Probe(p) => p.paste(text),
            Popup::Palette(p) => p.paste(text),
            Popup::CommandLog(p) => p.paste(text),
            Popup::Client(p) => p.paste(text),
            Popup::Accounts(p) => p.paste(text),
            Popup::Form(_) => false,
        }
    }
}

/// A popup as the key map sees it: a form's kinds. (What each is called and its own keys
/// name every popup's type: `popup_kind.rs`.)
impl PopupKind {
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
