//! Whether the screen needs drawing again after a batch of messages. Most messages change
//! what is drawn (a key, an answer, a resize), but the timer's ticks and the scheduler's
//! budget reports arrive while nothing is touched, and often change nothing that is shown:
//! a budget report whose label reads the same, a tick for an auto-refresh that is not due
//! yet. For those the app compares a [`OnScreen`] (everything time or the budget can change
//! on screen) before and after, so an idle dashboard does not redraw. And when the loop
//! must wake the app with a tick at all (`Mirror::next_wakeup`): the parts own these
//! answers (the shell its redraw flag, the mirror its countdowns); the app only asks. (What
//! the frame measured, handed back after it, is the context's: `Cx::measured`.)

use super::Tab;
use super::tabs::services::ServicesTab;
use super::{Mirror, Msg, Popup, Shell, Tabs};
use chrono::{DateTime, Duration, NaiveDate, Utc};

/// What a tick or a budget report can change on screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct OnScreen {
    budget: Option<String>,
    waiting: Option<String>,
    status: Option<String>,
    in_flight: usize,
    open_alerts: usize,
    /// "due in N days" and the Services rows read the date.
    today: NaiveDate,
}

impl OnScreen {
    pub(super) fn of(shell: &Shell, tabs: &Tabs, account: &Mirror) -> Self {
        use super::status::Shown;
        OnScreen {
            budget: account.budget_label(),
            waiting: account.budget_waiting(shell.now()),
            status: shell.status.shown().map(|s| match s {
                Shown::Failure(line, more) => format!("{line} +{more}"),
                Shown::Notice(n) => n.text.clone(),
            }),
            in_flight: account.in_flight(),
            open_alerts: tabs.alerts.open_count(),
            today: shell.today(),
        }
    }
}

impl Msg {
    /// Whether the message may leave the screen as it was (decided by a [`OnScreen`]).
    pub(super) fn may_be_invisible(&self) -> bool {
        matches!(self, Msg::Tick | Msg::Budget(_))
    }
}

impl Shell {
    /// Notes the outcome of a batch: `loud` when a message in it changes the screen by its
    /// nature, `ticked` when the timer fired (a countdown on screen shows new seconds).
    pub(super) fn note_redraw(
        &mut self,
        (tabs, account): (&Tabs, &Mirror),
        before: &OnScreen,
        loud: bool,
        ticked: bool,
    ) {
        let countdown = ticked && account.countdown_visible(self, &tabs.services);
        if loud || countdown || OnScreen::of(self, tabs, account) != *before {
            self.redraw = true;
        }
    }
}

impl Mirror {
    /// When the loop must send [`Msg::Tick`] next: the next second of a countdown on
    /// screen, or the end of the soonest countdown. `None`: nothing is scheduled, sleep
    /// until input (the engine wakes itself).
    pub(super) fn next_wakeup(
        &self,
        shell: &Shell,
        services: &ServicesTab,
    ) -> Option<DateTime<Utc>> {
        let now = shell.now();
        [
            self.countdown_wakeup(shell, services),
            self.budget_wakeup(now),
            self.connection_wakeup(now),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// Whether a running countdown is drawn: a visible or selected row of the Services
    /// tab, a service popup, or a refresh form.
    pub(super) fn countdown_visible(&self, shell: &Shell, services: &ServicesTab) -> bool {
        if self.throttles.is_empty() {
            return false;
        }
        let now = shell.now();
        let running = |id: u64| self.throttled_until(id, now).is_some();
        let in_popup = shell.popups.iter().any(|p| match p {
            Popup::Service(viewer) => running(viewer.id),
            Popup::Form(form) => form.countdown_of().is_some_and(running),
            _ => false,
        });
        if in_popup {
            return true;
        }
        if shell.tab != Tab::Services {
            return false;
        }
        let table = &services.table;
        if table.selected_id().is_some_and(running) {
            return true;
        }
        let page = shell.geometry.page(Tab::Services);
        let rows = services.view(&self.store).rows();
        table
            .visible(page)
            .1
            .iter()
            .any(|&i| rows.get(i).is_some_and(|s| running(s.service_id)))
    }

    /// The next moment a countdown needs the app: the next change of the seconds shown
    /// (while one is visible), or the end of the soonest.
    fn countdown_wakeup(&self, shell: &Shell, services: &ServicesTab) -> Option<DateTime<Utc>> {
        let end = self.throttles.next_end()?;
        if !self.countdown_visible(shell, services) {
            return Some(end);
        }
        // The label rounds up to the second, so it changes when a whole number of seconds
        // is left before the end.
        let now = shell.now();
        let left = (end - now).num_milliseconds();
        let step = match left.rem_euclid(1000) {
            0 => 1000,
            ms => ms,
        };
        Some((now + Duration::milliseconds(step)).min(end.max(now)))
    }
}
