//! `R` in the probe view of a rotating (ppr) service: the rotation audit of its gateway
//! ([`crate::probe::rotation`]), kept beside the service's probe run.
//!
//! Choices: the gateway is the first entry of the run's list (the audit waits for the
//! list); `probe_rotation` asks (default [`rotation::DEFAULT_ASKS`]); one audit per service, kept while the program
//! runs and shown in the probe view as it fills; one at a time; `R` on a static (fpr)
//! service says what the audit is for and sends nothing. When it ends it is recorded as
//! one history row and the view asks for the service's trends again.

use super::Probes;
use crate::app::status::NoticeKind;
use crate::app::{Command, Cx};
use crate::probe::{ProbeEvent, ProbeResult, ProxyTarget, rotation};

/// A rotation audit of a service's gateway: its asks' results, in order.
#[derive(Clone, Debug)]
pub struct Audit {
    pub run: u64,
    pub gateway: ProxyTarget,
    pub asks: usize,
    pub results: Vec<ProbeResult>,
    pub done: bool,
    pub note: Option<String>,
}

impl Audit {
    pub fn summary(&self) -> rotation::Rotation {
        rotation::Rotation::of(&self.results)
    }
}

impl Probes {
    /// `R`: a rotation audit of the gateway of `id` (the first entry of its list).
    pub(super) fn start_audit(&mut self, cx: &mut Cx<'_>, id: u64) {
        if cx.tabs.service_type(id, cx.account) == Some(crate::api::ProductType::Fpr) {
            cx.shell.status.notify(
                NoticeKind::Info,
                format!(
                    "Service {id} is static (fpr): a rotation audit is for rotating (ppr) services"
                ),
            );
            return;
        }
        if self.audits.get(&id).is_some_and(|a| !a.done) {
            cx.shell
                .status
                .notify(NoticeKind::Info, "The rotation audit is still running");
            return;
        }
        let gateway = self
            .get(id)
            .and_then(|r| r.targets.iter().find(|t| t.port != 0).cloned());
        let Some(gateway) = gateway else {
            cx.shell.status.notify(
                NoticeKind::Info,
                format!("Service {id}: no gateway yet (the IP list is not in)"),
            );
            return;
        };
        self.next_run += 1;
        let run = self.next_run;
        let asks = cx.shell.settings.probe.rotation_asks;
        self.audits.insert(
            id,
            Audit {
                run,
                gateway: gateway.clone(),
                asks,
                results: Vec::new(),
                done: false,
                note: None,
            },
        );
        cx.out.push(Command::Rotation {
            service_id: id,
            run,
            gateway,
            asks,
        });
    }

    /// An event of a rotation audit; false when `run_no` is not the audit's.
    pub(super) fn on_audit_event(
        &mut self,
        cx: &mut Cx<'_>,
        service_id: u64,
        run_no: u64,
        event: &ProbeEvent,
    ) -> bool {
        let Some(audit) = self.audits.get_mut(&service_id) else {
            return false;
        };
        if audit.run != run_no {
            return false;
        }
        match event {
            ProbeEvent::Started { note, .. } => audit.note = note.clone(),
            ProbeEvent::Checked { result, .. } => audit.results.push(result.clone()),
            ProbeEvent::Finished => {
                audit.done = true;
                let summary = audit.summary();
                let gateway = audit.gateway.clone();
                cx.account
                    .history
                    .remember_rotation(service_id, &gateway, &summary);
                let line = format!("Rotation of service {service_id}: {}", summary.summary());
                cx.shell.status.notify(NoticeKind::Done, line);
                self.ask_probe_trends(cx, service_id);
            }
        }
        true
    }
}
