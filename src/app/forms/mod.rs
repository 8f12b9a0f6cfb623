//! The forms: popups that change the account (order, bind an IP, change a password,
//! refresh an IP list) or fetch something on request (IP lists, an invoice or a service by
//! its number), and the silence of an alert. Each form is one file here implementing
//! [`FormLogic`] ([`core`]); [`Form`] holds whichever is on the popup stack (behind a
//! pointer, so a new form adds no variant to it); this file routes keys, pastes and
//! answers to the form on top.
//!
//! Every form goes through [`FormState`]: `Editing` (fields take typing), `Confirming`
//! (what will be sent is repeated), `Submitting` (the one request is on its way: Enter is
//! ignored, nothing is sent twice), `Done(answer)` (the server's typed answer, worded by
//! the form's look) or `Failed(message)` (the server's own words; the values stay, so
//! the user can correct them and send again).
//!
//! Keys: `Enter` submits the step, `Esc` goes back a step or closes, `Tab`/`Shift-Tab`
//! move between fields; while a field takes typing every other key is text (so `q`, `j`,
//! `y` are characters there) and a paste is inserted as one line. `Ctrl-C` quits from
//! anywhere. Each form declares its steps' keys itself, beside its logic (a `static`
//! [`FormStep`](crate::app::keymap::steps::FormStep) per step).
//!
//! **Adding a form** (the one place this recipe is written): one new file, its
//! [`FormKind`](crate::app::form_kind::FormKind) line with its two arms, and its key's row.
//! 1. `src/app/forms/<name>.rs` (and its `pub mod <name>;` line here, which `cargo fmt`
//!    needs to find the file), holding the whole form:
//!    - its state (its [`FormCore`] in a field named `core`, which the trait's two
//!      accessors `core`/`core_mut` return) and its `impl FormLogic` (it pushes itself
//!      with `Popup::form_of`: any form is a [`Form`]);
//!    - a `pub static FormStep` per step, listing the step's keys (`FormLogic::step` says
//!      which one the form is at; a key only this form knows, like the bind form's
//!      `Ctrl-L`, is an [`Action::FormKey`](crate::app::keymap::Action::FormKey) of its own);
//!    - `pub(in crate::app) fn open(cx: &mut Cx)`, which pushes the form or says in the
//!      status line why not; the form reads and asks through the context ([`Cx`]), never
//!      the whole app;
//!    - its look, as data: `FormLogic::view` returns a [`FormView`] (title, size, rows: a
//!      field, a value, text, a hint, the inline error, where the request is, each in a
//!      [`Tone`](crate::app::columns::Tone)), which the ui draws for every form alike, the
//!      cursor in the focused field included. Only a look that needs more (the order's
//!      pickers, the IP-list viewer, the bind form's fitted lines) keeps the default `None`
//!      and a widget in `src/ui/forms/<name>.rs` (`impl FormWidget`, and its arm in
//!      `ui::forms::draw`).
//! 2. Its variant in [`FormKind`](crate::app::form_kind::FormKind) (with whether it
//!    writes: a read-only profile does not advertise it), and the two arms the compiler
//!    then asks for in `form.rs`: [`open`] (the key to the form's `open`) and
//!    `FormKind::steps` (its steps, for the key checks).
//! 3. The row of the key that opens it (its scopes, footer word and help line) in the key
//!    map's table, `OPEN_FORMS` in `keymap/bindings.rs`: its place there is its key's
//!    place in the footer and the help.
//!
//! Then the key goes in the README's `## Keys` table (a test holds it to the key map).
//! Built this way: `by_number.rs` (`#` on Billing and on Services: one form, two kinds).
//!
//! A form may send a write or any read (`FormLogic::submit`); a read's answer (an
//! invoice) is kept in the account's store as any read's is before `FormLogic::answered`
//! sees it,
//! and an answer that leaves nothing to do in the form may push the viewer of what it
//! fetched and return `Flow::Close`: the viewer takes the form's place.
//!
//! **Answers by ticket.** Each request a form sends gets a [`Ticket`] of its own, kept in
//! the form's core ([`Sent`]); the request (the API's payload) carries none. A write's
//! ticket goes beside it to the engine ([`Command::Write`]) and comes back with its
//! answer, which goes to the form holding that ticket, never to one guessed from the
//! payload: two sends of the same write are two attempts, and an answer to the old one is
//! never the new one's. A read is known by its parameters (an identical read on its way
//! is not sent again; its one answer serves every asker), so the form keeps the read
//! beside its ticket: the answer goes to the tab first, then to every form waiting for it.
//! A form closed while its request is on its way is kept out of sight until the answer
//! comes, so what the answer implies still happens (a countdown set, the detail re-read)
//! and the outcome goes to the status line. Every write's outcome also goes to the message
//! log (`m`), whether its form was open or not. Orders are also answered to the record of
//! orders ([`crate::app::orders`]), by the same ticket, whatever became of their form.
//!
//! Writes are sent with [`Cx::send_write`]: never deduplicated, never retried. When a
//! write's outcome is unknown (timeout, connection lost after sending) the form says so and
//! the data it may have changed is re-read.

pub mod bind_ip;
pub mod by_number;
pub mod confirm_run;
pub mod core;
pub mod field;
mod form;
pub mod iplist;
pub(in crate::app) mod iplist_files;
pub mod iplist_view;
pub mod order;
pub mod password;
pub mod refresh;
mod routing;
pub mod silence;

