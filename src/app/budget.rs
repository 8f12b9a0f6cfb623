//! The account's request budget as the screen shows it, in plain words: the limit in use
//! and where it comes from (`60/min · 12 left` from the server's headers, `~60/min
//! assumed`, `30/min after a 429`, `600/min (server says 1,000,000)`), and while
//! something holds requests back, why and for how long ("waiting for the server's limit
//! (next in 23 s)", "paced by the request budget (next in 3 s)") instead of failures (the
//! scheduler sends them later).
//!
//! The scheduler publishes its budget ([`crate::scheduler::View`]) whenever it changes; the
//! app turns its relative times into times of its own clock when it arrives, so the label
//! counts down on the app's clock (a tick a second while a wait is on screen).

use super::Mirror;
use crate::api::Request;
use crate::scheduler::{Source, View};
use chrono::{DateTime, FixedOffset, Utc};

/// The last budget the scheduler published, with its waits as times of the app's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shown {
    pub limit: u32,
    /// The server's own figure, when it differs from the limit used.
    pub claimed: Option<u32>,
    pub left: u32,
    pub source: Source,
    /// The pause the server asked for, in seconds, when it was longer than the cap.
    pub asked_pause: Option<u64>,
    /// Nothing is sent until then (a 429's pause, or the server's count is spent).
    pub paused_until: Option<DateTime<Utc>>,
    /// The bucket is empty: the next request goes out then.
    pub next_at: Option<DateTime<Utc>>,
}

impl Mirror {
    /// Keeps the budget the scheduler published; the first time the profile's other
    /// processes' sends count in it (a restart within the server's minute, a `watch`
    /// beside), the words that say so, once a run.
    pub(super) fn on_budget(&mut self, view: View, now: DateTime<Utc>) -> Option<String> {
        self.keep_budget(view, now);
        (view.elsewhere > 0 && !std::mem::replace(&mut self.elsewhere_said, true)).then(|| {
            format!(
                "{} of the last minute's requests were sent by this profile's other runs \
                 (an earlier start, a watch): they count in the limit of {}/min, so reads \
                 go at the pace left",
                view.elsewhere, view.limit
            )
        })
    }

    fn keep_budget(&mut self, view: View, now: DateTime<Utc>) {
        let at = |d: std::time::Duration| {
            now + chrono::Duration::from_std(d).unwrap_or(chrono::Duration::days(1))
        };
        self.budget = Some(Shown {
            limit: view.limit,
            claimed: view.claimed,
            left: view.left,
            source: view.source,
            asked_pause: view.asked_pause,
            paused_until: view.paused_for.filter(|d| !d.is_zero()).map(at),
            next_at: view.next_in.filter(|d| !d.is_zero()).map(at),
        });
    }

    /// The budget, once the scheduler has said anything.
    pub fn budget(&self) -> Option<&Shown> {
        self.budget.as_ref()
    }

    /// Requests sent and not answered yet: the store's reads and the writes by ticket.
    pub(in crate::app) fn in_flight(&self) -> usize {
        self.store.in_flight() + self.writes.len()
    }

