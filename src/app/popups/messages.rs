//! `m`: the message log (every status line and outcome of this session, newest first),
//! scrolled with the movement keys. In the All view over several accounts it lists every
//! account's, newest first, each entry with its account ([`MessagesPopup::all`], which the
//! desk keeps up to date while it is open).

use super::{PopupPane, Reply, scroll};
use crate::app::Cx;
use crate::app::PopupKind;
use crate::app::keymap::Action;
use crate::app::keymap::steps::PopupInfo;
use crate::app::keymap::steps::{BOTTOM, MOVE_DOWN, MOVE_UP, PAGE_DOWN, PAGE_UP, TOP};

/// The message log, scrolled this many entries down from the newest.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MessagesPopup {
    pub scroll: usize,
    /// Every account's entries, newest first, each with its account (`m` in All).
    pub all: Option<Vec<Among<crate::app::messages::Entry>>>,
}

/// What the key map knows of it: its title and its own keys.
pub static INFO: PopupInfo = PopupInfo {
    title: "messages",
    keys: &[MOVE_DOWN, MOVE_UP, TOP, BOTTOM, PAGE_DOWN, PAGE_UP],
    item_of: None,
};

impl PopupPane for MessagesPopup {
    fn kind(&self) -> PopupKind {
        PopupKind::Shows(&INFO)
    }

    fn action(&mut self, cx: &mut Cx<'_>, action: Action) -> Reply {
        let len = match &self.all {
            Some(all) => all.len(),
            None => cx.shell.status.messages().len(),
        };
        let last = len.saturating_sub(1);
        scroll(&mut self.scroll, action, cx, last)
    }
}

/// An entry of one account of several, with its account's name and colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Among<T> {
    pub name: String,
    pub colour: u8,
    pub entry: T,
}
