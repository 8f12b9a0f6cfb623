//! `?`: the keys of the context under the help, generated from the key bindings (the
//! same table the footer reads and the keys obey), scrolled with `j`/`k`/`PgUp`/`PgDn`
//! when they do not fit.

use super::{PopupPane, Reply, scroll};
use crate::app::Cx;
use crate::app::PopupKind;
use crate::app::keymap::steps::PopupInfo;
use crate::app::keymap::steps::{MOVE_DOWN, MOVE_UP, PAGE_DOWN, PAGE_UP};
use crate::app::keymap::{self, Action};

/// The help, scrolled down to this line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HelpPopup {
    pub scroll: usize,
}

/// What the key map knows of it: its title and its own keys.
pub static INFO: PopupInfo = PopupInfo {
    title: "help",
    keys: &[MOVE_DOWN, MOVE_UP, PAGE_DOWN, PAGE_UP],
    item_of: None,
};

impl PopupPane for HelpPopup {
    fn kind(&self) -> PopupKind {
        PopupKind::Shows(&INFO)
    }

    fn action(&mut self, cx: &mut Cx<'_>, action: Action) -> Reply {
        // At most to where the last line is at the bottom (the view's height is the
        // body's less the border: the screen less six lines).
        // Off the stack while it acts: what it describes is the stack's top.
        let under = cx.shell.help_context(cx.shell.popups.len());
        let lines = keymap::help(&under).len();
        let room = usize::from(cx.shell.size.1.saturating_sub(6));
        let last = lines.saturating_sub(room);
        scroll(&mut self.scroll, action, cx, last)
    }
}
