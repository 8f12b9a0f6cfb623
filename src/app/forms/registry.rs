//! The forms the app knows, one line each ([`FORMS`]), and the keys that open them.
//!
//! A form says how it opens beside its logic, in a `pub const ENTRY: FormEntry`: its key,
//! where the key applies, the footer's word and the help's line, whether the form changes
//! the account, its steps, and the function that opens it. [`FORMS`] lists the entries in
//! the order the footer and the help show their keys. The key map makes each entry a
//! binding ([`OPENERS`]) whose action is [`Action::OpenForm`] with the entry's place in
//! [`FORMS`], and the input code runs that entry's `open`. A read-only profile hides the
//! keys of the entries that write (the keys still answer, to say why nothing opens).
//!
//! **Adding a form** is two files and one line here (and one in the ui):
//! 1. `src/app/forms/<name>.rs`: the form's state and its `impl Form`; a
//!    `pub static` [`FormStep`] per step, listing the step's keys (`Form::step` says which
//!    one the form is at); `App::open_<name>(&mut self, out)`, which pushes the form; and
//!    `pub const ENTRY: FormEntry`. A key only this form knows (the bind form's `Ctrl-L`)
//!    is an [`Action::FormKey`] whose number is a const of the form.
//! 2. `src/ui/forms/<name>.rs`: `impl FormWidget for <Name>Form`, how it looks.
//! 3. `super::<name>::ENTRY,` in [`FORMS`], and its widget's line in `WIDGETS` of
//!    `src/ui/forms/mod.rs` (with the `pub mod <name>;` beside each).
//!
//! Nothing else names the form: not the key map, not the popups, not the input code, not
//! the answers' routing. A form may send a write or any read (`Form::submit`); a read a
//! tab keeps (an invoice) fills the tab's cache as any read does before `Form::answered`
//! sees it, and an answer that leaves nothing to do in the form may push the viewer of
//! what it fetched and return `Flow::Close`: the viewer takes the form's place.

use crate::app::keymap::steps::FormStep;
use crate::app::keymap::{Action, Binding, Key, Scope};
use crate::app::{App, Command};

/// How a form opens, and what the key map needs to know of it.
pub struct FormEntry {
    /// The key that opens it (more than one: aliases).
    pub keys: &'static [Key],
    /// Where those keys open it.
    pub scopes: &'static [Scope],
    /// The footer's word for it (none: only the help lists it).
    pub footer: Option<&'static str>,
    /// The help's line for it.
    pub help: &'static str,
    /// It changes the account: a read-only profile does not advertise it.
    pub writes: bool,
    /// Its steps, for the checks that every step's keys do what they say.
    pub steps: &'static [&'static FormStep],
    /// Opens it (or says in the status line why not).
    pub open: fn(&mut App, &mut Vec<Command>),
}

/// The forms, in the order the footer and the help show their keys.
pub static FORMS: &[FormEntry] = &[
    super::order::ENTRY,
    super::bind_ip::ENTRY,
    super::password::ENTRY,
    super::refresh::ENTRY,
    super::iplist::ENTRY,
    super::invoice_number::ENTRY,
    super::silence::ENTRY,
];

// `Action::OpenForm` holds a form's place in one byte.
const _: () = assert!(FORMS.len() <= u8::MAX as usize + 1);

/// The keys that open the forms: one binding per entry of [`FORMS`], in its order.
pub static OPENERS: [Binding; FORMS.len()] = openers();

const fn openers() -> [Binding; FORMS.len()] {
    let unused = Binding {
        keys: &[],
        action: Action::Help,
        scopes: &[],
        footer: None,
        help: "",
    };
    let mut out = [unused; FORMS.len()];
    let mut i = 0;
    while i < FORMS.len() {
        let form = &FORMS[i];
        out[i] = Binding {
            keys: form.keys,
            action: Action::OpenForm(i as u8),
            scopes: form.scopes,
            footer: form.footer,
            help: form.help,
        };
        i += 1;
    }
    out
}

impl App {
    /// The key of the form at `index` of [`FORMS`]: that form opens (or the status line
    /// says why not).
    pub(in crate::app) fn open_form(&mut self, index: u8, out: &mut Vec<Command>) {
        if let Some(form) = FORMS.get(usize::from(index)) {
            (form.open)(self, out);
        }
    }
}

/// The opening key's action of the form whose first step is `step`.
#[cfg(test)]
pub fn opener_of(step: &'static FormStep) -> Option<Action> {
    let i = FORMS.iter().position(|f| f.steps.first() == Some(&step))?;
    u8::try_from(i).ok().map(Action::OpenForm)
}
