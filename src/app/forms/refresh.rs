//! The IP-list refresh (`u` on a service): asks for confirmation, then one PUT with
//! `update_list`.
//!
//! The server throttles this (spec section 8). A 429 names the next possible time; it
//! becomes a countdown for that service (see [`crate::app::countdown`]) shown in the
//! service's row, its detail and this form. While it runs, `u` on that service says so in
//! the status line and sends nothing.

use super::ServiceOn;
use super::{Answered, Flow, FormCore, FormCx, FormData, FormLogic, FormRow, FormState, FormView};
use crate::api::{ApiError, Request, ServiceUpdate};
use crate::app::columns::Tone;
use crate::app::keymap::steps::{CANCEL, FormStep, step_key};
use crate::app::keymap::{Action, code};
use crate::app::look::theme::Theme;
use crate::app::status::NoticeKind;
use crate::app::{Command, Cx};
use crate::iplist_throttle;
use crossterm::event::KeyCode;
use ratatui::Frame;
use ratatui::layout::Rect;

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

    /// The question, the countdown while the server throttles the service, then the
    /// outcome.
    fn view<'a>(&'a self, data: &FormData<'_>) -> FormView<'a> {
        let id = self.service_id;
        let product = data
            .listed(id)
            .map(|s| format!(" ({})", crate::text::or_missing(&s.product_name)))
            .unwrap_or_default();
        let mut lines = vec![
            (
                format!("Refresh the IP list of service {id}{product}?"),
                Tone::Base,
            ),
            ("The server allows this only so often.".into(), Tone::Dim),
        ];
        if let Some(countdown) = data.countdown(id) {
            lines.push((String::new(), Tone::Base));
            lines.push((countdown, Tone::Warn));
            if matches!(self.core.state, FormState::Failed(_)) {
                // The server's message below names its own clock, without a zone.
                let zone = data.settings.iplist.server_zone;
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
        FormView::new(title, (64, 10))
            .row(FormRow::Text(lines))
            .at(5)
            .row(foot)
    }
}

impl FormLogic for RefreshForm {
    fn step(&self) -> &'static FormStep {
        &STEP
    }

    /// A refused refresh is not corrected and resent: its outcome is shown, Enter closes.
    fn ends_at(&self, state: &FormState) -> bool {
        matches!(state, FormState::Done(_) | FormState::Failed(_))
    }

    /// Enter on the confirmation: the PUT; `None` otherwise.
    fn submit(&mut self, _cx: &FormCx<'_>) -> Option<Request> {
        (self.core.state == FormState::Confirming).then(|| self.request())
    }

    fn answered(&mut self, cx: &mut FormCx<'_>, answer: Answered<'_>) -> Flow {
        if let Err(ApiError::Throttled {
            next_possible: Some(at),
            ..
        }) = &answer.result
        {
            start_countdown(cx, self.service_id, *at);
        }
        cx.update_answered(&answer);
        self.core.finish(answer.result);
        Flow::Stay
    }

    fn render(&self, frame: &mut Frame, area: Rect, data: &FormData<'_>, theme: &Theme) {
        self.view(data).draw(frame, area, data, theme);
    }

    /// The countdown, while the server throttles the service.
    fn countdown_of(&self) -> Option<u64> {
        Some(self.service_id)
    }
}

/// `u`: the confirmation, unless the service is still throttled.
pub(in crate::app) fn open(cx: &mut FormCx<'_>, on: Option<&ServiceOn>) -> Option<RefreshForm> {
    if cx.refuse_read_only("refreshing an IP list") {
        return None;
    }
    let id = cx.writable(on, "refreshing its IP list")?;
    let now = cx.now();
    if let Some(until) = cx.throttles().until(id, now) {
        let line = cx
            .countdown(id)
            .unwrap_or_else(|| iplist_throttle::describe(until, now, &cx.offset()));
        cx.status()
            .notify(NoticeKind::Info, format!("Service {id}: {line}"));
        return None;
    }
    Some(RefreshForm::new(id))
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
fn start_countdown(cx: &mut FormCx<'_>, service_id: u64, at: chrono::NaiveDateTime) {
    let named = cx.settings().iplist.server_zone.to_utc(at);
    let now = cx.now();
    if cx.throttles_mut().set_from_server(service_id, named, now) {
        cx.status().notify(
            NoticeKind::Info,
            format!(
                "Service {service_id}: the server names {} for the next refresh; \
                 proxydash waits {} days at most (x clears the countdown)",
                at.format("%Y-%m-%d %H:%M:%S"),
                iplist_throttle::BELIEVED_AT_MOST.num_days()
            ),
        );
    }
    let saved = Command::SaveThrottles(cx.throttles().clone());
    cx.send(saved);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::forms::Form;
    use crate::app::popups::PopupKind;

    #[test]
    fn confirm_send_once_and_finish() {
        let mut form = Form::Refresh(RefreshForm::new(1001));
        assert_eq!(form.kind(), PopupKind::Step(&STEP));
        assert_eq!(form.awaiting(), None);
        let Form::Refresh(f) = &mut form else {
            unreachable!()
        };
        let sent = f.request();
        assert!(matches!(&sent, Request::UpdateService { update, .. } if update.update_list));
        f.core.state = FormState::Submitting;
        f.core.sent = Some(crate::app::forms::Sent::write(crate::api::Ticket(7)));
        assert_eq!(form.kind(), PopupKind::FormBusy);
        assert_eq!(form.awaiting(), Some(crate::api::Ticket(7)));
        let Form::Refresh(f) = &mut form else {
            unreachable!()
        };
        f.core.finish(Err(ApiError::Throttled {
            next_possible: None,
            message: "Too Many Attempts (updateList). Next update possible: soon".into(),
        }));
        assert_eq!(form.kind(), PopupKind::FormDone);
        assert!(
            form.core()
                .state
                .message()
                .unwrap()
                .starts_with("Too Many Attempts")
        );
    }
}
