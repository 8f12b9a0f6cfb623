//! The forms: popups that change the account (order, bind an IP, change a password,
//! refresh an IP list) or fetch something on request (IP lists). One file per form holds
//! its state, its steps and the app's glue for it; this file routes keys, pastes and
//! results to the form on top.
//!
//! Every form goes through [`FormState`]: `Editing` (fields take typing), `Confirming`
//! (what will be sent is repeated), `Submitting` (the one request is on its way: Enter is
//! ignored, nothing is sent twice), `Done(message)` or `Failed(message)` (the server's own
//! words; the values stay, so the user can correct them and send again).
//!
//! Keys: `Enter` submits the step, `Esc` goes back a step or closes, `Tab`/`Shift-Tab`
//! move between fields; while a field takes typing every other key is text (so `q`, `j`,
//! `y` are characters there) and a paste is inserted as one line. `Ctrl-C` quits from
//! anywhere. A form closed while its request is on its way does not lose the answer: it
//! goes to the status line. Every write's outcome also goes to the message log (`m`),
//! whether its form was open or not.
//!
//! Writes are sent with [`App::send_write`]: never deduplicated, never retried. When a
//! write's outcome is unknown (timeout, connection lost after sending) the form says so and
//! the data it may have changed is re-read.

pub mod bind_ip;
pub mod field;
pub mod iplist;
pub mod order;
pub mod order_outcome;
pub mod password;
pub mod refresh;

pub use field::TextField;

use super::keymap::Action;
use super::popup::Popup;
use super::status::NoticeKind;
use super::{App, Command};
use crate::api::{ApiError, Request, Response};
use crossterm::event::KeyEvent;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormState {
    Editing,
    Confirming,
    Submitting,
    Done(String),
    Failed(String),
}

impl FormState {
    /// Fields take typing: while editing, and after a failure (to correct and resend).
    pub fn is_editable(&self) -> bool {
        matches!(self, FormState::Editing | FormState::Failed(_))
    }

    pub fn is_submitting(&self) -> bool {
        matches!(self, FormState::Submitting)
    }

    /// The message of `Done` or `Failed`.
    pub fn message(&self) -> Option<&str> {
        match self {
            FormState::Done(m) | FormState::Failed(m) => Some(m),
            _ => None,
        }
    }
}

/// What a failed write says in its form: the server's own message where it sent one.
pub fn failure(error: &ApiError) -> String {
    if error.outcome_unknown() {
        format!("Outcome unknown: {error}. The server may have carried it out.")
    } else {
        error.to_string()
    }
}

/// The success messages of a service update (spec 4.3), or a fallback when the server
/// sent none.
pub fn update_message(response: &Response, fallback: &str) -> String {
    match response {
        Response::UpdateService(r) if !r.messages().is_empty() => r.messages().join("; "),
        _ => fallback.to_owned(),
    }
}

impl App {
    /// The form on top of the stack, if the top popup is one.
    pub(super) fn top_form(&self) -> Option<&Popup> {
        self.popups.last().filter(|p| p.is_form())
    }

    /// An action while a form is on top.
    pub(super) fn form_action(&mut self, action: Action, out: &mut Vec<Command>) {
        match self.popups.last() {
            Some(Popup::Order(_)) => self.order_action(action, out),
            Some(Popup::BindIp(_)) => self.bind_ip_action(action, out),
            Some(Popup::Password(_)) => self.password_action(action, out),
            Some(Popup::Refresh(_)) => self.refresh_action(action, out),
            Some(Popup::IpList(_)) => self.iplist_action(action, out),
            _ => {}
        }
    }

    /// Esc on a form: back one step, or close.
    pub(super) fn form_back(&mut self) {
        let close = match self.popups.last_mut() {
            Some(Popup::Order(f)) => f.back(),
            Some(Popup::IpList(f)) => f.back(),
            Some(_) => true,
            None => false,
        };
        if close {
            self.popups.pop();
        }
    }

    /// A key no binding claimed, while a form's field takes typing.
    pub(super) fn form_key(&mut self, key: &KeyEvent) {
        if let Some(popup) = self.popups.last_mut()
            && let Some(field) = popup.typing_field()
            && field.key(key)
        {
            popup.edited();
        }
    }

