//! The background fetcher: runs [`Request`]s on tokio and sends each result back.
//!
//! It owns the [`ApiClient`]. Requests run concurrently up to a bound (a semaphore), so a
//! dashboard of 10,000 services does not open 10,000 connections at once. An identical GET
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
use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use tokio::sync::{Semaphore, mpsc};
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
    let permits = Arc::new(Semaphore::new(concurrency));
    // Request → its task; a GET present here is in flight and is not sent again.
    let mut in_flight: HashMap<Request, tokio::task::Id> = HashMap::new();
    let mut tasks: JoinSet<Fetched> = JoinSet::new();
    let mut accepting = true;
    loop {
        tokio::select! {
            command = commands.recv(), if accepting => match command {
                Some(request) => {
                    if !request.is_write() && in_flight.contains_key(&request) {
                        continue;
                    }
                    let client = client.clone();
                    let permits = permits.clone();
                    let key = request.clone();
                    let task = tasks.spawn(async move {
                        // The semaphore is never closed, so acquiring only waits.
                        let _permit = permits.acquire_owned().await;
                        let result = AssertUnwindSafe(client.call(&request))
                            .catch_unwind()
                            .await
                            .unwrap_or_else(|panic| Err(panicked(&*panic)));
                        (request, result)
                    });
                    if !key.is_write() {
                        in_flight.insert(key, task.id());
                    }
                }
                None => accepting = false,
            },
            Some(joined) = tasks.join_next_with_id(), if !tasks.is_empty() => match joined {
                Ok((_, (request, result))) => {
                    if !request.is_write() {
                        in_flight.remove(&request);
                    }
                    if results.send((request, result)).is_err() {
                        return;
                    }
                }
                // A task only fails to join if it panicked. Forget it so the same GET can be
                // asked again, rather than taking the whole fetcher down.
                Err(e) => in_flight.retain(|_, id| *id != e.id()),
            },
            else => return,
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

    #[test]
    fn a_panic_becomes_an_error_that_names_it() {
        let e = panicked(&"boom");
        assert!(e.to_string().contains("boom"), "{e}");
        assert!(e.outcome_unknown());
        let e = panicked(&String::from("bang"));
        assert!(e.to_string().contains("bang"), "{e}");
    }
}
