//! The background fetcher: runs [`Request`]s on tokio and sends each result back.
//!
//! It owns the [`ApiClient`]. Requests run concurrently up to a bound, so a dashboard of
//! 10,000 services does not open 10,000 connections at once; the rest wait in a queue in
//! which what the user waits on goes before the per-service sweeps. An identical GET
//! that is already in flight is not sent again: its one answer serves both askers. Writes
//! (POST, PUT) are never deduplicated and never retried: the client sends each exactly once.
//!
//! No locks are shared with the UI: commands come in over one channel, results go out over
//! another, and the in-flight set lives inside the fetcher's own task.
//!
//! A request whose task panics (a bug) is still answered: with a decode error naming the
//! panic, so the app shows it in the status line and can ask again, instead of waiting for
//! an answer that never comes. For a write that error reads as an unknown outcome, which
//! is the truth: the request may have been sent.

use crate::api::{ApiClient, ApiError, Request, Response};
use futures::FutureExt;
use std::collections::{HashMap, HashSet, VecDeque};
use std::panic::AssertUnwindSafe;
use tokio::sync::mpsc;
use tokio::task::JoinSet;

/// A finished request and what came of it.
pub type Fetched = (Request, Result<Response, ApiError>);

/// How many requests run at once by default.
pub const DEFAULT_CONCURRENCY: usize = 64;

/// The UI side of the fetcher: cheap to clone, never blocks.
#[derive(Clone, Debug)]
pub struct FetcherHandle {
    commands: mpsc::UnboundedSender<Request>,
}

impl FetcherHandle {
    /// Queues `request`; its result arrives on the results channel.
    pub fn fetch(&self, request: Request) {
        // A closed channel means the fetcher is gone because the program is ending.
        let _ = self.commands.send(request);
    }
}

/// Starts the fetcher on the current tokio runtime.
pub fn spawn(
    client: ApiClient,
    concurrency: usize,
) -> (FetcherHandle, mpsc::UnboundedReceiver<Fetched>) {
    let (command_tx, command_rx) = mpsc::unbounded_channel();
    let (result_tx, result_rx) = mpsc::unbounded_channel();
    tokio::spawn(run(client, concurrency.max(1), command_rx, result_tx));
    (
        FetcherHandle {
            commands: command_tx,
        },
        result_rx,
    )
}

async fn run(
    client: ApiClient,
    concurrency: usize,
    mut commands: mpsc::UnboundedReceiver<Request>,
    results: mpsc::UnboundedSender<Fetched>,
) {
    let mut queue = Queue::default();
    // Task → its request, to forget a GET whose task ended without an answer.
    let mut running: HashMap<tokio::task::Id, Request> = HashMap::new();
    let mut tasks: JoinSet<Fetched> = JoinSet::new();
    let mut accepting = true;
    loop {
        // Start what the bound allows. Requests wait in the queue as values, not as
        // spawned futures: 40,000 per-service calls of a large account cost a few MB
        // queued, where 40,000 parked tasks cost well over a hundred.
        while tasks.len() < concurrency
            && let Some(request) = queue.pop()
        {
            let client = client.clone();
            let key = request.clone();
            let task = tasks.spawn(async move {
                let result = AssertUnwindSafe(client.call(&request))
                    .catch_unwind()
                    .await
                    .unwrap_or_else(|panic| Err(panicked(&*panic)));
                (request, result)
            });
            running.insert(task.id(), key);
        }
        tokio::select! {
            command = commands.recv(), if accepting => match command {
                Some(request) => queue.push(request),
                None => accepting = false,
            },
            Some(joined) = tasks.join_next_with_id(), if !tasks.is_empty() => match joined {
                Ok((id, (request, result))) => {
                    running.remove(&id);
                    queue.done(&request);
                    if results.send((request, result)).is_err() {
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
            else => return,
        }
    }
}

/// Requests waiting for a free slot, in two lines: what the user waits on (lists, one
/// item, an IP list, every write) goes before the per-service sweeps (network status,
/// stats, rate), so an order is not stuck behind 40,000 background calls.
#[derive(Default)]
struct Queue {
    first: VecDeque<Request>,
    sweeps: VecDeque<Request>,
    /// GETs queued or running; an identical one is not queued again.
    known: HashSet<Request>,
}

impl Queue {
    fn push(&mut self, request: Request) {
        if !request.is_write() && !self.known.insert(request.clone()) {
            return;
        }
        if is_sweep(&request) {
            self.sweeps.push_back(request);
        } else {
            self.first.push_back(request);
        }
    }

    fn pop(&mut self) -> Option<Request> {
        self.first.pop_front().or_else(|| self.sweeps.pop_front())
    }

    /// `request` was answered (or given up): the same GET may be asked again.
    fn done(&mut self, request: &Request) {
        if !request.is_write() {
            self.known.remove(request);
        }
    }
}

/// The calls made once per service, in bulk.
fn is_sweep(request: &Request) -> bool {
    matches!(
        request,
        Request::NetworkErrors(_)
            | Request::NetworkInactive(_)
            | Request::Stats(_)
            | Request::Rate(_)
    )
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
                Request::Services,
                order.clone(),
                order,
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
