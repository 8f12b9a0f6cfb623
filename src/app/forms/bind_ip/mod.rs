//! The bind-IP form (`b` on an fpr service): one field, prefilled with the current
//! `bindedip`, checked as a strict IPv4 before anything is sent (an invalid address gets
//! an inline error and no request), then one PUT with `setip`. An address no proxy user
//! can come from (unspecified, loopback, private, shared, link-local, multicast, reserved:
//! [`crate::net::addr::unbindable`], the rule `proxydash bind` and `watch --keep-bound`
//! follow too) is refused with the reason, and the address already bound is "already
//! bound", both without sending.
//!
//! **Use my IP is `Ctrl-L`** ("look up"): it cannot collide with typing an address, and
//! the footer and help show it. It fills in this machine's public IP, looked up through
//! [`Command::LookupMyIp`](crate::app::Command::LookupMyIp) once and then cached in the app ([`MyIp`]); the Services detail
//! uses the same cache to say whether the bound IP is this machine's. The lookup is made
//! on first need: when the Services tab shows an fpr service with a bound IP, or on Ctrl-L.
//!
//! On a ppr service `b` opens nothing and the status line says why. While the service's
//! type is unknown (its detail is loading, asked for at once) the form opens all the
//! same and waits for it: "Bound now" says it is checking, and Enter before the detail is
//! in says so inline; a detail that shows a rotating service turns Enter into that
//! refusal, nothing sent.

mod look;

pub use super::cx::MyIp;
use super::{
    Answered, Flow, FormCore, FormCx, FormData, FormLogic, FormState, ServiceOn, TextField,
};
use crate::api::ipv4::parse_ipv4;
use crate::api::{ProductType, Request, ServiceUpdate};
use crate::app::keymap::steps::{CANCEL, FormStep, step_key};
use crate::app::keymap::{Action, FormKey, code, ctrl};
use crate::app::look::theme::Theme;
use crate::net::addr::{bind_refusal, unbindable};
use crossterm::event::KeyCode;
use ratatui::Frame;
use ratatui::layout::Rect;
use std::net::Ipv4Addr;

/// `Ctrl-L`: fill in this machine's public IP.
pub const USE_MY_IP: Action = Action::FormKey(FormKey::UseMyIp);

/// The one step: the address, and where it comes from.
#[rustfmt::skip]
pub static STEP: FormStep = FormStep {
    title: "bind IP",
    bindings: &[
        step_key(&[code(KeyCode::Enter)], Action::Submit, Some("bind"), "Bind the address to the service"),
        step_key(&[ctrl('l')], USE_MY_IP, Some("use my IP"), "Fill in this machine's public IP"),
        CANCEL,
    ],
};

#[derive(Clone, Debug, PartialEq)]
pub struct BindIpForm {
    pub service_id: u64,
    pub ip: TextField,
    /// The step, the request on its way, the inline error beside the field.
    pub core: FormCore,
    /// Ctrl-L was pressed and the lookup has not answered yet.
    pub looking_up: bool,
}

impl BindIpForm {
    pub fn new(service_id: u64, bound_ip: Option<&str>) -> Self {
        Self {
            service_id,
            ip: TextField::prefilled(bound_ip.unwrap_or_default().trim())
                .with_max(super::field::IPV4_MAX),
            core: FormCore::new(FormState::Editing),
            looking_up: false,
        }
    }

    /// Enter: the PUT to send, or an inline error and nothing. `bound` is the address
    /// the service has now (its detail): binding it again would change nothing.
    pub fn request(&mut self, bound: Option<&str>) -> Option<Request> {
        if !self.core.state.is_editable() {
            return None;
        }
        match parse_ipv4(self.ip.value().trim()) {
            Err(e) => {
                self.core.error = Some(e.to_string());
                None
            }
            // The address it has first: the truest word for the prefilled value, whatever
            // range the server's data holds.
            Ok(ip) if bound.and_then(|b| parse_ipv4(b.trim()).ok()) == Some(ip) => {
                self.core.error = Some(format!(
                    "{ip} is already bound to service {}; nothing was sent",
                    self.service_id
                ));
                None
            }
            Ok(ip) if unbindable(ip).is_some() => {
                self.core.error = bind_refusal(ip);
                None
            }
            Ok(ip) => {
                self.core.error = None;
                Some(Request::UpdateService {
                    service_id: self.service_id,
                    update: Box::new(ServiceUpdate {
                        setip: Some(ip.to_string()),
                        ..ServiceUpdate::default()
                    }),
                })
            }
        }
    }

    /// The lookup answered: whether this form had asked for it.
    pub fn my_ip(&mut self, result: &Result<Ipv4Addr, String>) -> bool {
        if !self.looking_up {
            return false;
        }
        self.looking_up = false;
        match result {
            Ok(ip) if self.core.state.is_editable() => {
                self.ip.set(ip.to_string());
                self.core.error = None;
            }
            Ok(_) => {}
            Err(e) => self.core.error = Some(e.clone()),
        }
        true
    }

    /// Ctrl-L: this machine's IP, from the cache or looked up.
    fn use_my_ip(&mut self, cx: &mut FormCx<'_>) {
        match cx.my_ip().known() {
            Some(ip) => {
                self.ip.set(ip.to_string());
                self.core.error = None;
            }
            None => {
                self.looking_up = true;
                self.core.error = None;
                // The lookup made on first need may still be on its way: its answer
                // serves this too.
                cx.look_up_my_ip();
            }
        }
    }
}

