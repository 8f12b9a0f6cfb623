//! The request budget of one account: **one model**, stated here and in the README's
//! "Request limits". Pure: every method takes the time as an argument (the injected clock),
//! so tests drive hours in microseconds (`sim.rs` runs it against simulated servers).
//!
//! The spec says rate limits are "not shown"; what a robust client does:
//!
//! 1. **A log of sends.** A spent token comes back one window ([`WINDOW`] plus a
//!    [`MARGIN`] for a request that reaches the server later than it left) after it was
//!    spent. No span of that length holds more than the limit, so no fixed window of the
//!    server's can either (the common framework counts a fixed minute).
//! 2. **The person first.** A request of the [`Lane::Person`] or [`Lane::Screen`] lane (a
//!    person's ask, a write, what is on screen and never shown yet) goes **at once**
//!    while the log has room, up to half the limit back to back ([`Bucket::burst`]);
//!    past that burst it keeps the limit's even pace (`61 s ÷ limit` apart). The
//!    [`Lane::Background`] sweeps are spread evenly, one every `61 s ÷ (limit − reserve)`,
//!    and stop short of the **reserve** (a sixtieth of the limit, at least one token) in
//!    our count, so a person's first ask finds a token at once even while a sweep of
//!    every service runs, and the next within a pace interval (the sweep spends evenly,
//!    and the fetcher serves the person first). The server's `X-RateLimit-Remaining`
//!    only comes back when its window ends, so there the sweep and the screen leave the
//!    person a tenth of the limit, released in the window's last seconds (see
//!    `bucket_server.rs`). Both are small so a budget-bound sweep keeps almost all of the
//!    limit. Which waiting request takes the next token is the fetcher's queue (person,
//!    screen, sweeps).
//! 3. **Believe down at once, up within bounds.** Nothing known, the limit is
//!    [`ASSUMED_LIMIT`] a minute, or the user's `--max-rpm` / `max_requests_per_minute`
//!    (the user vouches for the account), and it never grows on answers that say nothing:
//!    silence is not permission (many servers ban, bill or drop instead of answering 429).
//!    `X-RateLimit-Limit` lower than that is taken at once; a higher one up to
//!    [`TRUST_CEILING`] (ten times the assumed figure), or up to the user's figure when
//!    they gave one: `--max-rpm` is a cap whatever the server says. The figure the server
//!    claimed is kept beside the one used, for the screen (`600/min (server says
//!    1,000,000)`).
//! 4. **Forgive.** A 429 on a server that shows no limit halves the limit (at most once
//!    per pause: the answers to requests sent before the cut teach nothing new), never
//!    below [`FLOOR`]; every whole window without a 429 gives back [`STEP`], up to the
//!    assumed figure, as TCP's additive increase, multiplicative decrease does. So one 429
//!    (another program on the same token, a burst of the server's) costs a few minutes at
//!    half speed, not the account for good; and a fresh process never starts from such a
//!    figure (see [`super::store`]).
//! 5. **Bound every wait.** A 429 pauses the account until its `Retry-After` (or
//!    `X-RateLimit-Reset`), at least a second, at most [`PAUSE_CAP`] (an hour; the figure
//!    the server asked for is kept for the screen); a 429 that names no time pauses for
//!    [`MIN_PAUSE`]. An `X-RateLimit-Remaining` of 0 holds requests until the reset, under
//!    the same cap. What waits is told: the [`View`] says when the next request goes and
//!    why, the scripting commands say it on standard error and do not wait on a pause
//!    longer than their patience (see [`super::Budget::take`]).
//! 6. **State is a hint, not an order**: what [`Bucket::resume`] takes from the state
//!    file is validated and clamped, and a limit saved from headers counts only once an
//!    answer confirms it (see [`super::store`]).
//! 7. **One budget per scope, one per profile.** A bucket is the budget of one scope: the
//!    account's, or one route's that showed a limit of its own; which answer teaches
//!    which, and which request takes whose tokens, is `scope.rs` (issue 46.3). The sends of
//!    the profile's other processes count as this one's ([`Bucket::count_elsewhere`],
//!    from the shared send log, `sendlog.rs`), so a dashboard, `watch`es and scripts on
//!    one token keep one log, one burst and one pace (issue 46.4).
//!
//! Concurrency is [`POLITE_CONCURRENCY`] requests at once, always, as a browser keeps to a
//! host: the budget bounds how many go in a window, this how many arrive at once.

