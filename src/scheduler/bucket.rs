//! The request budget of one account: a bucket of `limit` tokens in which a token spent comes
//! back one window ([`WINDOW`] plus [`MARGIN`]) after it was spent. Pure: every method takes
//! the time as an argument (the injected clock), so tests drive hours in microseconds.
//!
//! Choices (the spec says rate limits are "not shown"):
//! - A spent token comes back a whole window later (a log of send times) rather than
//!   dripping back at `limit / 60` a second: the common server throttle counts requests in a
//!   fixed window, and no 60-second span of our sends holding more than `limit` means no
//!   window of the server's can hold more either. The [`MARGIN`] of a second covers a
//!   request that reaches the server later than it left.
//! - Nothing known: the budget assumes [`ASSUMED_LIMIT`] a minute (the common framework's
//!   default for an API), or the user's `--max-rpm` / `max_requests_per_minute` when given
//!   (the user vouches for the account's limit). Silence is not permission: the assumed
//!   figure never grows on answers that say nothing (many servers ban, bill or silently
//!   drop instead of answering 429), only on the server's own `X-RateLimit-Limit`.
//! - Learning from headers: `X-RateLimit-Limit` becomes the limit; `X-RateLimit-Remaining`
//!   (less what is still in flight) caps what is sent until `X-RateLimit-Reset` (or the
//!   window's end), so another program on the same token is accounted for.
//! - Learning without headers: a 429 sets the limit to what the server took (answered
//!   without a 429) in the last window, and answers of the same burst that arrive after
//!   it and were taken raise it to their count (the server allows at least that); a later
//!   429 sets it again to what was taken. Never above what was assumed before.
//! - Spread evenly: under any limit, requests go out at most one per `(window + margin) /
//!   limit` (a generic cell rate: one a second at 60 a minute), with a burst of at most
//!   [`BURST`] (a tenth of the limit, at least one) after a quiet spell, so a first
//!   screen's few lists go at once and no second ever holds a minute's worth.
//! - A 429 pauses every request of the account until its `Retry-After` (or
//!   `X-RateLimit-Reset`); without either, until the first token comes back, and at least
//!   [`MIN_PAUSE`].
//! - The user's ceiling (`max_requests_per_minute`, `--max-rpm`) caps all of the above.
//! - Once a limit is known, the sweeps (per-service background calls) are paced evenly over
//!   the window and leave a tenth of the budget (the reserve, at least one token) to what
//!   the user waits on, and the tabs' lists (refreshed on a timer as well as asked for)
//!   leave half of it: so a selected service's detail or a form's list never waits for a
//!   window of background requests to come back. The reserve is kept in both counts: ours
//!   (the log of send times) and the server's (`X-RateLimit-Remaining`), since a server
//!   counting in fixed windows gives nothing back until its window ends, which may be most
//!   of a minute away.
//! - The reserve is kept for a window after a person last asked for something
//!   ([`Bucket::asked`]); while nobody has, it is lent to the background ([`LENT_RESERVE`]):
//!   an account nobody touches (`watch`, a dashboard left open) is read at the whole
//!   limit. A person coming back waits at most one pace interval for their first token
//!   (the background is spread evenly, so one comes back every interval: a second at 60 a
//!   minute), and from that ask the background stops short of the reserve again, so their
//!   next requests find tokens at once. (Keeping even one token back cost a budget-bound
//!   account its second read of some lists within five minutes; see `tests/engine.rs`.)
//!   The price: when another program on the same token has spent most of a fixed-window
//!   server's count, the person's first ask may wait for that window's end.
//! - Concurrency is [`POLITE_CONCURRENCY`] requests at once, always, as a browser keeps to
//!   a host: the bucket bounds how many go in a window, this how many arrive at once.

pub use crate::api::gate::{Signal, Ticket};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// The span the server counts requests in.
pub const WINDOW: Duration = Duration::from_secs(60);
/// Added to the window before a token comes back.
pub const MARGIN: Duration = Duration::from_secs(1);
/// The limit assumed while the server has said nothing.
pub const ASSUMED_LIMIT: u32 = 60;
/// The shortest pause after a 429 that named no time.
pub const MIN_PAUSE: Duration = Duration::from_secs(5);
/// The most requests sent back to back after a quiet spell (see [`Bucket::burst`]).
pub const BURST: u32 = 6;
/// The shortest wait for the budget the screen is told of (a sweep paced a second apart
/// is the budget working, not waiting).
pub const SHOWN_WAIT: Duration = Duration::from_secs(2);
/// The reserve left to a person while nobody has asked for anything for a window: none,
/// it is all lent to the background (see the module docs).
pub const LENT_RESERVE: u32 = 0;
/// Requests at once to the account's host (a browser uses about 6 per host).
pub const POLITE_CONCURRENCY: usize = 6;

