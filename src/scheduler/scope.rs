//! The scopes a server's limit counts in: the account, and each route (an endpoint of spec
//! section 4 by its method and path pattern, [`Route`]: 16 of them). A server may throttle
//! one route apart from the rest (an IP-list download at 5 a minute beside 60 a minute for
//! everything); believed for the whole account, such a figure starved every other read
//! (issue 46.3: a service's detail 24 s late behind the IP list's 5 a minute). So each
//! figure is believed for the scope it was seen on, and learned apart:
//!
//! 1. **Every request takes a token of the account's budget** ([`Bucket`], the one model of
//!    `bucket.rs`), and, once its route has shown a limit of its own, of the route's too
//!    (a bucket of the same model for that route alone). A route's own limit holds that
//!    route's requests only: the fetcher sends the others meanwhile
//!    ([`super::fetcher`]: a request held by its route holds nothing of another route, in
//!    any lane), so a person's read of another route never waits on it.
//! 2. **A figure is the route's until a second route shows it.** An `X-RateLimit-Limit`
//!    seen on one route is that route's (with the answer's `X-RateLimit-Remaining` and
//!    reset). When a second route shows the same figure within a window, the count
//!    behind it is the account's (one count behind every route shows on each): the
//!    account believes it as `bucket.rs` says (down at once, up to the ceiling), and the
//!    routes that showed it keep nothing of their own. From then on a route showing the
//!    account's figure speaks of the account's count, and one showing another figure of
//!    its own. (Two routes throttled apart at the same figure are taken for the account:
//!    the cautious mistake.)
//! 3. **A 429 pauses its route, unless the server says otherwise.** A 429 carrying a
//!    figure pauses the scope of that figure (rule 2). One carrying none pauses its route
//!    and halves the route's learned limit (forgiven as `bucket.rs` says); when a second
//!    route is refused within a window of the first, the server's count is the account's:
//!    the account is paused and its limit halved too. The IP-list refresh throttle of spec
//!    section 7 is neither (`api::gate::headers`).
//! 4. **A route that holds nothing of its own is forgotten**: a learned limit climbed
//!    back, no pause, no count of the server's.
//!
//! Pure like the bucket: every method takes the time.

use super::bucket::{Bucket, Hold, Lane, Signal, Token, View};
use crate::api::gate::Route;
use std::collections::{BTreeMap, VecDeque};
use std::time::{Duration, Instant};

/// Whose limit holds a request back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The account's: nothing of a lower lane goes meanwhile.
    Account,
    /// Its route's own: the other routes go meanwhile.
    Route,
}

/// A request may not go yet: when to ask again, why, and whose limit holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wait {
    pub at: Instant,
    pub hold: Hold,
    pub scope: Scope,
}

/// The account's budget and each route's own.
#[derive(Clone, Debug)]
pub struct Scopes {
    account: Bucket,
    /// The routes whose answers said something of their own.
    routes: BTreeMap<Route, Bucket>,
    /// The last `X-RateLimit-Limit` each route showed, and when.
    figures: BTreeMap<Route, (u32, Instant)>,
    /// When each route was last refused by a 429 that named no figure.
    refused: BTreeMap<Route, Instant>,
    /// Each route's sends inside the window (this process's and the others'): a route's
    /// own bucket, made from an answer, counts those that left before it (a first batch
    /// goes out before any answer tells the route's limit).
    sent: BTreeMap<Route, VecDeque<Instant>>,
}

impl Scopes {
    pub fn new(account: Bucket) -> Self {
        Self {
            account,
            routes: BTreeMap::new(),
            figures: BTreeMap::new(),
            refused: BTreeMap::new(),
            sent: BTreeMap::new(),
        }
    }

    /// The account's budget and the routes' own an earlier run left (see `store.rs`).
    pub fn resume(account: Bucket, routes: impl IntoIterator<Item = (Route, Bucket)>) -> Self {
        Self {
            routes: routes.into_iter().collect(),
            ..Self::new(account)
        }
    }

    /// How long a figure or a refusal is remembered: the server's window and its margin.
    fn span(&self) -> Duration {
        super::bucket::WINDOW + super::bucket::MARGIN
    }

    /// A token for a request of `lane` on `route`, or when to ask again and whose limit
    /// holds it (its route's own first: that holds nothing of another route).
    pub fn try_take(&mut self, now: Instant, lane: Lane, route: Route) -> Result<Token, Wait> {
        if let Some((at, hold)) = self.routes.get_mut(&route).and_then(|b| b.wait(now, lane)) {
            return Err(Wait {
                at,
                hold,
                scope: Scope::Route,
            });
        }
        let token = match self.account.wait(now, lane) {
            Some((at, hold)) => Err(Wait {
                at,
                hold,
                scope: Scope::Account,
            }),
            None => self.account.try_take(now, lane).map_err(|at| Wait {
                at,
                hold: Hold::Budget,
                scope: Scope::Account,
            }),
        }?;
        if let Some(own) = self.routes.get_mut(&route) {
            // Its wait was asked above at the same instant: it gives.
            let _ = own.try_take(now, lane);
        }
        self.note(route, now, now);
        Ok(Token {
            route: Some(route),
            ..token
        })
    }

