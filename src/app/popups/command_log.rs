//! `L` (or "command log" in the palette): what was done this session, as command lines
//! of proxydash's CLI, oldest first ([`crate::app::cmdlog`] keeps them); `y` copies them
//! all, ready for a script.

use super::{Popup, PopupPane, Reply, scroll};
use crate::app::keymap::steps::{BOTTOM, MOVE_DOWN, MOVE_UP, PAGE_DOWN, PAGE_UP, TOP, step_key};
use crate::app::keymap::{Action, Binding, k};
use crate::app::{Command, Cx, Shell};

/// The command log, scrolled this many lines down from the oldest.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommandLogPopup {
    pub scroll: usize,
}

impl PopupPane for CommandLogPopup {
    const TITLE: &'static str = "command log";
    const KEYS: &'static [Binding] = &[
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
    ];

    fn action(&mut self, cx: &mut Cx<'_>, action: Action) -> Reply {
        if action == Action::Copy {
            copy(cx);
            return Reply::Taken;
        }
        let last = cx.work.cmdlog.len().saturating_sub(1);
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