pub use super::view::{Hold, Lane, SHOWN_WAIT, Source, View};
pub use crate::api::gate::{PAUSE_CAP, Signal, Token};
use parts::{Forgive, Pace, Pause, ServerCount};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// The span the server counts requests in.
pub const WINDOW: Duration = Duration::from_secs(60);
/// Added to the window before a token comes back.
pub const MARGIN: Duration = Duration::from_secs(1);
/// The limit assumed while the server has said nothing.
pub const ASSUMED_LIMIT: u32 = 60;
/// The most a server's `X-RateLimit-Limit` is believed, unless the user's own figure
/// vouches for more: ten times the assumed limit.
pub const TRUST_CEILING: u32 = 10 * ASSUMED_LIMIT;
/// The least a limit learned from 429s falls to (a tenth of the assumed figure).
pub const FLOOR: u32 = ASSUMED_LIMIT / 10;
/// What each whole window without a 429 gives back to a limit learned from 429s.
pub const STEP: u32 = ASSUMED_LIMIT / 10;
/// The pause after a 429 that named no time.
pub const MIN_PAUSE: Duration = Duration::from_secs(5);
/// Requests at once to the account's host (a browser uses about 6 per host).
pub const POLITE_CONCURRENCY: usize = 6;

#[derive(Clone, Debug)]
pub struct Bucket {
    /// [`WINDOW`], or a shorter one in tests against a sandbox of the same window.
    window: Duration,
    /// The user's figure (`--max-rpm`): assumed while nothing is known, and a cap.
    cap: Option<u32>,
    limit: u32,
    source: Source,
    /// The server's `X-RateLimit-Limit`, as sent.
    claimed: Option<u32>,
    /// A limit from an earlier run's headers, not yet confirmed by an answer.
    provisional: bool,
    /// When each token still out was spent, oldest first.
    spent: VecDeque<Instant>,
    /// …and those of them of the person's lane: the pace the lanes below leave them of
    /// the server's count.
    person: VecDeque<Instant>,
    /// …and those of them the profile's other processes (an earlier run, a `watch`)
    /// sent, read from the shared send log: a restart within the server's minute says
    /// they still count.
    elsewhere: VecDeque<Instant>,
    /// When each lane may send next.
    pace: Pace,
    /// A pause the server asked for.
    pause: Pause,
    /// The server's own count and whether another program spends the same token.
    server: ServerCount,
    /// The learned limit's halvings and climbs back.
    forgive: Forgive,
    in_flight: u32,
    /// When the fetcher's next waiting request may go (told by the fetcher).
    next_send: Option<Instant>,
    throttled: u64,
}

impl Bucket {
    /// A bucket knowing nothing, under the user's `cap` (requests a minute).
    pub fn new(cap: Option<u32>) -> Self {
        let cap = cap.map(|c| c.max(1));
        Self {
            window: WINDOW,
            cap,
            limit: cap.unwrap_or(ASSUMED_LIMIT),
            source: Source::Assumed,
            claimed: None,
            provisional: false,
            spent: VecDeque::new(),
            person: VecDeque::new(),
            elsewhere: VecDeque::new(),
            pace: Pace::default(),
            pause: Pause::default(),
            server: ServerCount::default(),
            forgive: Forgive::default(),
            in_flight: 0,
            next_send: None,
            throttled: 0,
        }
    }

    /// A bucket counting in another window than the server's minute: for tests against a
    /// sandbox whose window is as short, so minutes of behaviour take seconds.
    pub fn with_window(cap: Option<u32>, window: Duration) -> Self {
        Self {
            window,
            ..Self::new(cap)
        }
    }

