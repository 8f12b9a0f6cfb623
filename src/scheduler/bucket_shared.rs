//! What a [`Bucket`](super::Bucket) is told from outside its own sends: the sends of the
//! other processes of the profile (read from the shared send log, `sendlog.rs`), and the
//! questions the scopes (`scope.rs`) ask of a route's bucket.

use super::{Bucket, Hold, Lane};
use std::time::Instant;

impl Bucket {
    /// A bucket knowing nothing, under the same cap and window: a route's own, when its
    /// answers first say something of it.
    pub fn fresh(&self) -> Bucket {
        Bucket::with_window(self.cap, self.window)
    }

    /// When a request of `lane` may take a token, and why it waits; `None`: now.
    pub fn wait(&mut self, now: Instant, lane: Lane) -> Option<(Instant, Hold)> {
        self.prune(now);
        self.allowed(now, lane).err()
    }

    /// Another process of the profile sent a request of `lane` at `at`: it counts in the
    /// log as one of ours, and moves the lane's pace on as one of ours would, so the
    /// processes of one profile together keep the one budget (bursts and even pace
    /// included) rather than each its own.
    pub fn count_elsewhere(&mut self, at: Instant, lane: Lane, now: Instant) {
        let at = at.min(now);
        if now.saturating_duration_since(at) >= self.span() {
            return;
        }
        let i = self.spent.partition_point(|t| *t <= at);
        self.spent.insert(i, at);
        let i = self.elsewhere.partition_point(|t| *t <= at);
        self.elsewhere.insert(i, at);
        if lane.is_foreground() {
            let tat = self.pace.foreground.map_or(at, |t| t.max(at));
            self.pace.foreground = Some(tat + self.interval());
        } else {
            let next = self.pace.background.map_or(at, |t| t.max(at));
            self.pace.background = Some(next + self.background_interval());
        }
        // Bounded by the most the limit can become: only the newest limit's worth of
        // sends can change a decision.
        while self.spent.len() > self.ceiling() as usize {
            self.spent.pop_front();
        }
        while self.elsewhere.len() > self.ceiling() as usize {
            self.elsewhere.pop_front();
        }
    }

    /// Whether the bucket holds nothing of its own: no figure of the server's, no pause,
    /// no count of the server's (a route's bucket like that is forgotten).
    pub fn holds_nothing(&self) -> bool {
        self.source == super::Source::Assumed
            && self.pause.until.is_none()
            && self.server.left.is_none()
    }

    /// A send of this process counted in a bucket made after it left (a route's own,
    /// made from its answer): the answer to it then ends it as for any other. Its lane is
    /// not known: it moves the foreground's pace, the stricter.
    pub fn count_sent(&mut self, at: Instant) {
        let i = self.spent.partition_point(|t| *t <= at);
        self.spent.insert(i, at);
        let tat = self.pace.foreground.map_or(at, |t| t.max(at));
        self.pace.foreground = Some(tat + self.interval());
        self.in_flight += 1;
    }

    /// Forgets what the time has made old (sends out of the window, a pause over, the
    /// server's count reset) and lets a learned limit climb back.
    pub fn prune_now(&mut self, now: Instant) {
        self.prune(now);
    }

    /// The figure the server's headers showed and the bucket believes (within the
    /// ceiling), as the server sent it.
    pub fn claimed_figure(&self) -> Option<u32> {
        self.claimed
            .filter(|_| self.source == super::Source::Headers)
    }
}
