//! [`Cx`]: what a part of the dashboard (a form, a popup, a tab's action) gets beside its
//! own state: the shell (time, settings, status line, popup stack), the data the engine's
//! answers filled (the tabs and the mirror), the record of writes ([`Work`]), and the
//! commands to run. A part sends intents through it (a read, a write, a popup to open)
//! and never sees the other parts' state (the probes, the palette's proxies).

use super::{Command, Mirror, Shell, Tabs, cmdlog, forms, orders};
use crate::api::Request;
use chrono::{DateTime, Utc};

/// What the forms' writes leave behind, whichever form is open.
#[derive(Debug, Default)]
pub struct Work {
    /// The orders on their way and those whose outcome is unknown (see [`orders`]).
    pub(in crate::app) orders: orders::Orders,
    /// The forms' request IDs, and the forms closed while waiting (see [`forms`]).
    pub(in crate::app) sent: forms::Sent,
    /// What was run or copied, as commands to run again (`L`).
    pub(in crate::app) cmdlog: cmdlog::CommandLog,
}

/// See the module docs.
pub struct Cx<'a> {
    pub(in crate::app) shell: &'a mut Shell,
    pub(in crate::app) tabs: &'a mut Tabs,
    pub(in crate::app) account: &'a mut Mirror,
    pub(in crate::app) work: &'a mut Work,
    pub(in crate::app) out: &'a mut Vec<Command>,
}

impl Cx<'_> {
    pub fn now(&self) -> DateTime<Utc> {
        self.shell.now()
    }

    /// Asks the engine for `request` (a one-off) unless it is already in flight, and marks
    /// what it loads as loading.
    pub(in crate::app) fn fetch(&mut self, request: Request) {
        let now = self.now();
        if let Some(sent) = self.account.in_flight.get(&request)
            && now
                .signed_duration_since(*sent)
                .to_std()
                .unwrap_or_default()
                < super::IN_FLIGHT_TIMEOUT
        {
            return;
        }
        self.account.in_flight.insert(request.clone(), now);
        self.tabs.begin(&request, self.account);
        self.out.push(Command::Fetch(request));
    }

    /// Sends a write: exactly once, whatever is in flight (a second identical order is a
    /// second order), counted as in flight so the header shows activity.
    pub(in crate::app) fn send_write(&mut self, request: Request) {
        self.account.in_flight.insert(request.clone(), self.now());
        self.out.push(Command::Fetch(request));
    }
}
