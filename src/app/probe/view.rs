//! The probe view's own state: how its rows are sorted and scrolled, and the template.

use super::{ProbeRun, Stage};
use crate::app::Cx;
use crate::app::PopupKind;
use crate::app::columns::{CellText, Tone};
use crate::app::keymap::steps::PopupInfo;
use crate::app::keymap::steps::{BOTTOM, MOVE_DOWN, MOVE_UP, PAGE_DOWN, PAGE_UP, TOP, step_key};
use crate::app::keymap::{Action, Binding, k};
use crate::app::popup_pane::{PopupPane, Reply};
use crate::probe::Verdict;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortBy {
    List,
    Latency,
    State,
    ExitIp,
}

impl SortBy {
    pub fn label(self) -> &'static str {
        match self {
            SortBy::List => "list order",
            SortBy::Latency => "latency",
            SortBy::State => "state",
            SortBy::ExitIp => "exit IP",
        }
    }

    pub(super) fn next(self) -> Self {
        match self {
            SortBy::List => SortBy::Latency,
            SortBy::Latency => SortBy::State,
            SortBy::State => SortBy::ExitIp,
            SortBy::ExitIp => SortBy::List,
        }
    }
}

/// The probe popup of one service: how it is sorted and scrolled, and the template.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbeView {
    pub service_id: u64,
    pub sort: SortBy,
    /// The first row on screen.
    pub top: usize,
    /// Index into [`App::probe_templates`](crate::app::App::probe_templates).
    pub template: usize,
}

/// Its own keys.
#[rustfmt::skip]
const KEYS: &[Binding] = &[
    step_key(&[k('r')], Action::RecheckFailed, Some("re-check failed"), "Probe the failed proxies again"),
    step_key(&[k('a')], Action::ProbeAgain, Some("all again"), "Fetch the list and probe every proxy again"),
    step_key(&[k('b')], Action::ProbeBoth, Some("both protocols"), "Probe again as HTTP and as SOCKS5 (again: one protocol)"),
    step_key(&[k('R')], Action::RotationAudit, Some("rotation"), "Rotating (ppr) service: ask the judge 20 times through the gateway, count the exits"),
    step_key(&[k('s')], Action::CycleSort, Some("sort"), "Sort by list order, latency, state or exit IP"),
    step_key(&[k('y')], Action::Copy, Some("copy working"), "Copy the working proxies with the template"),
    step_key(&[k('Y')], Action::CopyUrls, Some("copy URLs"), "Copy the working proxies as URLs"),
    step_key(&[k('w')], Action::WriteFile, Some("write"), "Write the working proxies with the template to a new file"),
    step_key(&[k('t')], Action::CycleTemplate, Some("template"), "Next export template"),
    MOVE_DOWN,
    MOVE_UP,
    TOP,
    BOTTOM,
    PAGE_DOWN,
    PAGE_UP,
];

/// What the key map knows of it: its title and its own keys.
pub static INFO: PopupInfo = PopupInfo {
    title: "proxy probe",
    keys: KEYS,
    item_of: None,
};

impl PopupPane for ProbeView {
    fn kind(&self) -> PopupKind {
        PopupKind::Shows(&INFO)
    }

    /// Every key of the view goes to the runs ([`super::Probes::probe_action`]): they
    /// outlive the view, and its rows are theirs.
    fn action(&mut self, _cx: &mut Cx<'_>, action: Action) -> Reply {
        Reply::ToProbes(action)
    }
}

/// The order rows are shown in: indices into the run's targets.
pub fn order(run: &ProbeRun, sort: SortBy) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..run.targets.len()).collect();
    let r = |i: usize| run.results[i].as_ref();
    let rank = |i: usize| match r(i).map(|r| &r.verdict) {
        Some(Verdict::Dead(..)) => 0,
        None => 1,
        Some(Verdict::Skipped(_) | Verdict::NotChecked(_)) => 2,
        Some(Verdict::Alive) => 3,
    };
    match sort {
        SortBy::List => {}
        SortBy::Latency => idx.sort_by_key(|&i| {
            let alive = r(i).is_some_and(|r| r.verdict.is_alive());
            (!alive, r(i).and_then(|r| r.latency))
        }),
        SortBy::State => idx.sort_by_key(|&i| rank(i)),
        SortBy::ExitIp => idx.sort_by_key(|&i| {
            (
                r(i).and_then(|r| r.exit_ip).is_none(),
                r(i).and_then(|r| r.exit_ip),
            )
        }),
    }
    idx
}

impl ProbeRun {
    /// The Health cell of the service's row: working of probed and the p50 latency, or the
    /// progress, in the tone of the verdict.
    pub fn health_cell(&self) -> CellText {
        let results = self.finished();
        let alive = results.iter().filter(|r| r.verdict.is_alive()).count();
        let dead = results.iter().filter(|r| r.verdict.is_dead()).count();
        let tone = match &self.stage {
            Stage::Failed(_) => Tone::Bad,
            Stage::FetchingList(_) | Stage::Running => Tone::Dim,
            Stage::Done if dead == 0 => Tone::Good,
            Stage::Done if alive == 0 => Tone::Bad,
            Stage::Done => Tone::Warn,
        };
        CellText::new(self.health()).tone(tone)
    }
}
