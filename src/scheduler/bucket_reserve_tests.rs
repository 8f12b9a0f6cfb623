//! The user's reserve: kept in both counts while a person is about, lent to the
//! background while nobody asks.

use super::tests::at;
use super::*;

/// Sweeps taken when one is asked for every 50 ms after `from` s, up to `to` s.
fn sweeps_polled(b: &mut Bucket, now: Instant, from: f64, to: f64) -> u32 {
    let (mut t, mut taken) = (from, 0);
    while t < to {
        t += 0.05;
        if b.try_take(at(now, t), Priority::Sweep).is_ok() {
            taken += 1;
        }
    }
    taken
}

#[test]
fn the_background_leaves_the_users_reserve_in_the_servers_count_too() {
    let mut b = Bucket::new(None);
    let now = Instant::now();
    // A person is about: the reserve is kept for them.
    b.asked(now);
    // Another program spent most of the server's window: 8 left until it resets in 50 s.
    let t = b.try_take(now, Priority::User).unwrap();
    let signal = |remaining| Signal {
        limit: Some(60),
        remaining: Some(remaining),
        reset_in: Some(50),
        ..Signal::default()
    };
    b.observe(t, &signal(8), now);
    // Sweeps stop at the reserve (6 of 60), lists at half of it, the user goes on to 0.
    assert!(b.try_take(now, Priority::Sweep).is_ok());
    assert!(b.try_take(at(now, 2.0), Priority::Sweep).is_ok());
    assert_eq!(
        b.try_take(at(now, 4.0), Priority::Sweep),
        Err(at(now, 50.0))
    );
    for _ in 0..3 {
        assert!(b.try_take(at(now, 4.0), Priority::List).is_ok());
    }
    assert_eq!(b.try_take(at(now, 4.0), Priority::List), Err(at(now, 50.0)));
    for _ in 0..3 {
        assert!(b.try_take(at(now, 4.0), Priority::User).is_ok());
    }
    assert_eq!(b.try_take(at(now, 4.0), Priority::User), Err(at(now, 50.0)));
}

#[test]
fn lists_leave_half_the_reserve_in_our_own_count() {
    let mut b = Bucket::new(None);
    let now = Instant::now();
    // A person is about: the reserve is kept for them.
    b.asked(now);
    let t = b.try_take(now, Priority::User).unwrap();
    let headers = Signal {
        limit: Some(60),
        ..Signal::default()
    };
    b.observe(t, &headers, now);
    // 1 + 56 = 57 spent, at the pace: lists stop there (3 left), the user takes the last 3.
    let step = |i: u32| at(now, f64::from(i) * 1.02);
    for i in 1..=56 {
        assert!(b.try_take(step(i), Priority::List).is_ok());
    }
    assert!(b.try_take(step(57), Priority::List).is_err());
    for i in 57..60 {
        b.asked(step(i));
        assert_eq!(b.try_take(step(i), Priority::User), Ok(Ticket::Normal));
    }
    // The first token back (61 s after the first) goes to a list again once three are.
    assert_eq!(
        b.try_take(at(now, 60.5), Priority::User),
        Err(at(now, 61.0))
    );
    assert!(b.try_take(at(now, 61.0), Priority::List).is_err());
    assert!(b.try_take(at(now, 65.0), Priority::List).is_ok());
}

#[test]
fn sweeps_are_paced_and_leave_a_reserve_for_the_user() {
    let mut b = Bucket::new(None);
    let now = Instant::now();
    // A person is about: the reserve is kept for them.
    b.asked(now);
    let t = b.try_take(now, Priority::User).unwrap();
    let headers = Signal {
        limit: Some(60),
        remaining: Some(59),
        ..Signal::default()
    };
    b.observe(t, &headers, now);
    // A sweep goes, the next one only a pace later (61 s over 54 tokens).
    assert!(b.try_take(now, Priority::Sweep).is_ok());
    let next = b.try_take(now, Priority::Sweep).unwrap_err();
    assert_eq!(next, now + Duration::from_secs(61) / 54);
    // Sweeping for a minute uses 54 of the 60; the user's requests still find tokens.
    let sweeps = 1 + sweeps_polled(&mut b, now, 0.0, 59.0);
    assert!((50..=54).contains(&sweeps), "{sweeps}");
    for _ in 0..5 {
        assert_eq!(
            b.try_take(at(now, 59.0), Priority::User),
            Ok(Ticket::Normal)
        );
    }
}

#[test]
fn while_nobody_asks_the_reserve_is_lent_and_kept_again_from_the_next_ask() {
    let mut b = Bucket::new(None);
    let now = Instant::now();
    let t = b.try_take(now, Priority::List).unwrap();
    let headers = Signal {
        limit: Some(60),
        ..Signal::default()
    };
    b.observe(t, &headers, now);
    // Nobody asked: sweeps are paced over all 60 tokens, not 54, and use what is left.
    assert!(b.try_take(now, Priority::Sweep).is_ok());
    assert_eq!(
        b.try_take(now, Priority::Sweep).unwrap_err(),
        now + Duration::from_secs(61) / 60
    );
    let sweeps = 1 + sweeps_polled(&mut b, now, 0.0, 60.5);
    // (Paced at 61/60 s, polled every 50 ms: 57 to 59 in the minute, where a kept
    // reserve allows 54 at most.)
    assert!((57..=59).contains(&sweeps), "{sweeps}");
    // A person asks: their first token comes back within one pace interval…
    b.asked(at(now, 60.5));
    let first = match b.try_take(at(now, 60.5), Priority::User) {
        Ok(_) => at(now, 60.5),
        Err(back) => {
            assert_eq!(b.try_take(back, Priority::User), Ok(Ticket::Normal));
            back
        }
    };
    assert!(
        first <= at(now, 60.5) + Duration::from_secs(61) / 60,
        "{:?}",
        first - now
    );
    // …and from their ask the background stops short of the whole reserve again: the
    // sweeps wait while six tokens come back, the person's next asks find them.
    let sweeps_after = sweeps_polled(&mut b, now, 61.5, 67.0);
    // (Tokens come back from 61 s; a sweep may go once 54 are out again.)
    assert!(
        sweeps_after <= 2,
        "the reserve is kept again: {sweeps_after}"
    );
    for _ in 0..5 {
        assert_eq!(
            b.try_take(at(now, 67.0), Priority::User),
            Ok(Ticket::Normal)
        );
    }
}