    /// Why a request of `lane` on `route` would wait now, how long, and whose limit.
    pub fn hold_for(&mut self, now: Instant, lane: Lane, route: Route) -> Option<(Wait, View)> {
        if let Some(own) = self.routes.get_mut(&route)
            && let Some((at, hold)) = own.wait(now, lane)
        {
            let wait = Wait {
                at,
                hold,
                scope: Scope::Route,
            };
            return Some((wait, own.view(now)));
        }
        let (at, hold) = self.account.wait(now, lane)?;
        let wait = Wait {
            at,
            hold,
            scope: Scope::Account,
        };
        Some((wait, self.account.view(now)))
    }

    /// A request taken with `token` ended without an answer.
    pub fn unanswered(&mut self, token: Token) {
        self.account.unanswered(token);
        if let Some(own) = token.route.and_then(|r| self.routes.get_mut(&r)) {
            own.unanswered(token);
        }
    }

    /// A request taken with `token` never reached the server: its token comes back to
    /// every scope that spent it.
    pub fn unsent(&mut self, token: Token) {
        self.account.refund(token);
        if let Some(own) = token.route.and_then(|r| self.routes.get_mut(&r)) {
            own.refund(token);
        }
    }

    /// The server answered a request taken with `token`: what it said goes to the scope
    /// it was said of (see the module docs).
    pub fn observe(&mut self, token: Token, signal: &Signal, now: Instant) {
        let Some(route) = token.route else {
            self.account.observe(token, signal, now);
            return;
        };
        let span = self.span();
        self.figures
            .retain(|_, (_, at)| now.saturating_duration_since(*at) < span);
        self.refused
            .retain(|_, at| now.saturating_duration_since(*at) < span);
        match signal.limit.filter(|l| *l > 0) {
            Some(figure) => {
                self.figures.insert(route, (figure, now));
                let shared = self.account.claimed_figure() == Some(figure)
                    || self
                        .figures
                        .iter()
                        .any(|(r, (f, _))| *r != route && *f == figure);
                if shared {
                    self.account.observe(token, signal, now);
                    // The routes that showed it spoke of the account's count.
                    let figures = &self.figures;
                    self.routes.retain(|r, _| {
                        *r != route && figures.get(r).is_none_or(|(f, _)| *f != figure)
                    });
                } else {
                    self.account.unanswered(token);
                    self.own(route, token).observe(token, signal, now);
                }
            }
            None if signal.throttled => {
                let account = self.refused.keys().any(|r| *r != route);
                self.refused.insert(route, now);
                self.own(route, token).observe(token, signal, now);
                if account {
                    self.account.observe(token, signal, now);
                } else {
                    self.account.unanswered(token);
                }
            }
            None => {
                self.account.observe(token, signal, now);
                if let Some(own) = self.routes.get_mut(&route) {
                    own.observe(token, signal, now);
                }
            }
        }
        self.routes.retain(|_, own| {
            own.prune_now(now);
            !own.holds_nothing()
        });
    }

    /// A send of `route` at `at`, remembered for the window.
    fn note(&mut self, route: Route, at: Instant, now: Instant) {
        let span = self.span();
        let log = self.sent.entry(route).or_default();
        while log
            .front()
            .is_some_and(|t| now.saturating_duration_since(*t) >= span)
        {
            log.pop_front();
        }
        let i = log.partition_point(|t| *t <= at);
        log.insert(i, at);
        // Bounded by the most a limit may be: older ones can change no decision.
        if log.len() > 10 * super::bucket::TRUST_CEILING as usize {
            log.pop_front();
        }
    }

    /// `route`'s own bucket, made (with the route's sends of the window in its log, the
    /// one of `token` among them) when it has none.
    fn own(&mut self, route: Route, token: Token) -> &mut Bucket {
        let (account, sent) = (&self.account, &self.sent);
        self.routes.entry(route).or_insert_with(|| {
            let mut own = account.fresh();
            let mut earlier: Vec<Instant> =
                sent.get(&route).into_iter().flatten().copied().collect();
            if !earlier.contains(&token.sent) {
                earlier.push(token.sent);
            }
            for at in earlier {
                own.count_sent(at);
            }
            own
        })
    }

    /// Another process of the profile sent a request of `lane` on `route` at `at`.
    pub fn count_elsewhere(&mut self, at: Instant, lane: Lane, route: Option<Route>, now: Instant) {
        self.account.count_elsewhere(at, lane, now);
        if let Some(route) = route {
            if let Some(own) = self.routes.get_mut(&route) {
                own.count_elsewhere(at, lane, now);
            }
            self.note(route, at.min(now), now);
        }
    }

    /// The account's budget.
    pub fn account(&self) -> &Bucket {
        &self.account
    }

    pub fn account_mut(&mut self) -> &mut Bucket {
        &mut self.account
    }

    /// The routes with a budget of their own.
    pub fn routes(&self) -> impl Iterator<Item = (Route, &Bucket)> {
        self.routes.iter().map(|(r, b)| (*r, b))
    }

    /// Whether the pause holding `route` (its own, else the account's) was carried over
    /// from an earlier run.
    pub fn pause_is_saved(&self, route: Route) -> bool {
        match self
            .routes
            .get(&route)
            .filter(|b| b.paused_until().is_some())
        {
            Some(own) => own.pause_is_saved(),
            None => self.account.pause_is_saved(),
        }
    }
}

#[cfg(test)]
#[path = "scope_tests.rs"]
mod tests;
