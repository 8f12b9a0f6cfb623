//! The password form (`p` on a service): the new proxy password twice, masked; both must
//! be equal and not empty before anything is sent. One PUT with `password` (the client
//! base64-encodes it, spec 4.3); the server decides what it accepts and its 422 is shown.
//!
//! The password lives in masked [`TextField`]s and a [`Secret`], so it never reaches a
//! log or `Debug` output; the fields are emptied once the server has answered.

use super::registry::FormEntry;
use super::{Flow, Form, FormCore, FormState, TextField};
use crate::api::{ApiError, Request, Response, ServiceUpdate};
use crate::app::keymap::steps::{CANCEL, FormStep, NEXT_FIELD, PREV_FIELD, step_key};
use crate::app::keymap::{Action, ON_SERVICE, code, k};
use crate::app::popup::Popup;
use crate::app::{App, Command};
use crate::secret::Secret;
use crossterm::event::KeyCode;

/// The one step: the password, twice.
#[rustfmt::skip]
pub static STEP: FormStep = FormStep {
    title: "password",
    bindings: &[
        step_key(&[code(KeyCode::Enter)], Action::Submit, Some("change"), "Change the proxy password"),
        NEXT_FIELD,
        PREV_FIELD,
        CANCEL,
    ],
};

/// `p` on a service (its row or its detail).
pub const ENTRY: FormEntry = FormEntry {
    keys: &[k('p')],
    scopes: ON_SERVICE,
    footer: Some("passwd"),
    help: "Change the proxy password",
    writes: true,
    steps: &[&STEP],
    open: App::open_password,
};

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
    /// The step, the request on its way, the inline error (empty, or the two differ).
    pub core: FormCore,
}

impl PasswordForm {
    pub fn new(service_id: u64) -> Self {
        Self {
            service_id,
            new: TextField::masked(),
            repeat: TextField::masked(),
            focus: PasswordField::New,
            core: FormCore::new(FormState::Editing),
        }
    }

    fn next_field(&mut self) {
        self.focus = match self.focus {
            PasswordField::New => PasswordField::Repeat,
            PasswordField::Repeat => PasswordField::New,
        };
    }

    /// Enter: from the new field to the repeat field, then the PUT to send (or an inline
    /// error and nothing).
    pub fn request(&mut self) -> Option<Request> {
        if !self.core.state.is_editable() {
            return None;
        }
        let error = &mut self.core.error;
        if self.new.value().is_empty() {
            *error = Some("Type the new password.".into());
            self.focus = PasswordField::New;
            return None;
        }
        if self.focus == PasswordField::New && self.repeat.value().is_empty() {
            self.focus = PasswordField::Repeat;
            return None;
        }
        if self.new.value() != self.repeat.value() {
            *error = Some("The two passwords differ.".into());
            self.focus = PasswordField::Repeat;
            return None;
        }
        *error = None;
        Some(Request::UpdateService {
            service_id: self.service_id,
            update: Box::new(ServiceUpdate {
                password: Some(Secret::new(self.new.value())),
                ..ServiceUpdate::default()
            }),
        })
    }

    /// The server answered: on success the fields are emptied.
    pub fn finish(&mut self, result: Result<Response, ApiError>) {
        if result.is_ok() {
            self.new.clear();
            self.repeat.clear();
            self.focus = PasswordField::New;
        }
        self.core.finish(result);
    }
}

impl Form for PasswordForm {
    fn core(&self) -> &FormCore {
        &self.core
    }

    fn core_mut(&mut self) -> &mut FormCore {
        &mut self.core
    }

    fn step(&self) -> &'static FormStep {
        &STEP
    }

    fn typing_field(&mut self) -> Option<&mut TextField> {
        if !self.core.state.is_editable() {
            return None;
        }
        Some(match self.focus {
            PasswordField::New => &mut self.new,
            PasswordField::Repeat => &mut self.repeat,
        })
    }

    fn is_typing(&self) -> bool {
        self.core.state.is_editable()
    }

    fn submit(&mut self, _app: &App) -> Option<Request> {
        self.request()
    }

    fn other(&mut self, _app: &mut App, action: Action, _out: &mut Vec<Command>) {
        if matches!(action, Action::NextField | Action::PrevField) && self.core.state.is_editable()
        {
            self.next_field();
        }
    }

    fn answered(
        &mut self,
        app: &mut App,
        request: &Request,
        result: Result<Response, ApiError>,
        on_screen: bool,
        out: &mut Vec<Command>,
    ) -> Flow {
        app.update_answered(request, &result, on_screen);
        self.finish(result);
        // Success, failure or unknown: the detail shows the password in force.
        app.fetch(Request::Service(self.service_id), out);
        Flow::Stay
    }
}

impl App {
    /// `p`: the password form for the selected service.
    pub(in crate::app) fn open_password(&mut self, _out: &mut Vec<Command>) {
        if self.refuse_read_only("changing a password") {
            return;
        }
        if let Some(id) = self.writable_service("changing its password") {
            self.popups.push(Popup::form_of(PasswordForm::new(id)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_fields_must_match_and_not_be_empty() {
        let mut f = PasswordForm::new(1003);
        assert_eq!(f.request(), None);
        assert_eq!(f.core.error.as_deref(), Some("Type the new password."));
        f.new.paste("s3cret-Pass");
        assert_eq!(f.request(), None, "Enter moves to the repeat field first");
        assert_eq!(f.focus, PasswordField::Repeat);
        f.repeat.paste("s3cret-Pas");
        assert_eq!(f.request(), None);
        assert_eq!(f.core.error.as_deref(), Some("The two passwords differ."));
        f.repeat.paste("s");
        let request = f.request().expect("sent");
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
            f.core.state,
            FormState::Done(Response::UpdateService(Default::default()))
        );
        assert_eq!(f.new.value(), "", "emptied once answered");
    }
}
