//! The IP-list refresh (`u` on a service): asks for confirmation, then one PUT with
//! `update_list`.
//!
//! The server throttles this (spec section 8). A 429 names the next possible time; it
//! becomes a countdown for that service (see [`crate::app::countdown`]) shown in the
//! service's row, its detail and this form. While it runs, `u` on that service says so in
//! the status line and sends nothing.

use super::{FormState, failure, update_message};
use crate::api::{ApiError, Request, Response, ServiceUpdate};
use crate::app::keymap::Action;
use crate::app::popup::{Popup, PopupKind};
use crate::app::status::NoticeKind;
use crate::app::{App, Command};
use crate::throttle;

#[derive(Clone, Debug, PartialEq)]
pub struct RefreshForm {
    pub service_id: u64,
    pub state: FormState,
}

impl RefreshForm {
    pub fn new(service_id: u64) -> Self {
        Self {
            service_id,
            state: FormState::Confirming,
        }
    }

    pub fn request(&self) -> Request {
        Request::UpdateService {
            service_id: self.service_id,
            update: Box::new(ServiceUpdate {
                update_list: true,
                ..ServiceUpdate::default()
            }),
        }
    }

    pub fn kind(&self) -> PopupKind {
        match self.state {
            FormState::Submitting => PopupKind::FormBusy,
            FormState::Done(_) | FormState::Failed(_) => PopupKind::FormDone,
            _ => PopupKind::Refresh,
        }
    }

    /// Enter on the confirmation: the PUT to send; `None` otherwise.
    pub fn submit(&mut self) -> Option<Request> {
        if self.state != FormState::Confirming {
            return None;
        }
        self.state = FormState::Submitting;
        Some(self.request())
    }

    pub fn awaiting(&self) -> Option<Request> {
        self.state.is_submitting().then(|| self.request())
    }

    pub fn finish(&mut self, result: Result<Response, ApiError>) {
        self.state = match result {
            Ok(r) => FormState::Done(update_message(&r, "IP list updated successfully")),
            Err(e) => FormState::Failed(failure(&e)),
        };
    }
}

impl App {
    /// `u`: the confirmation, unless the service is still throttled.
    pub(in crate::app) fn open_refresh(&mut self) {
        if self.refuse_read_only("refreshing an IP list") {
            return;
        }
        let Some(id) = self.writable_service("refreshing its IP list") else {
            return;
        };
        let now = self.now();
        if let Some(until) = self.throttles.until(id, now) {
            let line = self
                .countdown(id)
                .unwrap_or_else(|| throttle::describe(until, now, &self.utc_offset));
            self.status
                .notify(NoticeKind::Info, format!("Service {id}: {line}"));
            return;
        }
        self.popups.push(Popup::Refresh(RefreshForm::new(id)));
    }

    /// `x`: forget the selected service's countdown (the server still decides).
    pub(in crate::app) fn clear_countdown(&mut self, out: &mut Vec<Command>) {
        let Some(id) = self.target_service() else {
            return;
        };
        let line = if self.throttles.clear(id) {
            out.push(Command::SaveThrottles(self.throttles.clone()));
            format!("Service {id}: countdown cleared; the server decides at the next refresh")
        } else {
            format!("Service {id}: no countdown to clear")
        };
        self.status.notify(NoticeKind::Info, line);
    }

    pub(in crate::app) fn refresh_action(&mut self, action: Action, out: &mut Vec<Command>) {
        let Some(Popup::Refresh(form)) = self.popups.last_mut() else {
            return;
        };
        match (action, &form.state) {
            (Action::Submit, FormState::Done(_) | FormState::Failed(_)) => {
                self.popups.pop();
            }
            (Action::Submit, _) => {
                if let Some(request) = form.submit() {
                    self.send_write(request, out);
                }
            }
            _ => {}
        }
    }

    pub(in crate::app) fn on_refresh_result(
        &mut self,
        request: Request,
        result: Result<Response, ApiError>,
        out: &mut Vec<Command>,
    ) {
        let Request::UpdateService { service_id, .. } = request else {
            return;
        };
        if let Err(ApiError::Throttled {
            next_possible: Some(at),
            ..
        }) = &result
        {
            let named = self.settings.server_zone.to_utc(*at);
            let now = self.now();
            if self.throttles.set_from_server(service_id, named, now) {
                self.status.notify(
                    NoticeKind::Info,
                    format!(
                        "Service {service_id}: the server names {} for the next refresh; \
                         proxydash waits {} days at most (x clears the countdown)",
                        at.format("%Y-%m-%d %H:%M:%S"),
                        throttle::BELIEVED_AT_MOST.num_days()
                    ),
                );
            }
            out.push(Command::SaveThrottles(self.throttles.clone()));
        }
        self.update_answered(&request, result, |popup, result| match popup {
            Popup::Refresh(form) => {
                form.finish(result);
                true
            }
            _ => false,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn confirm_send_once_and_finish() {
        let mut f = RefreshForm::new(1001);
        assert_eq!(f.kind(), PopupKind::Refresh);
        assert_eq!(f.awaiting(), None);
        let sent = f.submit().expect("Enter sends");
        assert!(matches!(&sent, Request::UpdateService { update, .. } if update.update_list));
        assert_eq!(f.submit(), None);
        assert_eq!(f.awaiting(), Some(sent));
        f.finish(Err(ApiError::Throttled {
            next_possible: None,
            message: "Too Many Attempts (updateList). Next update possible: soon".into(),
        }));
        assert_eq!(f.kind(), PopupKind::FormDone);
        assert!(f.state.message().unwrap().starts_with("Too Many Attempts"));
    }
}
