//! The 429 countdowns of IP-list refreshes (spec section 8), kept in one
//! [`Throttles`](crate::iplist_throttle::Throttles) map per account: the 429's time, read in the
//! server's offset ([`AppSettings::server_zone`](super::AppSettings), UTC unless set),
//! starts one; [`App::next_wakeup`] asks for a tick every second while one is on screen
//! (a service row, its detail, the refresh form) and once more when the soonest ends, so
//! the status line can say the refresh is possible again; every change is saved with
//! [`Command::SaveThrottles`] so countdowns survive a restart.
//!
//! `Remote` has no throttled state for this (DESIGN.md names one): the throttle belongs
//! to a service's refresh, not to a piece of data on screen, and one map is what the state
//! file keeps.

use super::forms::refresh::RefreshForm;
use super::popup::Popup;
use super::status::NoticeKind;
use super::tabs::Tab;
use super::{App, Command};
use crate::iplist_throttle::{self, Throttles};
use chrono::{DateTime, Duration, Utc};

impl App {
    pub fn throttles(&self) -> &Throttles {
        &self.account.throttles
    }

    /// When the service's IP list may be refreshed again, while that is in the future.
    pub fn throttled_until(&self, service_id: u64) -> Option<DateTime<Utc>> {
        self.account.throttles.until(service_id, self.now())
    }

    /// `next refresh in 4m 12s (at 14:05:00)`, the time in the app's offset; a countdown
    /// cut to 7 days says what the server named.
    pub fn countdown(&self, service_id: u64) -> Option<String> {
        let until = self.throttled_until(service_id)?;
        // The server's 429 names its own wall-clock time; this one is the user's, so say
        // so: `(at 14:07:17 local)`.
        let mut line = iplist_throttle::describe(until, self.now(), &self.shell.utc_offset);
        if line.ends_with(')') {
            line.insert_str(line.len() - 1, " local");
        }
        Some(match self.account.throttles.named(service_id) {
            Some(named) => format!(
                "{line}; the server named {}",
                named
                    .with_timezone(&self.shell.utc_offset)
                    .format("%Y-%m-%d")
            ),
            None => line,
        })
    }

    /// Whether a running countdown is drawn: a visible or selected row of the Services
    /// tab, a service popup, or a refresh form.
    pub fn countdown_visible(&self) -> bool {
        if self.account.throttles.is_empty() {
            return false;
        }
        let running = |id: u64| self.throttled_until(id).is_some();
        let in_popup = self.shell.popups.iter().any(|p| match p {
            Popup::Service(id) => running(*id),
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
        let rows = self.tabs.services.rows();
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

    /// Ends the countdowns that ran out: the status line says so, the state file forgets.
    pub(super) fn expire_countdowns(&mut self, out: &mut Vec<Command>) {
        let done = self.account.throttles.expire(self.now());
        if done.is_empty() {
            return;
        }
        let ids = done
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let service = if done.len() == 1 {
            "Service"
        } else {
            "Services"
        };
        self.shell.status.notify(
            NoticeKind::Done,
            format!("{service} {ids}: the IP list can be refreshed again"),
        );
        out.push(Command::SaveThrottles(self.account.throttles.clone()));
    }
}
