use super::*;

pub(super) fn at(base: Instant, secs: f64) -> Instant {
    base + Duration::from_secs_f64(secs)
}

/// A server with a fixed window of `limit` requests a minute starting at its first request,
/// as the common framework throttle counts: answers whether request at `t` is taken.
struct FixedWindow {
    limit: u32,
    start: Option<f64>,
    count: u32,
}

impl FixedWindow {
    fn take(&mut self, t: f64) -> bool {
        match self.start {
            Some(s) if t - s < 60.0 => {}
            _ => {
                self.start = Some(t);
                self.count = 0;
            }
        }
        self.count += 1;
        self.count <= self.limit
    }
}

/// Drives a bucket against a fixed-window server for `secs` seconds, sending whenever a
/// token is free (answers come back at once); returns (sent, 429s in the first minute,
/// 429s after it).
fn drive(bucket: &mut Bucket, limit: u32, headers: bool, secs: f64) -> (u32, u32, u32) {
    let base = Instant::now();
    let mut server = FixedWindow {
        limit,
        start: None,
        count: 0,
    };
    let (mut sent, mut early, mut late) = (0, 0, 0);
    let mut t = 0.0;
    while t < secs {
        let now = at(base, t);
        match bucket.try_take(now, Priority::User) {
            Ok(ticket) => {
                sent += 1;
                let ok = server.take(t);
                let left = limit.saturating_sub(server.count);
                let signal = Signal {
                    throttled: !ok,
                    limit: headers.then_some(limit),
                    remaining: headers.then_some(left),
                    reset_in: None,
                    retry_after: (!ok && headers)
                        .then(|| (60.0 - (t - server.start.unwrap())).ceil() as u64),
                };
                if !ok {
                    if t < 60.0 { early += 1 } else { late += 1 }
                }
                bucket.observe(ticket, &signal, now);
                // A request takes a millisecond.
                t += 0.001;
            }
            Err(next) => {
                let wait = next.saturating_duration_since(now).as_secs_f64();
                t += wait.max(0.001);
            }
        }
    }
    (sent, early, late)
}

#[test]
fn with_headers_a_limit_of_60_is_never_exceeded() {
    let mut b = Bucket::new(None);
    let (sent, early, late) = drive(&mut b, 60, true, 600.0);
    assert_eq!((early, late), (0, 0));
    assert_eq!(b.source(), Source::Headers);
    assert_eq!(b.limit(), 60);
    // Ten minutes at 60 a minute, less the margin.
    assert!(sent >= 580, "{sent}");
}

#[test]
fn without_headers_the_default_holds_and_nothing_is_throttled() {
    let mut b = Bucket::new(None);
    let (sent, early, late) = drive(&mut b, 60, false, 900.0);
    assert_eq!((early, late), (0, 0));
    assert_eq!((b.source(), b.limit()), (Source::Assumed, ASSUMED_LIMIT));
    assert!(sent >= 850, "{sent}");
}

/// Takes tokens greedily for `secs` (answers without any header, at once); the send times.
fn greedy(b: &mut Bucket, secs: f64) -> Vec<f64> {
    let base = Instant::now();
    let (mut sends, mut t) = (Vec::new(), 0.0);
    while t < secs {
        let now = at(base, t);
        match b.try_take(now, Priority::User) {
            Ok(ticket) => {
                sends.push(t);
                b.observe(ticket, &Signal::default(), now);
                t += 0.001;
            }
            Err(next) => t += next.saturating_duration_since(now).as_secs_f64().max(0.001),
        }
    }
    sends
}

