//! `m`: the message log (every status line and outcome of this session, newest first),
//! scrolled with the movement keys.

use super::{PopupPane, Reply, scroll};
use crate::app::Cx;
use crate::app::keymap::steps::{BOTTOM, MOVE_DOWN, MOVE_UP, PAGE_DOWN, PAGE_UP, TOP};
use crate::app::keymap::{Action, Binding};

/// The message log, scrolled this many entries down from the newest.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MessagesPopup {
    pub scroll: usize,
}

impl PopupPane for MessagesPopup {
    const TITLE: &'static str = "messages";
    const KEYS: &'static [Binding] = &[MOVE_DOWN, MOVE_UP, TOP, BOTTOM, PAGE_DOWN, PAGE_UP];

    fn action(&mut self, cx: &mut Cx<'_>, action: Action) -> Reply {
        let last = cx.shell.status.messages().len().saturating_sub(1);
        scroll(&mut self.scroll, action, cx, last)
    }
}
