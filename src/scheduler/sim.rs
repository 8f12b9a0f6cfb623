//! The budget model against simulated servers, on a fake clock: what the model's tests and
//! `cargo bench --bench budget` drive. Each program is the scheduler as it runs (a
//! [`Bucket`] and the fetcher's lanes, at most [`POLITE_CONCURRENCY`] at once) with a
//! dashboard's demand: a first screen (four lists, then the cells of ten visible rows once
//! the services list is in), a person's ask now and then, and a sweep that always has
//! more to read. The servers answer after a fixed latency as the framework throttles
//! named in the README do (a fixed window per token, with or without the headers), or as
//! a server that lies or throttles once.
//!
//! Every figure a scenario reports (the busiest minute, the 429s, the first screen, a
//! person's wait, the time to recover) is measured at the server or on the fake clock.

use super::bucket::{Bucket, Lane, POLITE_CONCURRENCY, Signal};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// How a simulated server answers.
#[derive(Clone, Copy, Debug)]
pub enum Server {
    /// The common framework: `limit` a minute per token in a fixed window opened by the
    /// first request, `Retry-After` (and the `X-RateLimit-*` headers when `headers`) on
    /// its 429s.
    FixedWindow { limit: u32, headers: bool },
    /// No limit of its own, but `X-RateLimit-Limit: claim` on every answer.
    Lying { claim: u32 },
    /// No limit and no headers, but a single 429 (with `Retry-After: retry_after`, or none)
    /// to the request numbered `at` (from 1).
    OnceThrottled { at: u64, retry_after: Option<u64> },
}

/// What a program wants read.
#[derive(Clone, Copy, Debug)]
pub struct Demand {
    /// The first screen: 4 lists at start, then 10 visible rows' cells when the first
    /// list is in (the chain of two requests a dashboard's first screen is).
    pub first_screen: bool,
    /// A person asks one read every this often (none: never).
    pub person_every: Option<Duration>,
    /// A sweep that always has more to read.
    pub sweep: bool,
}

impl Demand {
    /// A dashboard: its first screen, a person's ask every 10 s, a sweep.
    pub const DASHBOARD: Demand = Demand {
        first_screen: true,
        person_every: Some(Duration::from_secs(10)),
        sweep: true,
    };
    /// `watch`, or a dashboard nobody touches: a sweep.
    pub const SWEEP: Demand = Demand {
        first_screen: false,
        person_every: None,
        sweep: true,
    };
}

/// What a run found.
#[derive(Clone, Debug, Default)]
pub struct Figures {
    /// Requests the server received (all programs), and when.
    pub sent: Vec<Duration>,
    /// 429s answered, and when.
    pub throttled: Vec<Duration>,
    /// When the first program's first screen was whole (every list and visible cell in).
    pub first_screen: Option<Duration>,
    /// The longest a person's ask waited for its answer.
    pub person_worst: Duration,
    /// The first program's limit at each whole minute.
    pub limits: Vec<u32>,
}

impl Figures {
    /// The most requests the server received in any span of `span`.
    pub fn busiest(&self, span: Duration) -> usize {
        let mut worst = 0;
        let mut start = 0;
        for (end, t) in self.sent.iter().enumerate() {
            while *t - self.sent[start] >= span {
                start += 1;
            }
            worst = worst.max(end + 1 - start);
        }
        worst
    }

    /// 429s answered before / from `at`.
    pub fn throttled_split(&self, at: Duration) -> (usize, usize) {
        let before = self.throttled.iter().filter(|t| **t < at).count();
        (before, self.throttled.len() - before)
    }

    /// Requests received in `[from, to)`.
    pub fn sent_between(&self, from: Duration, to: Duration) -> usize {
        self.sent.iter().filter(|t| **t >= from && **t < to).count()
    }
}

/// One request of a program in the simulation: its lane and whether it is of the first
/// screen (and which part).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Job {
    List { first: bool },
    Row,
    Person { asked: Duration },
    Sweep,
}

struct Program {
    bucket: Bucket,
    demand: Demand,
    lines: [VecDeque<Job>; 3],
    in_flight: usize,
    /// The first screen's reads still to come in; rows planned once the first list is in.
    screen_left: usize,
    rows_planned: bool,
    next_person: Option<Duration>,
    /// When the fetcher asked to be woken for the next token.
    wake: Option<Duration>,
}

/// An answer on its way back.
struct Answer {
    at: Duration,
    program: usize,
    job: Job,
    sent: Instant,
    signal: Signal,
}

struct Served {
    kind: Server,
    window: Option<(Duration, u32)>,
    received: u64,
}

impl Served {
    fn answer(&mut self, at: Duration) -> Signal {
        self.received += 1;
        match self.kind {
            Server::FixedWindow { limit, headers } => {
                let (start, count) = match self.window {
                    Some((start, count)) if at - start < Duration::from_secs(60) => (start, count),
                    _ => (at, 0),
                };
                let taken = count < limit;
                let count = count + u32::from(taken);
                self.window = Some((start, count));
                let reset = (start + Duration::from_secs(60)).saturating_sub(at);
                let reset = reset.as_secs_f64().ceil() as u64;
                Signal {
                    throttled: !taken,
                    limit: headers.then_some(limit),
                    remaining: headers.then_some(limit - count),
                    reset_in: (headers && !taken).then_some(reset),
                    retry_after: (!taken).then_some(reset.max(1)),
                }
            }
            Server::Lying { claim } => Signal {
                limit: Some(claim),
                remaining: Some(claim.saturating_sub(1)),
                ..Signal::default()
            },
            Server::OnceThrottled { at: n, retry_after } => Signal {
                throttled: self.received == n,
                retry_after: retry_after.filter(|_| self.received == n),
                ..Signal::default()
            },
        }
    }
}

