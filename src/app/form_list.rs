//! The one list of the forms: one entry per form, from which the key map makes
//! [`FormKind`](super::keymap::FormKind) and the keys that open the forms, and the forms
//! make [`Form`](super::forms::Form), its `Variant`s, `each!`, `open` and the steps' list.
//!
//! It names no module: `with_forms!(callback)` hands the entries, as written here, to a
//! `macro_rules!` of the caller's, and each caller reads the words it knows where it
//! expands them (the key map its keys and scopes, the forms the form's module and type).
//! So the key map and the forms both read this list and neither names the other.
//!
//! An entry, in the order the footer and the help list the keys:
//!
//! ```text
//! Variant {
//!     form: module::TypeOfTheForm,   // src/app/forms/module.rs
//!     writes: true,                  // changes the account: not advertised read-only
//!     keys: [k('o')], scopes: &[…],  // the key that opens it, and where
//!     footer: Some("word"), help: "what the key does",
//!     steps: [STEP],                 // the form's `static FormStep`s
//! },
//! ```

/// `with_forms!(callback)`, or `with_forms!(callback $)` for a callback that writes a
/// `macro_rules!` of its own (it gets the `$` first): `callback! { entries }`.
macro_rules! with_forms {
    ($callback:ident $($dollar:tt)?) => {
        $callback! { $($dollar)?
            Order {
                form: order::OrderForm,
                writes: true,
                keys: [k('o')], scopes: &[Tab(Tab::Products), Popup(P::Product)],
                footer: Some("order"), help: "Order the selected product",
                steps: [EDIT, CONFIRM],
            },
            BindIp {
                form: bind_ip::BindIpForm,
                writes: true,
                keys: [k('b')], scopes: ON_SERVICE,
                footer: Some("bind IP"), help: "Bind an IP to the selected static (fpr) service",
                steps: [STEP],
            },
            Password {
                form: password::PasswordForm,
                writes: true,
                keys: [k('p')], scopes: ON_SERVICE,
                footer: Some("passwd"), help: "Change the proxy password",
                steps: [STEP],
            },
            Refresh {
                form: refresh::RefreshForm,
                writes: true,
                keys: [k('u')], scopes: ON_SERVICE,
                footer: Some("refresh IPs"), help: "Refresh the IP list (the server throttles this)",
                steps: [STEP],
            },
            IpList {
                form: iplist::IpListForm,
                writes: false,
                keys: [k('i')], scopes: ON_SERVICE,
                footer: Some("IP list"), help: "Show, copy or save the IP list",
                steps: [CHOOSE, VIEW, SAVE],
            },
            InvoiceNumber {
                form: invoice_number::InvoiceNumberForm,
                writes: false,
                keys: [k('#')], scopes: &[Tab(Tab::Billing)],
                footer: Some("by number"), help: "Open an invoice by its number (as its e-mail gives it)",
                steps: [STEP],
            },
            Silence {
                form: silence::SilenceForm,
                writes: false,
                keys: [k('s')], scopes: &[Tab(Tab::Alerts)],
                footer: Some("silence"), help: "Silence the selected alert's rule, service or both for a while, with a reason",
                steps: [STEP],
            },
            ServiceNumber {
                form: service_number::ServiceNumberForm,
                writes: false,
                keys: [k('#')], scopes: &[Tab(Tab::Services)],
                footer: None, help: "Open a service by its ID (as an e-mail or a ticket gives it)",
                steps: [STEP],
            },
        }
    };
}
pub(crate) use with_forms;
