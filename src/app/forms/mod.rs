//! The forms: popups that change the account (order, bind an IP, change a password,
//! refresh an IP list) or fetch something on request (IP lists, an invoice or a service by
//! its number), and the silence of an alert. Each form is one file here (a folder when
//! big: its look in `look.rs`) holding its state, its steps and their keys, its
//! [`FormLogic`] (what its keys do, how it takes its answer, its look: `render`) and its
//! `open`. [`Form`] is the popup stack's form, one variant per form; the app reaches any
//! form through it ([`form`]), routes keys, pastes and answers to the form on top
//! ([`routing`]), and opens a form from what its key is on ([`open`]).
//!
//! A form gets its own state and a narrow context, never the app, a tab or another
//! popup: [`FormCx`] to act through (the account's data to read, reads and writes to send,
//! the status line, commands, and an [`Intent`] such as "show service N" that the app
//! carries out after the call), [`FormData`] to be drawn from (a tab's `TabData` and what
//! only forms show). It draws with the pieces of [`look`] (the framed popup, fields, the
//! inline error, where the request is) over the app's look kit, and a look that is rows
//! of those is data ([`FormView`]).
//!
//! Every form goes through [`FormState`]: `Editing` (fields take typing), `Confirming`
//! (what will be sent is repeated), `Submitting` (the one request is on its way: Enter is
//! ignored, nothing is sent twice), `Done(answer)` (the server's typed answer, worded by
//! the form's look) or `Failed(message)` (the server's own words; the values stay, so
//! the user can correct them and send again). Its [`FormCore`] (state, request sent,
//! inline error) is a field of each form, reached by the app through [`Form`] alone.
//!
//! Keys: `Enter` submits the step, `Esc` goes back a step or closes, `Tab`/`Shift-Tab`
//! move between fields; while a field takes typing every other key is text (so `q`, `j`,
//! `y` are characters there) and a paste is inserted as one line. `Ctrl-C` quits from
//! anywhere. Each form declares its steps' keys itself, beside its logic (a `static`
//! [`FormStep`](crate::app::keymap::steps::FormStep) per step).
//!
//! **Adding a form** (the one place this recipe is written): one new file, its variant in
//! [`Form`], its [`FormKind`](crate::app::form_kind::FormKind) line with the arms the
//! compiler asks for, and its key's row.
//! 1. `src/app/forms/<name>.rs` (and its `pub mod <name>;` line here, which `cargo fmt`
//!    needs to find the file), holding the whole form:
//!    - its state, with its [`FormCore`] in a field named `core`;
//!    - a `pub static FormStep` per step, listing the step's keys (`FormLogic::step` says
//!      which one the form is at; a key only this form knows, like the bind form's
//!      `Ctrl-L`, is an [`Action::FormKey`](crate::app::keymap::Action::FormKey) of its own);
//!    - its `impl FormLogic`: its steps, the field that takes typing, what Enter sends,
//!      how it takes its answer, and its look, `render(frame, area, &FormData, &Theme)`:
//!      a [`FormView`] (title, size, rows: a field, a value, text, a hint, the inline
//!      error, where the request is, each in a [`Tone`](crate::app::columns::Tone)) drawn
//!      with `FormView::draw`, or, for a look that needs more, drawn with [`look`]'s
//!      pieces (then the form is a folder, its look in `look.rs`, as the order's is);
//!    - `pub(in crate::app) fn open(cx: &mut FormCx, …) -> Option<Self>`, which gives the
//!      form (or says in the status line why not: read-only, an ended service), from what
//!      its key is on (a [`ServiceOn`], a [`ProductOn`]); a form nothing refuses is made
//!      by its `new` (`#`, the silence, the IP lists).
//! 2. Its variant in [`Form`] and the four arms the compiler then asks for there (its
//!    logic and its core, each `&` and `&mut`); its variant in
//!    [`FormKind`](crate::app::form_kind::FormKind) (with whether it writes: a read-only
//!    profile does not advertise it), and the arms the compiler asks for: in [`open`]
//!    (what the key is on, to the form's `open`) and `FormKind::steps` (its steps, for the
//!    key checks).
//! 3. The row of the key that opens it (its scopes, footer word and help line) in the key
//!    map's table, `OPEN_FORMS` in `keymap/bindings.rs`: its place there is its key's
//!    place in the footer and the help.
//!
//! Then the key goes in the README's `## Keys` table (a test holds it to the key map).
//! Built this way: `by_number.rs` (`#` on Billing and on Services: one form, two kinds).
//!
//! A form may send a write or any read (`FormLogic::submit`); a read's answer (an
//! invoice) is kept in the account's store as any read's is before `FormLogic::answered`
//! sees it, and an answer that leaves nothing to do in the form may ask for the viewer of
//! what it fetched ([`Intent::ShowInvoice`], [`Intent::ShowService`]) and return
//! `Flow::Close`: the viewer takes the form's place.
//!
//! **Answers by ticket.** Each request a form sends gets a [`Ticket`] of its own, kept in
//! the form's core ([`Sent`]); the request (the API's payload) carries none. A write's
//! ticket goes beside it to the engine ([`Command::Write`](crate::app::Command::Write))
//! and comes back with its answer, which goes to the form holding that ticket, never to
//! one guessed from the payload: two sends of the same write are two attempts, and an
//! answer to the old one is never the new one's. A read is known by its parameters (an
//! identical read on its way is not sent again; its one answer serves every asker), so the
//! form keeps the read beside its ticket: the answer goes to the tab first, then to every
//! form waiting for it. A form closed while its request is on its way is kept out of sight
//! until the answer comes, so what the answer implies still happens (a countdown set, the
//! detail re-read) and the outcome goes to the status line. Every write's outcome also goes
//! to the message log (`m`), whether its form was open or not. Orders are also answered to
//! the record of orders ([`crate::app::orders`]), by the same ticket, whatever became of
//! their form.
//!
//! Writes are sent with [`FormCore::send`]: never deduplicated, never retried. When a
//! write's outcome is unknown (timeout, connection lost after sending) the form says so and
//! the data it may have changed is re-read.
//!
//! [`Ticket`]: crate::api::Ticket

pub mod bind_ip;
pub mod by_number;
pub mod confirm_run;
pub mod core;
pub mod cx;
pub mod field;
mod form;
pub mod iplist;
pub(in crate::app) mod iplist_files;
pub mod look;
mod open;
pub mod order;
pub mod password;
pub mod refresh;
mod routing;
pub mod silence;
pub mod view;

pub use self::core::{Flow, FormCore, FormLogic, FormState, Next, Sent};
pub use cx::{Answered, FileAnswer, FormCx, FormData, Intent, MyIp, ProductOn, ServiceOn};
pub use field::TextField;
pub use form::Form;
pub(in crate::app) use open::{open, open_iplist_to_copy};
pub use routing::Forms;
pub(in crate::app) use routing::{on_file, on_my_ip};
pub use view::{FormRow, FormView};

use crate::api::{ApiError, Response};

/// What a failed write says in its form: the server's own message where it sent one.
pub fn failure(error: &ApiError) -> String {
    if error.outcome_unknown() {
        format!("Outcome unknown: {error}. The server may have carried it out.")
    } else {
        error.to_string()
    }
}

/// The success messages of a service update (spec 4.3), or a fallback when the server
/// sent none.
pub fn update_message(response: &Response, fallback: &str) -> String {
    match response {
        Response::UpdateService(r) if !r.messages().is_empty() => r.messages().join("; "),
        _ => fallback.to_owned(),
    }
}
