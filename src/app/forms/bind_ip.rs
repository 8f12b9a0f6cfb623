//! The bind-IP form (`b` on an fpr service): one field, prefilled with the current
//! `bindedip`, checked as a strict IPv4 before anything is sent (an invalid address gets
//! an inline error and no request), then one PUT with `setip`.
//!
//! **Use my IP is `Ctrl-L`** ("look up"): it cannot collide with typing an address, and
//! the footer and help show it. It fills in this machine's public IP, looked up through
//! [`Command::LookupMyIp`] once and then cached in the app ([`MyIp`]); the Services detail
//! uses the same cache to say whether the bound IP is this machine's. The lookup is made
//! on first need: when the Services tab shows an fpr service with a bound IP, or on Ctrl-L.
//!
//! On a ppr service `b` opens nothing and the status line says why; while the service's
//! type is unknown (its detail is loading) it says to try again.

use super::{FormState, TextField, failure, update_message};
use crate::api::ipv4::parse_ipv4;
use crate::api::{ApiError, ProductType, Request, Response, ServiceUpdate};
use crate::app::keymap::Action;
use crate::app::popup::{Popup, PopupKind};
use crate::app::status::NoticeKind;
use crate::app::{App, Command};
use std::net::Ipv4Addr;

/// This machine's public IPv4, as far as the app knows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum MyIp {
    #[default]
    Unknown,
    LookingUp,
    Known(Ipv4Addr),
    Failed(String),
}

