//! The budget model's rules one by one on a fake clock, then as a whole against simulated
//! servers ([`super::super::sim`]).

use super::*;
use crate::scheduler::sim::{self, Demand, Server};

fn at(base: Instant, secs: f64) -> Instant {
    base + Duration::from_secs_f64(secs)
}

fn token(sent: Instant) -> Token {
    Token { sent, route: None }
}

const SILENT: Signal = Signal {
    throttled: false,
    limit: None,
    remaining: None,
    reset_in: None,
    retry_after: None,
};

/// The person first: half the limit at once, then the even pace; the sweep spread evenly
/// from the start, and stopping short of the reserve.
#[test]
fn a_person_gets_half_the_limit_at_once_and_the_sweep_is_spread() {
    let now = Instant::now();
    let mut b = Bucket::new(None);
    for i in 0..30 {
        assert!(b.try_take(now, Lane::Screen).is_ok(), "foreground {i}");
    }
    let next = b.try_take(now, Lane::Person).unwrap_err();
    let pace = Duration::from_secs(61) / 60;
    assert_eq!(next, now + pace);
    // The sweep is spread from its own first token: one now, the next 61 s ÷ 59 later.
    let mut s = Bucket::new(None);
    assert!(s.try_take(now, Lane::Background).is_ok());
    assert_eq!(
        s.try_take(now, Lane::Background),
        Err(now + Duration::from_secs(61) / 59)
    );
}

#[test]
fn the_sweep_leaves_the_reserve_to_a_person() {
    let now = Instant::now();
    let mut b = Bucket::new(None);
    let mut t = 0.0;
    let mut swept = 0;
    // A minute of sweeping as fast as the budget lets it.
    while t < 60.0 {
        match b.try_take(at(now, t), Lane::Background) {
            Ok(_) => swept += 1,
            Err(next) => t = next.duration_since(now).as_secs_f64(),
        }
    }
    assert_eq!(swept, 59, "the sweep stops short of the reserve of one");
    assert!(b.try_take(at(now, 60.0), Lane::Person).is_ok());
    assert!(b.try_take(at(now, 60.0), Lane::Person).is_err());
}

#[test]
fn a_lower_limit_is_believed_at_once_a_higher_one_up_to_the_ceiling() {
    let now = Instant::now();
    let claim = |limit: u32| Signal {
        limit: Some(limit),
        ..SILENT
    };
    let mut b = Bucket::new(None);
    b.observe(token(now), &claim(20), now);
    assert_eq!((b.limit(), b.source()), (20, Source::Headers));
    b.observe(token(now), &claim(1_000_000), now);
    assert_eq!(b.limit(), TRUST_CEILING);
    let view = b.view(now);
    assert_eq!((view.limit, view.claimed), (600, Some(1_000_000)));
    // The user vouches for more, and caps at their figure whatever the server says.
    let mut vouched = Bucket::new(Some(2_000));
    vouched.observe(token(now), &claim(1_000_000), now);
    assert_eq!(vouched.limit(), 2_000);
    let mut capped = Bucket::new(Some(30));
    capped.observe(token(now), &claim(1_000), now);
    assert_eq!(capped.limit(), 30);
    // Silence never raises the assumed figure.
    let mut quiet = Bucket::new(None);
    for i in 0..100 {
        quiet.observe(token(now), &SILENT, at(now, i as f64));
    }
    assert_eq!((quiet.limit(), quiet.source()), (60, Source::Assumed));
}

#[test]
fn a_429_without_headers_halves_once_per_pause_and_is_forgiven() {
    let now = Instant::now();
    let mut b = Bucket::new(None);
    let sent: Vec<Token> = (0..6)
        .map(|_| b.try_take(now, Lane::Screen).unwrap())
        .collect();
    let refused = Signal {
        throttled: true,
        retry_after: Some(0),
        ..SILENT
    };
    // Six requests of one burst all refused: one halving, not six.
    for t in &sent {
        b.observe(*t, &refused, at(now, 0.1));
    }
    assert_eq!((b.limit(), b.source()), (30, Source::Learned));
    let view = b.view(at(now, 0.1));
    assert_eq!(view.throttled, 6);
    // Paused a second at least (`Retry-After: 0` is not "hammer me").
    assert_eq!(b.paused_until(), Some(at(now, 1.1)));
    // A later 429, to a request sent after the cut, halves again; never below the floor.
    let mut last = now;
    for i in 0..5 {
        last = at(now, 2.0 + 2.0 * i as f64);
        b.observe(token(last), &refused, last);
    }
    assert_eq!(b.limit(), FLOOR);
    // Each whole window without a 429 gives a step back, up to the assumed figure.
    let mut limits = Vec::new();
    for w in 1..=10 {
        b.prune(last + (WINDOW + MARGIN) * w);
        limits.push(b.limit());
    }
    assert_eq!(limits, vec![12, 18, 24, 30, 36, 42, 48, 54, 60, 60]);
    assert_eq!(b.source(), Source::Assumed);
}

