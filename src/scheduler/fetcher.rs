//! The background fetcher: the scheduler's queue. It runs [`Request`]s on tokio and sends
//! each result back.
//!
//! It owns the [`ApiClient`] and the account's [`Budget`] (see [`crate::scheduler`]): a
//! request starts only when a slot is free
//! ([`crate::scheduler::bucket::POLITE_CONCURRENCY`] at once, as a browser keeps to a
//! host, or the caller's bound if lower) and the budget gives a token for the request's
//! [`Class`] (the background leaves a reserve for what the user waits on), which is handed
//! to the request's first attempt. The rest wait in a queue
//! as values, by priority ([`Class`]): what the user waits on (a form's request, a write,
//! an IP list, one item's detail), then the tabs' lists and the credit, then the
//! per-service sweeps in the order the app asked for them (it asks oldest data first). An
//! identical GET that is already queued or in flight is not sent again: its one answer
//! serves both askers. Writes (POST, PUT) are never deduplicated and never retried: the
//! client sends each exactly once.
//!
//! A GET answered with the account's throttle ([`ApiError::RateLimited`]) is not reported:
//! the budget is paused by it, and the request goes back to the head of its line, to be
//! sent once the pause is over. A write answered so is reported as it is.
//!
//! No locks are shared with the UI: commands come in over one channel, results go out over
//! another, the budget's changes over a watch channel, and the in-flight set lives inside
//! the fetcher's own task.
//!
//! A request whose task panics (a bug) is still answered: with a decode error naming the
//! panic, so the app shows it in the status line and can ask again, instead of waiting for
//! an answer that never comes. For a write that error reads as an unknown outcome, which
//! is the truth: the request may have been sent.

use crate::api::{ApiClient, ApiError, Loaded, Request};
use crate::scheduler::{Budget, Door, PREPAID, Priority, View};
use futures::FutureExt;
use std::collections::{HashMap, HashSet, VecDeque};
use std::panic::AssertUnwindSafe;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinSet;

/// A finished request and what came of it, typed by its endpoint.
pub type Fetched = Loaded;

/// The callers' bound on requests at once; the budget keeps to fewer
/// ([`crate::scheduler::bucket::POLITE_CONCURRENCY`]).
pub const DEFAULT_CONCURRENCY: usize = 64;

/// The UI side of the fetcher: cheap to clone, never blocks.
#[derive(Clone, Debug)]
pub struct FetcherHandle {
    commands: mpsc::UnboundedSender<Request>,
    budget: watch::Receiver<Option<View>>,
    /// The budget itself, to tell it a person asked (see [`FetcherHandle::ask`]).
    keeper: Budget,
}

impl FetcherHandle {
    /// Queues `request`; its result arrives on the results channel.
    pub fn fetch(&self, request: Request) {
        // A closed channel means the fetcher is gone because the program is ending.
        let _ = self.commands.send(request);
    }

    /// Queues `request`, asked by a person: the budget keeps its reserve for them for a
    /// window (see [`crate::scheduler::bucket`]).
    pub fn ask(&self, request: Request) {
        self.keeper.asked(crate::scheduler::now());
        self.fetch(request);
    }

    /// The budget's changes, for the screen.
    pub fn budget(&self) -> watch::Receiver<Option<View>> {
        self.budget.clone()
    }
}

/// Starts the fetcher of the account behind `door` on the current tokio runtime (a
/// client alone gets a budget that knows nothing yet: every request is counted).
pub fn spawn(
    door: impl Into<Door>,
    concurrency: usize,
) -> (FetcherHandle, mpsc::UnboundedReceiver<Fetched>) {
    let Door { client, budget } = door.into();
    let (command_tx, command_rx) = mpsc::unbounded_channel();
    let (result_tx, result_rx) = mpsc::unbounded_channel();
    let handle = FetcherHandle {
        commands: command_tx,
        budget: budget.watch(),
        keeper: budget.clone(),
    };
    tokio::spawn(run(
        client,
        budget,
        concurrency.max(1),
        command_rx,
        result_tx,
    ));
    (handle, result_rx)
}