/// Who a token is for, which decides how much of the budget it may spend (see the module
/// docs): the user's lines all of it, the lists all but half the reserve, the sweeps all
/// but the reserve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Priority {
    /// What the user waits on: a form's request, a write, a selected item's detail; a
    /// script's request.
    User,
    /// A tab's list, the credit.
    List,
    /// The per-service calls made in bulk.
    Sweep,
}

/// Where the current limit comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Nothing seen yet: [`ASSUMED_LIMIT`], or the user's ceiling. Never grows on silence,
    /// and never saved as a figure (see [`super::store`]).
    Assumed,
    /// `X-RateLimit-Limit`.
    Headers,
    /// 429s without headers.
    Learned,
}

/// The budget as the screen and the log show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    /// Requests a minute.
    pub limit: u32,
    /// Tokens left now.
    pub left: u32,
    pub source: Source,
    /// Paused by a 429 (or an exhausted server count) until this long from the view's time.
    pub paused_for: Option<Duration>,
    /// Requests wait for the budget: the next goes out in this long (the bucket is empty,
    /// or the queue's next request is held back for the reserve or the sweeps' pace; a
    /// wait shorter than [`SHOWN_WAIT`] is not told).
    pub next_in: Option<Duration>,
    /// 429s answered so far.
    pub throttled: u64,
}

#[derive(Clone, Debug)]
pub struct Bucket {
    /// [`WINDOW`], or a shorter one in tests against a sandbox of the same window.
    window: Duration,
    limit: u32,
    ceiling: Option<u32>,
    source: Source,
    /// When each token still out was spent, oldest first.
    spent: VecDeque<Instant>,
    /// When each answer the server took (not a 429) arrived, within the window.
    accepted: VecDeque<Instant>,
    paused_until: Option<Instant>,
    /// The server's own count: requests it still takes until the instant.
    server_left: Option<(u32, Instant)>,
    in_flight: u32,
    /// The generic cell rate's theoretical arrival time: requests are spaced
    /// [`Bucket::interval`] apart, with [`Bucket::burst`] of slack.
    paced_until: Option<Instant>,
    /// When the last sweep request was let go (sweeps are paced).
    last_sweep: Option<Instant>,
    /// When the fetcher's next waiting request may go (told by the fetcher).
    next_send: Option<Instant>,
    /// When a person last asked for something: the reserve is theirs for a window after.
    asked_at: Option<Instant>,
    throttled: u64,
}

impl Bucket {
    /// A bucket knowing nothing, under the user's `ceiling` (requests a minute).
    pub fn new(ceiling: Option<u32>) -> Self {
        let ceiling = ceiling.map(|c| c.max(1));
        Self {
            window: WINDOW,
            limit: ceiling.unwrap_or(ASSUMED_LIMIT),
            ceiling,
            source: Source::Assumed,
            spent: VecDeque::new(),
            accepted: VecDeque::new(),
            paused_until: None,
            server_left: None,
            in_flight: 0,
            paced_until: None,
            last_sweep: None,
            next_send: None,
            asked_at: None,
            throttled: 0,
        }
    }

    /// A bucket counting in another window than the server's minute: for tests against a
    /// sandbox whose window is as short, so minutes of behaviour take seconds.
    pub fn with_window(ceiling: Option<u32>, window: Duration) -> Self {
        Self {
            window,
            ..Self::new(ceiling)
        }
    }

    /// A bucket that starts from what an earlier run learned (see [`super::store`]): the
    /// `limit` only if the server showed it (headers or 429s); an assumed figure is
    /// assumed afresh under today's ceiling. The pace is replayed from the sends.
    pub fn resume(
        ceiling: Option<u32>,
        learned: Option<(u32, Source)>,
        spent: impl IntoIterator<Item = Instant>,
        paused_until: Option<Instant>,
    ) -> Self {
        let mut b = Self::new(ceiling);
        if let Some((limit, source)) = learned.filter(|(_, s)| *s != Source::Assumed) {
            b.source = source;
            b.limit = b.capped(limit.max(1));
        }
        b.spent = spent.into_iter().collect();
        b.spent.make_contiguous().sort();
        let interval = b.interval();
        b.paced_until = b.spent.iter().fold(None, |tat: Option<Instant>, t| {
            Some(tat.map_or(*t, |tat| tat.max(*t)) + interval)
        });
        b.paused_until = paused_until;
        b
    }

