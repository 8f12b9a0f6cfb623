//! The forms: popups that change the account (order, bind an IP, change a password,
//! refresh an IP list) or fetch something on request (IP lists, an invoice or a service by
//! its number), and the silence of an alert. [`Form`] has one variant per form, holding its
//! state; each form is one file here implementing [`FormLogic`] ([`core`]); this file
//! routes keys, pastes and answers to the form on top.
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
//! **Adding a form** (the one place this recipe is written): one new file, its variants
//! and their arms, and its key's row.
//! 1. `src/app/forms/<name>.rs` (and its `pub mod <name>;` line here, which `cargo fmt`
//!    needs to find the file), holding the whole form:
//!    - its state (its [`FormCore`] in a field named `core`) and its `impl FormLogic`
//!      (it names no variant: `form.rs` does, and the form pushes itself with
//!      `Popup::form_of`);
//!    - a `pub static FormStep` per step, listing the step's keys (`FormLogic::step` says
//!      which one the form is at; a key only this form knows, like the bind form's
//!      `Ctrl-L`, is an [`Action::FormKey`] of its own);
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
//!    writes: a read-only profile does not advertise it) and in [`Form`] (`form.rs`), and
//!    the arms the compiler then asks for there: its `From`, its arm of [`open`], of
//!    `FormKind::steps` (for the key checks) and of each question the app asks a form.
//! 3. The row of the key that opens it (its scopes, footer word and help line) in the key
//!    map's table, `OPEN_FORMS` in `keymap/bindings.rs`: its place there is its key's
//!    place in the footer and the help.
//!
//! Then the key goes in the README's `## Keys` table (a test holds it to the key map).
//! Built this way: `by_number.rs` (`#` on Billing and on Services: one form, two kinds).
//!
//! A form may send a write or any read (`FormLogic::submit`); a read a tab keeps (an
//! invoice) fills the tab's cache as any read does before `FormLogic::answered` sees it,
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
pub mod core;
pub mod field;
mod form;
pub mod iplist;
pub(in crate::app) mod iplist_files;
pub mod iplist_view;
pub mod order;
pub mod password;
pub mod refresh;
pub mod silence;

pub use self::core::{Flow, FormCore, FormLogic, FormRow, FormState, FormView, Next, Sent};
pub use field::TextField;
pub use form::Form;
pub(in crate::app) use form::open;

use super::keymap::Action;
use super::popups::Popup;
use super::status::NoticeKind;
use super::{App, Command, Cx};
use crate::api::{ApiError, Request, Response, Ticket};
use crossterm::event::KeyEvent;

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

impl App {
    /// The form on top of the stack, if the top popup is one.
    pub(super) fn top_form(&self) -> Option<&Form> {
        self.shell.popups.last().and_then(Popup::form)
    }