#[test]
fn a_huge_retry_after_pauses_an_hour_and_says_what_was_asked() {
    let now = Instant::now();
    let mut b = Bucket::new(None);
    let t = b.try_take(now, Lane::Person).unwrap();
    b.observe(
        t,
        &Signal {
            throttled: true,
            retry_after: Some(999_999),
            ..SILENT
        },
        now,
    );
    assert_eq!(b.paused_until(), Some(now + PAUSE_CAP));
    let view = b.view(now);
    assert_eq!(view.paused_for, Some(PAUSE_CAP));
    assert_eq!(view.asked_pause, Some(999_999));
    assert_eq!(
        b.hold_for(now, Lane::Person),
        Some((Hold::Paused, PAUSE_CAP))
    );
    // A reset that far away holds the server's count no longer than the cap either.
    let mut r = Bucket::new(None);
    let t = r.try_take(now, Lane::Person).unwrap();
    r.observe(
        t,
        &Signal {
            limit: Some(60),
            remaining: Some(0),
            reset_in: Some(10_000_000),
            ..SILENT
        },
        now,
    );
    assert_eq!(
        r.try_take(now, Lane::Person),
        Err(now + PAUSE_CAP),
        "held until the capped reset"
    );
}

#[test]
fn what_an_earlier_run_saved_is_a_hint() {
    let now = Instant::now();
    // A figure from headers above the assumed one is not believed before an answer says it.
    let b = Bucket::resume(None, Some(u32::MAX), [], None, now);
    assert_eq!((b.limit(), b.source()), (60, Source::Assumed));
    // A lower one counts until the first answer without the header drops it.
    let mut low = Bucket::resume(None, Some(20), [], None, now);
    assert_eq!((low.limit(), low.source()), (20, Source::Headers));
    assert_eq!(low.headers_limit(), None, "not confirmed: not saved again");
    let t = low.try_take(now, Lane::Person).unwrap();
    low.observe(t, &SILENT, now);
    assert_eq!((low.limit(), low.source()), (60, Source::Assumed));
    // …and is confirmed by one that says it.
    let mut said = Bucket::resume(None, Some(20), [], None, now);
    let t = said.try_take(now, Lane::Person).unwrap();
    said.observe(
        t,
        &Signal {
            limit: Some(20),
            ..SILENT
        },
        now,
    );
    assert_eq!(said.headers_limit(), Some(20));
    // Sends in the future or long ago do not count, nor more than a limit's worth; a pause
    // counts up to an hour.
    let past = |secs: f64| now - Duration::from_secs_f64(secs);
    let spent = (0..10_000)
        .map(|i| past(30.0 - i as f64 * 0.001))
        .chain([at(now, 50.0), past(500.0)]);
    let mut b = Bucket::resume(None, None, spent, Some(at(now, 1e7)), now);
    assert_eq!(b.spent().count(), 60);
    assert_eq!(b.paused_until(), Some(now + PAUSE_CAP));
    assert_eq!(b.view(now).left, 0);
}

// ---- The model against simulated servers (see `sim.rs`). ----

const LATENCY: Duration = Duration::from_millis(200);

fn minutes(n: u64) -> Duration {
    Duration::from_secs(60 * n)
}

#[test]
fn a_fixed_window_with_headers_is_never_exceeded_and_the_person_goes_first() {
    let f = sim::run(
        Server::FixedWindow {
            limit: 60,
            headers: true,
        },
        &[(None, Demand::DASHBOARD)],
        LATENCY,
        minutes(10),
    );
    assert_eq!(f.throttled.len(), 0, "{:?}", f.throttled);
    assert!(f.busiest(WINDOW) <= 60, "{}", f.busiest(WINDOW));
    // Four lists, then ten rows at 6 at once: three round trips.
    let screen = f.first_screen.expect("the first screen");
    assert!(
        screen <= LATENCY * 3 + Duration::from_millis(50),
        "{screen:?}"
    );
    assert!(
        f.person_worst <= Duration::from_secs(2),
        "{:?}",
        f.person_worst
    );
    // The sweep uses what is left: near the limit every minute.
    assert!(f.sent_between(minutes(5), minutes(10)) >= 5 * 55);
}

#[test]
fn a_fixed_window_without_headers_is_never_exceeded() {
    let f = sim::run(
        Server::FixedWindow {
            limit: 60,
            headers: false,
        },
        &[(None, Demand::DASHBOARD)],
        LATENCY,
        minutes(10),
    );
    let (first, after) = f.throttled_split(minutes(1));
    assert!(first <= 2, "{first}");
    assert_eq!(after, 0);
    assert!(f.busiest(WINDOW) <= 60);
    assert!(f.first_screen.unwrap() <= LATENCY * 3 + Duration::from_millis(50));
}

