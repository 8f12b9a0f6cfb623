//! [`Form`]: the form on the popup stack, one variant per form, and what the app asks of
//! it. The glue every form shares is written here once, over the form's [`FormCore`]
//! (reached in one place, [`Form::core`]): the step's keys (busy, finished or the form's
//! own step), the ticket waited for, "Enter closes a finished form and does nothing while
//! the request is on its way", the inline error cleared by editing, the request sent with
//! its ticket. Everything else is one call through the form's [`FormLogic`].

use super::bind_ip::BindIpForm;
use super::by_number::ByNumberForm;
use super::core::{Flow, FormCore, FormLogic, Next};
use super::cx::{Answered, FileAnswer, FormCx, FormData};
use super::field::TextField;
use super::iplist::IpListForm;
use super::order::OrderForm;
use super::password::PasswordForm;
use super::refresh::RefreshForm;
use super::silence::SilenceForm;
use crate::api::Ticket;
use crate::app::Popup;
use crate::app::form_kind::FormKind;
use crate::app::keymap::{Action, PopupKind};
use crate::app::look::theme::Theme;
use crate::app::popup_pane::PopupPane;
use ratatui::Frame;
use ratatui::layout::Rect;
use std::net::Ipv4Addr;

/// A form on the popup stack, with its state: a plain enum, one variant per form (the
/// recipe for a new one: [`forms`](super)). Every form holds its core and its answer, so
/// the stack holds a form boxed (`Popup::Form`).
#[derive(Clone, Debug, PartialEq)]
pub enum Form {
    Order(OrderForm),
    BindIp(BindIpForm),
    Password(PasswordForm),
    Refresh(RefreshForm),
    IpList(IpListForm),
    /// An invoice or a service by its number (`#`).
    ByNumber(ByNumberForm),
    Silence(SilenceForm),
}

impl Form {
    /// The form's logic and look: the one match over the forms (with
    /// [`Form::logic_mut`], its twin); every question below goes through it.
    fn logic(&self) -> &dyn FormLogic {
        match self {
            Form::Order(f) => f,
            Form::BindIp(f) => f,
            Form::Password(f) => f,
            Form::Refresh(f) => f,
            Form::IpList(f) => f,
            Form::ByNumber(f) => f,
            Form::Silence(f) => f,
        }
    }

    fn logic_mut(&mut self) -> &mut dyn FormLogic {
        match self {
            Form::Order(f) => f,
            Form::BindIp(f) => f,
            Form::Password(f) => f,
            Form::Refresh(f) => f,
            Form::IpList(f) => f,
            Form::ByNumber(f) => f,
            Form::Silence(f) => f,
        }
    }

    /// The form's core (its step, the request it waits for, its inline error): the field
    /// every form keeps it in, reached here alone.
    pub fn core(&self) -> &FormCore {
        match self {
            Form::Order(f) => &f.core,
            Form::BindIp(f) => &f.core,
            Form::Password(f) => &f.core,
            Form::Refresh(f) => &f.core,
            Form::IpList(f) => &f.core,
            Form::ByNumber(f) => &f.core,
            Form::Silence(f) => &f.core,
        }
    }

    fn core_mut(&mut self) -> &mut FormCore {
        match self {
            Form::Order(f) => &mut f.core,
            Form::BindIp(f) => &mut f.core,
            Form::Password(f) => &mut f.core,
            Form::Refresh(f) => &mut f.core,
            Form::IpList(f) => &mut f.core,
            Form::ByNumber(f) => &mut f.core,
            Form::Silence(f) => &mut f.core,
        }
    }

    /// The outcome is shown and Enter closes ([`FormLogic::ends_at`]).
    pub fn finished(&self) -> bool {
        self.logic().ends_at(&self.core().state)
    }

    /// What decides the keys: busy, finished, or the form's own step.
    pub fn kind(&self) -> PopupKind {
        if self.core().state.is_submitting() {
            PopupKind::FormBusy
        } else if self.finished() {
            PopupKind::FormDone
        } else {
            PopupKind::Step(self.logic().step())
        }
    }

    /// The ticket of the request the form waits for, if any.
    pub fn awaiting(&self) -> Option<Ticket> {
        self.core().awaiting()
    }

    /// The field that takes typing now, if any.
    pub fn typing_field(&mut self) -> Option<&mut TextField> {
        self.logic_mut().typing_field()
    }

