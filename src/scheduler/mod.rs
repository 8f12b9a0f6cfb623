//! The scheduler: the one door to the API of an account. Its budget ([`Budget`]: the
//! account's [`bucket::Bucket`] and the routes' own, [`scope::Scopes`], behind a lock) is
//! shared by every clone of the account's [`crate::api::ApiClient`], so every attempt of
//! every request is counted and every answer teaches the scope it speaks of (the account,
//! or its route: [`scope`]); the fetcher ([`fetcher`]) decides which waiting request gets
//! the next token, and the scripting commands, which send one request at a time, wait for
//! theirs. Processes of one profile (a dashboard, `watch`es, scripts) keep one budget:
//! each counts the others' sends from the account's shared send log ([`sendlog`]).
//!
//! - Every attempt takes a token first: the fetcher takes the first attempt's (so the
//!   queue's order decides who goes next) and hands it over in [`PREPAID`]; a retry of a
//!   5xx, or a request of a script, waits here for its own ([`Budget::take`]: it waits
//!   out the budget's own pace, saying so through [`Budget::on_wait`] when the wait is
//!   long enough to notice, and refuses a pause longer than [`Budget::patience`]).
//! - Every answer's `X-RateLimit-*` / `Retry-After` headers and status go back to the
//!   bucket ([`crate::api::gate::headers::signal`]).
//! - The budget as it stands is published on a watch channel for the screen, and logged
//!   when the limit or its source changes.

pub mod bucket;
pub mod fetcher;
pub mod scope;
pub mod sendlog;
#[cfg(any(test, feature = "testdata"))]
pub mod sim;
pub mod store;
pub mod view;

pub use crate::api::gate::{PREPAID, Refused, Route, Signal, Token};
pub use bucket::{Bucket, Hold, Lane, Source, View};
pub use scope::{Scope, Scopes, Wait};
pub use sendlog::SendLog;

use crate::api::ApiClient;
use crate::api::gate::Gate;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;
use tokio::sync::watch;

/// One account's door to the API: its client, every attempt of which is counted against
/// the account's budget (the client asks it through [`crate::api::gate::Gate`]), and the
/// budget itself, for the fetcher that decides who gets the next token.
#[derive(Clone, Debug)]
pub struct Door {
    pub client: ApiClient,
    pub budget: Budget,
}

impl Door {
    pub fn new(client: ApiClient, budget: Budget) -> Self {
        Self {
            client: client.with_gate(Arc::new(budget.clone())),
            budget,
        }
    }
}

/// A door is used as its client.
impl std::ops::Deref for Door {
    type Target = ApiClient;
    fn deref(&self) -> &ApiClient {
        &self.client
    }
}

/// A client on its own gets a budget that knows nothing yet (the documented default),
/// so every request is still counted.
impl From<ApiClient> for Door {
    fn from(client: ApiClient) -> Self {
        Self::new(client, Budget::new(Bucket::new(None)))
    }
}

tokio::task_local! {
    /// The lane of the request the fetcher runs on this task: a retry of it takes its
    /// token in the same lane (a sweep's retry is still the sweep's). A request with no
    /// fetcher around it (a script's) is a person's.
    pub static LANE: Lane;
}

/// Told of a wait for the budget long enough to notice ([`bucket::SHOWN_WAIT`] or more):
/// why, how long, the budget that holds it (the route's own when its route's limit does,
/// with the route).
pub type WaitHook = Arc<dyn Fn(Hold, std::time::Duration, &View, Option<Route>) + Send + Sync>;

/// The budget of one account, shared by the clients, the fetcher and the screen.
#[derive(Clone)]
pub struct Budget {
    scopes: Arc<Mutex<Scopes>>,
    views: Arc<watch::Sender<Option<View>>>,
    /// The send log shared with the profile's other processes (see [`sendlog`]).
    shared: Option<Arc<SendLog>>,
    /// The longest pause [`Budget::take`] waits out; `None`: any (within the bucket's own
    /// cap of an hour).
    patience: Option<std::time::Duration>,
    on_wait: Option<WaitHook>,
}

impl std::fmt::Debug for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Budget")
            .field("scopes", &self.scopes)
            .field("shared", &self.shared)
            .field("patience", &self.patience)
            .finish_non_exhaustive()
    }
}

impl Budget {
    pub fn new(bucket: Bucket) -> Self {
        Self::of(Scopes::new(bucket))
    }

    /// A budget starting from `scopes` (the account's and the routes' an earlier run
    /// left).
    pub fn of(scopes: Scopes) -> Self {
        let (views, _) = watch::channel(None);
        Self {
            scopes: Arc::new(Mutex::new(scopes)),
            views: Arc::new(views),
            shared: None,
            patience: None,
            on_wait: None,
        }
    }

    /// A budget whose sends are kept in `log` with those of the profile's other
    /// processes, and which counts theirs (see [`sendlog`]).
    pub fn shared(mut self, log: SendLog) -> Self {
        self.shared = Some(Arc::new(log));
        self
    }

    /// The shared send log, when there is one.
    pub fn send_log(&self) -> Option<&SendLog> {
        self.shared.as_deref()
    }

    /// A budget whose [`Budget::take`] refuses a pause longer than `patience` instead of
    /// sleeping through it (a scripting command exits with the time instead of hanging).
    pub fn patience(mut self, patience: std::time::Duration) -> Self {
        self.patience = Some(patience);
        self
    }

    /// A budget that tells `hook` of each wait long enough to notice.
    pub fn on_wait(mut self, hook: WaitHook) -> Self {
        self.on_wait = Some(hook);
        self
    }

