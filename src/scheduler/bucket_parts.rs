//! The parts of a [`Bucket`](super::Bucket)'s state, each one thing it keeps
//! (its pace, a pause, the server's count, how a learned limit forgives).

use std::time::Instant;

/// When each lane may send next.
#[derive(Clone, Debug, Default)]
pub(super) struct Pace {
    /// The foreground's theoretical arrival time (a generic cell rate with a burst).
    pub(super) foreground: Option<Instant>,
    /// When the background may send next.
    pub(super) background: Option<Instant>,
}

/// A pause the server asked for (429), capped.
#[derive(Clone, Debug, Default)]
pub(super) struct Pause {
    pub(super) until: Option<Instant>,
    /// What the server asked for when it was more than the cap, to say so.
    pub(super) asked: Option<u64>,
    /// Whether it was carried over from an earlier run's state file rather than asked for
    /// in this one: said as such (nothing of this run met the server's limit).
    pub(super) saved: bool,
}

/// What the server says of its own count.
#[derive(Clone, Debug, Default)]
pub(super) struct ServerCount {
    /// Requests it still takes until the instant.
    pub(super) left: Option<(u32, Instant)>,
    /// Another program spends the same token (the server counted more than we sent),
    /// seen until then: the background leaves what may be on its way from them too.
    pub(super) shared_until: Option<Instant>,
}

/// How a limit learned from 429s is halved and climbs back.
#[derive(Clone, Debug, Default)]
pub(super) struct Forgive {
    /// The last halving: a 429 to a request sent before it teaches nothing new.
    pub(super) cut_at: Option<Instant>,
    /// The start of the current window without a 429 (the limit climbs a [`STEP`](super::STEP) each
    /// whole one).
    pub(super) clean_since: Option<Instant>,
}