pub use self::core::{Flow, FormCore, FormLogic, FormRow, FormState, FormView, Next, Sent};
pub use field::TextField;
pub use form::Form;
pub(in crate::app) use form::open;
pub use routing::Forms;

use super::Cx;
use super::popups::Popup;
use super::status::NoticeKind;
use crate::api::{ApiError, Request, Response, Ticket};

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

/// What the forms ask of the context: tickets for their requests, the service they act on.
impl Cx<'_> {
    /// A new ticket for a form's request (each send its own: tickets are never reused).
    pub(super) fn next_ticket(&mut self) -> Ticket {
        self.work.last_ticket += 1;
        Ticket(self.work.last_ticket)
    }

    /// Sends a form's request with a new ticket, which the form keeps and waits for.
    pub(super) fn send_form(&mut self, core: &mut FormCore, request: Request) {
        let ticket = self.next_ticket();
        self.send_form_as(core, request, ticket);
    }

    /// Sends a form's request with `ticket` (an order's attempt, recorded first): a write
    /// exactly once, a read (an IP list, an invoice) through [`Cx::fetch`], known by its
    /// parameters.
    pub(super) fn send_form_as(&mut self, core: &mut FormCore, request: Request, ticket: Ticket) {
        core.state = FormState::Submitting;
        if request.is_write() {
            core.sent = Some(Sent::write(ticket));
            self.send_write(request, ticket);
        } else {
            core.sent = Some(Sent {
                ticket,
                read: Some(request.clone()),
            });
            self.fetch(request);
        }
    }

    /// The profile is read-only: says so and returns true.
    pub(super) fn refuse_read_only(&mut self, what: &str) -> bool {
        if self.shell.settings.read_only {
            let line = format!(
                "Profile {} is read-only: {what} is turned off",
                self.shell.settings.profile
            );
            self.shell.status.notify(NoticeKind::Info, line);
        }
        self.shell.settings.read_only
    }

    /// The service an action on the Services tab is for: the open service popup's, else
    /// the selected row's.
    pub(super) fn target_service(&self) -> Option<u64> {
        match self.shell.popups.last() {
            Some(Popup::Service(viewer)) => Some(viewer.id),
            _ => self.tabs.services.table.selected_id(),
        }
    }

    /// The target service, unless it has ended (Terminated, Cancelled, Fraud): then the
    /// status line says why nothing opens and nothing is sent, rather than a request
    /// that the server can only refuse.
    pub(super) fn writable_service(&mut self, what: &str) -> Option<u64> {
        use crate::api::ServiceStatus;
        let id = self.target_service()?;
        let status = self.services().get(id).map(|s| s.status.clone());
        if let Some(
            status @ (ServiceStatus::Terminated | ServiceStatus::Cancelled | ServiceStatus::Fraud),
        ) = status
        {
            let line = format!(
                "Service {id} is {}: {what} is not possible, nothing was sent",
                status.as_str()
            );
            self.shell.status.notify(NoticeKind::Info, line);
            return None;
        }
        Some(id)
    }

    /// Says a service update's outcome: in the message log when its form shows it
    /// (`on_screen`), else in the status line.
    pub(super) fn update_answered(
        &mut self,
        request: &Request,
        result: &Result<Response, ApiError>,
        on_screen: bool,
    ) {
        let what = self.update_what(request);
        let line = match result {
            Ok(r) => format!("{what}: {}", update_message(r, "done")),
            // The error line's own words (the token hint of a 401), under the same head.
            Err(e) => {
                let line = super::status::error_line(request, e, &self.shell.settings.profile);
                let generic = super::status::what(request);
                match line.strip_prefix(&generic) {
                    Some(rest) => format!("{what}{rest}"),
                    None => line,
                }
            }
        };
        let line = crate::text::sanitize(&line).into_owned();
        match (result, on_screen) {
            (Ok(_), true) => self.shell.status.log(super::messages::Level::Success, line),
            (Err(_), true) => self.shell.status.log(super::messages::Level::Error, line),
            (Ok(_), false) => self.shell.status.notify(NoticeKind::Done, line),
            (Err(_), false) => self.shell.status.report(request, line),
        }
    }

    /// What a service update did, to whom, on which account: `Service 1001 (Static US
    /// 25, account work) · bind IP 203.0.113.5`. Two updates log the same line only when
    /// they did the same thing, so the message log folds only identical events.
    fn update_what(&self, request: &Request) -> String {
        let Request::UpdateService { service_id, update } = request else {
            return super::status::what(request);
        };
        let mut did = Vec::new();
        if let Some(ip) = &update.setip {
            did.push(format!("bind IP {ip}"));
        }
        if update.password.is_some() {
            did.push("password change".to_owned());
        }
        if update.update_list {
            did.push("IP list refresh".to_owned());
        }
        let name = self
            .services()
            .get(*service_id)
            .map(|s| s.product_name.trim())
            .filter(|n| !n.is_empty())
            .map_or_else(String::new, |n| format!("{n}, "));
        format!(
            "Service {service_id} ({name}account {}) · {}",
            self.shell.settings.profile,
            did.join(", ")
        )
    }
}