    pub fn is_typing(&self) -> bool {
        self.logic().is_typing()
    }

    /// A field was edited: what no longer applies goes, the inline error with it unless
    /// the form keeps it ([`FormLogic::edited`]).
    pub fn edited(&mut self) {
        if self.logic_mut().edited() {
            self.core_mut().error = None;
        }
    }

    /// An action while the form is on top: Enter closes a finished form and does nothing
    /// while its request is on its way (nothing is sent twice); otherwise the form's own
    /// ([`FormLogic::action`]). A request it asks to send goes with a new ticket, which
    /// its core keeps and waits for.
    pub fn action(&mut self, cx: &mut FormCx<'_>, action: Action) -> Flow {
        if action == Action::Submit {
            if self.finished() {
                return Flow::Close;
            }
            if self.core().state.is_submitting() {
                return Flow::Stay;
            }
        }
        match self.logic_mut().action(cx, action) {
            Next::Stay => Flow::Stay,
            Next::Close => Flow::Close,
            Next::Send(request) => {
                self.core_mut().send(cx, request);
                Flow::Stay
            }
        }
    }

    /// Esc: back one step, or close.
    pub fn back(&mut self) -> Flow {
        self.logic_mut().back()
    }

    /// The answer to the request this form sent ([`FormLogic::answered`]).
    pub fn answered(&mut self, cx: &mut FormCx<'_>, answer: Answered<'_>) -> Flow {
        self.logic_mut().answered(cx, answer)
    }

    /// Draws the form over `area` ([`FormLogic::render`]).
    pub fn render(&self, frame: &mut Frame, area: Rect, data: &FormData<'_>, theme: &Theme) {
        self.logic().render(frame, area, data, theme);
    }

    /// See [`FormLogic::my_ip`].
    pub fn my_ip(&mut self, result: &Result<Ipv4Addr, String>) -> bool {
        self.logic_mut().my_ip(result)
    }

    /// See [`FormLogic::shows_my_ip`].
    pub fn shows_my_ip(&self) -> bool {
        self.logic().shows_my_ip()
    }

    /// See [`FormLogic::is_writing`].
    pub fn is_writing(&self) -> bool {
        self.logic().is_writing()
    }

    /// See [`FormLogic::file_answer`].
    pub fn file_answer(&mut self, cx: &mut FormCx<'_>, answer: &FileAnswer) {
        self.logic_mut().file_answer(cx, answer);
    }

    /// See [`FormLogic::order_checked`].
    pub fn order_checked(&mut self, product_id: u64, line: &str) {
        self.logic_mut().order_checked(product_id, line);
    }

    /// See [`FormLogic::countdown_of`].
    pub fn countdown_of(&self) -> Option<u64> {
        self.logic().countdown_of()
    }
}

impl FormKind {
    /// The form's steps, for the checks that every step's keys do what they say.
    #[cfg(test)]
    pub fn steps(self) -> Vec<&'static crate::app::keymap::steps::FormStep> {
        match self {
            FormKind::Order => vec![&super::order::EDIT, &super::order::CONFIRM],
            FormKind::BindIp => vec![&super::bind_ip::STEP],
            FormKind::Password => vec![&super::password::STEP],
            FormKind::Refresh => vec![&super::refresh::STEP],
            FormKind::IpList => vec![
                &super::iplist::CHOOSE,
                &super::iplist::VIEW,
                &super::iplist::SAVE,
            ],
            FormKind::InvoiceNumber => vec![&super::by_number::INVOICE_STEP],
            FormKind::Silence => vec![&super::silence::STEP],
            FormKind::ServiceNumber => vec![&super::by_number::SERVICE_STEP],
        }
    }
}

/// A form on the popup stack: what it is and whether it takes typing. Its keys are routed
/// by [`forms`](super) through its steps, not by the pane.
impl PopupPane for Form {
    fn kind(&self) -> PopupKind {
        Form::kind(self)
    }

    fn is_typing(&self) -> bool {
        Form::is_typing(self)
    }
}

/// A form goes on the popup stack boxed.
impl From<Form> for Popup {
    fn from(form: Form) -> Self {
        Popup::Form(Box::new(form))
    }
}

impl Popup {
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

    pub fn is_form(&self) -> bool {
        matches!(self, Popup::Form(_))
    }
}
