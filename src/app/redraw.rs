//! Whether the screen needs drawing again after a batch of messages. Most messages change
//! what is drawn (a key, an answer, a resize), but the timer's ticks and the scheduler's
//! budget reports arrive while nothing is touched, and often change nothing that is shown:
//! a budget report whose label reads the same, a tick for an auto-refresh that is not due
//! yet. For those the app compares a [`Glance`] (everything time or the budget can change
//! on screen) before and after, so an idle dashboard does not redraw. And when the loop
//! must wake the app with a tick at all ([`App::next_wakeup`]).

use super::Tab;
use super::forms::refresh::RefreshForm;
use super::{App, Msg, Popup};
use chrono::{DateTime, Duration, NaiveDate, Utc};

impl App {
    /// When the loop must send [`Msg::Tick`] next: the next second of a countdown on
    /// screen, or the end of the soonest countdown. `None`: nothing is scheduled, sleep
    /// until input (the engine wakes itself).
    pub fn next_wakeup(&self) -> Option<DateTime<Utc>> {
        [
            self.countdown_wakeup(),
            self.account.budget_wakeup(self.now()),
            self.account.connection_wakeup(self.now()),
        ]
        .into_iter()
        .flatten()
        .min()
    }
}

/// What a tick or a budget report can change on screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Glance {
    budget: Option<String>,
    waiting: Option<String>,
    status: Option<String>,
    in_flight: usize,
    open_alerts: usize,
    /// "due in N days" and the Services rows read the date.
    today: NaiveDate,
}

impl App {
    pub(super) fn glance(&self) -> Glance {
        use super::status::Shown;
        Glance {
            budget: self.budget_label(),
            waiting: self.budget_waiting(),
            status: self.shell.status.shown().map(|s| match s {
                Shown::Failure(line, more) => format!("{line} +{more}"),
                Shown::Notice(n) => n.text.clone(),
            }),
            in_flight: self.in_flight(),
            open_alerts: self.tabs.alerts.open_count(),
            today: self
                .now()
                .with_timezone(&self.shell.utc_offset)
                .date_naive(),
        }
    }

    /// Whether `msg` may leave the screen as it was (decided by a [`Glance`]).
    pub(super) fn may_be_invisible(msg: &Msg) -> bool {
        matches!(msg, Msg::Tick | Msg::Budget(_))
    }

    /// Notes the outcome of a batch: `loud` when a message in it changes the screen by its
    /// nature, `ticked` when the timer fired (a countdown on screen shows new seconds).
    pub(super) fn note_redraw(&mut self, before: &Glance, loud: bool, ticked: bool) {
        if loud || (ticked && self.countdown_visible()) || self.glance() != *before {
            self.shell.redraw = true;
        }
    }

    /// Whether something visible changed since this was last asked: the run loop draws
    /// only then.
    pub fn take_redraw(&mut self) -> bool {
        std::mem::take(&mut self.shell.redraw)
    }

    /// Whether a running countdown is drawn: a visible or selected row of the Services
    /// tab, a service popup, or a refresh form.
    pub fn countdown_visible(&self) -> bool {
        if self.account.throttles.is_empty() {
            return false;
        }
        let running = |id: u64| self.account.throttled_until(id, self.now()).is_some();
        let in_popup = self.shell.popups.iter().any(|p| match p {
            Popup::Service(viewer) => running(viewer.id),
            _ => p
                .form_as::<RefreshForm>()
                .is_some_and(|f| running(f.service_id)),
        });
        if in_popup {
            return true;
        }
        if self.shell.tab != Tab::Services {
            return false;
        }
        let table = &self.tabs.services.table;
        if table.selected_id().is_some_and(running) {
            return true;
        }
        let page = self.shell.geometry.page(Tab::Services);
        let rows = self.services().rows();
        table
            .visible(page)
            .1
            .iter()
            .any(|&i| rows.get(i).is_some_and(|s| running(s.service_id)))
    }

    /// The next moment a countdown needs the app: the next change of the seconds shown
    /// (while one is visible), or the end of the soonest.
    pub(super) fn countdown_wakeup(&self) -> Option<DateTime<Utc>> {
        let end = self.account.throttles.next_end()?;
        if !self.countdown_visible() {
            return Some(end);
        }
        // The label rounds up to the second, so it changes when a whole number of seconds
        // is left before the end.
        let now = self.now();
        let left = (end - now).num_milliseconds();
        let step = match left.rem_euclid(1000) {
            0 => 1000,
            ms => ms,
        };
        Some((now + Duration::milliseconds(step)).min(end.max(now)))
    }

    /// Tells every table how many rows fit, as the view last measured.
    pub(super) fn update_pages(&mut self) {
        self.tabs.set_pages(&self.shell.geometry);
    }

    /// What the view measured while drawing the frame just shown (see [`super::geometry`]):
    /// the tables page by it, clicks hit it, and the engine is told the rows now on screen
    /// when they are not the ones it was told. The frame already showed these pages (a
    /// table clamps its window to the rows it measured), so this asks for no redraw.
    pub fn measured(&mut self, geometry: super::geometry::Geometry) -> Vec<super::Command> {
        let mut out = Vec::new();
        if geometry != self.shell.geometry {
            self.shell.geometry = geometry;
            self.update_pages();
            self.tell_focus(&mut out);
        }
        out
    }

    /// The Services rows' cells read the network status, the usage and today's date.
    pub(super) fn rebuild_services(&mut self) {
        let today = self.now().with_timezone(&self.utc_offset()).date_naive();
        self.tabs
            .rebuild_services(&self.account.store, today, &self.shell.geometry);
    }

    /// Rebuilds the derived rows of the tab on screen, if they changed.
    pub(in crate::app) fn rebuild_shown(&mut self) {
        let today = self.now().with_timezone(&self.utc_offset()).date_naive();
        self.tabs.rebuild_shown(
            self.shell.tab,
            self.shell.settings.eager_rows,
            &self.account,
            today,
            &self.shell.geometry,
        );
    }
}
