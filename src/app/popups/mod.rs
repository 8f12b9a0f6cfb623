//! The popups: one file per popup (its state, its keys and what they do), the
//! [`PopupPane`] each implements, and what the app asks the popup on top ([`Popup`]'s
//! methods here, each through the popup's pane: one match over the popups finds it).
//! [`Popup`] (the popup stack's entries) and [`PopupKind`] (a popup as the key map sees
//! it: its static info, or a form's step) are enums in the app's root.
//!
//! A popup is a stack entry above the tabs; the top one gets the keys. A viewer (an
//! invoice, a service, a product, a client) only names what it shows: the data stays in
//! the account's store, so a result that arrives while one is open (or after
//! it closed) lands in one place. A form is a popup too (`Popup::Form`, one variant per
//! form in [`Form`](super::forms::Form)): what the app asks of it is in [`super::forms`].
//!
//! **Adding a popup** (the one place this recipe is written): a file here (or in the
//! folder of the feature it belongs to, as the probe's view and the palette are) with the
//! popup's state, its `static INFO: PopupInfo` (its title, its own keys made with
//! [`step_key`](super::keymap::steps::step_key), which the footer and the help list while
//! it is on top and [`action_for`](super::keymap::action_for) matches, and the tab whose
//! item it shows, so that tab's keys on an item act on it too), its `impl PopupPane` (its
//! kind, `PopupKind::Shows(&INFO)`, and what its keys do, through the context, never the
//! whole app), the function that opens it, and its look: a `render(&self, frame, area,
//! &TabData, &Theme)` drawn from the account's data and the look kit
//! (`crate::app::look`), as [`client`] (Enter on the Clients tab) and [`invoice`] do. Then
//! its `mod` line here, its variant in [`Popup`] (the app's root, `src/app/mod.rs`), and
//! the arms the compiler asks for: `Popup::pane` and `pane_mut` below, and its arm in
//! `ui::popups::draw`, which calls its look. The keys every popup shares (`?` help, `Esc`
//! and `q` on one that only shows something, `Ctrl-C`) are the key map's.

pub mod accounts;
pub mod client;
pub mod command_log;
pub mod events;
pub mod help;
pub mod invoice;
pub mod messages;
pub mod product;
pub mod profiles;
pub mod service;
mod viewer;

pub use super::popup_pane::{PopupPane, Reply, scroll};
pub use super::{Popup, PopupKind};

use super::Cx;
use super::keymap::steps::{FormStep, PopupInfo};
use super::keymap::{Action, Binding};
use crossterm::event::KeyEvent;

/// The viewers a tab opens on its selected item, made here so that a tab names no popup's
/// type (it names the stack's type, `Popup`, which is the app's own): the viewers draw
/// with the tabs' looks (the service viewer shows what every tab knows of its service),
/// so the popups name the tabs, not the other way round.
impl Popup {
    pub fn service(id: u64) -> Self {
        Popup::Service(service::ServiceViewer::new(id))
    }

    pub fn product(id: u64) -> Self {
        Popup::Product(product::ProductViewer(id))
    }

    pub fn invoice(id: u64) -> Self {
        Popup::Invoice(invoice::InvoiceViewer(id))
    }

    pub fn client(id: u64) -> Self {
        Popup::Client(client::ClientCard(id))
    }
}

/// What the app asks the popup on top, each answered by the popup's [`PopupPane`] (a
/// form's keys are routed by [`forms`](super::forms): its pane answers only what it is and
/// whether it takes typing).
impl Popup {
    /// The popup's [`PopupPane`]: the one match over the popups (with
    /// [`Popup::pane_mut`], its twin).
    fn pane(&self) -> &dyn PopupPane {
        match self {
            Popup::Help(p) => p,
            Popup::Invoice(p) => p,
            Popup::Service(p) => p,
            Popup::Product(p) => p,
            Popup::Profiles(p) => p,
            Popup::Messages(p) => p,
            Popup::Probe(p) => p,
            Popup::Palette(p) => &**p,
            Popup::CommandLog(p) => p,
            Popup::Client(p) => p,
            Popup::Accounts(p) => p,
            Popup::Form(p) => &**p,
            Popup::ConfirmRun(p) => &**p,
        }
    }

    fn pane_mut(&mut self) -> &mut dyn PopupPane {
        match self {
            Popup::Help(p) => p,
            Popup::Invoice(p) => p,
            Popup::Service(p) => p,
            Popup::Product(p) => p,
            Popup::Profiles(p) => p,
            Popup::Messages(p) => p,
            Popup::Probe(p) => p,
            Popup::Palette(p) => &mut **p,
            Popup::CommandLog(p) => p,
            Popup::Client(p) => p,
            Popup::Accounts(p) => p,
            Popup::Form(p) => &mut **p,
            Popup::ConfirmRun(p) => &mut **p,
        }
    }

    /// What decides the keys: the popup, and for a form the step it is at.
    pub fn kind(&self) -> PopupKind {
        self.pane().kind()
    }

    /// Whether typed keys go to a field (so `q`, `j`, `?` are text).
    pub fn is_typing(&self) -> bool {
        self.pane().is_typing()
    }

    /// A bound key's action, to a popup that is not a form (a form's are routed by
    /// [`forms`](super::forms)).
    pub(in crate::app) fn action(&mut self, cx: &mut Cx<'_>, action: Action) -> Reply {
        self.pane_mut().action(cx, action)
    }

    /// A typed key no binding claimed, to a popup that is not a form.
    pub(in crate::app) fn key(&mut self, key: &KeyEvent) -> bool {
        self.pane_mut().key(key)
    }

    /// A paste, to a popup that is not a form.
    pub(in crate::app) fn paste(&mut self, text: &str) -> bool {
        self.pane_mut().paste(text)
    }
}

/// A popup as the key map sees it: what it is called, its own keys, whether it is a form.
impl PopupKind {
    pub fn is_form(self) -> bool {
        !matches!(self, PopupKind::Shows(_))
    }

    /// The form step, if this is one.
    pub fn step(self) -> Option<&'static FormStep> {
        match self {
            PopupKind::Step(step) => Some(step),
            _ => None,
        }
    }

    /// The popup's info, if this is not a form.
    pub fn shows(self) -> Option<&'static PopupInfo> {
        match self {
            PopupKind::Shows(info) => Some(info),
            _ => None,
        }
    }

    /// What the help's title calls it: `Keys · IP list`.
    pub fn title(self) -> &'static str {
        match self {
            PopupKind::Shows(info) => info.title,
            PopupKind::Step(step) => step.title,
            PopupKind::FormBusy => "sending",
            PopupKind::FormDone => "result",
        }
    }

    /// Its own keys: the popup's, or the form step's.
    pub fn keys(self) -> &'static [Binding] {
        match self {
            PopupKind::Shows(info) => info.keys,
            PopupKind::Step(step) => step.bindings,
            PopupKind::FormBusy | PopupKind::FormDone => &[],
        }
    }
}
