//! The password form (`p` on a service): the new proxy password twice, masked; both must
//! be equal and not empty before anything is sent. One PUT with `password` (the client
//! base64-encodes it, spec 4.3); the server decides what it accepts and its 422 is shown.
//!
//! The password lives in masked [`TextField`]s and a [`Secret`], so it never reaches a
//! log or `Debug` output; the fields are emptied once the server has answered.
//!
//! **Strength** ([`weakness`]): under 12 characters, or fewer than three of the four
//! classes (lower case, upper case, digits, symbols), is weak. The server decides what it
//! accepts, so a weak password is not refused: the form says why it is weak as it is
//! typed, and the first Enter on a weak one only warns (a second Enter sends it).
//! **`Ctrl-G`** generates a strong one ([`generate`]: 20 letters and digits from the
//! operating system's random source; no symbols, so it stays usable in proxy URLs and
//! `user:pass` lines) into both fields; the detail shows it after the change (`v`).

use super::{Answered, Flow, FormCore, FormCx, FormData, FormLogic, FormRow, FormState, FormView};
use super::{ServiceOn, TextField};
use crate::api::{ApiError, Request, Response, ServiceUpdate};
use crate::app::columns::Tone;
use crate::app::keymap::steps::{CANCEL, FormStep, NEXT_FIELD, PREV_FIELD, step_key};
use crate::app::keymap::{Action, FormKey, code, ctrl};
use crate::app::look::theme::Theme;
use crate::secret::Secret;
use crossterm::event::KeyCode;
use ratatui::Frame;
use ratatui::layout::Rect;

/// The one step: the password, twice.
#[rustfmt::skip]
pub static STEP: FormStep = FormStep {
    title: "password",
    bindings: &[
        step_key(&[code(KeyCode::Enter)], Action::Submit, Some("change"), "Change the proxy password"),
        step_key(&[ctrl('g')], GENERATE, Some("generate"), "Generate a strong password into both fields"),
        NEXT_FIELD,
        PREV_FIELD,
        CANCEL,
    ],
};

/// `Ctrl-G`: a generated strong password into both fields.
pub const GENERATE: Action = Action::FormKey(FormKey::Generate);

/// Shorter than this is weak.
pub const MIN_LENGTH: usize = 12;
/// The length of a generated password.
pub const GENERATED_LENGTH: usize = 20;

/// Why `password` is weak, if it is (module docs).
pub fn weakness(password: &str) -> Option<String> {
    let n = password.chars().count();
    let classes = [
        password.chars().any(|c| c.is_lowercase()),
        password.chars().any(|c| c.is_uppercase()),
        password.chars().any(|c| c.is_ascii_digit()),
        password.chars().any(|c| !c.is_alphanumeric()),
    ]
    .iter()
    .filter(|&&has| has)
    .count();
    let mut why = Vec::new();
    if n < MIN_LENGTH {
        why.push(format!("{n} characters, under {MIN_LENGTH}"));
    }
    if classes < 3 {
        why.push(format!(
            "{classes} of 4 kinds (lower, upper, digits, symbols)"
        ));
    }
    (!why.is_empty()).then(|| format!("Weak: {}.", why.join("; ")))
}

/// A strong password: [`GENERATED_LENGTH`] letters and digits, at least one of each kind,
/// from the operating system's random source. `None` if that source fails.
pub fn generate() -> Option<String> {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    loop {
        let mut bytes = [0u8; 64];
        getrandom::fill(&mut bytes).ok()?;
        // Rejection sampling: only bytes below the largest multiple of the alphabet's size,
        // so every character is equally likely.
        let limit = 256 - 256 % ALPHABET.len();
        let password: String = bytes
            .iter()
            .filter(|&&b| usize::from(b) < limit)
            .take(GENERATED_LENGTH)
            .map(|&b| char::from(ALPHABET[usize::from(b) % ALPHABET.len()]))
            .collect();
        if password.len() == GENERATED_LENGTH && weakness(&password).is_none() {
            return Some(password);
        }
    }
}

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
    /// Enter was pressed on this weak password once: the next Enter sends it.
    pub weak_warned: bool,
    /// Ctrl-G filled the fields (until they are edited).
    pub generated: bool,
}

impl PasswordForm {
    pub fn new(service_id: u64) -> Self {
        Self {
            service_id,
            new: TextField::masked(),
            repeat: TextField::masked(),
            focus: PasswordField::New,
            core: FormCore::new(FormState::Editing),
            weak_warned: false,
            generated: false,
        }
    }

