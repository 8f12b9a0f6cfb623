//! The account's request budget as the screen shows it: the limit learned from the server
//! (`60/min · 12 left`), and while the server's limit holds requests back, "waiting for the
//! server's limit (next in 23 s)" instead of failures (the scheduler sends them later).
//!
//! The scheduler publishes its budget ([`crate::scheduler::View`]) whenever it changes; the
//! app turns its relative times into times of its own clock when it arrives, so the label
//! counts down on the app's clock (a tick a second while a wait is on screen).

use super::Mirror;
use crate::scheduler::{Source, View};
use chrono::{DateTime, FixedOffset, Utc};

/// The last budget the scheduler published, with its waits as times of the app's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shown {
    pub limit: u32,
    pub left: u32,
    pub source: Source,
    /// Nothing is sent until then (a 429's pause, or the server's count is spent).
    pub paused_until: Option<DateTime<Utc>>,
    /// The bucket is empty: the next request goes out then.
    pub next_at: Option<DateTime<Utc>>,
}

impl Mirror {
    pub(super) fn on_budget(&mut self, view: View, now: DateTime<Utc>) {
        let at = |d: std::time::Duration| {
            now + chrono::Duration::from_std(d).unwrap_or(chrono::Duration::days(1))
        };
        self.budget = Some(Shown {
            limit: view.limit,
            left: view.left,
            source: view.source,
            paused_until: view.paused_for.filter(|d| !d.is_zero()).map(at),
            next_at: view.next_in.filter(|d| !d.is_zero()).map(at),
        });
    }

    /// The budget, once the scheduler has said anything.
    pub fn budget(&self) -> Option<&Shown> {
        self.budget.as_ref()
    }

    /// When the next request may go out, if that is in the future and something waits.
    pub fn budget_wait(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let b = self.budget.as_ref()?;
        b.paused_until
            .or(b.next_at)
            .filter(|t| *t > now && !self.in_flight.is_empty())
    }

    /// The account's connection when it is not simply online, for the header:
    /// `unreachable since 14:03:10 (last answer 2 min ago)`, `throttled until 14:05:00`.
    pub fn connection_label(&self, now: DateTime<Utc>, offset: FixedOffset) -> Option<String> {
        use crate::account::Link;
        let paused = self
            .budget
            .as_ref()
            .and_then(|b| b.paused_until)
            .filter(|t| *t > now);
        match (self.connection.link, paused) {
            (Link::Unreachable { .. }, _) | (Link::Throttled { .. }, None) => {
                Some(self.connection.describe(now, offset))
            }
            (_, Some(until)) => Some(format!(
                "throttled until {}",
                until.with_timezone(&offset).format("%H:%M:%S")
            )),
            _ => None,
        }
    }

    /// While the API is unreachable, a tick every 10 s keeps "last answer N ago" true.
    pub(super) fn connection_wakeup(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.connection.unreachable_since()?;
        Some(now + chrono::Duration::seconds(10))
    }

    /// `60/min · 12 left` (a `~` before a limit not learned from the server's headers).
    pub fn budget_label(&self) -> Option<String> {
        let b = self.budget.as_ref()?;
        let guess = if b.source == Source::Headers { "" } else { "~" };
        Some(format!(
            "{guess}{}/min · {} left",
            crate::text::count(u64::from(b.limit)),
            crate::text::count(u64::from(b.left))
        ))
    }

    /// "waiting for the server's limit (next in 23 s)" while requests are held back.
    pub fn budget_waiting(&self, now: DateTime<Utc>) -> Option<String> {
        let until = self.budget_wait(now)?;
        let secs = ((until - now).num_milliseconds().max(0) + 999) / 1000;
        let b = self.budget.as_ref()?;
        let why = if b.paused_until.is_some() {
            "the server's limit"
        } else {
            "the request budget"
        };
        Some(format!("waiting for {why} (next in {})", short_secs(secs)))
    }

    /// A tick a second while a wait is shown.
    pub(super) fn budget_wakeup(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.budget_wait(now)?;
        Some(now + chrono::Duration::seconds(1))
    }
}

/// `23 s`, `4m 05s`.
fn short_secs(secs: i64) -> String {
    if secs < 60 {
        format!("{secs} s")
    } else {
        format!("{}m {:02}s", secs / 60, secs % 60)
    }
}
