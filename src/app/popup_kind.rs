//! What each [`PopupKind`] is called and which keys are its own: the popups' `TITLE` and
//! `KEYS` ([`PopupPane`]), or the form step's. Apart from the enum (in the app's root,
//! which the key map names) because it names every popup's type: the probe's view and the
//! palette are popups whose modules name `popups`, so this cannot sit there either, and
//! nothing names this file.

use super::PopupKind;
use super::keymap::Binding;
use super::palette::Palette;
use super::popups::PopupPane;
use super::popups::accounts::AccountPicker;
use super::popups::client::ClientCard;
use super::popups::command_log::CommandLogPopup;
use super::popups::help::HelpPopup;
use super::popups::invoice::InvoiceViewer;
use super::popups::messages::MessagesPopup;
use super::popups::product::ProductViewer;
use super::popups::profiles::ProfilePicker;
use super::popups::service::ServiceViewer;
use super::probe::ProbeView;

impl PopupKind {
    /// What the help's title calls it: `Keys · IP list`.
    pub fn title(self) -> &'static str {
        match self {
            PopupKind::Help => HelpPopup::TITLE,
            PopupKind::Invoice => InvoiceViewer::TITLE,
            PopupKind::Service => ServiceViewer::TITLE,
            PopupKind::Product => ProductViewer::TITLE,
            PopupKind::Profiles => ProfilePicker::TITLE,
            PopupKind::Messages => MessagesPopup::TITLE,
            PopupKind::Probe => ProbeView::TITLE,
            PopupKind::Palette => <Box<Palette>>::TITLE,
            PopupKind::CommandLog => CommandLogPopup::TITLE,
            PopupKind::Client => ClientCard::TITLE,
            PopupKind::Accounts => AccountPicker::TITLE,
            PopupKind::Step(step) => step.title,
            PopupKind::FormBusy => "sending",
            PopupKind::FormDone => "result",
        }
    }

    /// Its own keys: the popup's, or the form step's.
    pub fn keys(self) -> &'static [Binding] {
        match self {
            PopupKind::Help => HelpPopup::KEYS,
            PopupKind::Invoice => InvoiceViewer::KEYS,
            PopupKind::Service => ServiceViewer::KEYS,
            PopupKind::Product => ProductViewer::KEYS,
            PopupKind::Profiles => ProfilePicker::KEYS,
            PopupKind::Messages => MessagesPopup::KEYS,
            PopupKind::Probe => ProbeView::KEYS,
            PopupKind::Palette => <Box<Palette>>::KEYS,
            PopupKind::CommandLog => CommandLogPopup::KEYS,
            PopupKind::Client => ClientCard::KEYS,
            PopupKind::Accounts => AccountPicker::KEYS,
            PopupKind::Step(step) => step.bindings,
            PopupKind::FormBusy | PopupKind::FormDone => &[],
        }
    }
}
