//! The forms' routing, on the app's side: a field's typing and pastes, actions to the form
//! on top, answers to the form that waits for them, open or closed ([`Forms`] keeps the
//! closed ones until their answer comes), and what the app learns that forms wait for
//! (this machine's IP, a file written). Each form acts through its own context
//! ([`FormCx`], made by [`acting`]), and the [`Intent`]s it leaves are carried out here,
//! with the whole context, once its call returned.

use super::cx::{FileAnswer, FormCx, Intent, MyIp};
use super::form::Form;
use super::{Answered, Flow, order};
use crate::api::{ApiError, Request, Response, Ticket};
use crate::app::keymap::Action;
use crate::app::popups::Popup;
use crate::app::status::NoticeKind;
use crate::app::{Cx, Shell, Tab};
use crossterm::event::KeyEvent;
use std::net::Ipv4Addr;

/// Runs `act` with a form's context over `cx`, then carries out the intents it left.
pub(in crate::app) fn acting<R>(cx: &mut Cx<'_>, act: impl FnOnce(&mut FormCx<'_>) -> R) -> R {
    let mut form_cx = FormCx::of(cx);
    let done = act(&mut form_cx);
    let intents = form_cx.into_intents();
    for intent in intents {
        carry_out(cx, intent);
    }
    done
}

/// Carries out what a form asked of the rest of the dashboard.
fn carry_out(cx: &mut Cx<'_>, intent: Intent) {
    match intent {
        Intent::ShowService(id) => {
            cx.go_to(Tab::Services, id);
            // Enter on the row: its detail.
            Tab::Services.open(cx);
        }
        Intent::ShowInvoice(id) => cx.shell.popups.push(Popup::invoice(id)),
        Intent::HandOver(run) => cx.hand_over(*run),
    }
}

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
    /// A form leaves the screen; one whose request is on its way is kept for the answer.
    fn close(&mut self, form: Box<Form>) {
        if form.awaiting().is_some() {
            self.closed.push(*form);
        }
    }

    /// An action while a form is on top. The form is off the stack meanwhile, then put
    /// back (or closed, if it says so) before what it asked of the rest is carried out.
    pub(in crate::app) fn action(&mut self, cx: &mut Cx<'_>, action: Action) {
        if !cx.shell.popups.last().is_some_and(Popup::is_form) {
            return;
        }
        let Some(Popup::Form(mut form)) = cx.shell.popups.pop() else {
            return;
        };
        let mut form_cx = FormCx::of(cx);
        let flow = form.action(&mut form_cx, action);
        let intents = form_cx.into_intents();
        match flow {
            Flow::Stay => cx.shell.popups.push(Popup::Form(form)),
            Flow::Close => self.close(form),
        }
        for intent in intents {
            carry_out(cx, intent);
        }
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
            Request::Order { .. } => acting(cx, |cx| {
                order::outcome::on_order_result(cx, &request, ticket, &result)
            }),
            Request::IpList { .. } => probes.on_probe_list(cx, &request, &result),
            _ => {}
        }
        if !request.is_write() {
            self.on_read(cx, &request, result);
            return;
        }
        match ticket.and_then(|t| self.take_awaiting(&mut cx.shell.popups, t)) {
            Some((place, form)) => answer_form(cx, place, form, &request, result),
            // No form sent it (or the app started again): the status line says it.
            None if !matches!(request, Request::Order { .. }) => {
                let answer = Answered {
                    request: &request,
                    result,
                    on_screen: false,
                };
                acting(cx, |cx| cx.update_answered(&answer));
            }
            None => {}
        }
    }

    /// The tickets of the forms, open or closed, waiting for the read `request`.
    fn readers(&self, popups: &[Popup], request: &Request) -> Vec<Ticket> {
        let open = popups.iter().filter_map(Popup::form);
        open.chain(&self.closed)
            .filter(|f| f.core().reading() == Some(request))
            .filter_map(Form::awaiting)
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
                answer_form(cx, place, form, request, result.clone());
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
    ) -> Option<(Option<usize>, Box<Form>)> {
        let awaits = |p: &Popup| p.form().and_then(Form::awaiting) == Some(ticket);
        if let Some(place) = popups.iter().position(awaits)
            && let Popup::Form(form) = popups.remove(place)
        {
            return Some((Some(place), form));
        }
        let i = self
            .closed
            .iter()
            .position(|f| f.awaiting() == Some(ticket))?;
        Some((None, Box::new(self.closed.swap_remove(i))))
    }
}

/// Gives a form its answer: one on screen goes back to its `place` in the stack, or, when
/// the answer closes it, what it opened meanwhile (a viewer, by its intents) takes that
/// place.
fn answer_form(
    cx: &mut Cx<'_>,
    place: Option<usize>,
    mut form: Box<Form>,
    request: &Request,
    result: Result<Response, ApiError>,
) {
    let answer = |on_screen| Answered {
        request,
        result,
        on_screen,
    };
    let Some(place) = place else {
        acting(cx, |cx| form.answered(cx, answer(false)));
        return;
    };
    let above = cx.shell.popups.len();
    match acting(cx, |cx| form.answered(cx, answer(true))) {
        Flow::Stay => {
            let place = place.min(cx.shell.popups.len());
            cx.shell.popups.insert(place, Popup::Form(form));
        }
        Flow::Close => {
            let popups = &mut cx.shell.popups;
            let opened: Vec<Popup> = popups.drain(above.min(popups.len())..).collect();
            let place = place.min(popups.len());
            popups.splice(place..place, opened);
        }
    }
}

/// The answer to `Command::LookupMyIp`: to every form that asked for it, then kept.
pub(in crate::app) fn on_my_ip(cx: &mut Cx<'_>, result: Result<Ipv4Addr, String>) {
    let mut asked = false;
    for form in cx.shell.popups.iter_mut().filter_map(Popup::form_mut) {
        asked |= form.my_ip(&result);
    }
    cx.account.my_ip = match result {
        Ok(ip) => MyIp::Known(ip),
        Err(e) => {
            // Said only when the user asked; the automatic lookup fails quietly, and a
            // form on top that shows it says it there.
            let shown = cx.shell.top_form().is_some_and(Form::shows_my_ip);
            if asked && !shown {
                cx.shell.status.notify(NoticeKind::Error, &e);
            }
            MyIp::Failed(e)
        }
    };
}

/// The answer to `Command::WriteFile`: to the form writing a file (the topmost), else the
/// status line says it.
pub(in crate::app) fn on_file(cx: &mut Cx<'_>, answer: FileAnswer) {
    let popups = &cx.shell.popups;
    let writer = (0..popups.len()).rev().find(|&i| {
        let form = popups[i].form();
        form.is_some_and(|f| f.is_writing())
    });
    if let Some(place) = writer
        && let Popup::Form(mut form) = cx.shell.popups.remove(place)
    {
        acting(cx, |cx| form.file_answer(cx, &answer));
        let place = place.min(cx.shell.popups.len());
        cx.shell.popups.insert(place, Popup::Form(form));
        return;
    }
    let status = &mut cx.shell.status;
    match answer {
        FileAnswer::Exists { path, .. } => status.notify(
            NoticeKind::Error,
            format!("{} exists: not written", path.display()),
        ),
        FileAnswer::Written {
            result: Ok(full), ..
        } => status.notify(NoticeKind::Done, format!("Written to {}", full.display())),
        FileAnswer::Written {
            path,
            result: Err(e),
        } => status.notify(
            NoticeKind::Error,
            format!("{} not written: {e}", path.display()),
        ),
    }
}
