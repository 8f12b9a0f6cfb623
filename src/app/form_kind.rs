//! [`FormKind`]: which form a key opens. A leaf that names nothing: the key map (the keys
//! that open the forms, `keymap/bindings.rs`) and the forms ([`Form`](super::forms::Form)
//! and `forms::open`) both name it, so neither needs to name the other.

/// Which form a key opens (the form itself, with its state, is a
/// [`Form`](super::forms::Form)).
///
/// A new form is its file in `forms/`, a variant here, its key's row in the key map's
/// table (`OPEN_FORMS` in `keymap/bindings.rs`), and the two arms the compiler asks for in
/// `forms/form.rs` (the recipe: [`forms`](super::forms)).
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
