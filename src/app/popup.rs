//! Popups: a stack above the tabs; the top one gets the keys.

/// One popup. Each names what it shows; the data itself stays in the tabs' caches, so a
/// result that arrives while the popup is open (or after it closed) lands in one place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Popup {
    /// Key help for the context under it.
    Help,
    /// One invoice (`Invoice(id)`).
    Invoice(u64),
    /// The full detail of one service.
    Service(u64),
    /// The full detail of one product.
    Product(u64),
}

impl Popup {
    pub fn kind(self) -> PopupKind {
        match self {
            Popup::Help => PopupKind::Help,
            Popup::Invoice(_) => PopupKind::Invoice,
            Popup::Service(_) => PopupKind::Service,
            Popup::Product(_) => PopupKind::Product,
        }
    }
}

/// A popup without its parameters, for the key bindings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PopupKind {
    Help,
    Invoice,
    Service,
    Product,
}
