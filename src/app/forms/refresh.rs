//! The IP-list refresh (`u` on a service): asks for confirmation, then one PUT with
//! `update_list`.
//!
//! The server throttles this (spec section 8). A 429 names the next possible time; it
//! becomes a countdown for that service (see [`crate::app::countdown`]) shown in the
//! service's row, its detail and this form. While it runs, `u` on that service says so in
//! the status line and sends nothing.

use super::{Flow, FormCore, FormLogic, FormRow, FormState, FormView};
use crate::api::{ApiError, Request, Response, ServiceUpdate};
use crate::app::columns::Tone;
use crate::app::keymap::steps::{CANCEL, FormStep, step_key};
use crate::app::keymap::{Action, code};
use crate::app::popups::Popup;
use crate::app::status::NoticeKind;
use crate::app::{App, Command, Cx};
use crate::iplist_throttle;
use crossterm::event::KeyCode;

/// The one step: the confirmation.
#[rustfmt::skip]
pub static STEP: FormStep = FormStep {
    title: "IP-list refresh",
    bindings: &[
        step_key(&[code(KeyCode::Enter)], Action::Submit, Some("refresh"), "Refresh the IP list now"),
        CANCEL,
    ],
};

#[derive(Clone, Debug, PartialEq)]
pub struct RefreshForm {
    pub service_id: u64,
    pub core: FormCore,
}

impl RefreshForm {
    pub fn new(service_id: u64) -> Self {
        Self {
            service_id,
            core: FormCore::new(FormState::Confirming),
        }
    }

    /// The PUT the confirmation sends.
    pub fn request(&self) -> Request {
        Request::UpdateService {
            service_id: self.service_id,
            update: Box::new(ServiceUpdate {
                update_list: true,
                ..ServiceUpdate::default()
            }),
        }
    }
}

impl FormLogic for RefreshForm {
    fn core(&self) -> &FormCore {
        &self.core
    }
    fn core_mut(&mut self) -> &mut FormCore {
        &mut self.core
    }

    fn step(&self) -> &'static FormStep {
        &STEP
    }

    /// A refused refresh is not corrected and resent: its outcome is shown, Enter closes.
    fn finished(&self) -> bool {
        matches!(self.core.state, FormState::Done(_) | FormState::Failed(_))
    }

    /// Enter on the confirmation: the PUT; `None` otherwise.
    fn submit(&mut self, _cx: &Cx<'_>) -> Option<Request> {
        (self.core.state == FormState::Confirming).then(|| self.request())
    }

    /// The question, the countdown while the server throttles the service, then the
    /// outcome.
    fn view<'a>(&'a self, app: &'a App) -> Option<FormView<'a>> {
        let id = self.service_id;
        let product = app
            .services()
            .get(id)
            .map(|s| format!(" ({})", crate::text::or_missing(&s.product_name)))
            .unwrap_or_default();
        let mut lines = vec![
            (
                format!("Refresh the IP list of service {id}{product}?"),
                Tone::Base,
            ),
            ("The server allows this only so often.".into(), Tone::Dim),
        ];
        if let Some(countdown) = app.countdown(id) {
            lines.push((String::new(), Tone::Base));
            lines.push((countdown, Tone::Warn));
            if matches!(self.core.state, FormState::Failed(_)) {
                // The server's message below names its own clock, without a zone.
                let zone = app.settings().iplist.server_zone;
                let line = format!("Times in the server's message are server time ({zone}).");
                lines.push((line, Tone::Dim));
            }
        }
        let foot = match &self.core.state {
            FormState::Confirming => FormRow::text("Enter refreshes, Esc cancels.", Tone::Dim),
            state => FormRow::State {
                state,
                sending: "Refreshing…".into(),
                done: state.answer().map_or_else(String::new, |r| {
                    super::update_message(r, "IP list updated successfully")
                }),
            },
        };
        let title = format!("Refresh IP list · service {id}");
        Some(
            FormView::new(title, (64, 10))
                .row(FormRow::Text(lines))
                .at(5)
                .row(foot),
        )
    }

    fn answered(
        &mut self,
        cx: &mut Cx<'_>,
        request: &Request,
        result: Result<Response, ApiError>,
        on_screen: bool,
    ) -> Flow {
        if let Err(ApiError::Throttled {
            next_possible: Some(at),
            ..
        }) = &result
        {
            start_countdown(cx, self.service_id, *at);
        }
        cx.update_answered(request, &result, on_screen);
        self.core.finish(result);
        Flow::Stay
    }
}

/// `u`: the confirmation, unless the service is still throttled.
pub(in crate::app) fn open(cx: &mut Cx<'_>) {
    if cx.refuse_read_only("refreshing an IP list") {
        return;
    }
    let Some(id) = cx.writable_service("refreshing its IP list") else {
        return;
    };
    let now = cx.now();
    if let Some(until) = cx.account.throttles.until(id, now) {
        let line = cx
            .account
            .countdown(id, now, cx.shell.utc_offset)
            .unwrap_or_else(|| iplist_throttle::describe(until, now, &cx.shell.utc_offset));
        cx.shell
            .status
            .notify(NoticeKind::Info, format!("Service {id}: {line}"));
        return;
    }
    cx.shell.popups.push(Popup::form_of(RefreshForm::new(id)));
}

/// `x`: forget the selected service's countdown (the server still decides).
pub(in crate::app) fn clear_countdown(cx: &mut Cx<'_>) {
    let Some(id) = cx.target_service() else {
        return;
    };
    let line = if cx.account.throttles.clear(id) {
        cx.out
            .push(Command::SaveThrottles(cx.account.throttles.clone()));
        format!("Service {id}: countdown cleared; the server decides at the next refresh")
    } else {
        format!("Service {id}: no countdown to clear")
    };
    cx.shell.status.notify(NoticeKind::Info, line);
}

/// A 429 named the next possible refresh of `service_id`: its countdown starts (or
/// the state file is told again).
fn start_countdown(cx: &mut Cx<'_>, service_id: u64, at: chrono::NaiveDateTime) {
    let named = cx.shell.settings.iplist.server_zone.to_utc(at);
    let now = cx.now();
    if cx.account.throttles.set_from_server(service_id, named, now) {
        cx.shell.status.notify(
            NoticeKind::Info,
            format!(
                "Service {service_id}: the server names {} for the next refresh; \
                 proxydash waits {} days at most (x clears the countdown)",
                at.format("%Y-%m-%d %H:%M:%S"),
                iplist_throttle::BELIEVED_AT_MOST.num_days()
            ),
        );
    }
    cx.out
        .push(Command::SaveThrottles(cx.account.throttles.clone()));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::popups::PopupKind;

    #[test]
    fn confirm_send_once_and_finish() {
        let mut f = RefreshForm::new(1001);
        assert_eq!(f.kind(), PopupKind::Step(&STEP));
        assert_eq!(f.awaiting(), None);
        let sent = f.request();
        assert!(matches!(&sent, Request::UpdateService { update, .. } if update.update_list));
        f.core.state = FormState::Submitting;
        f.core.sent = Some(crate::app::forms::Sent::write(crate::api::Ticket(7)));
        assert_eq!(f.kind(), PopupKind::FormBusy);
        assert_eq!(f.awaiting(), Some(crate::api::Ticket(7)));
        f.core.finish(Err(ApiError::Throttled {
            next_possible: None,
            message: "Too Many Attempts (updateList). Next update possible: soon".into(),
        }));
        assert_eq!(f.kind(), PopupKind::FormDone);
        assert!(
            f.core
                .state
                .message()
                .unwrap()
                .starts_with("Too Many Attempts")
        );
    }
}