    /// A bucket that starts from what an earlier run left ([`super::store`]), each figure a
    /// hint: a headers limit only when lower than the assumed one and until an answer
    /// says otherwise, no limit learned from 429s, the sends inside the window (at most a
    /// limit's worth), a pause of at most [`PAUSE_CAP`].
    pub fn resume(
        cap: Option<u32>,
        headers_limit: Option<u32>,
        spent: impl IntoIterator<Item = Instant>,
        paused_until: Option<Instant>,
        now: Instant,
    ) -> Self {
        let mut b = Self::new(cap);
        if let Some(saved) = headers_limit.filter(|l| (1..b.limit).contains(l)) {
            b.limit = saved;
            b.claimed = Some(saved);
            b.source = Source::Headers;
            b.provisional = true;
        }
        let mut spent: Vec<Instant> = spent
            .into_iter()
            .filter(|t| *t <= now && now.duration_since(*t) < b.span())
            .collect();
        spent.sort();
        let keep = spent.len().saturating_sub(b.limit as usize);
        b.spent = spent.drain(keep..).collect();
        b.pause.until = paused_until
            .filter(|t| *t > now)
            .map(|t| t.min(now + PAUSE_CAP));
        b.pause.saved = b.pause.until.is_some();
        b
    }

    /// The window and its margin: how long a spent token stays out.
    fn span(&self) -> Duration {
        self.window + MARGIN
    }

    /// The figure assumed while the server says nothing.
    fn assumed(&self) -> u32 {
        self.cap.unwrap_or(ASSUMED_LIMIT)
    }

    /// The most a server's figure is believed.
    fn ceiling(&self) -> u32 {
        self.cap.unwrap_or(TRUST_CEILING)
    }

    /// Tokens the background leaves to a person in our count.
    fn reserve(&self) -> u32 {
        (self.limit / 60).max(1).min(self.limit.saturating_sub(1))
    }

    /// How many foreground requests may go back to back: half the limit, at least one.
    pub fn burst(&self) -> u32 {
        self.limit.div_ceil(2).max(1)
    }

    /// The even pace of the foreground past its burst.
    fn interval(&self) -> Duration {
        self.span() / self.limit.max(1)
    }

    /// The even pace of the background: its share of the window, spread.
    fn background_interval(&self) -> Duration {
        self.span() / (self.limit - self.reserve()).max(1)
    }

    fn prune(&mut self, now: Instant) {
        let span = self.span();
        while self
            .spent
            .front()
            .is_some_and(|t| now.saturating_duration_since(*t) >= span)
        {
            self.spent.pop_front();
        }
        while self
            .person
            .front()
            .is_some_and(|t| now.saturating_duration_since(*t) >= span)
        {
            self.person.pop_front();
        }
        while self
            .elsewhere
            .front()
            .is_some_and(|t| now.saturating_duration_since(*t) >= span)
        {
            self.elsewhere.pop_front();
        }
        if self.pause.until.is_some_and(|t| t <= now) {
            self.pause.until = None;
            self.pause.asked = None;
            self.pause.saved = false;
        }
        if self.server.left.is_some_and(|(_, until)| until <= now) {
            self.server.left = None;
        }
        self.forgive(now);
    }

    /// A limit learned from 429s climbs back a [`STEP`] per whole window without one.
    fn forgive(&mut self, now: Instant) {
        if self.source != Source::Learned {
            return;
        }
        let span = self.span();
        while let Some(since) = self.forgive.clean_since
            && now.saturating_duration_since(since) >= span
        {
            self.limit = (self.limit + STEP).min(self.assumed());
            self.forgive.clean_since = Some(since + span);
            if self.limit >= self.assumed() {
                self.source = Source::Assumed;
                self.forgive.clean_since = None;
            }
        }
    }

    /// When a request of `lane` may take a token: `Ok` now, or the instant to ask again
    /// and why.
    fn allowed(&self, now: Instant, lane: Lane) -> Result<(), (Instant, Hold)> {
        if let Some(until) = self.pause.until {
            return Err((until, Hold::Paused));
        }
        self.server_allows(now, lane)?;
        let foreground = lane.is_foreground();
        let leave = if foreground { 0 } else { self.reserve() };
        let room = self.limit - leave;
        if self.spent.len() as u32 >= room {
            let i = self.spent.len() - room as usize;
            let back = self.spent.get(i).map_or(now, |t| *t + self.span());
            return Err((back.max(now + Duration::from_millis(1)), Hold::Budget));
        }
        let paced = if foreground {
            let slack = self.interval() * (self.burst() - 1);
            self.pace
                .foreground
                .map_or(now, |tat| tat.checked_sub(slack).unwrap_or(now))
        } else {
            self.pace.background.unwrap_or(now)
        };
        if paced > now {
            Err((paced, Hold::Budget))
        } else {
            Ok(())
        }
    }

