//! The background fetcher: the scheduler's queue. It runs [`Request`]s on tokio and sends
//! each result back.
//!
//! It owns the [`ApiClient`] and the account's [`Budget`] (see [`crate::scheduler`]): a
//! request starts only when a slot is free
//! ([`crate::scheduler::bucket::POLITE_CONCURRENCY`] at once, as a browser keeps to a
//! host, or the caller's bound if lower) and the budget gives a token for the request's
//! [`Lane`], which is handed to the request's first attempt. The rest wait in a queue as
//! values, a line per lane: what a person waits on (a form's request, a write, an IP list,
//! a detail asked for), then what is on screen and not shown yet, then the engine's sweeps
//! in the order the engine handed them over (oldest data first). Nothing of a lower line
//! goes while the first waiting request of a higher one waits for a token of the
//! account's, so the background never takes the token a person waits for; a request held
//! by its route's own limit ([`crate::scheduler::scope`]) holds nothing of another route,
//! in its line or below, so a person's read never waits on another route's limit. An identical GET that is already
//! queued or in flight is not sent again: its one answer serves both askers (asked again
//! in a higher lane, the queued one moves up). Writes (POST, PUT) are never deduplicated
//! and never retried: the client sends each exactly once. A request may come with a
//! [`Ticket`] (a write's, made by whoever sends it): it is carried beside the request and
//! echoed with its answer ([`Fetched`]), so two sends of the same write are told apart.
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

use crate::api::{ApiClient, ApiError, Loaded, Request, Ticket};
use crate::scheduler::{Budget, Door, Lane, PREPAID, Route, Scope, View, Wait};
use futures::FutureExt;
use std::collections::{HashMap, VecDeque};
use std::panic::AssertUnwindSafe;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinSet;

/// A finished request and what came of it, typed by its endpoint, with the ticket it was
/// sent with.
#[derive(Debug)]
pub struct Fetched {
    pub loaded: Loaded,
    pub ticket: Option<Ticket>,
}

/// A request waiting in the queue, with the ticket it was sent with.
type Queued = (Request, Option<Ticket>);

/// The callers' bound on requests at once; the budget keeps to fewer
/// ([`crate::scheduler::bucket::POLITE_CONCURRENCY`]).
pub const DEFAULT_CONCURRENCY: usize = 64;

/// The UI side of the fetcher: cheap to clone, never blocks.
#[derive(Clone, Debug)]
pub struct FetcherHandle {
    commands: mpsc::UnboundedSender<(Queued, Lane)>,
    budget: watch::Receiver<Option<View>>,
}

impl FetcherHandle {
    /// Queues `request` in `lane`; its result arrives on the results channel.
    pub fn fetch(&self, request: Request, lane: Lane) {
        self.send(request, lane, None);
    }

