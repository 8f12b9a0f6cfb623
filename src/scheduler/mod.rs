//! The scheduler: the one door to the API of an account. Its budget ([`Budget`], a
//! [`bucket::Bucket`] behind a lock) is shared by every clone of the account's
//! [`crate::api::ApiClient`], so every attempt of every request is counted and every answer
//! teaches it; the fetcher ([`fetcher`]) decides which waiting request gets the next
//! token, and the scripting commands, which send one request at a time, wait for theirs.
//!
//! - Every attempt takes a token first: the fetcher takes the first attempt's (so the
//!   queue's order decides who goes next) and hands it over in [`PREPAID`]; a retry of a
//!   5xx, or a request of a script, waits here for its own.
//! - Every answer's `X-RateLimit-*` / `Retry-After` headers and status go back to the
//!   bucket ([`crate::api::gate::headers::signal`]).
//! - The budget as it stands is published on a watch channel for the screen, and logged
//!   when the limit or its source changes.

pub mod bucket;
pub mod fetcher;
pub mod store;

pub use crate::api::gate::{PREPAID, Signal, Ticket};
pub use bucket::{Bucket, Priority, Source, View};

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

/// The budget of one account, shared by the clients, the fetcher and the screen.
#[derive(Clone, Debug)]
pub struct Budget {
    bucket: Arc<Mutex<Bucket>>,
    views: Arc<watch::Sender<Option<View>>>,
}

impl Budget {
    pub fn new(bucket: Bucket) -> Self {
        let (views, _) = watch::channel(None);
        Self {
            bucket: Arc::new(Mutex::new(bucket)),
            views: Arc::new(views),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Bucket> {
        // The bucket is plain data: one poisoned by a panic elsewhere is still usable.
        self.bucket.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A token now, or the instant to ask again (see [`Bucket::try_take`]).
    pub fn try_take(&self, now: Instant, priority: Priority) -> Result<Ticket, Instant> {
        let taken = self.lock().try_take(now, priority);
        self.publish(now);
        taken
    }

    /// Waits for a token (a script, or a retry).
    pub async fn take(&self) -> Ticket {
        loop {
            let now = now();
            match self.try_take(now, Priority::User) {
                Ok(ticket) => return ticket,
                Err(at) => {
                    let wait = at.saturating_duration_since(now);
                    if wait.as_secs() >= 2 {
                        tracing::info!(
                            wait_secs = wait.as_secs(),
                            "waiting for the server's limit"
                        );
                    }
                    tokio::time::sleep(wait).await;
                }
            }
        }
    }

    /// A person asked for something: the reserve is theirs for a window (see
    /// [`Bucket::asked`]).
    pub fn asked(&self, now: Instant) {
        self.lock().asked(now);
        self.publish(now);
    }

    /// The answer to a request taken with `ticket`: `None` if no answer came.
    pub fn observe(&self, ticket: Ticket, signal: Option<&Signal>) {
        let now = now();
        {
            let mut bucket = self.lock();
            let before = (bucket.limit(), bucket.source());
            match signal {
                Some(signal) => bucket.observe(ticket, signal, now),
                None => bucket.unanswered(ticket),
            }
            let after = (bucket.limit(), bucket.source());
            if before != after || signal.is_some_and(|s| s.throttled) {
                tracing::info!(
                    limit = after.0,
                    source = ?after.1,
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
    fn take(&self) -> Pin<Box<dyn Future<Output = Ticket> + Send + '_>> {
        Box::pin(Budget::take(self))
    }

    fn observe(&self, ticket: Ticket, signal: Option<&Signal>) {
        Budget::observe(self, ticket, signal);
    }
}

/// The scheduler's clock: tokio's, so tests with paused time drive it too.
pub fn now() -> Instant {
    tokio::time::Instant::now().into_std()
}
