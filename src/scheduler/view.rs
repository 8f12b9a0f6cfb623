//! The budget's words, shared with those who ask it and show it: who waits on a request
//! ([`Lane`]), where the limit comes from ([`Source`]), why requests wait ([`Hold`]), and
//! the [`View`] the screen, the log and the command line read (the model itself is
//! `bucket.rs`).

use std::time::Duration;

/// The shortest wait for the budget the screen is told of (a sweep paced a second apart
/// is the budget working, not waiting).
pub const SHOWN_WAIT: Duration = Duration::from_secs(2);

/// Who waits on a request, which decides when it may take a token (see `bucket.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lane {
    /// A person waits on it: a form's data, a write, an IP list, a selected item's detail
    /// asked for, a scripting command's request.
    Person,
    /// On screen and never shown yet (or asked again with `r`): the first screen's lists,
    /// the visible rows' cells, the selected detail or chart.
    Screen,
    /// The engine's sweeps: everything kept fresh whether shown or not.
    Background,
}

impl Lane {
    pub const ALL: [Lane; 3] = [Lane::Person, Lane::Screen, Lane::Background];

    /// The person's lanes: at once, up to the burst.
    pub fn is_foreground(self) -> bool {
        self != Lane::Background
    }
}

/// Where the limit in use comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Nothing seen yet: the assumed limit (`ASSUMED_LIMIT`), or the user's figure. Never grows on silence,
    /// and never saved as a figure (see `store.rs`).
    Assumed,
    /// `X-RateLimit-Limit`, within the trust ceiling (`TRUST_CEILING`).
    Headers,
    /// 429s without headers: halved on each, climbing back between them.
    Learned,
}

/// Why requests wait, for the screen and standard error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hold {
    /// A 429 paused the account (or the server's own count is spent until its reset).
    Paused,
    /// Our own count: the window is full, or the even pace spaces the requests.
    Budget,
}

/// The budget as the screen and the log show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    /// Requests a minute, as used.
    pub limit: u32,
    /// The server's `X-RateLimit-Limit` when it differs from what is used (believed only
    /// up to the ceiling).
    pub claimed: Option<u32>,
    /// Tokens left now.
    pub left: u32,
    pub source: Source,
    /// Paused by a 429 (or an exhausted server count) until this long from the view's time.
    pub paused_for: Option<Duration>,
    /// The pause the server asked for, in seconds, when it was longer than the cap
    /// ([`crate::api::PAUSE_CAP`]).
    pub asked_pause: Option<u64>,
    /// Requests wait for the budget: the next goes out in this long (a wait shorter than
    /// [`SHOWN_WAIT`] is not told).
    pub next_in: Option<Duration>,
    /// 429s answered so far.
    pub throttled: u64,
    /// Of the requests of the window, those the profile's other processes sent (an
    /// earlier run within the server's minute, a `watch`), from the shared send log.
    pub elsewhere: u32,
}

impl View {
    /// Why the next request waits, if it does.
    pub fn hold(&self) -> Option<(Hold, Duration)> {
        self.paused_for
            .filter(|d| !d.is_zero())
            .map(|d| (Hold::Paused, d))
            .or(self.next_in.map(|d| (Hold::Budget, d)))
    }
}
