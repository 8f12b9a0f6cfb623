//! Enter on a product: its full detail (`GET /api/product/{pid}`, in the Products tab's
//! cache); `o` orders it from here as from its row (the key map's scope).

use super::PopupPane;

/// The product of this ID.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProductViewer(pub u64);

impl PopupPane for ProductViewer {
    const TITLE: &'static str = "product";
}
