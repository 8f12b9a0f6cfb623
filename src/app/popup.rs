//! Popups: a stack above the tabs; the top one gets the keys.
//!
//! The viewers (help, an invoice, a service, a product) only name what they show: the data
//! stays in the tabs' caches, so a result that arrives while one is open (or after it
//! closed) lands in one place. A form holds its own state (its fields, its step, the
//! request it waits for), one type per form in [`super::forms`].

use super::forms::TextField;
use super::forms::bind_ip::BindIpForm;
use super::forms::iplist::IpListForm;
use super::forms::order::OrderForm;
use super::forms::password::PasswordForm;
use super::forms::refresh::RefreshForm;
use crate::api::Request;

#[derive(Clone, Debug, PartialEq)]
pub enum Popup {
    /// Key help for the context under it.
    Help,
    /// One invoice (`Invoice(id)`).
    Invoice(u64),
    /// The full detail of one service.
    Service(u64),
    /// The full detail of one product.
    Product(u64),
    /// `o`: order a product.
    Order(Box<OrderForm>),
    /// `b`: bind an IP to a static service.
    BindIp(BindIpForm),
    /// `p`: change a service's proxy password.
    Password(PasswordForm),
    /// `u`: refresh a service's IP list.
    Refresh(RefreshForm),
    /// `i`: choose, view, copy and save an IP list.
    IpList(Box<IpListForm>),
    /// `P`: switch to another profile.
    Profiles(super::profiles::ProfilePicker),
    /// `m`: the message log, scrolled this many entries down from the newest.
    Messages(usize),
    /// `h`: the proxy probe of a service.
    Probe(super::probe::ProbeView),
}

impl Popup {
    /// What decides the keys: the popup, and for a form the step it is at.
    pub fn kind(&self) -> PopupKind {
        match self {
            Popup::Help => PopupKind::Help,
            Popup::Invoice(_) => PopupKind::Invoice,
            Popup::Service(_) => PopupKind::Service,
            Popup::Product(_) => PopupKind::Product,
            Popup::Order(f) => f.kind(),
            Popup::BindIp(f) => f.kind(),
            Popup::Password(f) => f.kind(),
            Popup::Refresh(f) => f.kind(),
            Popup::IpList(f) => f.kind(),
            Popup::Profiles(_) => PopupKind::Profiles,
            Popup::Messages(_) => PopupKind::Messages,
            Popup::Probe(_) => PopupKind::Probe,
        }
    }

    /// The text field that takes typed keys now, if any.
    pub fn typing_field(&mut self) -> Option<&mut TextField> {
        match self {
            Popup::Order(f) => f.focused_mut(),
            Popup::BindIp(f) => f.focused_mut(),
            Popup::Password(f) => f.focused_mut(),
            Popup::IpList(f) => f.focused_mut(),
            _ => None,
        }
    }

    /// Whether typed keys go to a field (so `q`, `j`, `?` are text).
    pub fn is_typing(&self) -> bool {
        match self {
            Popup::Order(f) => f.is_typing(),
            Popup::BindIp(f) => f.state.is_editable(),
            Popup::Password(f) => f.state.is_editable(),
            Popup::IpList(f) => f.is_typing(),
            _ => false,
        }
    }

    /// A field was edited: the form drops what no longer applies (an inline error, the
    /// chosen client).
    pub fn edited(&mut self) {
        match self {
            Popup::Order(f) => f.edited(),
            Popup::BindIp(f) => f.error = None,
            Popup::Password(f) => f.error = None,
            Popup::IpList(f) => f.edited(),
            _ => {}
        }
    }

    /// The request this form sent and waits for.
    pub fn awaits(&self, request: &Request) -> bool {
        match self {
            Popup::Order(f) => f.awaiting() == Some(request),
            Popup::BindIp(f) => f.awaiting() == Some(request),
            Popup::Password(f) => f.awaiting() == Some(request),
            Popup::Refresh(f) => f.awaiting().as_ref() == Some(request),
            Popup::IpList(f) => f.awaiting() == Some(request),
            _ => false,
        }
    }

    pub fn is_form(&self) -> bool {
        self.kind().is_form()
    }
}

/// A popup without its parameters, for the key bindings. Forms have one kind per step that
/// changes what the keys do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PopupKind {
    Help,
    Invoice,
    Service,
    Product,
    /// The order form's fields (client, IP).
    Order,
    /// The order's confirmation.
    OrderConfirm,
    BindIp,
    Password,
    /// The IP-list refresh, asking for confirmation.
    Refresh,
    /// Choosing the type and format of an IP list.
    IpListChooser,
    /// Reading an IP list.
    IpListView,
    /// The file name an IP list is written to.
    IpListSave,
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
}

impl PopupKind {
    /// What the help's title calls it: `Keys · IP list`.
    pub fn title(self) -> &'static str {
        match self {
            PopupKind::Help => "help",
            PopupKind::Invoice => "invoice",
            PopupKind::Service => "service",
            PopupKind::Product => "product",
            PopupKind::Order => "order form",
            PopupKind::OrderConfirm => "order confirmation",
            PopupKind::BindIp => "bind IP",
            PopupKind::Password => "password",
            PopupKind::Refresh => "IP-list refresh",
            PopupKind::IpListChooser => "IP list · choose",
            PopupKind::IpListView => "IP list",
            PopupKind::IpListSave => "IP list · write file",
            PopupKind::FormBusy => "sending",
            PopupKind::FormDone => "result",
            PopupKind::Profiles => "profiles",
            PopupKind::Messages => "messages",
            PopupKind::Probe => "proxy probe",
        }
    }

    pub fn is_form(self) -> bool {
        !matches!(
            self,
            PopupKind::Help
                | PopupKind::Invoice
                | PopupKind::Service
                | PopupKind::Product
                | PopupKind::Profiles
                | PopupKind::Messages
                | PopupKind::Probe
        )
    }
}
