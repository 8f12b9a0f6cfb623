//! The forms' routing: a field's typing and pastes, actions to the form on top, and
//! answers to the form that waits for them, open or closed ([`Forms`] keeps the closed
//! ones until their answer comes).

use super::{Flow, Form, order};
use crate::api::{ApiError, Request, Response, Ticket};
use crate::app::keymap::Action;
use crate::app::popups::Popup;
use crate::app::status::NoticeKind;
use crate::app::{Cx, Shell};
use crossterm::event::KeyEvent;

/// What the forms' fields take while one is on top: typing and pastes (the shell holds
/// the popup stack and the status line).
impl Shell {
    /// The form on top of the stack, if the top popup is one.
    pub(in crate::app) fn top_form(&self) -> Option<&Form> {
        self.popups.last().and_then(Popup::form)
    }

    /// A key no binding claimed, while a form's field takes typing.
    pub(in crate::app) fn form_key(&mut self, key: &KeyEvent) {
        if let Some(form) = self.popups.last_mut().and_then(Popup::form_mut)
            && let Some(field) = form.typing_field()
            && field.key(key)
        {
            form.edited();
        }
    }

    /// A paste while a form's field takes typing.
    pub(in crate::app) fn form_paste(&mut self, text: &str) {
        if let Some(form) = self.popups.last_mut().and_then(Popup::form_mut)
            && let Some(field) = form.typing_field()
        {
            let cut = field.paste(text);
            form.edited();
            if let Some(max) = cut {
                self.status.notify(
                    NoticeKind::Info,
                    format!("Pasted text cut to {max} characters: the field holds no more"),
                );
            }
        }
    }
}

/// The forms out of sight: those closed while their request was on its way, kept until
/// it is answered (so what the answer implies still happens, see the module docs).
#[derive(Debug, Default)]
pub struct Forms {
    closed: Vec<Form>,
}

/// The forms' routing: actions to the form on top, answers to the form that waits for
/// them, open or closed.
impl Forms {
    /// Runs `f` on the form on top, taken off the stack meanwhile (so it may use the whole
    /// context), then puts it back, or closes it if `f` says so.
    fn with_top(&mut self, cx: &mut Cx<'_>, f: impl FnOnce(&mut Form, &mut Cx<'_>) -> Flow) {
        if !cx.shell.popups.last().is_some_and(Popup::is_form) {
            return;
        }
        let Some(Popup::Form(mut form)) = cx.shell.popups.pop() else {
            return;
        };
        match f(&mut form, cx) {
            Flow::Stay => cx.shell.popups.push(Popup::Form(form)),
            Flow::Close => self.close(form),
        }
    }

    /// A form leaves the screen; one whose request is on its way is kept for the answer.
    fn close(&mut self, form: Form) {
        if form.awaiting().is_some() {
            self.closed.push(form);
        }
    }

    /// An action while a form is on top.
    pub(in crate::app) fn action(&mut self, cx: &mut Cx<'_>, action: Action) {
        self.with_top(cx, |form, cx| form.action(cx, action));
    }

    /// Esc on a form: back one step, or close.
    pub(in crate::app) fn back(&mut self, shell: &mut Shell) {
        if let Some(form) = shell.popups.last_mut().and_then(Popup::form_mut)
            && form.back() == Flow::Close
            && let Some(Popup::Form(form)) = shell.popups.pop()
        {
            self.close(form);
        }
    }

    /// The answer to a write or to an IP list: to the record of orders (an order), to the
    /// probe (an IP list), and to the form holding the write's
    /// `ticket` (or to every form waiting for the list), open or closed.
    pub(in crate::app) fn on_result(
        &mut self,
        cx: &mut Cx<'_>,
        probes: &mut crate::app::probe::Probes,
        request: Request,
        (ticket, result): (Option<Ticket>, Result<Response, ApiError>),
    ) {
        // A success makes an earlier failure of the same request (reported while its form
        // was closed) moot.
        if result.is_ok() {
            cx.shell.status.clear(&request);
        }
        cx.log_write(&request, &result);
        match &request {
            Request::Order { .. } => order::outcome::on_order_result(cx, &request, ticket, &result),
            Request::IpList { .. } => probes.on_probe_list(cx, &request, &result),
            _ => {}
        }
        if !request.is_write() {
            self.on_read(cx, &request, result);
            return;
        }
        match ticket.and_then(|t| self.take_awaiting(&mut cx.shell.popups, t)) {
            Some((place, form)) => cx.answer_form(place, form, &request, result),
            // No form sent it (or the app started again): the status line says it.
            None if !matches!(request, Request::Order { .. }) => {
                cx.update_answered(&request, &result, false)
            }
            None => {}
        }
    }

    /// The tickets of the forms, open or closed, waiting for the read `request`.
    fn readers(&self, popups: &[Popup], request: &Request) -> Vec<Ticket> {
        let open = popups.iter().filter_map(Popup::form);
        open.chain(&self.closed)
            .filter(|f| f.core().reading() == Some(request))
            .filter_map(|f| f.awaiting())
            .collect()
    }

    /// Whether a form waits for the answer to the read `request`.
    pub(in crate::app) fn reads(&self, popups: &[Popup], request: &Request) -> bool {
        !self.readers(popups, request).is_empty()
    }

    /// The answer to a read forms wait for, once the store keeps it: to each of those
    /// forms. Whether one of them is on screen (it shows the outcome, so the status line
    /// need not).
    pub(in crate::app) fn on_read(
        &mut self,
        cx: &mut Cx<'_>,
        request: &Request,
        result: Result<Response, ApiError>,
    ) -> bool {
        let mut shown = false;
        for ticket in self.readers(&cx.shell.popups, request) {
            if let Some((place, form)) = self.take_awaiting(&mut cx.shell.popups, ticket) {
                shown |= place.is_some();
                cx.answer_form(place, form, request, result.clone());
            }
        }
        shown
    }

    /// The form waiting for the request sent with `ticket`, taken out to take its answer:
    /// an open one with its place in the stack, or one closed while waiting.
    fn take_awaiting(
        &mut self,
        popups: &mut Vec<Popup>,
        ticket: Ticket,
    ) -> Option<(Option<usize>, Form)> {
        let awaits = |p: &Popup| p.form().and_then(|f| f.awaiting()) == Some(ticket);
        if let Some(place) = popups.iter().position(awaits)
            && let Popup::Form(form) = popups.remove(place)
        {
            return Some((Some(place), form));
        }
        let i = self
            .closed
            .iter()
            .position(|f| f.awaiting() == Some(ticket))?;
        Some((None, self.closed.swap_remove(i)))
    }
}

impl Cx<'_> {
    /// Gives a form its answer: one on screen goes back to its `place` in the stack, or,
    /// when the answer closes it, what it opened meanwhile (a viewer) takes that place.
    fn answer_form(
        &mut self,
        place: Option<usize>,
        mut form: Form,
        request: &Request,
        result: Result<Response, ApiError>,
    ) {
        let Some(place) = place else {
            form.answered(self, request, result, false);
            return;
        };
        let above = self.shell.popups.len();
        match form.answered(self, request, result, true) {
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
}