async fn run(
    client: ApiClient,
    budget: Budget,
    concurrency: usize,
    mut commands: mpsc::UnboundedReceiver<Request>,
    results: mpsc::UnboundedSender<Fetched>,
) {
    let mut queue = Queue::default();
    // Task → its request, to forget a GET whose task ended without an answer.
    let mut running: HashMap<tokio::task::Id, Request> = HashMap::new();
    // Each task keeps its request as the queue's key beside the typed answer.
    let mut tasks: JoinSet<(Request, Loaded)> = JoinSet::new();
    let mut accepting = true;
    // The wait last told to the budget, so it is told only when it changes.
    let mut told: Option<std::time::Instant> = None;
    loop {
        // Start what the bound and the budget allow. Requests wait in the queue as values,
        // not as spawned futures: 40,000 per-service calls of a large account cost a few
        // MB queued, where 40,000 parked tasks cost well over a hundred.
        let mut next_token = None;
        while tasks.len() < budget.concurrency(concurrency)
            && let Some(class) = queue.next_class()
        {
            let ticket = match budget.try_take(crate::scheduler::now(), class.priority()) {
                Ok(ticket) => ticket,
                Err(at) => {
                    next_token = Some(at);
                    break;
                }
            };
            let Some(request) = queue.pop() else { break };
            let client = client.clone();
            let key = request.clone();
            let task = tasks.spawn(
                PREPAID.scope(std::cell::Cell::new(Some(ticket)), async move {
                    let loaded = AssertUnwindSafe(client.call(&request))
                        .catch_unwind()
                        .await
                        .unwrap_or_else(|panic| request.failed(panicked(&*panic)));
                    (request, loaded)
                }),
            );
            running.insert(task.id(), key);
        }
        if next_token != told {
            told = next_token;
            budget.set_next_send(next_token);
        }
        let token_back = async {
            match next_token {
                Some(at) => tokio::time::sleep_until(at.into()).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            command = commands.recv(), if accepting => match command {
                Some(request) => queue.push(request),
                None => accepting = false,
            },
            Some(joined) = tasks.join_next_with_id(), if !tasks.is_empty() => match joined {
                Ok((id, (request, loaded))) => {
                    running.remove(&id);
                    // Postponed, not failed: sent again when the pause is over.
                    if !request.is_write() && loaded.error().is_some_and(ApiError::is_rate_limited) {
                        queue.again(request);
                        continue;
                    }
                    queue.done(&request);
                    if results.send(loaded).is_err() {
                        return;
                    }
                }
                // Panics are caught inside the task, so this is a cancelled task: forget
                // its request so the same GET can be asked again.
                Err(e) => {
                    if let Some(request) = running.remove(&e.id()) {
                        queue.done(&request);
                    }
                }
            },
            // Only while a token is awaited: an always-pending branch would keep `else`
            // from ever running, and the task (with the client and its connections)
            // would outlive the handle that was dropped.
            _ = token_back, if next_token.is_some() => {}
            else => return,
        }
    }
}

/// The class of a request is a column of the endpoint table; how much of the budget each
/// class may spend is the scheduler's business, so it is said here.
pub use crate::api::Class;

impl Class {
    /// How much of the budget a request of this class may spend.
    pub fn priority(self) -> Priority {
        match self {
            Class::Waited | Class::Detail => Priority::User,
            Class::List => Priority::List,
            Class::Sweep => Priority::Sweep,
        }
    }
}

/// Requests waiting for a slot and a token, one line per [`Class`].
#[derive(Default)]
struct Queue {
    lines: [VecDeque<Request>; 4],
    /// GETs queued or running; an identical one is not queued again.
    known: HashSet<Request>,
}

impl Queue {
    fn push(&mut self, request: Request) {
        if !request.is_write() && !self.known.insert(request.clone()) {
            return;
        }
        self.lines[request.class() as usize].push_back(request);
    }

    /// A GET postponed by the server's throttle: first of its line again.
    fn again(&mut self, request: Request) {
        self.lines[request.class() as usize].push_front(request);
    }

    /// The class of the request [`Queue::pop`] would give.
    fn next_class(&self) -> Option<Class> {
        self.lines
            .iter()
            .position(|line| !line.is_empty())
            .and_then(|i| self.lines[i].front())
            .map(Request::class)
    }

    fn pop(&mut self) -> Option<Request> {
        self.lines.iter_mut().find_map(VecDeque::pop_front)
    }

    /// `request` was answered (or given up): the same GET may be asked again.
    fn done(&mut self, request: &Request) {
        if !request.is_write() {
            self.known.remove(request);
        }
    }
}

/// The error a panicking request is answered with.
fn panicked(panic: &(dyn std::any::Any + Send)) -> ApiError {
    let message = panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".into());
    ApiError::Decode {
        endpoint: "fetcher",
        detail: format!("the request failed inside proxydash (a bug): {message}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Once the app lets go of the fetcher (the dashboard or a watcher stopping), its task
    /// ends, and with it the client and every connection it held.
    #[tokio::test(start_paused = true)]
    async fn the_task_ends_when_its_handle_is_dropped() {
        use crate::api::{ClientConfig, Credentials};
        let config = ClientConfig::new("http://127.0.0.1:1", Credentials::Token("t".into()));
        let (handle, results) = spawn(ApiClient::new(config).unwrap(), DEFAULT_CONCURRENCY);
        // The task's budget is the only one: its views end when the task does.
        let mut views = handle.budget();
        drop((handle, results));
        let ended = tokio::time::timeout(std::time::Duration::from_secs(60), async {
            while views.changed().await.is_ok() {}
        })
        .await;
        assert!(ended.is_ok(), "the fetcher's task outlived its handle");
    }

    #[test]
    fn a_panic_becomes_an_error_that_names_it() {
        let e = panicked(&"boom");
        assert!(e.to_string().contains("boom"), "{e}");
        assert!(e.outcome_unknown());
        let e = panicked(&String::from("bang"));
        assert!(e.to_string().contains("bang"), "{e}");
    }

    #[test]
    fn the_queue_puts_what_the_user_waits_on_first_and_asks_a_get_once() {
        use crate::api::{OrderRequest, Request};
        let order = Request::order(
            11,
            OrderRequest {
                clientid: 101,
                setip: None,
                ..Default::default()
            },
        );
        let mut q = Queue::default();
        q.push(Request::NetworkErrors(1));
        q.push(Request::Stats(1));
        q.push(Request::NetworkErrors(1)); // already queued
        q.push(Request::Services);
        q.push(order.clone());
        q.push(order.clone()); // a write is never merged with another
        let order_of: Vec<Request> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(
            order_of,
            vec![
                order.clone(),
                order,
                Request::Services,
                Request::NetworkErrors(1),
                Request::Stats(1)
            ]
        );
        // Still running (popped, not done): not asked again.
        q.push(Request::Services);
        assert_eq!(q.pop(), None);
        q.done(&Request::Services);
        q.push(Request::Services);
        assert_eq!(q.pop(), Some(Request::Services));
    }
}
