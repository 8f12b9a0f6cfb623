//! `h` on a service: probe every proxy of its IP list through itself ([`crate::probe`]),
//! and the view of the results.
//!
//! The list is fetched like every read ([`Command::Fetch`] of `IpList(id, type, txt)`, the
//! type from [`targets::default_type`]), then [`Command::Probe`] hands its entries to the
//! run loop, which probes them off the UI task and answers with [`Msg::Probe`] events: the
//! view fills in as results come, and keys are handled between them as always.
//!
//! Choices:
//! - One run per service, kept while the program runs: `h` again shows the last results
//!   (and starts a run only when there is none, or the last one failed); its Health
//!   (`9/10 · p50 84 ms`) stays in the Services table.
//! - `r` in the view re-checks only the failed (dead) proxies, with the credentials of
//!   the first run; `a` probes everything again (the list is fetched again). Neither
//!   starts while a run is going.
//! - `s` cycles the order: list order, latency (fastest first, the dead last), state
//!   (dead first, so what needs attention is on top), exit IP.
//! - `y` copies the working proxies with the current template (`t` cycles the built-ins
//!   and the profile's own), `Y` copies them as URLs, `w` writes them with the current
//!   template to `proxies-<id>-working-<HHMMSS>.txt` in the current folder (a new `0600`
//!   file; the status line says where). Dead and skipped proxies are never exported.
//! - Events of an earlier run of a service (after `a`) are dropped by their run number.
//! - **Both protocols** (issue 26.11): `b` probes again from two lists of the service, its
//!   HTTP one and its SOCKS5 one (`http-auth` + `socks-ip`, `ppr-http` + `ppr-socks`:
//!   [`targets::types_for`]), in one run; `b` again goes back to one protocol. The rows
//!   then say each proxy's protocol.
//! - **History**: each result is recorded (protocol, alive, latency, exit IP), and the
//!   view asks for the service's probe trends when it opens and when a run or an audit
//!   ends (after its records, which the run loop hands the writer first).
//! - **Rotation audit** (issue 27.4): `R`, in [`rotation`].

use super::Popup;
use super::keymap::Action;
use super::status::NoticeKind;
use super::{Command, Cx, Msg};
use crate::api::{ApiError, IpListFormat, IpListType, Request, Response};
use crate::probe::{ProbeEvent, ProbeResult, ProxyTarget, export, targets};
use std::collections::HashMap;
use std::path::PathBuf;

mod look;
pub mod rotation;
pub mod view;
pub use view::{ProbeView, SortBy, order};

/// Every service's last run.
#[derive(Debug, Default)]
pub struct Probes {
    runs: HashMap<u64, ProbeRun>,
    pub(super) audits: HashMap<u64, rotation::Audit>,
    pub(super) next_run: u64,
}

impl Probes {
    pub fn get(&self, service_id: u64) -> Option<&ProbeRun> {
        self.runs.get(&service_id)
    }

    /// The last rotation audit of a service.
    pub fn audit(&self, service_id: u64) -> Option<&rotation::Audit> {
        self.audits.get(&service_id)
    }

    /// No service was probed yet (the Services table then has no Health column).
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stage {
    /// The lists still awaited.
    FetchingList(Vec<Request>),
    Running,
    Done,
    Failed(String),
}

#[derive(Clone, Debug)]
pub struct ProbeRun {
    pub run: u64,
    /// One list type, or two when both protocols are probed.
    pub list_types: Vec<IpListType>,
    pub stage: Stage,
    pub targets: Vec<ProxyTarget>,
    pub results: Vec<Option<ProbeResult>>,
    /// Checks asked for and not answered yet.
    pub pending: usize,
    pub note: Option<String>,
}

impl ProbeRun {
    /// Two protocols are probed (the rows say which).
    pub fn both(&self) -> bool {
        self.list_types.len() > 1
    }

    pub fn finished(&self) -> Vec<ProbeResult> {
        self.results.iter().flatten().cloned().collect()
    }

    pub fn checked(&self) -> usize {
        self.results.iter().flatten().count()
    }

    /// The Services table's Health cell: `9/10 · p50 84 ms`, or the progress.
    pub fn health(&self) -> String {
        match &self.stage {
            Stage::FetchingList(_) => "probing…".into(),
            Stage::Running => format!("probing {}/{}", self.checked(), self.targets.len()),
            Stage::Failed(_) => "probe failed".into(),
            Stage::Done => crate::probe::report::health(&self.finished()),
        }
    }
}

impl Probes {
    /// `h`: the probe, listed as `proxydash probe ID` when a run started (not when it only
    /// shows the last run's results).
    pub(super) fn open_probe_logged(&mut self, cx: &mut Cx<'_>) {
        let id = cx.target_service();
        let run_of = |probes: &Self| id.and_then(|id| probes.get(id)).map(|r| r.run);
        let before = run_of(self);
        self.open_probe(cx);
        if let Some(id) = id
            && run_of(self) != before
        {
            use super::cmdline::{Arg, line};
            let line = line(&cx.shell.settings.cli_args, &[Arg::v("probe"), Arg::v(id)]);
            cx.log_command(line);
        }
    }

