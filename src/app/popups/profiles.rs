//! `P`: the profiles of the config file, the current one marked; Enter switches.
//!
//! The popup only picks the name; the run loop ends this account's session and starts a
//! fresh one for the chosen profile (new client, empty panes), so nothing of one account
//! can show under another's name ([`crate::app::profiles`]).
//!
//! Over several accounts the list is the dashboard's accounts, as the desk gives them
//! ([`ProfilePicker::among`]): All first, then each with its connection, address and
//! read-only mark, the one on screen marked `(shown)`; Enter shows the chosen one (or All)
//! without reconnecting anything.

use super::{Popup, PopupPane, Reply};
use crate::app::PopupKind;
use crate::app::keymap::steps::PopupInfo;
use crate::app::keymap::steps::{MOVE_DOWN, MOVE_UP, step_key};
use crate::app::keymap::{Action, code};
use crate::app::shell::Outward;
use crate::app::{Cx, Shell, Switch};
use crossterm::event::KeyCode;

/// The list of profiles, with the one under the cursor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfilePicker {
    pub selected: usize,
    /// Over several accounts: All (line 0), then these; empty: the config's profiles.
    pub among: Vec<AccountLine>,
}

/// An account of a dashboard over several, as `P` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountLine {
    pub profile: String,
    /// Its short name and colour, as the All view shows them.
    pub name: String,
    pub colour: u8,
    /// `●`, `⏸` or `✗`, and the words of a throttle or an outage.
    pub link: (&'static str, String),
    pub base_url: String,
    pub read_only: bool,
}

impl ProfilePicker {
    /// `P` over several accounts: All, then `accounts`; the cursor on what is shown
    /// (`shown`: an account's place, or `None` for All).
    pub fn among(accounts: Vec<AccountLine>, shown: Option<usize>) -> Self {
        Self {
            selected: shown.map_or(0, |i| i + 1),
            among: accounts,
        }
    }

    fn len(&self, cx: &Cx<'_>) -> usize {
        if self.among.is_empty() {
            cx.shell.settings.profiles.names.len()
        } else {
            self.among.len() + 1
        }
    }
}

/// What the key map knows of it: its title and its own keys.
pub static INFO: PopupInfo = PopupInfo {
    title: "profiles",
    keys: &[
        step_key(
            &[code(KeyCode::Enter)],
            Action::Submit,
            Some("switch"),
            "Reconnect with the chosen profile",
        ),
        MOVE_DOWN,
        MOVE_UP,
    ],
    item_of: None,
};

impl PopupPane for ProfilePicker {
    fn kind(&self) -> PopupKind {
        PopupKind::Shows(&INFO)
    }

    fn action(&mut self, cx: &mut Cx<'_>, action: Action) -> Reply {
        let count = self.len(cx);
        match action {
            Action::Up => self.selected = self.selected.saturating_sub(1),
            Action::Down => self.selected = (self.selected + 1).min(count.saturating_sub(1)),
            Action::Submit if !self.among.is_empty() => {
                let switch = match self.selected.checked_sub(1) {
                    None => Switch::All,
                    Some(i) => match self.among.get(i) {
                        Some(a) => Switch::Profile(a.profile.clone()),
                        None => return Reply::Close,
                    },
                };
                cx.shell.send_out(Outward::Switch(switch));
                return Reply::Close;
            }
            Action::Submit => {
                choose(cx.shell, self.selected);
                return Reply::Close;
            }
            _ => return Reply::Ignored,
        }
        Reply::Taken
    }
}

/// `P`: the picker, on the current profile; or why there is nothing to switch to.
pub(in crate::app) fn open(shell: &mut Shell) {
    let profiles = &shell.settings.profiles.names;
    if profiles.len() < 2 {
        let why = if profiles.is_empty() {
            "no profiles in the config file (proxydash config init writes an example)"
        } else {
            "the config file has only this profile"
        };
        shell.notify(format!("Nothing to switch to: {why}"));
        return;
    }
    let selected = profiles
        .iter()
        .position(|p| *p == shell.settings.profile)
        .unwrap_or(0);
    shell.popups.push(Popup::Profiles(ProfilePicker {
        selected,
        among: Vec::new(),
    }));
}

/// The profile named `name`, as `P` and Enter on it would (the palette's profiles).
pub(in crate::app) fn switch_to(shell: &mut Shell, name: &str) {
    let names = &shell.settings.profiles.names;
    match names.iter().position(|p| p == name) {
        Some(at) if names.len() >= 2 => choose(shell, at),
        _ => open(shell),
    }
}

/// The profile at `at` of the list: the run loop takes it, unless it is this one.
fn choose(shell: &mut Shell, at: usize) {
    match shell.settings.profiles.names.get(at).cloned() {
        Some(name) if name != shell.settings.profile => {
            shell.send_out(Outward::Switch(Switch::Profile(name)));
        }
        _ => {}
    }
}