    /// Ctrl-G: a generated password into both fields.
    pub fn generate(&mut self) {
        match generate() {
            Some(password) => {
                self.new.set(password.clone());
                self.repeat.set(password);
                self.generated = true;
                self.weak_warned = false;
                self.core.error = None;
                self.focus = PasswordField::Repeat;
            }
            None => self.core.error = Some("No random source to generate a password.".into()),
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
        if let Some(weak) = weakness(self.new.value())
            && !self.weak_warned
        {
            *error = Some(format!(
                "{weak} Enter again to use it, or Ctrl-G for a strong one."
            ));
            self.weak_warned = true;
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

    /// The line under the fields: the inline error, else what was generated, else how
    /// strong the password typed is.
    fn below(&self) -> FormRow<'_> {
        if self.core.error.is_some() {
            return FormRow::Error(self.core.error.as_deref());
        }
        let (hint, tone) = if self.generated {
            (
                format!("✓ generated: {GENERATED_LENGTH} letters and digits"),
                Tone::Good,
            )
        } else if self.new.value().is_empty() {
            (
                "typed twice, shown as • · Ctrl-G generates one".into(),
                Tone::Dim,
            )
        } else {
            match weakness(self.new.value()) {
                Some(weak) => (weak, Tone::Warn),
                None => ("strong enough".into(), Tone::Good),
            }
        };
        FormRow::Hint(hint, tone)
    }

    /// The two masked fields, what is wrong with them or how strong the password is, and
    /// the outcome.
    fn view(&self) -> FormView<'_> {
        let typing = self.core.state.is_editable();
        let field = |label, field, which| FormRow::Field {
            label,
            field,
            focused: self.focus == which,
            typing,
        };
        let done = self.core.state.answer().map_or_else(String::new, |r| {
            super::update_message(r, "Password updated successfully")
        });
        FormView::new(
            format!("New proxy password · service {}", self.service_id),
            (64, 10),
        )
        .row(field("New", &self.new, PasswordField::New))
        .row(field("Repeat", &self.repeat, PasswordField::Repeat))
        .row(self.below())
        .row(FormRow::Blank)
        .row(FormRow::State {
            state: &self.core.state,
            sending: "Changing the password…".into(),
            done,
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

impl FormLogic for PasswordForm {
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

    fn submit(&mut self, _cx: &FormCx<'_>) -> Option<Request> {
        self.request()
    }

    fn edited(&mut self) -> bool {
        self.weak_warned = false;
        self.generated = false;
        // This form has always kept its inline error until the next Enter (unlike the
        // others); kept so here, where it became visible, rather than changed in passing.
        false
    }

    fn other(&mut self, _cx: &mut FormCx<'_>, action: Action) {
        if action == GENERATE && self.core.state.is_editable() {
            self.generate();
            return;
        }
        if matches!(action, Action::NextField | Action::PrevField) && self.core.state.is_editable()
        {
            self.next_field();
        }
    }

    fn answered(&mut self, cx: &mut FormCx<'_>, answer: Answered<'_>) -> Flow {
        cx.update_answered(&answer);
        self.finish(answer.result);
        // Success, failure or unknown: the detail shows the password in force.
        cx.fetch(Request::Service(self.service_id));
        Flow::Stay
    }

    fn render(&self, frame: &mut Frame, area: Rect, data: &FormData<'_>, theme: &Theme) {
        self.view().draw(frame, area, data, theme);
    }
}

/// `p`: the password form for the service the key is on.
pub(in crate::app) fn open(cx: &mut FormCx<'_>, on: Option<&ServiceOn>) -> Option<PasswordForm> {
    if cx.refuse_read_only("changing a password") {
        return None;
    }
    let id = cx.writable(on, "changing its password")?;
    Some(PasswordForm::new(id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_fields_must_match_and_not_be_empty() {
        let mut f = PasswordForm::new(1003);
        assert_eq!(f.request(), None);
        assert_eq!(f.core.error.as_deref(), Some("Type the new password."));
        f.new.paste("s3cret-Password");
        assert_eq!(f.request(), None, "Enter moves to the repeat field first");
        assert_eq!(f.focus, PasswordField::Repeat);
        f.repeat.paste("s3cret-Passwor");
        assert_eq!(f.request(), None);
        assert_eq!(f.core.error.as_deref(), Some("The two passwords differ."));
        f.repeat.paste("d");
        let request = f.request().expect("sent");
        let Request::UpdateService { update, .. } = &request else {
            panic!("{request:?}");
        };
        assert_eq!(
            update.password.as_ref().map(Secret::expose),
            Some("s3cret-Password")
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

    #[test]
    fn a_weak_password_is_warned_about_once_then_sent() {
        assert!(weakness("abc").is_some_and(|w| w.contains("3 characters")));
        assert!(weakness("alllowercaseletters").is_some_and(|w| w.contains("1 of 4")));
        assert_eq!(weakness("Str0ng-enough-pw"), None);
        let mut f = PasswordForm::new(1003);
        f.new.paste("hunter22");
        f.repeat.paste("hunter22");
        f.focus = PasswordField::Repeat;
        assert_eq!(f.request(), None, "warned first");
        let error = f.core.error.clone().unwrap_or_default();
        assert!(error.starts_with("Weak: 8 characters"), "{error}");
        assert!(error.contains("Ctrl-G"), "{error}");
        assert!(f.request().is_some(), "the second Enter sends it");
    }

    #[test]
    fn ctrl_g_generates_a_strong_password_into_both_fields() {
        let mut f = PasswordForm::new(1003);
        f.generate();
        assert_eq!(f.new.value().len(), GENERATED_LENGTH);
        assert_eq!(f.new.value(), f.repeat.value());
        assert_eq!(weakness(f.new.value()), None);
        assert!(f.new.value().chars().all(|c| c.is_ascii_alphanumeric()));
        let first = f.new.value().to_owned();
        f.generate();
        assert_ne!(f.new.value(), first, "a new one each time");
        assert!(f.request().is_some(), "sent at once: it is strong");
    }
}
