//! Enter on a product: its full detail (`GET /api/product/{pid}`, in the Products tab's
//! cache); `o` orders it from here as from its row (the key map's scope).

use super::PopupPane;
use crate::app::PopupKind;
use crate::app::Tab;
use crate::app::keymap::steps::PopupInfo;

/// The product of this ID.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProductViewer(pub u64);

/// What the key map knows of it: its title and its own keys.
pub static INFO: PopupInfo = PopupInfo {
    title: "product",
    keys: &[],
    item_of: Some(Tab::Products),
};

impl PopupPane for ProductViewer {
    fn kind(&self) -> PopupKind {
        PopupKind::Shows(&INFO)
    }
}