/// The most sends in any span of `span` seconds.
fn busiest(sends: &[f64], span: f64) -> usize {
    (0..sends.len())
        .map(|i| {
            sends[i..]
                .iter()
                .take_while(|s| **s < sends[i] + span)
                .count()
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn silence_is_not_permission() {
    // A server that never says a limit and never answers 429 (it might ban instead).
    let mut b = Bucket::new(None);
    let sends = greedy(&mut b, 600.0);
    assert_eq!((b.source(), b.limit()), (Source::Assumed, ASSUMED_LIMIT));
    assert!(busiest(&sends, 60.0) <= 60, "{}", busiest(&sends, 60.0));
    assert!(
        busiest(&sends, 1.0) <= BURST as usize,
        "{} in one second",
        busiest(&sends, 1.0)
    );
    assert!(sends.len() >= 580, "{}", sends.len());
}

#[test]
fn the_users_figure_is_assumed_and_spread_over_the_minute() {
    let mut b = Bucket::new(Some(60));
    let sends = greedy(&mut b, 300.0);
    assert!(busiest(&sends, 60.0) <= 60);
    assert!(
        busiest(&sends, 1.0) <= BURST as usize,
        "{}",
        busiest(&sends, 1.0)
    );
    // A higher figure of the user's is taken as the limit, and still spread.
    let mut b = Bucket::new(Some(600));
    assert_eq!((b.source(), b.limit()), (Source::Assumed, 600));
    let sends = greedy(&mut b, 300.0);
    assert!(busiest(&sends, 60.0) <= 600);
    assert!(busiest(&sends, 1.0) <= 6 + 10, "{}", busiest(&sends, 1.0));
}

#[test]
fn without_headers_a_lower_limit_is_learned() {
    let mut b = Bucket::new(None);
    let (_, _, late) = drive(&mut b, 20, false, 600.0);
    assert_eq!(late, 0);
    assert_eq!(b.limit(), 20);
}

#[test]
fn the_ceiling_holds_whatever_the_server_allows() {
    let mut b = Bucket::new(Some(600));
    let base = Instant::now();
    let mut sends = Vec::new();
    let mut t = 0.0;
    while t < 300.0 {
        let now = at(base, t);
        match b.try_take(now, Priority::User) {
            Ok(ticket) => {
                sends.push(t);
                b.observe(ticket, &Signal::default(), now);
                t += 0.001;
            }
            Err(next) => t += next.saturating_duration_since(now).as_secs_f64().max(0.001),
        }
    }
    // Any 60 s span holds at most 600.
    for (i, start) in sends.iter().enumerate() {
        let within = sends[i..].iter().take_while(|s| **s < start + 60.0).count();
        assert!(within <= 600, "{within} from {start}");
    }
    assert!(b.limit() <= 600);
    assert!(sends.len() >= 2900, "{}", sends.len());
}

#[test]
fn a_429_pauses_everything_until_retry_after() {
    let mut b = Bucket::new(None);
    let now = Instant::now();
    let t = b.try_take(now, Priority::User).unwrap();
    b.observe(
        t,
        &Signal {
            throttled: true,
            limit: Some(60),
            remaining: Some(0),
            retry_after: Some(23),
            reset_in: None,
        },
        now,
    );
    assert_eq!(b.try_take(at(now, 1.0), Priority::User), Err(at(now, 23.0)));
    let view = b.view(at(now, 1.0));
    assert_eq!(view.paused_for, Some(Duration::from_secs(22)));
    assert!(b.try_take(at(now, 23.0), Priority::User).is_ok());
}

#[test]
fn the_servers_remaining_count_is_respected() {
    // Another program spends the same token: the server says 2 left although we sent 1.
    let mut b = Bucket::new(None);
    let now = Instant::now();
    let t = b.try_take(now, Priority::User).unwrap();
    let signal = Signal {
        limit: Some(60),
        remaining: Some(2),
        reset_in: Some(30),
        ..Signal::default()
    };
    b.observe(t, &signal, now);
    assert!(b.try_take(now, Priority::User).is_ok());
    assert!(b.try_take(now, Priority::User).is_ok());
    assert_eq!(b.try_take(now, Priority::User), Err(at(now, 30.0)));
    assert_eq!(b.view(now).left, 0);
    assert!(b.try_take(at(now, 30.0), Priority::User).is_ok());
}

#[test]
fn concurrency_is_polite_whatever_the_server_shows() {
    let mut b = Bucket::new(None);
    assert_eq!(b.concurrency(64), POLITE_CONCURRENCY, "before any answer");
    let now = Instant::now();
    let t = b.try_take(now, Priority::User).unwrap();
    b.observe(t, &Signal::default(), now);
    assert_eq!(b.concurrency(64), POLITE_CONCURRENCY, "no limit shown");
    assert_eq!(b.concurrency(2), 2, "a lower bound of the caller's holds");
}

#[test]
fn a_burst_refused_halfway_learns_what_the_server_took() {
    // 60 sent within the minute to a server that takes 30 a minute, answered in order.
    let mut b = Bucket::new(None);
    let now = Instant::now();
    let pace = |i: usize| at(now, i as f64 * 61.0 / 60.0);
    let tickets: Vec<Ticket> = (0..60)
        .map(|i| b.try_take(pace(i), Priority::User).unwrap())
        .collect();
    for (i, t) in tickets.into_iter().enumerate() {
        let signal = Signal {
            throttled: i >= 30,
            ..Signal::default()
        };
        b.observe(t, &signal, at(now, 60.5));
    }
    assert_eq!((b.limit(), b.source()), (30, Source::Learned));
    // Answers arriving after the first 429 (out of order) still count.
    let mut b = Bucket::new(None);
    let tickets: Vec<Ticket> = (0..60)
        .map(|i| b.try_take(pace(i), Priority::User).unwrap())
        .collect();
    for (i, t) in tickets.into_iter().enumerate() {
        let signal = Signal {
            throttled: i % 2 == 0,
            ..Signal::default()
        };
        b.observe(t, &signal, at(now, 60.5));
    }
    assert_eq!(b.limit(), 30);
}

#[test]
fn a_wait_the_fetcher_tells_is_shown_from_two_seconds() {
    let mut b = Bucket::new(None);
    let now = Instant::now();
    b.set_next_send(Some(at(now, 5.0)));
    assert_eq!(b.view(now).next_in, Some(Duration::from_secs(5)));
    // A sweep paced a second apart is not a wait worth telling.
    b.set_next_send(Some(at(now, 1.0)));
    assert_eq!(b.view(now).next_in, None);
    b.set_next_send(None);
    assert_eq!(b.view(now).next_in, None);
}

#[test]
fn a_spent_server_count_without_a_reset_time_ends_with_the_servers_window() {
    let mut b = Bucket::new(None);
    let now = Instant::now();
    // One request a second for a minute; the last answer says the server's 60 are spent
    // and not when its window ends.
    let mut last = None;
    for i in 0..60 {
        let t = b.try_take(at(now, i as f64), Priority::User).unwrap();
        let remaining = 59 - i;
        let signal = Signal {
            limit: Some(60),
            remaining: Some(remaining),
            ..Signal::default()
        };
        b.observe(t, &signal, at(now, i as f64 + 0.5));
        last = Some(remaining);
    }
    assert_eq!(last, Some(0));
    assert!(b.try_take(at(now, 60.0), Priority::User).is_err());
    // The server's window began with the first of those 60: it ends a window after it,
    // not a window after the last answer (120.5 s).
    assert_eq!(
        b.try_take(at(now, 61.0), Priority::User),
        Ok(Ticket::Normal)
    );
}

#[test]
fn the_clients_idle_connections_match_what_runs_at_once() {
    assert_eq!(crate::api::POOL_MAX_IDLE, POLITE_CONCURRENCY);
}
