//! Enter on a service (Services, Network, Alerts, `#` on Services): its full detail,
//! usage, network status, invoices and recent events, scrolled with `j`/`k`/`PgUp`/`PgDn`
//! when it is taller than the screen. The writes on a service (`b`, `p`, `u`, `i`, `h`,
//! `x`) and `v` take it from here as from its row (the key map's scopes).

use super::{PopupPane, Reply, scroll};
use crate::app::Cx;
use crate::app::PopupKind;
use crate::app::Tab;
use crate::app::keymap::Action;
use crate::app::keymap::steps::PopupInfo;
use crate::app::keymap::steps::{MOVE_DOWN, MOVE_UP, PAGE_DOWN, PAGE_UP};

/// The service of this ID, and how far it is scrolled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceViewer {
    pub id: u64,
    /// Lines scrolled down by; 0 when it opens. How far it can scroll only the drawing
    /// knows (its lines and the screen): it measures that into the view's state
    /// ([`crate::app::geometry::Geometry::service_last`]), so `j` stops at the end
    /// instead of counting past it.
    pub scroll: usize,
}

impl ServiceViewer {
    pub fn new(id: u64) -> Self {
        Self { id, scroll: 0 }
    }
}

/// What the key map knows of it: its title and its own keys.
pub static INFO: PopupInfo = PopupInfo {
    title: "service",
    keys: &[MOVE_DOWN, MOVE_UP, PAGE_DOWN, PAGE_UP],
    item_of: Some(Tab::Services),
};

impl PopupPane for ServiceViewer {
    fn kind(&self) -> PopupKind {
        PopupKind::Shows(&INFO)
    }

    fn action(&mut self, cx: &mut Cx<'_>, action: Action) -> Reply {
        let last = usize::from(cx.shell.geometry.service_last);
        scroll(&mut self.scroll, action, cx, last)
    }
}
