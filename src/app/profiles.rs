//! Switching to another profile (account) of the config file, as the shell sees it: the
//! name chosen (`P`, [`super::popups::profiles`]) for the run loop to take, the message
//! log carried over to the next profile's session, and a switch that failed.

use super::shell::Outward;
use super::status::NoticeKind;
use super::{Shell, Switch};

impl Shell {
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
        // All means nothing to one account's run loop: taken, and dropped.
        match self.take_switch()? {
            Switch::Profile(name) => Some(name),
            Switch::All => None,
        }
    }

    /// What `P` chose over several accounts: an account to show alone, or All (the desk
    /// takes it).
    pub fn take_switch(&mut self) -> Option<super::Switch> {
        self.take_out(|o| match o {
            Outward::Switch(switch) => Ok(switch),
            other => Err(other),
        })
    }

    /// The account chosen in the account picker (`o` in All); the desk takes it.
    pub fn take_chosen_account(&mut self) -> Option<usize> {
        self.take_out(|o| match o {
            Outward::OrderOn(k) => Ok(k),
            other => Err(other),
        })
    }

    /// The whole screen's action chosen in a popup over All; the desk takes it.
    pub fn take_for_all(&mut self) -> Option<super::keymap::Action> {
        self.take_out(|o| match o {
            Outward::ForAll(action) => Ok(action),
            other => Err(other),
        })
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