    /// The export templates: the built-ins, then the profile's.
    /// The provider's mark of a proxy of a service (network status, once loaded).
    /// `h`: the probe view of the selected service; starts a run when there is none.
    pub(super) fn open_probe(&mut self, cx: &mut Cx<'_>) {
        let Some(id) = cx.target_service() else {
            return;
        };
        let needs_run = self
            .get(id)
            .is_none_or(|r| matches!(r.stage, Stage::Failed(_)));
        if needs_run {
            self.start_probe(cx, id, false);
        }
        self.ask_probe_trends(cx, id);
        cx.shell.popups.push(Popup::Probe(ProbeView {
            service_id: id,
            sort: SortBy::List,
            top: 0,
            template: 0,
        }));
    }

    /// A new run of `id` from its list, or its two lists with `both`.
    fn start_probe(&mut self, cx: &mut Cx<'_>, id: u64, both: bool) {
        let product_type = cx.tabs.service_type(id, cx.account).unwrap_or_default();
        let list_types = targets::types_for(&product_type, both);
        let requests: Vec<Request> = list_types
            .iter()
            .map(|t| Request::ip_list(id, t.clone(), IpListFormat::Txt))
            .collect();
        self.next_run += 1;
        let run = ProbeRun {
            run: self.next_run,
            list_types,
            stage: Stage::FetchingList(requests.clone()),
            targets: Vec::new(),
            results: Vec::new(),
            pending: 0,
            note: None,
        };
        self.runs.insert(id, run);
        for request in requests {
            cx.fetch(request);
        }
    }

    /// The history of `id`'s probes, for the view's trends.
    pub(super) fn ask_probe_trends(&self, cx: &mut Cx<'_>, id: u64) {
        if cx.account.history.is_on() {
            cx.out
                .push(Command::AskHistory(crate::history::Query::Probes {
                    service_id: id,
                    now: cx.now(),
                }));
        }
    }

    /// An IP list arrived: the run waiting for it starts probing.
    pub(super) fn on_probe_list(
        &mut self,
        cx: &mut Cx<'_>,
        request: &Request,
        result: &Result<Response, ApiError>,
    ) {
        let Request::IpList { service_id, .. } = request else {
            return;
        };
        let creds = cx
            .account
            .store
            .service(*service_id)
            .map(|s| (s.username.clone(), s.password.expose().to_owned()));
        let Some(run) = self.runs.get_mut(service_id) else {
            return;
        };
        let Stage::FetchingList(waiting) = &mut run.stage else {
            return;
        };
        let Some(at) = waiting.iter().position(|r| r == request) else {
            return;
        };
        waiting.remove(at);
        let list = match result {
            Ok(Response::IpList(list)) => list,
            Ok(_) => return,
            Err(e) => {
                run.stage = Stage::Failed(format!("IP list: {e}"));
                return;
            }
        };
        // The lists come in any order; the targets keep the order of the list types.
        let mut got =
            targets::from_list(list, creds.as_ref().map(|(l, p)| (l.as_str(), p.as_str())));
        if run.list_types.first() == Some(&list.list_type) {
            got.append(&mut run.targets);
            run.targets = got;
        } else {
            run.targets.append(&mut got);
        }
        // One slot per target at every moment: the view draws the targets as they come.
        run.results = vec![None; run.targets.len()];
        if !waiting.is_empty() {
            return;
        }
        if run.targets.is_empty() {
            let names: Vec<String> = run.list_types.iter().map(|t| t.to_string()).collect();
            run.stage = Stage::Failed(format!(
                "the {} list holds no proxy to probe",
                names.join(" and ")
            ));
            return;
        }
        run.pending = run.targets.len();
        run.stage = Stage::Running;
        cx.out.push(Command::Probe {
            service_id: *service_id,
            run: run.run,
            targets: run.targets.iter().cloned().enumerate().collect(),
        });
    }

    pub(super) fn on_probe_event(
        &mut self,
        cx: &mut Cx<'_>,
        service_id: u64,
        run_no: u64,
        event: ProbeEvent,
    ) {
        if self.on_audit_event(cx, service_id, run_no, &event) {
            return;
        }
        let Some(run) = self.runs.get_mut(&service_id) else {
            return;
        };
        if run.run != run_no {
            return;
        }
        match event {
            ProbeEvent::Started { note, .. } => {
                if let Some(note) = &note {
                    cx.shell
                        .status
                        .notify(NoticeKind::Info, format!("Probe of {service_id}: {note}"));
                }
                run.note = note;
            }
            ProbeEvent::Checked { index, result } => {
                if let Some(slot) = run.results.get_mut(index) {
                    cx.account.history.remember_probe(service_id, &result);
                    *slot = Some(result);
                    run.pending = run.pending.saturating_sub(1);
                }
            }
            ProbeEvent::Finished => {
                run.stage = Stage::Done;
                let line = format!("Probe of service {service_id}: {}", run.health());
                cx.shell.status.notify(NoticeKind::Done, line);
                self.ask_probe_trends(cx, service_id);
            }
        }
    }