    fn lock(&self) -> MutexGuard<'_, Scopes> {
        // The budget is plain data: one poisoned by a panic elsewhere is still usable.
        self.scopes.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A token now for a request of `lane` on `route`, or when to ask again and whose
    /// limit holds it (see [`Scopes::try_take`]). With a shared send log, the others'
    /// sends are counted first and this one is written before the lock is let go.
    pub fn try_take(&self, now: Instant, lane: Lane, route: Route) -> Result<Token, Wait> {
        let decide = |others: &[sendlog::Sent]| {
            let mut scopes = self.lock();
            for sent in others {
                scopes.count_elsewhere(sent.at, sent.lane, sent.route, now);
            }
            scopes.try_take(now, lane, route)
        };
        let taken = match &self.shared {
            None => decide(&[]),
            Some(log) => match log.take(now, lane, decide) {
                sendlog::Took::Decided(taken) => taken,
                sendlog::Took::Busy => Err(Wait {
                    at: now + sendlog::RETRY,
                    hold: Hold::Budget,
                    scope: Scope::Account,
                }),
            },
        };
        self.publish(now);
        taken
    }

    /// Waits for a token for `route` (a script's request, a person's; a retry, in its
    /// request's [`LANE`]), or refuses when it is paused for longer than
    /// [`Budget::patience`]. A wait of [`bucket::SHOWN_WAIT`] or more is told to
    /// [`Budget::on_wait`] and the log first.
    pub async fn take(&self, route: Route) -> Result<Token, Refused> {
        let lane = LANE.try_with(|lane| *lane).unwrap_or(Lane::Person);
        loop {
            let now = now();
            let wait = match self.try_take(now, lane, route) {
                Ok(token) => return Ok(token),
                Err(wait) => wait,
            };
            let left = wait.at.saturating_duration_since(now);
            if wait.hold == Hold::Paused && self.patience.is_some_and(|p| left > p) {
                let saved = self.lock().pause_is_saved(route);
                let route = (wait.scope == Scope::Route).then_some(route);
                return Err(Refused {
                    wait: left,
                    saved,
                    route,
                });
            }
            if left >= bucket::SHOWN_WAIT {
                let (view, on) = {
                    let mut scopes = self.lock();
                    match scopes.hold_for(now, lane, route) {
                        Some((w, view)) if w.scope == Scope::Route => (view, Some(route)),
                        Some((_, view)) => (view, None),
                        None => (scopes.account_mut().view(now), None),
                    }
                };
                tracing::info!(
                    wait_secs = left.as_secs(),
                    hold = ?wait.hold,
                    route = %route,
                    "waiting for the request budget"
                );
                if let Some(hook) = &self.on_wait {
                    hook(wait.hold, left, &view, on);
                }
            }
            tokio::time::sleep(left).await;
        }
    }

    /// The answer to a request taken with `token`: `None` if no answer came.
    pub fn observe(&self, token: Token, signal: Option<&Signal>) {
        let now = now();
        {
            let mut scopes = self.lock();
            let before = (scopes.account().limit(), scopes.account().source());
            let routes_before = scopes.routes().count();
            match signal {
                Some(signal) => scopes.observe(token, signal, now),
                None => scopes.unanswered(token),
            }
            let after = (scopes.account().limit(), scopes.account().source());
            let routes_after = scopes.routes().count();
            if before != after
                || routes_before != routes_after
                || signal.is_some_and(|s| s.throttled)
            {
                tracing::info!(
                    limit = after.0,
                    source = ?after.1,
                    route = %token.route.map(|r| r.to_string()).unwrap_or_default(),
                    routes_with_own_limit = routes_after,
                    claimed = ?signal.and_then(|s| s.limit),
                    throttled = signal.is_some_and(|s| s.throttled),
                    "request budget"
                );
            }
        }
        self.publish(now);
    }

    fn publish(&self, now: Instant) {
        let view = self.lock().account_mut().view(now);
        self.views.send_if_modified(|old| {
            let changed = *old != Some(view);
            *old = Some(view);
            changed
        });
    }

    /// The fetcher's next waiting request may go at `at` (`None`: nothing waits for the
    /// budget), for the screen's "waiting for the request budget (next in 3 s)".
    pub fn set_next_send(&self, at: Option<Instant>) {
        self.lock().account_mut().set_next_send(at);
        self.publish(now());
    }

    /// How many requests may run at once.
    pub fn concurrency(&self, unbounded: usize) -> usize {
        self.lock().account().concurrency(unbounded)
    }

    /// The account's budget as it is now.
    pub fn view(&self) -> View {
        self.lock().account_mut().view(now())
    }

    /// Every change of the account's budget, for the screen.
    pub fn watch(&self) -> watch::Receiver<Option<View>> {
        self.views.subscribe()
    }

    /// A copy of the account's budget and the routes' own, to keep in the state file.
    pub fn snapshot(&self) -> Scopes {
        self.lock().clone()
    }
}

impl Gate for Budget {
    fn take(
        &self,
        route: Route,
    ) -> Pin<Box<dyn Future<Output = Result<Token, Refused>> + Send + '_>> {
        Box::pin(Budget::take(self, route))
    }

    fn observe(&self, token: Token, signal: Option<&Signal>) {
        Budget::observe(self, token, signal);
    }

    fn unsent(&self, token: Token) {
        self.lock().unsent(token);
        self.publish(now());
    }
}

/// The scheduler's clock: tokio's, so tests with paused time drive it too.
pub fn now() -> Instant {
    tokio::time::Instant::now().into_std()
}
