//! The password form (`p` on a service): the new proxy password twice, masked; both must
//! be equal and not empty before anything is sent. One PUT with `password` (the client
//! base64-encodes it, spec 4.3); the server decides what it accepts and its 422 is shown.
//!
//! The password lives in masked [`TextField`]s and a [`Secret`], so it never reaches a
//! log or `Debug` output; the fields are emptied once the server has answered.

use super::{FormState, TextField, failure, update_message};
use crate::api::{ApiError, Request, Response, ServiceUpdate};
use crate::app::keymap::Action;
use crate::app::popup::{Popup, PopupKind};
use crate::app::{App, Command};
use crate::secret::Secret;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PasswordField {
    New,
    Repeat,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PasswordForm {
    pub service_id: u64,
    pub new: TextField,
    pub repeat: TextField,
    pub focus: PasswordField,
    /// The inline error (empty, or the two differ).
    pub error: Option<String>,
    pub state: FormState,
    pub request: Option<Request>,
}

impl PasswordForm {
    pub fn new(service_id: u64) -> Self {
        Self {
            service_id,
            new: TextField::masked(),
            repeat: TextField::masked(),
            focus: PasswordField::New,
            error: None,
            state: FormState::Editing,
            request: None,
        }
    }

    pub fn kind(&self) -> PopupKind {
        match self.state {
            FormState::Submitting => PopupKind::FormBusy,
            FormState::Done(_) => PopupKind::FormDone,
            _ => PopupKind::Password,
        }
    }

    pub fn focused_mut(&mut self) -> Option<&mut TextField> {
        if !self.state.is_editable() {
            return None;
        }
        Some(match self.focus {
            PasswordField::New => &mut self.new,
            PasswordField::Repeat => &mut self.repeat,
        })
    }

    pub fn next_field(&mut self) {
        self.focus = match self.focus {
            PasswordField::New => PasswordField::Repeat,
            PasswordField::Repeat => PasswordField::New,
        };
    }

    /// Enter: from the new field to the repeat field, then the PUT to send (or an inline
    /// error and nothing).
    pub fn submit(&mut self) -> Option<Request> {
        if !self.state.is_editable() {
            return None;
        }
        if self.new.value().is_empty() {
            self.error = Some("Type the new password.".into());
            self.focus = PasswordField::New;
            return None;
        }
        if self.focus == PasswordField::New && self.repeat.value().is_empty() {
            self.focus = PasswordField::Repeat;
            return None;
        }
        if self.new.value() != self.repeat.value() {
            self.error = Some("The two passwords differ.".into());
            self.focus = PasswordField::Repeat;
            return None;
        }
        self.error = None;
        let request = Request::UpdateService {
            service_id: self.service_id,
            update: Box::new(ServiceUpdate {
                password: Some(Secret::new(self.new.value())),
                ..ServiceUpdate::default()
            }),
        };
        self.request = Some(request.clone());
        self.state = FormState::Submitting;
        Some(request)
    }

    pub fn awaiting(&self) -> Option<&Request> {
        self.request.as_ref().filter(|_| self.state.is_submitting())
    }

    pub fn finish(&mut self, result: Result<Response, ApiError>) {
        self.state = match result {
            Ok(r) => {
                self.new.clear();
                self.repeat.clear();
                self.focus = PasswordField::New;
                self.request = None;
                FormState::Done(update_message(&r, "Password updated successfully"))
            }
            Err(e) => FormState::Failed(failure(&e)),
        };
    }
}

impl App {
    /// `p`: the password form for the selected service.
    pub(in crate::app) fn open_password(&mut self) {
        if self.refuse_read_only("changing a password") {
            return;
        }
        if let Some(id) = self.writable_service("changing its password") {
            self.popups.push(Popup::Password(PasswordForm::new(id)));
        }
    }

    pub(in crate::app) fn password_action(&mut self, action: Action, out: &mut Vec<Command>) {
        let Some(Popup::Password(form)) = self.popups.last_mut() else {
            return;
        };
        match action {
            Action::Submit if matches!(form.state, FormState::Done(_)) => {
                self.popups.pop();
            }
            Action::Submit => {
                if let Some(request) = form.submit() {
                    self.send_write(request, out);
                }
            }
            Action::NextField | Action::PrevField if form.state.is_editable() => form.next_field(),
            _ => {}
        }
    }

    pub(in crate::app) fn on_password_result(
        &mut self,
        request: Request,
        result: Result<Response, ApiError>,
        out: &mut Vec<Command>,
    ) {
        let Request::UpdateService { service_id, .. } = request else {
            return;
        };
        self.update_answered(&request, result, |popup, result| match popup {
            Popup::Password(form) => {
                form.finish(result);
                true
            }
            _ => false,
        });
        self.fetch(Request::Service(service_id), out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_fields_must_match_and_not_be_empty() {
        let mut f = PasswordForm::new(1003);
        assert_eq!(f.submit(), None);
        assert_eq!(f.error.as_deref(), Some("Type the new password."));
        f.new.paste("s3cret-Pass");
        assert_eq!(f.submit(), None, "Enter moves to the repeat field first");
        assert_eq!(f.focus, PasswordField::Repeat);
        f.repeat.paste("s3cret-Pas");
        assert_eq!(f.submit(), None);
        assert_eq!(f.error.as_deref(), Some("The two passwords differ."));
        f.repeat.paste("s");
        let request = f.submit().expect("sent");
        let Request::UpdateService { update, .. } = &request else {
            panic!("{request:?}");
        };
        assert_eq!(
            update.password.as_ref().map(Secret::expose),
            Some("s3cret-Pass")
        );
        // Nothing secret in Debug output: not the form, not the request.
        for text in [format!("{f:?}"), format!("{request:?}")] {
            assert!(!text.contains("s3cret"), "{text}");
        }
        f.finish(Ok(Response::UpdateService(Default::default())));
        assert_eq!(
            f.state,
            FormState::Done("Password updated successfully".into())
        );
        assert_eq!(f.new.value(), "", "emptied once answered");
    }
}
