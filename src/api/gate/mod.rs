//! The small interface the API client needs of whoever counts its requests: a gate it
//! asks before each attempt and tells after each answer. The account's request budget
//! ([`crate::scheduler::Budget`]) implements it; the client knows nothing of the scheduler.
//!
//! - [`Gate::take`] waits for the right to send one attempt of a [`Route`] (a script's
//!   request, a retry), or refuses when the account is paused for longer than the caller will wait
//!   ([`Refused`]: the client answers it as the server's 429, with the time). The fetcher
//!   takes the first attempt's token itself, so the queue's order decides who goes next,
//!   and hands it over in [`PREPAID`].
//! - [`Gate::observe`] is told what each answer's status and headers said ([`Signal`],
//!   read by [`headers::signal`]), or that no answer came.

pub mod headers;

pub use super::PAUSE_CAP;
use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, Instant};

tokio::task_local! {
    /// The token the fetcher took for the first attempt of the request this task runs.
    pub static PREPAID: std::cell::Cell<Option<Token>>;
}

/// Who counts the client's attempts.
pub trait Gate: Send + Sync + std::fmt::Debug {
    /// Waits for the right to send one attempt of `route`, or refuses (see [`Refused`]).
    fn take(
        &self,
        route: Route,
    ) -> Pin<Box<dyn Future<Output = Result<Token, Refused>> + Send + '_>>;

    /// The answer to an attempt sent with `token`: `None` if no answer came.
    fn observe(&self, token: Token, signal: Option<&Signal>);

    /// The attempt sent with `token` never reached the server (the connection could not
    /// be made): no server counted it, so it costs nothing of the budget (issue 45: the
    /// failed attempts of an outage must not leave the return paced at one a second).
    fn unsent(&self, token: Token) {
        self.observe(token, None);
    }
}

/// What the server's answer said about the budget.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Signal {
    /// The answer was a 429 that is not the IP-list throttle of spec section 7.
    pub throttled: bool,
    pub limit: Option<u32>,
    pub remaining: Option<u32>,
    /// Seconds until the server's window resets (from `X-RateLimit-Reset`).
    pub reset_in: Option<u64>,
    /// `Retry-After`, in seconds.
    pub retry_after: Option<u64>,
}

/// The right to send one request, handed back with the answer's [`Signal`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// When the token was taken: an answer to a request sent before the budget last
    /// changed its mind teaches it nothing new.
    pub sent: Instant,
    /// The route it was taken for, so the answer teaches the scope it was seen on
    /// (`None`: a token of one budget alone, which knows no routes).
    pub route: Option<Route>,
}

/// An endpoint of spec section 4 by its method and path pattern (`GET
/// /api/iplist/{typel}/{formatl}/{id}`): the narrowest scope a server's limit may count
/// in (one per row of the spec's table: 16). Made by [`crate::api::Request::route`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Route {
    pub method: &'static str,
    /// The spec's path pattern ([`crate::api::Request::label`]).
    pub path: &'static str,
}

impl std::fmt::Display for Route {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.method, self.path)
    }
}

/// The account is paused (by a 429, or by the server's own count) for longer than the
/// caller waits: the attempt is not sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refused {
    /// How long until the pause ends.
    pub wait: Duration,
    /// The pause was carried over from an earlier run's saved state, not met in this run:
    /// the server has said nothing of this run's requests.
    pub saved: bool,
    /// The pause is the route's own, not the account's.
    pub route: Option<Route>,
}