    /// The spacing of requests under the limit: a window (with its margin) over the limit.
    fn interval(&self) -> Duration {
        (self.window + MARGIN) / self.limit.max(1)
    }

    /// How many requests may go back to back after a quiet spell: a tenth of the limit,
    /// at least one, at most [`BURST`].
    fn burst(&self) -> u32 {
        (self.limit / 10).clamp(1, BURST)
    }

    /// When the pace lets the next request go (now or earlier: it may go).
    fn paced(&self, now: Instant) -> Instant {
        let slack = self.interval() * (self.burst() - 1);
        self.paced_until
            .map_or(now, |tat| tat.checked_sub(slack).unwrap_or(now))
    }

    fn capped(&self, limit: u32) -> u32 {
        self.ceiling.map_or(limit, |c| limit.min(c)).max(1)
    }

    fn prune(&mut self, now: Instant) {
        while self
            .spent
            .front()
            .is_some_and(|t| now.saturating_duration_since(*t) >= self.window + MARGIN)
        {
            self.spent.pop_front();
        }
        while self
            .accepted
            .front()
            .is_some_and(|t| now.saturating_duration_since(*t) >= self.window)
        {
            self.accepted.pop_front();
        }
        if self.paused_until.is_some_and(|t| t <= now) {
            self.paused_until = None;
        }
        if self.server_left.is_some_and(|(_, until)| until <= now) {
            self.server_left = None;
        }
    }

    /// A person asked for something (a detail, a form's list, a write): the whole reserve
    /// is kept for them from now until a window has passed without another ask.
    pub fn asked(&mut self, now: Instant) {
        self.asked_at = Some(self.asked_at.map_or(now, |t| t.max(now)));
    }

    /// Tokens a sweep leaves for what the user waits on: a tenth of the limit while a
    /// person is about, else [`LENT_RESERVE`] (see the module docs).
    fn reserve(&self, now: Instant) -> u32 {
        let full = (self.limit / 10).max(1).min(self.limit.saturating_sub(1));
        let kept = self
            .asked_at
            .is_some_and(|t| now.saturating_duration_since(t) < self.window + MARGIN);
        if kept { full } else { LENT_RESERVE }
    }

    /// Tokens a request of `priority` leaves to those above it.
    fn leaves(&self, priority: Priority, now: Instant) -> u32 {
        match priority {
            Priority::User => 0,
            Priority::List => self.reserve(now) / 2,
            Priority::Sweep => self.reserve(now),
        }
    }

    /// Takes a token for a request of `priority`, or says when to ask again. Every request
    /// keeps the pace (see the module docs); the sweeps are paced slower still, and the
    /// background leaves a reserve in both counts, so what the user asks for next finds a
    /// token at once.
    pub fn try_take(&mut self, now: Instant, priority: Priority) -> Result<Ticket, Instant> {
        self.prune(now);
        if let Some(until) = self.paused_until {
            return Err(until);
        }
        let leave = self.leaves(priority, now);
        if let Some((left, until)) = self.server_left
            && left <= leave
        {
            return Err(until);
        }
        let used = self.spent.len() as u32;
        if used >= self.limit - leave {
            let back = self
                .spent
                .front()
                .map_or(now, |t| *t + self.window + MARGIN);
            return Err(back.max(now + Duration::from_millis(1)));
        }
        let paced = self.paced(now);
        if paced > now {
            return Err(paced);
        }
        if priority == Priority::Sweep {
            let share = self.limit - self.reserve(now);
            let pace = (self.window + MARGIN) / share.max(1);
            let paced = self.last_sweep.map_or(now, |t| t + pace);
            if paced > now {
                return Err(paced);
            }
            self.last_sweep = Some(now);
        }
        self.paced_until = Some(self.paced_until.map_or(now, |t| t.max(now)) + self.interval());
        self.spent.push_back(now);
        self.in_flight += 1;
        if let Some((left, _)) = &mut self.server_left {
            *left = left.saturating_sub(1);
        }
        Ok(Ticket::Normal)
    }

    /// A request taken with `ticket` ended without an answer from the server (it never
    /// reached it, or no status came back).
    pub fn unanswered(&mut self, _ticket: Ticket) {
        self.in_flight = self.in_flight.saturating_sub(1);
    }