    /// What is waiting now, oldest first: each read sent and not answered with when it
    /// was asked, then each write on its way (`m` lists them under `⟳ N pending`).
    pub fn pending(&self) -> Vec<(String, Option<DateTime<Utc>>)> {
        let mut reads: Vec<(String, Option<DateTime<Utc>>)> = self
            .store
            .in_flight_requests()
            .map(|r| (r.what(), self.store.get(r).and_then(|e| e.sent)))
            .collect();
        reads.sort_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));
        let mut writes: Vec<String> = self.writes.values().map(Request::what).collect();
        writes.sort();
        reads.extend(writes.into_iter().map(|w| (w, None)));
        reads
    }

    /// When the next request may go out, if that is in the future and something waits.
    pub fn budget_wait(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let b = self.budget.as_ref()?;
        b.paused_until
            .or(b.next_at)
            .filter(|t| *t > now && self.in_flight() > 0)
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
            (Link::Unreachable { .. } | Link::Failing { .. } | Link::Unauthorized { .. }, _)
            | (Link::Throttled { .. }, None) => Some(self.connection.describe(now, offset)),
            (_, Some(until)) => {
                let asked = self.budget.as_ref().and_then(|b| b.asked_pause);
                Some(format!(
                    "throttled until {}{}",
                    until.with_timezone(&offset).format("%H:%M:%S"),
                    asked
                        .map(|secs| format!(
                            " (the server asked for {}; at most {})",
                            crate::text::span_words(secs),
                            crate::text::span_words(crate::api::gate::PAUSE_CAP.as_secs())
                        ))
                        .unwrap_or_default()
                ))
            }
            _ => None,
        }
    }

    /// While the API is unreachable, a tick every 10 s keeps "last answer N ago" true.
    pub(super) fn connection_wakeup(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.connection.down()?;
        Some(now + chrono::Duration::seconds(10))
    }

    /// The limit in use in plain words, with the tokens left: `60/min · 12 left` (the
    /// server's headers said it), `~60/min assumed · 60 left` (nothing said yet),
    /// `~30/min after a 429 · 4 left` (halved, climbing back), `600/min (server says
    /// 1,000,000) · 590 left` (a claim believed only up to the ceiling).
    pub fn budget_label(&self) -> Option<String> {
        let b = self.budget.as_ref()?;
        let count = |n: u32| crate::text::count(u64::from(n));
        let limit = match b.source {
            Source::Headers => format!("{}/min", count(b.limit)),
            Source::Assumed => format!("~{}/min assumed", count(b.limit)),
            Source::Learned => format!("~{}/min after a 429", count(b.limit)),
        };
        let claimed = b
            .claimed
            .map(|c| format!(" (server says {})", count(c)))
            .unwrap_or_default();
        Some(format!("{limit}{claimed} · {} left", count(b.left)))
    }

    /// `next in 23 s` while requests are held back, for the header beside the limit (the
    /// status line, when free, says why too).
    pub fn budget_next(&self, now: DateTime<Utc>) -> Option<String> {
        let until = self.budget_wait(now)?;
        let secs = ((until - now).num_milliseconds().max(0) + 999) / 1000;
        Some(format!("next in {}", short_secs(secs)))
    }

    /// "waiting for the server's limit (next in 23 s)" while requests are held back.
    pub fn budget_waiting(&self, now: DateTime<Utc>) -> Option<String> {
        Some(self.budget_held(now)?.words(now))
    }

    /// Until when requests are held back, and why, while they are.
    pub fn budget_held(&self, now: DateTime<Utc>) -> Option<Held> {
        let until = self.budget_wait(now)?;
        let by_server = self.budget.as_ref()?.paused_until.is_some();
        Some(Held { until, by_server })
    }

    /// A tick a second while a wait is shown.
    pub(super) fn budget_wakeup(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.budget_wait(now)?;
        Some(now + chrono::Duration::seconds(1))
    }
}

/// Requests held back by the budget: until when, and whether the server's limit holds them
/// (else the budget's own pace).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Held {
    pub until: DateTime<Utc>,
    pub by_server: bool,
}

impl Held {
    /// `waiting for the server's limit (next in 23 s)`, `paced by the request budget (…)`.
    pub fn words(self, now: DateTime<Utc>) -> String {
        let secs = ((self.until - now).num_milliseconds().max(0) + 999) / 1000;
        let why = if self.by_server {
            "waiting for the server's limit"
        } else {
            "paced by the request budget"
        };
        format!("{why} (next in {})", short_secs(secs))
    }

    /// The same in fewer words, for a narrow line: `server's limit, next in 23 s`,
    /// `paced, next in 3 s`.
    pub fn short_words(self, now: DateTime<Utc>) -> String {
        let secs = ((self.until - now).num_milliseconds().max(0) + 999) / 1000;
        let why = if self.by_server {
            "server's limit"
        } else {
            "paced"
        };
        format!("{why}, next in {}", short_secs(secs))
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
