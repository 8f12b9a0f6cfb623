//! `confirm = true` on one of your actions (`app::user_actions`): the command line
//! whole, Enter runs it, Esc does not. Beside the forms (not one of them: it sends
//! nothing to the API) because what Enter does is theirs: the IP list fetched first.

use crate::config::actions::Run;
use crossterm::event::KeyCode;

/// `confirm = true`: the command line whole, Enter runs it, Esc does not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfirmRun {
    pub run: Run,
    pub service: Option<u64>,
}

impl ConfirmRun {
    pub fn title(&self) -> String {
        format!("Run {}?", self.run.name)
    }
}

/// What the key map knows of the confirmation: Enter runs, Esc closes.
pub static CONFIRM_INFO: crate::app::keymap::steps::PopupInfo =
    crate::app::keymap::steps::PopupInfo {
        title: "run your action",
        keys: &[
            crate::app::keymap::steps::step_key(
                &[crate::app::keymap::code(KeyCode::Enter)],
                crate::app::keymap::Action::Submit,
                Some("run"),
                "Run the command",
            ),
            crate::app::keymap::steps::step_key(
                &[crate::app::keymap::code(KeyCode::Esc)],
                crate::app::keymap::Action::Back,
                Some("cancel"),
                "Do not run it",
            ),
        ],
        item_of: None,
    };

impl crate::app::popups::PopupPane for ConfirmRun {
    fn kind(&self) -> crate::app::PopupKind {
        crate::app::PopupKind::Shows(&CONFIRM_INFO)
    }

    fn action(
        &mut self,
        cx: &mut crate::app::Cx<'_>,
        action: crate::app::keymap::Action,
    ) -> crate::app::popups::Reply {
        match action {
            crate::app::keymap::Action::Submit => {
                super::iplist_files::run_with_list(cx, self.run.clone(), self.service);
                crate::app::popups::Reply::Close
            }
            _ => crate::app::popups::Reply::Ignored,
        }
    }
}
