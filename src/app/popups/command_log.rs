//! `L` (or "command log" in the palette): what was done this session, as command lines
//! of proxydash's CLI, oldest first ([`crate::app::cmdlog`] keeps them); `y` copies them
//! all, ready for a script.

use super::{Popup, PopupPane, Reply, scroll};
use crate::app::PopupKind;
use crate::app::keymap::steps::PopupInfo;
use crate::app::keymap::steps::{BOTTOM, MOVE_DOWN, MOVE_UP, PAGE_DOWN, PAGE_UP, TOP, step_key};
use crate::app::keymap::{Action, k};
use crate::app::{Command, Cx, Shell};

/// The command log, scrolled this many lines down from the oldest.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommandLogPopup {
    pub scroll: usize,
    /// Every account's lines, oldest first, each with its account (`L` in All: each line
    /// names its own account by its options, so the whole list runs as it is).
    pub all: Option<Vec<super::messages::Among<crate::app::cmdlog::Entry>>>,
}

/// What the key map knows of it: its title and its own keys.
pub static INFO: PopupInfo = PopupInfo {
    title: "command log",
    keys: &[
        step_key(
            &[k('y')],
            Action::Copy,
            Some("copy all"),
            "Copy every command line, ready for a script",
        ),
        MOVE_DOWN,
        MOVE_UP,
        TOP,
        BOTTOM,
        PAGE_DOWN,
        PAGE_UP,
    ],
    item_of: None,
};

impl PopupPane for CommandLogPopup {
    fn kind(&self) -> PopupKind {
        PopupKind::Shows(&INFO)
    }

    fn action(&mut self, cx: &mut Cx<'_>, action: Action) -> Reply {
        if action == Action::Copy {
            match &self.all {
                Some(all) => copy_all(cx, all),
                None => copy(cx),
            }
            return Reply::Taken;
        }
        let len = match &self.all {
            Some(all) => all.len(),
            None => cx.work.cmdlog.len(),
        };
        let last = len.saturating_sub(1);
        scroll(&mut self.scroll, action, cx, last)
    }
}

/// `L`: the command log, from its oldest line.
pub(in crate::app) fn open(shell: &mut Shell) {
    shell
        .popups
        .push(Popup::CommandLog(CommandLogPopup::default()));
}

/// `y`: every line to the clipboard.
fn copy(cx: &mut Cx<'_>) {
    let log = &cx.work.cmdlog;
    if log.is_empty() {
        cx.shell
            .notify("The command log is empty: nothing was copied");
        return;
    }
    let n = log.len();
    cx.out.push(Command::Copy {
        what: format!("Command log ({n} line{})", if n == 1 { "" } else { "s" }),
        text: log.script(),
    });
}

/// `y` in All: every account's lines, oldest first, with a comment naming the account
/// wherever the next line is another's.
fn copy_all(cx: &mut Cx<'_>, all: &[super::messages::Among<crate::app::cmdlog::Entry>]) {
    if all.is_empty() {
        cx.shell
            .notify("The command log is empty: nothing was copied");
        return;
    }
    let mut text = String::new();
    let mut last: Option<&str> = None;
    for line in all {
        if last != Some(line.name.as_str()) {
            text.push_str(&format!("# {}\n", line.name));
            last = Some(&line.name);
        }
        text.push_str(&line.entry.line);
        text.push('\n');
    }
    let n = all.len();
    cx.out.push(Command::Copy {
        what: format!(
            "Command log of every account ({n} line{})",
            if n == 1 { "" } else { "s" }
        ),
        text,
    });
}
