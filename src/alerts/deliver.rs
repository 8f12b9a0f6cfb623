//! Delivery to people beyond the screen: the terminal bell and the `on_alert` command
//! (through its [`super::runner`]); what the command reads is [`super::payload`]'s.

use super::herald::Notice;
use super::rules::Delivery;
use super::runner::{OnAlert, Report};
use super::{AlertSink, Change};
use std::sync::Arc;

pub use super::payload::{notice_env, notice_payload, payload};

/// Delivery to people: the bell and the `on_alert` command, failed runs' reasons handed
/// to `report` (the status line, `watch`'s log).
pub struct Deliverer {
    bell: bool,
    on_alert: Option<OnAlert>,
}

impl Deliverer {
    /// Starts the command's runner on the current runtime, when there is a command.
    pub fn new(delivery: &Delivery, profile: &str, report: Report) -> Self {
        Self {
            bell: delivery.bell,
            on_alert: delivery
                .on_alert
                .clone()
                .map(|c| OnAlert::start(c, delivery.timeout, profile.to_owned(), report)),
        }
    }

    /// The command's runner, to stop it ([`OnAlert::finish`]).
    pub fn on_alert(&self) -> Option<&OnAlert> {
        self.on_alert.as_ref()
    }
}

impl AlertSink for Deliverer {
    fn announce(&mut self, n: &Notice) {
        // The bell calls for attention; a recovery or a notice does not need it.
        let calls = n
            .transitions()
            .iter()
            .any(|t| !matches!(t.change, Change::Resolved | Change::Notice))
            || matches!(n, Notice::Digest(d) if !d.open.is_empty());
        if self.bell && calls {
            use std::io::Write;
            let mut out = std::io::stdout();
            let _ = out.write_all(b"\x07").and_then(|()| out.flush());
        }
        if let Some(on_alert) = &self.on_alert {
            on_alert.submit(n.clone());
        }
    }
}

/// A report that goes nowhere (a sink whose failures nobody reads).
pub fn ignore() -> Report {
    Arc::new(|_| {})
}
