//! `P`: switching to another profile (account) of the config file.
//!
//! The app only picks the name; the run loop ends this account's session and starts a
//! fresh one for the chosen profile (new client, empty panes), so nothing of one account
//! can show under another's name.

use super::status::NoticeKind;
use super::{Shell, popup::Popup};

/// The list of profiles, with the one under the cursor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfilePicker {
    pub selected: usize,
}

impl Shell {
    pub(in crate::app) fn open_profiles(&mut self) {
        let profiles = &self.settings.profiles.names;
        if profiles.len() < 2 {
            let why = if profiles.is_empty() {
                "no profiles in the config file (proxydash config init writes an example)"
            } else {
                "the config file has only this profile"
            };
            self.status
                .notify(NoticeKind::Info, format!("Nothing to switch to: {why}"));
            return;
        }
        let selected = profiles
            .iter()
            .position(|p| *p == self.settings.profile)
            .unwrap_or(0);
        self.popups
            .push(Popup::Profiles(ProfilePicker { selected }));
    }

    pub(in crate::app) fn move_profile(&mut self, by: isize) {
        let count = self.settings.profiles.names.len();
        if let Some(Popup::Profiles(p)) = self.popups.last_mut()
            && count > 0
        {
            p.selected = p.selected.saturating_add_signed(by).min(count - 1);
        }
    }

    pub(in crate::app) fn choose_profile(&mut self) {
        if let Some(Popup::Profiles(p)) = self.popups.last() {
            let name = self.settings.profiles.names.get(p.selected).cloned();
            self.popups.pop();
            match name {
                Some(name) if name != self.settings.profile => self.switch_to = Some(name),
                _ => {}
            }
        }
    }

    /// The message log, taken out to go on under the next profile's session.
    pub fn take_message_log(&mut self) -> super::messages::MessageLog {
        self.status.take_messages()
    }

    /// Puts the log of the session before (of profile `from`) under this one's, with a
    /// line that marks the switch: a profile switch keeps the log.
    pub fn continue_message_log(&mut self, older: super::messages::MessageLog, from: &str) {
        self.status.continue_messages(older);
        let line = format!(
            "Switched from profile {from} to profile {}",
            self.settings.profile
        );
        // `log` sanitizes (profile names come from the config file).
        self.status.log(super::messages::Level::Info, &line);
    }

    /// The profile the user chose to switch to; the run loop takes it and reconnects.
    pub fn take_profile_switch(&mut self) -> Option<String> {
        self.switch_to.take()
    }

    /// The switch to `name` failed (`error` is the config's message, which may already
    /// name the profile): one error line that names it once, pinned so the failures of the
    /// restarted session's reads do not hide it, and this session goes on.
    pub fn profile_switch_failed(&mut self, name: &str, error: &str) {
        let prefix = format!("profile {name}: ");
        let why = match error.get(..prefix.len()) {
            Some(head) if head.eq_ignore_ascii_case(&prefix) => &error[prefix.len()..],
            _ => error,
        };
        self.status.set_now(self.now());
        self.status.pin(
            NoticeKind::Error,
            format!(
                "Cannot switch to profile {name}: {why} (still on {})",
                self.settings.profile
            ),
        );
    }
}
