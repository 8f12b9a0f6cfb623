//! The ramp: a run never opens its connections all at once. Starts are spread at most
//! `concurrency` per [`RAMP`] (one every `RAMP / concurrency`), so the first wave reaches
//! the proxies over [`RAMP`] instead of in the same millisecond, and their answers come
//! back spread out as well instead of in one clump (issue 12: 200 answers at once queued
//! for the CPU and read as 30 ms of latency that was this machine's, not the proxies').
//!
//! [`RAMP`] is shorter than the chain of any real proxy (a connect and a request through
//! it to a target elsewhere), so past the first wave the concurrency bound, not the ramp,
//! is what holds the starts back; a run of `n` proxies costs at most `n / concurrency ×
//! RAMP` more than it would unpaced, and only when the proxies answer faster than that.

use std::time::Duration;
use tokio::time::Instant;

/// The time over which `concurrency` starts are spread.
pub const RAMP: Duration = Duration::from_millis(50);
/// tokio's timer wakes once a millisecond: the starts that fell due within one tick are
/// made together, and a run held back longer (by the concurrency bound) does not catch up
/// on more than that.
const TICK: Duration = Duration::from_millis(1);

#[derive(Clone, Debug)]
pub struct Pace {
    spacing: Duration,
    next: Instant,
}

impl Pace {
    /// The first start is due at `now`.
    pub fn new(concurrency: usize, now: Instant) -> Self {
        let per_ramp = u32::try_from(concurrency.max(1)).unwrap_or(u32::MAX);
        Self {
            spacing: RAMP / per_ramp,
            next: now,
        }
    }

    /// When the next start is due.
    pub fn next(&self) -> Instant {
        self.next
    }

    pub fn due(&self, now: Instant) -> bool {
        now >= self.next
    }

    /// A start was made at `now`.
    pub fn started(&mut self, now: Instant) {
        let floor = now.checked_sub(TICK).unwrap_or(now);
        self.next = self.next.max(floor) + self.spacing;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Starts made at each millisecond tick over `ms`, with unlimited room.
    fn starts_per_tick(concurrency: usize, ms: u64) -> Vec<usize> {
        let t0 = Instant::now();
        let mut pace = Pace::new(concurrency, t0);
        (0..ms)
            .map(|tick| {
                let now = t0 + Duration::from_millis(tick);
                let mut n = 0;
                while pace.due(now) {
                    pace.started(now);
                    n += 1;
                }
                n
            })
            .collect()
    }

    #[test]
    fn a_wave_is_spread_over_the_ramp() {
        let ticks = starts_per_tick(200, 2 * RAMP.as_millis() as u64);
        // 200 over 50 ms: 4 a millisecond (the first tick makes only the one due at 0).
        assert!(ticks.iter().all(|&n| n <= 4), "{ticks:?}");
        let mut made = 0;
        let whole_wave = ticks.iter().position(|&n| {
            made += n;
            made >= 200
        });
        assert_eq!(whole_wave, Some(RAMP.as_millis() as usize), "{ticks:?}");
        // A concurrency below one per millisecond: one start every few ticks.
        let slow = starts_per_tick(10, RAMP.as_millis() as u64);
        assert_eq!(slow.iter().sum::<usize>(), 10, "{slow:?}");
        assert!(slow.iter().all(|&n| n <= 1), "{slow:?}");
    }

    #[test]
    fn a_pause_is_not_made_up_in_a_burst() {
        let t0 = Instant::now();
        let mut pace = Pace::new(200, t0);
        pace.started(t0);
        // Held back for a second (every slot taken), then free again.
        let later = t0 + Duration::from_secs(1);
        let mut burst = 0;
        while pace.due(later) {
            pace.started(later);
            burst += 1;
        }
        assert!(burst <= 5, "{burst} at once after a pause");
    }
}