    /// The server answered a request taken with `ticket`.
    pub fn observe(&mut self, ticket: Ticket, signal: &Signal, now: Instant) {
        self.unanswered(ticket);
        self.prune(now);
        if let Some(limit) = signal.limit.filter(|l| *l > 0) {
            self.source = Source::Headers;
            self.limit = self.capped(limit);
        }
        let window_end = signal
            .reset_in
            .or(signal.retry_after)
            .map(|s| now + Duration::from_secs(s.min(86_400)));
        if let Some(remaining) = signal.remaining {
            let until = window_end.unwrap_or_else(|| self.server_window_end(remaining, now));
            self.server_left = Some((remaining, until));
        }
        if signal.throttled {
            self.throttled += 1;
            if self.source != Source::Headers {
                // What the server took in the window is what it allows.
                self.limit = self.capped(self.accepted.len() as u32);
                self.source = Source::Learned;
            }
            // At least a second, so a server answering `Retry-After: 0` is not hammered.
            let until = window_end.map(|t| t.max(now + Duration::from_secs(1)));
            let until = until.unwrap_or_else(|| {
                let back = self
                    .spent
                    .front()
                    .map_or(now, |t| *t + self.window + MARGIN);
                back.max(now + MIN_PAUSE)
            });
            self.paused_until = Some(self.paused_until.map_or(until, |p| p.max(until)));
        } else {
            self.accepted.push_back(now);
            // Answers of a burst arrive after its first 429: the server took them, so it
            // allows at least that many. (An answer that says nothing teaches nothing else.)
            if self.source == Source::Learned {
                self.limit = self.capped(self.limit.max(self.accepted.len() as u32));
            }
        }
    }

    /// When the server's window ends, as far as our sends tell, for an answer that said
    /// `remaining` without saying when its count resets. The server has counted
    /// `limit - remaining` requests since its window began, so it began no later than the
    /// send that many back, and ends a window after it. (Kept a whole window from the
    /// answer instead, a count of 0 held every request, the user's too, for up to a minute
    /// after the server had started counting afresh.) Forgetting the server's count early
    /// is safe: our own log keeps to the limit in any window on its own; the count is there
    /// for what others spend on the same token.
    fn server_window_end(&self, remaining: u32, now: Instant) -> Instant {
        let counted = self.limit.saturating_sub(remaining) as usize;
        let began = match counted {
            0 => now,
            n => self
                .spent
                .len()
                .checked_sub(n)
                .and_then(|i| self.spent.get(i))
                .or(self.spent.front())
                .copied()
                .unwrap_or(now),
        };
        (began + self.window + MARGIN).max(now)
    }

    /// How many requests may run at once: [`POLITE_CONCURRENCY`], or `bound` if lower.
    pub fn concurrency(&self, bound: usize) -> usize {
        POLITE_CONCURRENCY.min(bound)
    }

    pub fn view(&mut self, now: Instant) -> View {
        self.prune(now);
        let used = self.spent.len() as u32;
        let mut left = self.limit.saturating_sub(used);
        if let Some((server, _)) = self.server_left {
            left = left.min(server);
        }
        let paused = self
            .paused_until
            .or(self.server_left.filter(|(l, _)| *l == 0).map(|(_, t)| t));
        View {
            limit: self.limit,
            left,
            source: self.source,
            paused_for: paused.map(|t| t.saturating_duration_since(now)),
            next_in: self
                .next_send
                .or((left == 0)
                    .then(|| self.spent.front().map(|t| *t + self.window + MARGIN))
                    .flatten())
                .map(|t| t.saturating_duration_since(now))
                .filter(|d| *d >= SHOWN_WAIT),
            throttled: self.throttled,
        }
    }

    /// The fetcher's next waiting request may go at `at` (`None`: nothing waits).
    pub fn set_next_send(&mut self, at: Option<Instant>) {
        self.next_send = at;
    }

    pub fn limit(&self) -> u32 {
        self.limit
    }

    pub fn source(&self) -> Source {
        self.source
    }

    pub fn paused_until(&self) -> Option<Instant> {
        self.paused_until
    }

    /// The send times still counted, oldest first.
    pub fn spent(&self) -> impl Iterator<Item = Instant> + '_ {
        self.spent.iter().copied()
    }
}

#[cfg(test)]
#[path = "bucket_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "bucket_reserve_tests.rs"]
mod reserve_tests;