/// Runs `programs` (each under its user's cap, with its demand) against one `server` on one
/// token for `run`, every request taking `latency` there and back.
pub fn run(
    server: Server,
    programs: &[(Option<u32>, Demand)],
    latency: Duration,
    run: Duration,
) -> Figures {
    simulate(server, programs, latency, run, false)
}

/// [`run`], the programs sharing one send log (`sendlog.rs`): each counts every send of
/// the others as it is made (the log is taken under a lock).
pub fn run_sharing(
    server: Server,
    programs: &[(Option<u32>, Demand)],
    latency: Duration,
    run: Duration,
) -> Figures {
    simulate(server, programs, latency, run, true)
}

fn simulate(
    server: Server,
    programs: &[(Option<u32>, Demand)],
    latency: Duration,
    run: Duration,
    sharing: bool,
) -> Figures {
    let base = Instant::now();
    let at = |d: Duration| base + d;
    let mut served = Served {
        kind: server,
        window: None,
        received: 0,
    };
    let mut progs: Vec<Program> = programs
        .iter()
        .map(|(cap, demand)| {
            let mut p = Program {
                bucket: Bucket::new(*cap),
                demand: *demand,
                lines: Default::default(),
                in_flight: 0,
                screen_left: 0,
                rows_planned: false,
                next_person: demand.person_every,
                wake: None,
            };
            if demand.first_screen {
                p.lines[Lane::Screen as usize].push_back(Job::List { first: true });
                for _ in 0..3 {
                    p.lines[Lane::Screen as usize].push_back(Job::List { first: false });
                }
                p.screen_left = 14;
            }
            p
        })
        .collect();
    let mut answers: Vec<Answer> = Vec::new();
    let mut figures = Figures::default();
    let mut now = Duration::ZERO;
    let mut next_minute = Duration::ZERO;
    while now < run {
        if now >= next_minute {
            figures.limits.push(progs[0].bucket.limit());
            next_minute += Duration::from_secs(60);
        }
        // Answers that arrived.
        answers.sort_by_key(|a| a.at);
        while answers.first().is_some_and(|a| a.at <= now) {
            let a = answers.remove(0);
            let p = &mut progs[a.program];
            p.in_flight -= 1;
            p.bucket.observe(
                crate::api::gate::Token {
                    sent: a.sent,
                    route: None,
                },
                &a.signal,
                at(a.at),
            );
            if a.signal.throttled {
                // A GET refused by the throttle goes back to the head of its line.
                let lane = lane_of(a.job);
                p.lines[lane as usize].push_front(a.job);
                continue;
            }
            match a.job {
                Job::List { .. } | Job::Row => {
                    if a.job == (Job::List { first: true }) && !p.rows_planned {
                        p.rows_planned = true;
                        for _ in 0..10 {
                            p.lines[Lane::Screen as usize].push_back(Job::Row);
                        }
                    }
                    if p.screen_left > 0 {
                        p.screen_left -= 1;
                        if p.screen_left == 0 && a.program == 0 {
                            figures.first_screen = Some(a.at);
                        }
                    }
                }
                Job::Person { asked } => {
                    figures.person_worst = figures.person_worst.max(a.at - asked);
                }
                Job::Sweep => {}
            }
        }
        // Demand.
        for p in &mut progs {
            if let (Some(next), Some(every)) = (p.next_person, p.demand.person_every)
                && next <= now
            {
                p.lines[Lane::Person as usize].push_back(Job::Person { asked: now });
                p.next_person = Some(next + every);
            }
            if p.demand.sweep && p.lines[Lane::Background as usize].len() < POLITE_CONCURRENCY {
                p.lines[Lane::Background as usize].push_back(Job::Sweep);
            }
        }
        // Sends, as the fetcher's queue picks them: the first line that waits, nothing of
        // a lower one while it waits for a token.
        for i in 0..progs.len() {
            let mut took = Vec::new();
            let p = &mut progs[i];
            p.wake = None;
            while p.in_flight < POLITE_CONCURRENCY {
                let Some(lane) = Lane::ALL
                    .into_iter()
                    .find(|l| !p.lines[*l as usize].is_empty())
                else {
                    break;
                };
                match p.bucket.try_take(at(now), lane) {
                    Ok(token) => {
                        let job = p.lines[lane as usize].pop_front().expect("not empty");
                        p.in_flight += 1;
                        took.push(lane);
                        let arrives = now + latency / 2;
                        figures.sent.push(arrives);
                        let signal = served.answer(arrives);
                        if signal.throttled {
                            figures.throttled.push(arrives);
                        }
                        answers.push(Answer {
                            at: now + latency,
                            program: i,
                            job,
                            sent: token.sent,
                            signal,
                        });
                    }
                    Err(next) => {
                        p.wake = Some(next.saturating_duration_since(base));
                        break;
                    }
                }
            }
            for (j, other) in progs.iter_mut().enumerate() {
                for lane in took.iter().filter(|_| sharing && j != i) {
                    other.bucket.count_elsewhere(at(now), *lane, at(now));
                }
            }
        }
        // The next event.
        let next = answers
            .iter()
            .map(|a| a.at)
            .chain(progs.iter().filter_map(|p| p.wake))
            .chain(progs.iter().filter_map(|p| p.next_person))
            .filter(|t| *t > now)
            .min()
            .unwrap_or(run);
        now = next.max(now + Duration::from_micros(100));
    }
    figures.sent.sort();
    figures
}

fn lane_of(job: Job) -> Lane {
    match job {
        Job::List { .. } | Job::Row => Lane::Screen,
        Job::Person { .. } => Lane::Person,
        Job::Sweep => Lane::Background,
    }
}