impl FormLogic for BindIpForm {
    fn step(&self) -> &'static FormStep {
        &STEP
    }

    fn typing_field(&mut self) -> Option<&mut TextField> {
        self.core.state.is_editable().then_some(&mut self.ip)
    }

    fn is_typing(&self) -> bool {
        self.core.state.is_editable()
    }

    fn submit(&mut self, cx: &FormCx<'_>) -> Option<Request> {
        let id = self.service_id;
        let Some(detail) = cx.store().service(id) else {
            self.core.error = Some(format!(
                "service {id}'s detail (its type and bound IP) is still loading; nothing was sent"
            ));
            return None;
        };
        if detail.product_type != ProductType::Fpr {
            self.core.error = Some(format!(
                "service {id} is {}: only static (fpr) services have an IP to bind; nothing was sent",
                detail.product_type.label()
            ));
            return None;
        }
        self.request(detail.bound_ip.as_deref())
    }

    fn other(&mut self, cx: &mut FormCx<'_>, action: Action) {
        if action == USE_MY_IP && self.core.state.is_editable() {
            self.use_my_ip(cx);
        }
    }

    fn answered(&mut self, cx: &mut FormCx<'_>, answer: Answered<'_>) -> Flow {
        cx.update_answered(&answer);
        self.core.finish(answer.result);
        // Success, failure or unknown: the detail says what is bound now.
        cx.fetch(Request::Service(self.service_id));
        Flow::Stay
    }

    /// What is bound now (and whether it is this machine), the field, its inline error
    /// or how to fill it in, and the outcome.
    fn render(&self, frame: &mut Frame, area: Rect, data: &FormData<'_>, theme: &Theme) {
        look::render(self, frame, area, data, theme);
    }

    fn my_ip(&mut self, result: &Result<Ipv4Addr, String>) -> bool {
        BindIpForm::my_ip(self, result)
    }

    /// A failed lookup Ctrl-L asked for is the inline error under the field.
    fn shows_my_ip(&self) -> bool {
        true
    }
}

/// `b`: the bind form for the service the key is on, if it is fpr.
pub(in crate::app) fn open(cx: &mut FormCx<'_>, on: Option<&ServiceOn>) -> Option<BindIpForm> {
    if cx.refuse_read_only("binding an IP") {
        return None;
    }
    let id = cx.writable(on, "binding an IP")?;
    let kind = on.and_then(|on| on.kind.clone());
    match (kind, cx.store().service(id)) {
        (Some(ProductType::Fpr), Some(detail)) => {
            Some(BindIpForm::new(id, detail.bound_ip.clone().as_deref()))
        }
        (Some(other), _) if other != ProductType::Fpr => {
            let kind = other.label();
            cx.status().notify(
                crate::app::status::NoticeKind::Info,
                format!("Service {id} is {kind}: only static (fpr) services have an IP to bind"),
            );
            None
        }
        // The form shows the bound IP, which only the detail has: it opens and waits for
        // it (asked now, ahead of everything else).
        _ => {
            cx.fetch(Request::Service(id));
            Some(BindIpForm::new(id, None))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unusable_and_already_bound_addresses_are_not_sent() {
        let mut f = BindIpForm::new(1001, Some("45.83.223.50"));
        f.ip.set("192.168.0.10");
        assert_eq!(f.request(Some("45.83.223.50")), None);
        let error = f.core.error.clone().unwrap_or_default();
        assert!(
            error.contains("private") && error.contains("nothing was sent"),
            "{error}"
        );
        f.ip.set("45.83.223.50");
        assert_eq!(f.request(Some("45.83.223.50")), None);
        let error = f.core.error.clone().unwrap_or_default();
        assert!(error.contains("already bound"), "{error}");
        f.ip.set("45.83.223.51");
        assert!(f.request(Some("45.83.223.50")).is_some());
        // Issue 46.7: a documentation address (RFC 5737) was sent; no proxy user comes
        // from one.
        for ip in ["192.0.2.1", "198.51.100.7", "203.0.113.5"] {
            f.ip.set(ip);
            assert_eq!(f.request(None), None, "{ip}");
            let error = f.core.error.clone().unwrap_or_default();
            assert!(error.contains("documentation"), "{error}");
        }
    }

    #[test]
    fn an_invalid_address_is_refused_before_sending() {
        let mut f = BindIpForm::new(1001, Some("45.83.223.50"));
        assert_eq!(f.ip.value(), "45.83.223.50");
        f.ip.set("45.83.223.500");
        assert_eq!(f.request(None), None);
        assert_eq!(f.core.error.as_deref(), Some("500 is over 255"));
        assert_eq!(f.core.state, FormState::Editing);
        f.ip.set("45.83.222.7");
        let sent = f.request(None).expect("a valid address is sent");
        assert!(matches!(
            &sent,
            Request::UpdateService { service_id: 1001, update }
                if update.setip.as_deref() == Some("45.83.222.7")
                    && !update.update_list && update.password.is_none()
        ));
        f.core.state = FormState::Submitting;
        assert_eq!(f.request(None), None, "nothing twice");
    }

    #[test]
    fn the_lookup_fills_the_field_only_when_asked() {
        let mut f = BindIpForm::new(1001, None);
        f.my_ip(&Ok(Ipv4Addr::new(45, 83, 222, 23)));
        assert_eq!(f.ip.value(), "");
        f.looking_up = true;
        f.my_ip(&Ok(Ipv4Addr::new(45, 83, 222, 23)));
        assert_eq!(f.ip.value(), "45.83.222.23");
        f.looking_up = true;
        f.my_ip(&Err("Cannot look up this machine's IP".into()));
        assert_eq!(
            f.core.error.as_deref(),
            Some("Cannot look up this machine's IP")
        );
    }
}