#[test]
fn a_lying_header_is_believed_only_up_to_the_ceiling() {
    let f = sim::run(
        Server::Lying { claim: 1_000_000 },
        &[(None, Demand::DASHBOARD)],
        LATENCY,
        minutes(5),
    );
    assert!(f.busiest(WINDOW) <= 600, "{}", f.busiest(WINDOW));
    // Spread, not a minute's worth in a second.
    assert!(
        f.busiest(Duration::from_secs(1)) <= 30,
        "{}",
        f.busiest(Duration::from_secs(1))
    );
}

#[test]
fn one_429_without_headers_is_forgiven_within_minutes() {
    let f = sim::run(
        Server::OnceThrottled {
            at: 10,
            retry_after: Some(0),
        },
        &[(None, Demand::DASHBOARD)],
        LATENCY,
        minutes(10),
    );
    assert_eq!(f.throttled.len(), 1);
    // Halved once, never near 1 a minute, back to 60 within six windows.
    assert_eq!(f.limits.iter().min(), Some(&30), "{:?}", f.limits);
    assert_eq!(f.limits.last(), Some(&60), "{:?}", f.limits);
    assert!(f.sent_between(minutes(8), minutes(9)) >= 55);
}

#[test]
fn a_huge_retry_after_costs_an_hour_not_a_day() {
    let f = sim::run(
        Server::OnceThrottled {
            at: 5,
            retry_after: Some(999_999),
        },
        &[(None, Demand::SWEEP)],
        LATENCY,
        minutes(70),
    );
    let paused_at = f.throttled[0];
    let resumed = f
        .sent
        .iter()
        .find(|t| **t > paused_at)
        .copied()
        .expect("sends again");
    let pause = resumed - paused_at;
    assert!(
        pause >= PAUSE_CAP && pause <= PAUSE_CAP + Duration::from_secs(2),
        "{pause:?}"
    );
}

/// Two programs on one token: with the headers, the server's count tells each what the
/// other spent (0 answers 429, the token used whole); without them they learn from the
/// 429s (halving and climbing back, about one 429 a minute at worst) and keep using it.
#[test]
fn two_programs_on_one_token_share_it() {
    let with = sim::run(
        Server::FixedWindow {
            limit: 60,
            headers: true,
        },
        &[(None, Demand::DASHBOARD), (None, Demand::SWEEP)],
        LATENCY,
        minutes(10),
    );
    // The server's own fixed window is the measure here (a span of ours may straddle two
    // of its windows): it refused nothing.
    assert_eq!(with.throttled.len(), 0, "{:?}", with.throttled);
    assert!(with.sent_between(minutes(1), minutes(10)) >= 9 * 55);
    let without = sim::run(
        Server::FixedWindow {
            limit: 60,
            headers: false,
        },
        &[(None, Demand::DASHBOARD), (None, Demand::SWEEP)],
        LATENCY,
        minutes(10),
    );
    assert!(without.throttled.len() <= 10, "{:?}", without.throttled);
    assert!(without.sent_between(minutes(5), minutes(10)) >= 5 * 36);
}

/// Issue 46.4: programs on one token sharing the send log keep one budget: with the
/// headers no 429, without them never more than the limit in a minute (each on its own
/// meets 429s, above).
#[test]
fn three_programs_sharing_the_send_log_split_the_token() {
    let programs = [
        (None, Demand::DASHBOARD),
        (None, Demand::SWEEP),
        (None, Demand::SWEEP),
    ];
    for headers in [true, false] {
        let f = sim::run_sharing(
            Server::FixedWindow { limit: 60, headers },
            &programs,
            LATENCY,
            minutes(10),
        );
        assert_eq!(f.throttled.len(), 0, "headers {headers}: {:?}", f.throttled);
        assert!(
            f.busiest(WINDOW) <= 60,
            "headers {headers}: {}",
            f.busiest(WINDOW)
        );
        assert!(
            f.sent_between(minutes(1), minutes(10)) >= 9 * 55,
            "the token kept busy"
        );
        assert!(
            f.person_worst <= Duration::from_secs(2),
            "{:?}",
            f.person_worst
        );
    }
}

/// Issue 45.3: an outage's attempts that never reached the server cost nothing: the
/// budget is whole again for the return (not paced at one a second by the attempts into
/// the void).
#[test]
fn attempts_that_never_reached_the_server_cost_nothing() {
    let now = Instant::now();
    let mut b = Bucket::new(None);
    // Thirty attempts at once, each refused a connection.
    for _ in 0..30 {
        let t = b.try_take(now, Lane::Screen).unwrap();
        b.refund(t);
    }
    // The API is back: the screen's burst is whole.
    for i in 0..30 {
        assert!(b.try_take(now, Lane::Screen).is_ok(), "foreground {i}");
    }
    // One that was answered stays spent.
    let mut c = Bucket::new(None);
    let t = c.try_take(now, Lane::Background).unwrap();
    c.observe(token(t.sent), &SILENT, now);
    assert!(c.try_take(now, Lane::Background).is_err());
}
