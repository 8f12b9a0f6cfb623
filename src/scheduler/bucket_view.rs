//! What a [`Bucket`](super::Bucket) tells those who show it or keep it: the [`View`], why
//! a request would wait, and the figures the state file keeps.

use super::{Bucket, Hold, Lane, POLITE_CONCURRENCY, SHOWN_WAIT, Source, View};
use std::time::{Duration, Instant};

impl Bucket {
    /// How many requests may run at once: [`POLITE_CONCURRENCY`], or `bound` if lower.
    pub fn concurrency(&self, bound: usize) -> usize {
        POLITE_CONCURRENCY.min(bound)
    }

    pub fn view(&mut self, now: Instant) -> View {
        self.prune(now);
        let used = self.spent.len() as u32;
        let mut left = self.limit.saturating_sub(used);
        if let Some((server, _)) = self.server.left {
            left = left.min(server);
        }
        let paused = self
            .pause
            .until
            .or(self.server.left.filter(|(l, _)| *l == 0).map(|(_, t)| t));
        View {
            limit: self.limit,
            claimed: self.claimed.filter(|c| *c != self.limit),
            left,
            source: self.source,
            paused_for: paused.map(|t| t.saturating_duration_since(now)),
            asked_pause: self.pause.asked,
            next_in: self
                .next_send
                .map(|t| t.saturating_duration_since(now))
                .filter(|d| *d >= SHOWN_WAIT),
            throttled: self.throttled,
            elsewhere: self.elsewhere.len() as u32,
        }
    }

    /// The fetcher's next waiting request may go at `at` (`None`: nothing waits).
    pub fn set_next_send(&mut self, at: Option<Instant>) {
        self.next_send = at;
    }

    /// Why a request of `lane` would wait now, and how long.
    pub fn hold_for(&mut self, now: Instant, lane: Lane) -> Option<(Hold, Duration)> {
        self.prune(now);
        let (at, hold) = self.allowed(now, lane).err()?;
        Some((hold, at.saturating_duration_since(now)))
    }

    pub fn limit(&self) -> u32 {
        self.limit
    }

    pub fn source(&self) -> Source {
        self.source
    }

    /// The limit to keep in the state file: one the server's headers showed (and an answer
    /// confirmed in this run), else none.
    pub fn headers_limit(&self) -> Option<u32> {
        (self.source == Source::Headers && !self.provisional).then_some(self.limit)
    }

    /// The limit in use when it came from the server's headers, confirmed in this run or
    /// not yet contradicted (a route this run never heard from keeps an earlier run's).
    pub fn headers_figure(&self) -> Option<u32> {
        (self.source == Source::Headers).then_some(self.limit)
    }

    pub fn paused_until(&self) -> Option<Instant> {
        self.pause.until
    }

    /// Whether the pause in force was carried over from an earlier run's state file
    /// ([`Bucket::resume`]), not met in this one.
    pub fn pause_is_saved(&self) -> bool {
        self.pause.until.is_some() && self.pause.saved
    }

    /// The send times still counted, oldest first.
    pub fn spent(&self) -> impl Iterator<Item = Instant> + '_ {
        self.spent.iter().copied()
    }
}