    /// Keys of the probe view; false when the key is not the view's (Esc, help, quit).
    pub(super) fn probe_action(&mut self, cx: &mut Cx<'_>, action: Action) -> bool {
        let page = cx.shell.size.1.saturating_sub(12).max(1) as usize;
        let templates = export::all(&cx.shell.settings.probe.templates);
        let Some(Popup::Probe(view)) = cx.shell.popups.last_mut() else {
            return false;
        };
        let id = view.service_id;
        let Some(run) = self.runs.get(&id) else {
            return false;
        };
        let rows = run.targets.len();
        let busy = matches!(run.stage, Stage::Running | Stage::FetchingList(_));
        match action {
            Action::Up => view.top = view.top.saturating_sub(1),
            Action::Down => view.top = (view.top + 1).min(rows.saturating_sub(1)),
            Action::PageUp => view.top = view.top.saturating_sub(page),
            Action::PageDown => view.top = (view.top + page).min(rows.saturating_sub(1)),
            Action::Top => view.top = 0,
            Action::Bottom => view.top = rows.saturating_sub(page),
            Action::CycleSort => view.sort = view.sort.next(),
            Action::CycleTemplate => view.template = (view.template + 1) % templates.len().max(1),
            Action::Copy | Action::CopyUrls | Action::WriteFile => {
                let template = templates.get(view.template).cloned();
                self.export_working(cx, id, action, template);
            }
            Action::RecheckFailed | Action::ProbeAgain | Action::ProbeBoth if busy => {
                cx.shell
                    .status
                    .notify(NoticeKind::Info, "The probe is still running");
            }
            Action::RecheckFailed => self.recheck_failed(cx, id),
            Action::ProbeAgain => {
                let both = run.both();
                self.start_probe(cx, id, both);
            }
            Action::ProbeBoth => {
                let both = !run.both();
                self.start_probe(cx, id, both);
            }
            Action::RotationAudit => self.start_audit(cx, id),
            _ => return false,
        }
        true
    }

    /// `y`, `Y`, `w`: the working proxies of `id`'s run with `template` (or as URLs) to
    /// the clipboard or a new file.
    fn export_working(
        &mut self,
        cx: &mut Cx<'_>,
        id: u64,
        action: Action,
        template: Option<export::Template>,
    ) {
        let Some(run) = self.runs.get(&id) else {
            return;
        };
        let (name, pattern) = match (action, &template) {
            (Action::CopyUrls, _) | (_, None) => {
                ("as URLs".to_owned(), export::BUILT_IN[1].1.to_owned())
            }
            (_, Some(t)) => (format!("template {}", t.name), t.pattern.clone()),
        };
        let results = run.finished();
        let working = results.iter().filter(|r| r.verdict.is_alive()).count();
        if working == 0 {
            cx.shell.status.notify(
                NoticeKind::Info,
                format!("Service {id}: no working proxy to export yet"),
            );
            return;
        }
        let text = export::working(&pattern, &results);
        if action == Action::WriteFile {
            let now = cx.now().format("%H%M%S");
            cx.out.push(Command::WriteFile {
                path: PathBuf::from(format!("proxies-{id}-working-{now}.txt")),
                contents: text,
            });
        } else {
            let what = format!("{working} working proxies of service {id} ({name})");
            cx.out.push(Command::Copy { what, text });
        }
    }

    /// `r`: probes again only the proxies of `id` that failed, with the first run's
    /// credentials.
    fn recheck_failed(&mut self, cx: &mut Cx<'_>, id: u64) {
        let Some(run) = self.runs.get_mut(&id) else {
            return;
        };
        let failed: Vec<(usize, ProxyTarget)> = run
            .results
            .iter()
            .enumerate()
            .filter(|(_, r)| r.as_ref().is_some_and(|r| r.verdict.is_dead()))
            .map(|(i, _)| (i, run.targets[i].clone()))
            .collect();
        if failed.is_empty() {
            cx.shell.status.notify(
                NoticeKind::Info,
                format!("Service {id}: no failed proxy to re-check"),
            );
            return;
        }
        for (i, _) in &failed {
            run.results[*i] = None;
        }
        self.next_run += 1;
        run.run = self.next_run;
        run.pending = failed.len();
        run.stage = Stage::Running;
        cx.out.push(Command::Probe {
            service_id: id,
            run: run.run,
            targets: failed,
        });
    }
}

/// A [`Msg`] for a probe event (what the run loop sends).
pub fn msg(service_id: u64, run: u64, event: ProbeEvent) -> Msg {
    Msg::Probe {
        service_id,
        run,
        event,
    }
}