    /// A paste while a form's field takes typing.
    pub(super) fn form_paste(&mut self, text: &str) {
        if let Some(popup) = self.popups.last_mut()
            && let Some(field) = popup.typing_field()
        {
            let cut = field.paste(text);
            popup.edited();
            if let Some(max) = cut {
                self.status.notify(
                    super::status::NoticeKind::Info,
                    format!("Pasted text cut to {max} characters: the field holds no more"),
                );
            }
        }
    }

    /// The open form that sent `request` and waits for its answer.
    pub(super) fn form_awaiting(&mut self, request: &Request) -> Option<&mut Popup> {
        self.popups.iter_mut().rev().find(|p| p.awaits(request))
    }

    /// Sends a write: exactly once, whatever is in flight (a second identical order is a
    /// second order), counted as in flight so the header shows activity.
    pub(super) fn send_write(&mut self, request: Request, out: &mut Vec<Command>) {
        self.in_flight.insert(request.clone(), self.now());
        out.push(Command::Fetch(request));
    }

    /// The answer to a write or to a form's read (an IP list).
    pub(super) fn on_form_result(
        &mut self,
        request: Request,
        result: Result<Response, ApiError>,
        out: &mut Vec<Command>,
    ) {
        // A success makes an earlier failure of the same request (reported while its form
        // was closed) moot.
        if result.is_ok() {
            self.status.clear(&request);
        }
        match &request {
            Request::Order { .. } => self.on_order_result(request, result, out),
            Request::UpdateService { update, .. } => {
                if update.update_list {
                    self.on_refresh_result(request, result, out);
                } else if update.password.is_some() {
                    self.on_password_result(request, result, out);
                } else {
                    self.on_bind_ip_result(request, result, out);
                }
            }
            Request::IpList { .. } => {
                self.on_probe_list(&request, &result, out);
                self.on_iplist_result(request, result)
            }
            _ => {}
        }
    }

    /// The profile is read-only: says so and returns true.
    pub(super) fn refuse_read_only(&mut self, what: &str) -> bool {
        if self.settings.read_only {
            let line = format!(
                "Profile {} is read-only: {what} is turned off",
                self.settings.profile
            );
            self.status.notify(NoticeKind::Info, line);
        }
        self.settings.read_only
    }

    /// The service an action on the Services tab is for: the open service popup's, else
    /// the selected row's.
    pub(super) fn target_service(&self) -> Option<u64> {
        match self.popups.last() {
            Some(Popup::Service(id)) => Some(*id),
            _ => self.services.table.selected_id(),
        }
    }

    /// The target service, unless it has ended (Terminated, Cancelled, Fraud): then the
    /// status line says why nothing opens and nothing is sent, rather than a request
    /// that the server can only refuse.
    pub(super) fn writable_service(&mut self, what: &str) -> Option<u64> {
        use crate::api::ServiceStatus;
        let id = self.target_service()?;
        let status = self.services.get(id).map(|s| s.status.clone());
        if let Some(
            status @ (ServiceStatus::Terminated | ServiceStatus::Cancelled | ServiceStatus::Fraud),
        ) = status
        {
            let line = format!(
                "Service {id} is {}: {what} is not possible, nothing was sent",
                status.as_str()
            );
            self.status.notify(NoticeKind::Info, line);
            return None;
        }
        Some(id)
    }

    /// Hands a service update's answer to the form waiting for it (`deliver` says whether it
    /// was the right kind of form), or to the status line when that form is closed.
    pub(super) fn update_answered(
        &mut self,
        request: &Request,
        result: Result<Response, ApiError>,
        deliver: impl FnOnce(&mut Popup, Result<Response, ApiError>) -> bool,
    ) {
        if let Some(popup) = self.form_awaiting(request)
            && deliver(popup, result.clone())
        {
            // The form shows it; the message log keeps it (every write is in the log).
            let (level, line) = match &result {
                Ok(r) => (
                    super::messages::Level::Success,
                    format!(
                        "{}: {}",
                        super::status::what(request),
                        update_message(r, "done")
                    ),
                ),
                Err(e) => (
                    super::messages::Level::Error,
                    super::status::error_line(request, e, &self.settings.profile),
                ),
            };
            self.status.log(level, line);
            return;
        }
        match result {
            Ok(r) => {
                let what = super::status::what(request);
                let line = format!("{what}: {}", update_message(&r, "done"));
                self.status.notify(NoticeKind::Done, line);
            }
            Err(e) => {
                let line = super::status::error_line(request, &e, &self.settings.profile);
                self.status.report(request, line);
            }
        }
    }
}