    /// Takes a token for a request of `lane`, or says when to ask again (see the module
    /// docs).
    pub fn try_take(&mut self, now: Instant, lane: Lane) -> Result<Token, Instant> {
        self.prune(now);
        self.allowed(now, lane).map_err(|(at, _)| at)?;
        if lane.is_foreground() {
            let at = self.pace.foreground.map_or(now, |t| t.max(now));
            self.pace.foreground = Some(at + self.interval());
            if lane == Lane::Person {
                self.person.push_back(now);
            }
        } else {
            let at = self.pace.background.map_or(now, |t| t.max(now));
            self.pace.background = Some(at + self.background_interval());
        }
        self.spent.push_back(now);
        self.in_flight += 1;
        if let Some((left, _)) = &mut self.server.left {
            *left = left.saturating_sub(1);
        }
        Ok(Token {
            sent: now,
            route: None,
        })
    }

    /// A request taken with `token` ended without an answer from the server (it never
    /// reached it, or no status came back).
    pub fn unanswered(&mut self, _token: Token) {
        self.in_flight = self.in_flight.saturating_sub(1);
    }

    /// A request taken with `token` never reached the server (its connection could not be
    /// made): its token is not spent, and the pace it set is taken back.
    pub fn refund(&mut self, token: Token) {
        self.unanswered(token);
        if let Some(i) = self.spent.iter().rposition(|t| *t == token.sent) {
            self.spent.remove(i);
        }
        if let Some(i) = self.person.iter().rposition(|t| *t == token.sent) {
            self.person.remove(i);
        }
        if let Some((left, _)) = &mut self.server.left {
            *left = left.saturating_add(1);
        }
        // The pace of its lane, when it was the last taken there: as if it had not been.
        let (foreground, background) = (self.interval(), self.background_interval());
        for (pace, step) in [
            (&mut self.pace.foreground, foreground),
            (&mut self.pace.background, background),
        ] {
            if *pace == Some(token.sent + step) {
                *pace = Some(token.sent);
            }
        }
    }

    /// The server answered a request taken with `token`.
    pub fn observe(&mut self, token: Token, signal: &Signal, now: Instant) {
        self.unanswered(token);
        self.prune(now);
        match signal.limit.filter(|l| *l > 0) {
            Some(claimed) => {
                self.claimed = Some(claimed);
                self.limit = claimed.min(self.ceiling());
                self.source = Source::Headers;
                self.provisional = false;
                self.forgive.clean_since = None;
            }
            // An earlier run's figure that this server no longer shows.
            None if self.provisional => {
                self.provisional = false;
                self.claimed = None;
                self.limit = self.assumed();
                self.source = Source::Assumed;
            }
            None => {}
        }
        // Whatever the server named, at most the cap: a server's word is believed within
        // bounds, and the pause is said to be cut.
        let named = signal.reset_in.or(signal.retry_after);
        let window_end = named.map(|s| now + Duration::from_secs(s).min(PAUSE_CAP));
        if let Some(remaining) = signal.remaining {
            self.server_count(remaining, window_end, now);
        }
        if !signal.throttled {
            return;
        }
        self.throttled += 1;
        if self.source != Source::Headers {
            let news = self.forgive.cut_at.is_none_or(|cut| token.sent >= cut);
            if news {
                self.limit = (self.limit / 2).max(FLOOR.min(self.assumed())).max(1);
                self.source = Source::Learned;
                self.forgive.cut_at = Some(now);
            }
            self.forgive.clean_since = Some(now);
        }
        // At least a second, so a server answering `Retry-After: 0` is not hammered.
        let until = window_end
            .map(|t| t.max(now + Duration::from_secs(1)))
            .unwrap_or(now + MIN_PAUSE);
        if self.pause.until.is_none_or(|p| until > p) {
            self.pause.until = Some(until);
            self.pause.asked = named.filter(|s| Duration::from_secs(*s) > PAUSE_CAP);
            self.pause.saved = false;
        }
    }
}

#[path = "bucket_parts.rs"]
mod parts;
#[path = "bucket_server.rs"]
mod server;
#[path = "bucket_shared.rs"]
mod shared;
#[path = "bucket_view.rs"]
mod view;

#[cfg(test)]
#[path = "bucket_tests.rs"]
mod tests;
