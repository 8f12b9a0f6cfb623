//! [`FormKind`]: which form a key opens. A leaf that names nothing: the key map (the keys
//! that open the forms, `keymap/bindings.rs`) and the forms (`forms::open` and the
//! steps' list) both name it, so neither needs to name the other.

/// Which form a key opens (the form itself, with its state, is a
/// [`Form`](super::forms::Form)).
///
/// A new form is its file in `forms/`, its variant in [`Form`](super::forms::Form), a
/// variant here, its key's row in the key map's table (`OPEN_FORMS` in
/// `keymap/bindings.rs`), and the arms the compiler asks for: `forms/open.rs` (what its
/// key is on, to its `open`) and `forms/form.rs` (its steps) (the recipe:
/// [`forms`](super::forms)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FormKind {
    Order,
    BindIp,
    Password,
    Refresh,
    IpList,
    InvoiceNumber,
    Silence,
    ServiceNumber,
}

impl FormKind {
    /// The form changes the account: a read-only profile does not advertise its key (the
    /// key still answers, to say why nothing opens).
    pub fn writes(self) -> bool {
        match self {
            FormKind::Order | FormKind::BindIp | FormKind::Password | FormKind::Refresh => true,
            FormKind::IpList
            | FormKind::InvoiceNumber
            | FormKind::Silence
            | FormKind::ServiceNumber => false,
        }
    }
}