    /// Queues `request` in `lane`; its result arrives on the results channel with
    /// `ticket` (a GET merged into an identical one is answered once, with that one's).
    pub fn send(&self, request: Request, lane: Lane, ticket: Option<Ticket>) {
        // A closed channel means the fetcher is gone because the program is ending.
        let _ = self.commands.send(((request, ticket), lane));
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
    mut commands: mpsc::UnboundedReceiver<(Queued, Lane)>,
    results: mpsc::UnboundedSender<Fetched>,
) {
    let mut queue = Queue::default();
    // Task → its request and lane, to forget a GET whose task ended without an answer,
    // and to queue one the server's throttle postponed in the lane it waited in.
    let mut running: HashMap<tokio::task::Id, (Request, Lane)> = HashMap::new();
    // Each task keeps its request (the queue's key) and ticket beside the typed answer.
    let mut tasks: JoinSet<(Queued, Loaded)> = JoinSet::new();
    let mut accepting = true;
    // The wait last told to the budget, so it is told only when it changes.
    let mut told: Option<std::time::Instant> = None;
    loop {
        // Start what the bound and the budget allow. Requests wait in the queue as values,
        // not as spawned futures: 40,000 per-service calls of a large account cost a few
        // MB queued, where 40,000 parked tasks cost well over a hundred.
        let mut next_token = None;
        while tasks.len() < budget.concurrency(concurrency) {
            let ((request, ticket), lane, token) = match queue
                .pick(|lane, route| budget.try_take(crate::scheduler::now(), lane, route))
            {
                Ok(Some(picked)) => picked,
                Ok(None) => break,
                Err(at) => {
                    next_token = Some(at);
                    break;
                }
            };
            let client = client.clone();
            let key = request.clone();
            let task = tasks.spawn(
                PREPAID.scope(std::cell::Cell::new(Some(token)), async move {
                    let loaded = AssertUnwindSafe(client.call(&request))
                        .catch_unwind()
                        .await
                        .unwrap_or_else(|panic| request.failed(panicked(&*panic)));
                    ((request, ticket), loaded)
                }),
            );
            running.insert(task.id(), (key, lane));
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
                Some((queued, lane)) => queue.push(queued, lane),
                None => accepting = false,
            },
            Some(joined) = tasks.join_next_with_id(), if !tasks.is_empty() => match joined {
                Ok((id, ((request, ticket), loaded))) => {
                    let lane = running.remove(&id).map_or(Lane::Background, |(_, lane)| lane);
                    // Postponed, not failed: sent again when the pause is over.
                    if !request.is_write() && loaded.error().is_some_and(ApiError::is_rate_limited) {
                        queue.again((request, ticket), lane);
                        continue;
                    }
                    queue.done(&request);
                    if results.send(Fetched { loaded, ticket }).is_err() {
                        return;
                    }
                }
                // Panics are caught inside the task, so this is a cancelled task: forget
                // its request so the same GET can be asked again.
                Err(e) => {
                    if let Some((request, _)) = running.remove(&e.id()) {
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

/// Requests waiting for a slot and a token, one line per [`Lane`], in the lanes' order.
#[derive(Default)]
struct Queue {
    lines: [VecDeque<Queued>; 3],
    /// GETs queued or running, with the lane they wait in (`None`: running); an
    /// identical one is not queued again.
    known: HashMap<Request, Option<Lane>>,
}

impl Queue {
    fn push(&mut self, queued: Queued, lane: Lane) {
        let request = &queued.0;
        if !request.is_write() {
            match self.known.get(request).copied() {
                // Running, or already waiting as high: its one answer serves both.
                Some(None) => return,
                Some(Some(line)) if line <= lane => return,
                // Asked again by someone who waits more: it moves up.
                Some(Some(line)) => self.lines[line as usize].retain(|(r, _)| r != request),
                None => {}
            }
            self.known.insert(request.clone(), Some(lane));
        }
        self.lines[lane as usize].push_back(queued);
    }

    /// A GET postponed by the server's throttle: first of its line again.
    fn again(&mut self, queued: Queued, lane: Lane) {
        self.known.insert(queued.0.clone(), Some(lane));
        self.lines[lane as usize].push_front(queued);
    }

    /// The first waiting request of the first line that has one, with the token `take`
    /// gives for its lane and route; `Err` with when to ask again when it gives none
    /// (nothing of a lower line goes meanwhile); `Ok(None)` when nothing waits. A request
    /// held by its route's own limit ([`Scope::Route`]) holds nothing else: the next one
    /// of another route is asked for, in its line and the lines below.
    fn pick<T>(
        &mut self,
        mut take: impl FnMut(Lane, Route) -> Result<T, Wait>,
    ) -> Result<Option<(Queued, Lane, T)>, std::time::Instant> {
        let mut held: Vec<Route> = Vec::new();
        let mut soonest: Option<std::time::Instant> = None;
        for lane in Lane::ALL {
            let line = &self.lines[lane as usize];
            let mut at = None;
            for (i, (request, _)) in line.iter().enumerate() {
                let route = request.route();
                if held.contains(&route) {
                    continue;
                }
                match take(lane, route) {
                    Ok(token) => {
                        at = Some((i, token));
                        break;
                    }
                    Err(wait) if wait.scope == Scope::Route => {
                        held.push(route);
                        soonest = Some(soonest.map_or(wait.at, |s| s.min(wait.at)));
                    }
                    Err(wait) => return Err(soonest.map_or(wait.at, |s| s.min(wait.at))),
                }
            }
            if let Some((i, token)) = at {
                let queued = self.lines[lane as usize]
                    .remove(i)
                    .expect("the request was just found there");
                if !queued.0.is_write() {
                    self.known.insert(queued.0.clone(), None);
                }
                return Ok(Some((queued, lane, token)));
            }
        }
        soonest.map_or(Ok(None), Err)
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
    fn the_queue_serves_the_lanes_in_order_and_asks_a_get_once() {
        use crate::api::{OrderRequest, Request, Ticket};
        let order = Request::order(
            11,
            OrderRequest {
                clientid: 101,
                setip: None,
            },
        );
        let mut q = Queue::default();
        let pop = |q: &mut Queue| q.pick(|_, _| Ok::<_, Wait>(())).unwrap();
        q.push((Request::NetworkErrors(1), None), Lane::Background);
        q.push((Request::Stats(1), None), Lane::Background);
        q.push((Request::NetworkErrors(1), None), Lane::Background); // already queued
        q.push((Request::Services, None), Lane::Screen);
        q.push((order.clone(), Some(Ticket(1))), Lane::Person);
        // A write is never merged with another: each goes, with its own ticket.
        q.push((order.clone(), Some(Ticket(2))), Lane::Person);
        // Asked again by a person: it moves up, and is not sent twice.
        q.push((Request::Stats(1), None), Lane::Person);
        let order_of: Vec<(Queued, Lane)> =
            std::iter::from_fn(|| pop(&mut q).map(|(r, l, ())| (r, l))).collect();
        assert_eq!(
            order_of,
            vec![
                ((order.clone(), Some(Ticket(1))), Lane::Person),
                ((order, Some(Ticket(2))), Lane::Person),
                ((Request::Stats(1), None), Lane::Person),
                ((Request::Services, None), Lane::Screen),
                ((Request::NetworkErrors(1), None), Lane::Background),
            ]
        );
        // Still running (picked, not done): not asked again.
        q.push((Request::Services, None), Lane::Person);
        assert_eq!(pop(&mut q), None);
        q.done(&Request::Services);
        q.push((Request::Services, None), Lane::Screen);
        assert_eq!(
            pop(&mut q),
            Some(((Request::Services, None), Lane::Screen, ()))
        );
    }

    /// While the first request of a higher line waits for a token, nothing of a lower
    /// line takes one: the background never spends the token a person waits for.
    #[test]
    fn a_lower_lane_never_goes_ahead_of_a_waiting_higher_one() {
        let mut q = Queue::default();
        let later = std::time::Instant::now() + std::time::Duration::from_secs(3);
        q.push((Request::NetworkErrors(1), None), Lane::Background);
        q.push((Request::Credit, None), Lane::Person);
        let mut asked = Vec::new();
        let picked = q.pick(|lane, _| {
            asked.push(lane);
            if lane == Lane::Person {
                Err(Wait {
                    at: later,
                    hold: crate::scheduler::Hold::Budget,
                    scope: Scope::Account,
                })
            } else {
                Ok(())
            }
        });
        assert_eq!(picked, Err(later));
        assert_eq!(asked, vec![Lane::Person]);
    }

    /// A request held by its route's own limit holds nothing of another route, in its
    /// line or below (issue 46.3: a detail waited 24 s behind an IP list's 5 a minute);
    /// the account's limit still holds every line below.
    #[test]
    fn a_request_held_by_its_route_holds_no_other_route() {
        use crate::api::{IpListFormat, IpListType};
        use crate::scheduler::Hold;
        let later = std::time::Instant::now() + std::time::Duration::from_secs(12);
        let iplist = Request::ip_list(1, IpListType::HttpIp, IpListFormat::Txt);
        let mut q = Queue::default();
        q.push((iplist.clone(), None), Lane::Person);
        q.push((Request::Service(1), None), Lane::Person);
        q.push((Request::NetworkErrors(1), None), Lane::Background);
        let held = |route: Route| {
            (route == iplist.route()).then_some(Wait {
                at: later,
                hold: Hold::Budget,
                scope: Scope::Route,
            })
        };
        let mut take = |_: Lane, route: Route| held(route).map_or(Ok(()), Err);
        let first = q.pick(&mut take).unwrap().map(|(r, l, ())| (r.0, l));
        assert_eq!(first, Some((Request::Service(1), Lane::Person)));
        let next = q.pick(&mut take).unwrap().map(|(r, l, ())| (r.0, l));
        assert_eq!(next, Some((Request::NetworkErrors(1), Lane::Background)));
        // Only the held one is left: wake when its route lets it go.
        assert_eq!(q.pick(&mut take), Err(later));
    }
}
