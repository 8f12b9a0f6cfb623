//! The scheduler: the one door to the API of an account. Its budget ([`Budget`], a
//! [`bucket::Bucket`] behind a lock) is shared by every clone of the account's
//! [`crate::api::ApiClient`], so every attempt of every request is counted and every answer
//! teaches it; the fetcher ([`fetcher`]) decides which waiting request gets the next
//! token, and the scripting commands, which send one request at a time, wait for theirs.
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
#[cfg(any(test, feature = "testdata"))]
pub mod sim;
pub mod store;
pub mod view;

pub use crate::api::gate::{PREPAID, Refused, Signal, Token};
pub use bucket::{Bucket, Hold, Lane, Source, View};

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
/// why, and how long.
pub type WaitHook = Arc<dyn Fn(Hold, std::time::Duration, &View) + Send + Sync>;

/// The budget of one account, shared by the clients, the fetcher and the screen.
#[derive(Clone)]
pub struct Budget {
    bucket: Arc<Mutex<Bucket>>,
    views: Arc<watch::Sender<Option<View>>>,
    /// The longest pause [`Budget::take`] waits out; `None`: any (within the bucket's own
    /// cap of an hour).
    patience: Option<std::time::Duration>,
    on_wait: Option<WaitHook>,
}

impl std::fmt::Debug for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Budget")
            .field("bucket", &self.bucket)
            .field("patience", &self.patience)
            .finish_non_exhaustive()
    }
}

impl Budget {
    pub fn new(bucket: Bucket) -> Self {
        let (views, _) = watch::channel(None);
        Self {
            bucket: Arc::new(Mutex::new(bucket)),
            views: Arc::new(views),
            patience: None,
            on_wait: None,
        }
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

    fn lock(&self) -> MutexGuard<'_, Bucket> {
        // The bucket is plain data: one poisoned by a panic elsewhere is still usable.
        self.bucket.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A token now for a request of `lane`, or the instant to ask again (see
    /// [`Bucket::try_take`]).
    pub fn try_take(&self, now: Instant, lane: Lane) -> Result<Token, Instant> {
        let taken = self.lock().try_take(now, lane);
        self.publish(now);
        taken
    }

    /// Waits for a token (a script's request, a person's; a retry, in its request's
    /// [`LANE`]), or refuses when the account is paused for longer than
    /// [`Budget::patience`]. A wait of [`bucket::SHOWN_WAIT`] or more is told to
    /// [`Budget::on_wait`] and the log first.
    pub async fn take(&self) -> Result<Token, Refused> {
        let lane = LANE.try_with(|lane| *lane).unwrap_or(Lane::Person);
        loop {
            let now = now();
            if let Ok(token) = self.try_take(now, lane) {
                return Ok(token);
            }
            let Some((hold, wait)) = self.lock().hold_for(now, lane) else {
                continue;
            };
            if hold == Hold::Paused && self.patience.is_some_and(|p| wait > p) {
                let saved = self.lock().pause_is_saved();
                return Err(Refused { wait, saved });
            }
            if wait >= bucket::SHOWN_WAIT {
                let view = self.view();
                tracing::info!(
                    wait_secs = wait.as_secs(),
                    ?hold,
                    "waiting for the request budget"
                );
                if let Some(hook) = &self.on_wait {
                    hook(hold, wait, &view);
                }
            }
            tokio::time::sleep(wait).await;
        }
    }

    /// The answer to a request taken with `token`: `None` if no answer came.
    pub fn observe(&self, token: Token, signal: Option<&Signal>) {
        let now = now();
        {
            let mut bucket = self.lock();
            let before = (bucket.limit(), bucket.source());
            match signal {
                Some(signal) => bucket.observe(token, signal, now),
                None => bucket.unanswered(token),
            }
            let after = (bucket.limit(), bucket.source());
            if before != after || signal.is_some_and(|s| s.throttled) {
                tracing::info!(
                    limit = after.0,
                    source = ?after.1,
                    claimed = ?signal.and_then(|s| s.limit),
                    throttled = signal.is_some_and(|s| s.throttled),
                    "request budget"
                );
            }
        }
        self.publish(now);
    }

    fn publish(&self, now: Instant) {
        let view = self.lock().view(now);
        self.views.send_if_modified(|old| {
            let changed = *old != Some(view);
            *old = Some(view);
            changed
        });
    }

    /// The fetcher's next waiting request may go at `at` (`None`: nothing waits for the
    /// budget), for the screen's "waiting for the request budget (next in 3 s)".
    pub fn set_next_send(&self, at: Option<Instant>) {
        self.lock().set_next_send(at);
        self.publish(now());
    }

    /// How many requests may run at once.
    pub fn concurrency(&self, unbounded: usize) -> usize {
        self.lock().concurrency(unbounded)
    }

    /// The budget as it is now.
    pub fn view(&self) -> View {
        self.lock().view(now())
    }

    /// Every change of the budget, for the screen.
    pub fn watch(&self) -> watch::Receiver<Option<View>> {
        self.views.subscribe()
    }

    /// A copy of the bucket, to keep in the state file.
    pub fn snapshot(&self) -> Bucket {
        self.lock().clone()
    }
}

impl Gate for Budget {
    fn take(&self) -> Pin<Box<dyn Future<Output = Result<Token, Refused>> + Send + '_>> {
        Box::pin(Budget::take(self))
    }

    fn observe(&self, token: Token, signal: Option<&Signal>) {
        Budget::observe(self, token, signal);
    }
}

/// The scheduler's clock: tokio's, so tests with paused time drive it too.
pub fn now() -> Instant {
    tokio::time::Instant::now().into_std()
}
