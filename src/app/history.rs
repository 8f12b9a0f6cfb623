//! What the app keeps of the history store: the records of successful reads waiting to be
//! written, and the last answers to its questions.
//!
//! - Off until [`App::enable_history`](crate::app::App::enable_history) (the dashboard turns it on once it has a file).
//!   The reads are recorded by the account engine ([`crate::history::records`]); the app
//!   records only its probes, which the run loop takes after each batch with
//!   [`App::take_history`](crate::app::App::take_history).
//! - The overview is asked for after each sweep of the engine (one question per sweep),
//!   and on start.
//!   The selected service's 7-day history is asked for when the selection of the
//!   Services tab (or of the Usage tab, for its 24-hour chart) changes, and with each
//!   overview.
//! - [`Answer::Off`] turns collecting off and is shown once; [`Answer::Failed`] is shown
//!   and collecting goes on.
//! - A probe (`h`) records each proxy it contacted as it is checked ([`Record::Probe`]:
//!   the service, `host:port`, the protocol, alive or not, the latency through it and the
//!   exit IP), with the batch it
//!   arrived in; a proxy that was skipped (never contacted) is not history. The password
//!   of the list is never recorded. A rotation audit is one [`Record::Rotation`] when it
//!   ends.

use super::Command;
use super::status::{NoticeKind, StatusLine};
use crate::history::{Answer, Overview, ProbeTrends, Query, Record, ServiceHistory, Sweep};
use chrono::{DateTime, Utc};

#[derive(Debug, Default)]
pub struct HistoryState {
    on: bool,
    pending: Vec<Record>,
    /// Something was recorded since the overview was last asked for.
    changed: bool,
    overview: Option<Overview>,
    service: Option<ServiceHistory>,
    /// The last probe trends answered (one service's).
    probes: Option<ProbeTrends>,
    asked_service: Option<u64>,
}

impl HistoryState {
    /// One proxy checked by a probe of `service_id` (see the module docs).
    pub(super) fn remember_probe(&mut self, service_id: u64, result: &crate::probe::ProbeResult) {
        if !self.on {
            return;
        }
        self.pending
            .extend(crate::probe::report::record(service_id, result));
    }

    /// A rotation audit of `gateway` ended: one row (see the module docs).
    pub(super) fn remember_rotation(
        &mut self,
        service_id: u64,
        gateway: &crate::probe::ProxyTarget,
        audit: &crate::probe::rotation::Rotation,
    ) {
        if self.on {
            self.pending
                .push(crate::probe::rotation::record(service_id, gateway, audit));
        }
    }

    /// The probe history of `id`, if it is the one last answered.
    pub fn probes(&self, id: u64) -> Option<&ProbeTrends> {
        self.probes.as_ref().filter(|p| p.service_id == id)
    }

    /// The last overview answered.
    pub fn overview(&self) -> Option<&Overview> {
        self.overview.as_ref()
    }

    /// The 7-day history of `id`, if it is the one last answered.
    pub fn service(&self, id: u64) -> Option<&ServiceHistory> {
        self.service.as_ref().filter(|h| h.service_id == id)
    }

    pub fn is_on(&self) -> bool {
        self.on
    }

    /// The engine swept: the overview is asked again.
    pub(super) fn note_sweep(&mut self) {
        self.changed |= self.on;
    }
}

impl HistoryState {
    /// Turns recording and history questions on (see the module docs).
    pub(super) fn enable(&mut self, now: DateTime<Utc>) -> Vec<Command> {
        self.on = true;
        vec![Command::AskHistory(Query::Overview { now })]
    }

    /// The records of the reads handled since the last call, as one sweep to write.
    pub(super) fn take(&mut self, now: DateTime<Utc>) -> Option<Sweep> {
        if self.pending.is_empty() {
            return None;
        }
        Some(Sweep {
            at: now,
            records: std::mem::take(&mut self.pending),
        })
    }

    /// After a batch: the questions the history views need now (`selected`: the service
    /// whose history is on screen, the Services detail's 7 days or the Usage chart's 24
    /// hours of use).
    pub(super) fn ask(
        &mut self,
        now: DateTime<Utc>,
        selected: Option<u64>,
        out: &mut Vec<Command>,
    ) {
        if !self.on {
            return;
        }
        let sweep_done = std::mem::take(&mut self.changed);
        if sweep_done {
            out.push(Command::AskHistory(Query::Overview { now }));
        }
        if let Some(id) = selected
            && (sweep_done || self.asked_service != Some(id))
        {
            self.asked_service = Some(id);
            out.push(Command::AskHistory(Query::Service {
                service_id: id,
                now,
            }));
        }
    }

    pub(super) fn on_answer(&mut self, answer: Answer, status: &mut StatusLine) {
        match answer {
            Answer::Overview(o) => self.overview = Some(*o),
            Answer::Service(h) => self.service = Some(*h),
            Answer::Probes(p) => self.probes = Some(*p),
            Answer::Off(line) => {
                *self = HistoryState::default();
                status.tell(NoticeKind::Error, line);
            }
            Answer::Failed(line) => status.tell(NoticeKind::Error, line),
        }
    }
}