impl MyIp {
    pub fn known(&self) -> Option<Ipv4Addr> {
        match self {
            MyIp::Known(ip) => Some(*ip),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct BindIpForm {
    pub service_id: u64,
    pub ip: TextField,
    /// The inline error beside the field.
    pub error: Option<String>,
    pub state: FormState,
    pub request: Option<Request>,
    /// Ctrl-L was pressed and the lookup has not answered yet.
    pub looking_up: bool,
}

impl BindIpForm {
    pub fn new(service_id: u64, bound_ip: Option<&str>) -> Self {
        Self {
            service_id,
            ip: TextField::new(bound_ip.unwrap_or_default().trim())
                .with_max(super::field::IPV4_MAX),
            error: None,
            state: FormState::Editing,
            request: None,
            looking_up: false,
        }
    }

    pub fn kind(&self) -> PopupKind {
        match self.state {
            FormState::Submitting => PopupKind::FormBusy,
            FormState::Done(_) => PopupKind::FormDone,
            _ => PopupKind::BindIp,
        }
    }

    pub fn focused_mut(&mut self) -> Option<&mut TextField> {
        self.state.is_editable().then_some(&mut self.ip)
    }

    /// Enter: the PUT to send, or an inline error and nothing.
    pub fn submit(&mut self) -> Option<Request> {
        if !self.state.is_editable() {
            return None;
        }
        match parse_ipv4(self.ip.value().trim()) {
            Err(e) => {
                self.error = Some(e.to_string());
                None
            }
            Ok(ip) => {
                self.error = None;
                let request = Request::UpdateService {
                    service_id: self.service_id,
                    update: Box::new(ServiceUpdate {
                        setip: Some(ip.to_string()),
                        ..ServiceUpdate::default()
                    }),
                };
                self.request = Some(request.clone());
                self.state = FormState::Submitting;
                Some(request)
            }
        }
    }

    pub fn awaiting(&self) -> Option<&Request> {
        self.request.as_ref().filter(|_| self.state.is_submitting())
    }

    pub fn finish(&mut self, result: Result<Response, ApiError>) {
        self.state = match result {
            Ok(r) => FormState::Done(update_message(&r, "IP address updated successfully")),
            Err(e) => FormState::Failed(failure(&e)),
        };
    }

    /// The lookup answered.
    pub fn my_ip(&mut self, result: &Result<Ipv4Addr, String>) {
        if !self.looking_up {
            return;
        }
        self.looking_up = false;
        match result {
            Ok(ip) if self.state.is_editable() => {
                self.ip.set(ip.to_string());
                self.error = None;
            }
            Ok(_) => {}
            Err(e) => self.error = Some(e.clone()),
        }
    }
}

impl App {
    /// `b`: the bind form for the selected service, if it is fpr.
    pub(in crate::app) fn open_bind_ip(&mut self, out: &mut Vec<Command>) {
        if self.refuse_read_only("binding an IP") {
            return;
        }
        let Some(id) = self.writable_service("binding an IP") else {
            return;
        };
        let detail = self.services.detail(id).value();
        match (self.service_type(id), detail) {
            (Some(ProductType::Fpr), Some(detail)) => {
                let bound = detail.bound_ip.clone();
                self.popups
                    .push(Popup::BindIp(BindIpForm::new(id, bound.as_deref())));
            }
            (Some(other), _) if other != ProductType::Fpr => {
                let kind = crate::text::product_type_label(&other);
                self.status.notify(
                    NoticeKind::Info,
                    format!(
                        "Service {id} is {kind}: only static (fpr) services have an IP to bind"
                    ),
                );
            }
            // The form shows the bound IP, which only the detail has.
            _ => {
                self.fetch(Request::Service(id), out);
                self.status.notify(
                    NoticeKind::Info,
                    format!("Service {id}: its type is not known yet (loading); press b again in a moment"),
                );
            }
        }
    }

    pub(in crate::app) fn bind_ip_action(&mut self, action: Action, out: &mut Vec<Command>) {
        let Some(Popup::BindIp(form)) = self.popups.last_mut() else {
            return;
        };
        match action {
            Action::Submit if matches!(form.state, FormState::Done(_)) => {
                self.popups.pop();
            }
            Action::Submit => {
                if let Some(request) = form.submit() {
                    self.send_write(request, out);
                }
            }
            Action::UseMyIp if form.state.is_editable() => match self.my_ip.known() {
                Some(ip) => {
                    form.ip.set(ip.to_string());
                    form.error = None;
                }
                None => {
                    form.looking_up = true;
                    form.error = None;
                    // The lookup made on first need may still be on its way: its answer
                    // serves this too.
                    if self.my_ip != MyIp::LookingUp {
                        self.my_ip = MyIp::LookingUp;
                        out.push(Command::LookupMyIp);
                    }
                }
            },
            _ => {}
        }
    }

    pub(in crate::app) fn on_bind_ip_result(
        &mut self,
        request: Request,
        result: Result<Response, ApiError>,
        out: &mut Vec<Command>,
    ) {
        let Request::UpdateService { service_id, .. } = request else {
            return;
        };
        self.update_answered(&request, result, |popup, result| match popup {
            Popup::BindIp(form) => {
                form.finish(result);
                true
            }
            _ => false,
        });
        // Success, failure or unknown: the detail says what is bound now.
        self.fetch(Request::Service(service_id), out);
    }

    /// The answer to [`Command::LookupMyIp`].
    pub(in crate::app) fn on_my_ip(&mut self, result: Result<Ipv4Addr, String>) {
        let asked = self
            .popups
            .iter()
            .any(|p| matches!(p, Popup::BindIp(f) if f.looking_up));
        for popup in &mut self.popups {
            if let Popup::BindIp(form) = popup {
                form.my_ip(&result);
            }
        }
        self.my_ip = match result {
            Ok(ip) => MyIp::Known(ip),
            Err(e) => {
                // Said only when the user asked; the automatic lookup fails quietly.
                if asked && !matches!(self.popups.last(), Some(Popup::BindIp(_))) {
                    self.status.notify(NoticeKind::Error, &e);
                }
                MyIp::Failed(e)
            }
        };
    }

    /// Looks up this machine's IP the first time something on screen would use it: the
    /// Services tab showing an fpr service with a bound IP.
    pub(in crate::app) fn want_my_ip(&mut self, out: &mut Vec<Command>) {
        if self.my_ip != MyIp::Unknown || self.tab != crate::app::tabs::Tab::Services {
            return;
        }
        let shows_bound_ip = self.target_service().is_some_and(|id| {
            self.services.detail(id).value().is_some_and(|s| {
                s.product_type == ProductType::Fpr
                    && s.bound_ip
                        .as_deref()
                        .is_some_and(|ip| !ip.trim().is_empty())
            })
        });
        if shows_bound_ip {
            self.my_ip = MyIp::LookingUp;
            out.push(Command::LookupMyIp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invalid_address_is_refused_before_sending() {
        let mut f = BindIpForm::new(1001, Some("192.0.2.50"));
        assert_eq!(f.ip.value(), "192.0.2.50");
        f.ip.set("192.0.2.500");
        assert_eq!(f.submit(), None);
        assert_eq!(f.error.as_deref(), Some("500 is over 255"));
        assert_eq!(f.state, FormState::Editing);
        f.ip.set("198.51.100.7");
        let sent = f.submit().expect("a valid address is sent");
        assert!(matches!(
            &sent,
            Request::UpdateService { service_id: 1001, update }
                if update.setip.as_deref() == Some("198.51.100.7")
                    && !update.update_list && update.password.is_none()
        ));
        assert_eq!(f.submit(), None, "nothing twice");
    }

    #[test]
    fn the_lookup_fills_the_field_only_when_asked() {
        let mut f = BindIpForm::new(1001, None);
        f.my_ip(&Ok(Ipv4Addr::new(198, 51, 100, 23)));
        assert_eq!(f.ip.value(), "");
        f.looking_up = true;
        f.my_ip(&Ok(Ipv4Addr::new(198, 51, 100, 23)));
        assert_eq!(f.ip.value(), "198.51.100.23");
        f.looking_up = true;
        f.my_ip(&Err("Cannot look up this machine's IP".into()));
        assert_eq!(f.error.as_deref(), Some("Cannot look up this machine's IP"));
    }
}