    /// Runs `f` on the form on top, taken off the stack meanwhile (so it may use the whole
    /// app), then puts it back, or closes it if `f` says so.
    fn with_top_form(
        &mut self,
        out: &mut Vec<Command>,
        f: impl FnOnce(&mut Form, &mut Cx<'_>) -> Flow,
    ) {
        if !self.shell.popups.last().is_some_and(Popup::is_form) {
            return;
        }
        let Some(Popup::Form(mut form)) = self.shell.popups.pop() else {
            return;
        };
        match f(&mut form, &mut self.cx(out)) {
            Flow::Stay => self.shell.popups.push(Popup::Form(form)),
            Flow::Close => self.close_form(form),
        }
    }

    /// A form leaves the screen; one whose request is on its way is kept for the answer.
    fn close_form(&mut self, form: Box<Form>) {
        if form.awaiting().is_some() {
            self.closed_forms.push(*form);
        }
    }

    /// An action while a form is on top.
    pub(super) fn form_action(&mut self, action: Action, out: &mut Vec<Command>) {
        self.with_top_form(out, |form, cx| form.action(cx, action));
    }

    /// Esc on a form: back one step, or close.
    pub(super) fn form_back(&mut self) {
        if let Some(form) = self.shell.popups.last_mut().and_then(Popup::form_mut)
            && form.back() == Flow::Close
            && let Some(Popup::Form(form)) = self.shell.popups.pop()
        {
            self.close_form(form);
        }
    }

    /// A key no binding claimed, while a form's field takes typing.
    pub(super) fn form_key(&mut self, key: &KeyEvent) {
        if let Some(form) = self.shell.popups.last_mut().and_then(Popup::form_mut)
            && let Some(field) = form.typing_field()
            && field.key(key)
        {
            form.edited();
        }
    }

    /// A paste while a form's field takes typing.
    pub(super) fn form_paste(&mut self, text: &str) {
        if let Some(form) = self.shell.popups.last_mut().and_then(Popup::form_mut)
            && let Some(field) = form.typing_field()
        {
            let cut = field.paste(text);
            form.edited();
            if let Some(max) = cut {
                self.shell.status.notify(
                    NoticeKind::Info,
                    format!("Pasted text cut to {max} characters: the field holds no more"),
                );
            }
        }
    }

    /// The answer to a write or to an IP list: to the record of orders (an order), to the
    /// probe (its own lists), and to the form holding the write's `ticket` (or to every
    /// form waiting for the list), open or closed.
    pub(super) fn on_form_result(
        &mut self,
        request: Request,
        ticket: Option<Ticket>,
        result: Result<Response, ApiError>,
        out: &mut Vec<Command>,
    ) {
        // A success makes an earlier failure of the same request (reported while its form
        // was closed) moot.
        if result.is_ok() {
            self.shell.status.clear(&request);
        }
        self.cx(out).log_write(&request, &result);
        if let (Request::IpList { service_id, .. }, Ok(Response::IpList(list))) =
            (&request, &result)
        {
            self.proxies.learn(*service_id, list);
        }
        match &request {
            Request::Order { .. } => {
                order::outcome::on_order_result(&mut self.cx(out), &request, ticket, &result)
            }
            Request::IpList { .. } => {
                let (probes, mut cx) = self.probes_cx(out);
                probes.on_probe_list(&mut cx, &request, &result);
            }
            _ => {}
        }
        if !request.is_write() {
            self.on_form_read(&request, result, out);
            return;
        }
        match ticket.and_then(|t| self.take_form_awaiting(t)) {
            Some((place, form)) => self.answer_form(place, form, &request, result, out),
            // No form sent it (or the app started again): the status line says it.
            None if !matches!(request, Request::Order { .. }) => {
                self.cx(out).update_answered(&request, &result, false)
            }
            None => {}
        }
    }

    /// The tickets of the forms, open or closed, waiting for the read `request`.
    fn readers(&self, request: &Request) -> Vec<Ticket> {
        let open = self.shell.popups.iter().filter_map(Popup::form);
        open.chain(&self.closed_forms)
            .filter(|f| f.core().reading() == Some(request))
            .filter_map(|f| f.awaiting())
            .collect()
    }

    /// Whether a form waits for the answer to the read `request`.
    pub(super) fn form_reads(&self, request: &Request) -> bool {
        !self.readers(request).is_empty()
    }

    /// The answer to a read forms wait for, once the tab that keeps it has it: to each of
    /// those forms. Whether one of them is on screen (it shows the outcome, so the status
    /// line need not).
    pub(super) fn on_form_read(
        &mut self,
        request: &Request,
        result: Result<Response, ApiError>,
        out: &mut Vec<Command>,
    ) -> bool {
        let mut shown = false;
        for ticket in self.readers(request) {
            if let Some((place, form)) = self.take_form_awaiting(ticket) {
                shown |= place.is_some();
                self.answer_form(place, form, request, result.clone(), out);
            }
        }
        shown
    }

    /// Gives a form its answer: one on screen goes back to its `place` in the stack, or,
    /// when the answer closes it, what it opened meanwhile (a viewer) takes that place.
    fn answer_form(
        &mut self,
        place: Option<usize>,
        mut form: Box<Form>,
        request: &Request,
        result: Result<Response, ApiError>,
        out: &mut Vec<Command>,
    ) {
        let Some(place) = place else {
            form.answered(&mut self.cx(out), request, result, false);
            return;
        };
        let above = self.shell.popups.len();
        match form.answered(&mut self.cx(out), request, result, true) {
            Flow::Stay => {
                let place = place.min(self.shell.popups.len());
                self.shell.popups.insert(place, Popup::Form(form));
            }
            Flow::Close => {
                let opened: Vec<Popup> = self
                    .shell
                    .popups
                    .drain(above.min(self.shell.popups.len())..)
                    .collect();
                let place = place.min(self.shell.popups.len());
                self.shell.popups.splice(place..place, opened);
            }
        }
    }

    /// The form waiting for the request sent with `ticket`, taken out to take its answer:
    /// an open one with its place in the stack, or one closed while waiting.
    fn take_form_awaiting(&mut self, ticket: Ticket) -> Option<(Option<usize>, Box<Form>)> {
        let awaits = |p: &Popup| p.form().and_then(|f| f.awaiting()) == Some(ticket);
        if let Some(place) = self.shell.popups.iter().position(awaits)
            && let Popup::Form(form) = self.shell.popups.remove(place)
        {
            return Some((Some(place), form));
        }
        let i = self
            .closed_forms
            .iter()
            .position(|f| f.awaiting() == Some(ticket))?;
        Some((None, Box::new(self.closed_forms.swap_remove(i))))
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
