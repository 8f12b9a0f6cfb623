//! The plan in hand: the due reads in their lines (see [`super::planner::Pick`]), and which
//! goes next ([`Queue::pick`]). Pure: the engine fills it from each plan and takes from it
//! one read at a time.
//!
//! - The screen's line first, always: it holds only what is on screen and not shown yet
//!   (or a list or detail on screen a whole refresh overdue), so it is short and bounded
//!   by the screen.
//! - Then the sweep by age; one pick in [`SLOW_SHARE`] goes to the slow line while the
//!   sweep waits (so the statistics nobody looks at still arrive on a large account), and
//!   every pick does once the sweep is empty.

use super::planner::{Due, Pick};
use std::collections::VecDeque;

/// While watched data waits, one pick in this many goes to the slow data, so the
/// statistics still arrive on a large account and the watched data keeps the rest (on an
/// account whose budget keeps up, the slow data also takes every moment nothing watched
/// is due). A budget-bound account reads its watched data within under 2 % of the
/// limit's pace.
pub const SLOW_SHARE: u32 = 64;

#[derive(Debug, Default)]
pub struct Queue {
    screen: VecDeque<Due>,
    sweep: VecDeque<Due>,
    slow: VecDeque<Due>,
    /// Sweep picks since the slow line last had one.
    since_slow: u32,
}

impl Queue {
    /// Takes a plan (oldest first), replacing what was in hand.
    pub fn fill(&mut self, due: Vec<Due>) {
        self.screen.clear();
        self.sweep.clear();
        self.slow.clear();
        for d in due {
            match d.pick {
                Pick::Screen => self.screen.push_back(d),
                Pick::Sweep => self.sweep.push_back(d),
                Pick::Slow => self.slow.push_back(d),
            }
        }
    }

    pub fn clear(&mut self) {
        self.fill(Vec::new());
    }

    /// Nothing of the screen's or the sweep's lines is left.
    pub fn watched_empty(&self) -> bool {
        self.screen.is_empty() && self.sweep.is_empty()
    }

    pub fn is_empty(&self) -> bool {
        self.watched_empty() && self.slow.is_empty()
    }

    /// Whether the next pick is of the screen's line.
    pub fn screen_next(&self) -> bool {
        !self.screen.is_empty()
    }

    /// The next read, by the lines' rules (see the module docs). `skip` tells a read
    /// answered or sent since the plan was made: it is dropped, and does not count as a
    /// pick.
    pub fn pick(&mut self, mut skip: impl FnMut(&Due) -> bool) -> Option<Due> {
        loop {
            let slow_turn = !self.slow.is_empty()
                && (self.sweep.is_empty() || self.since_slow + 1 >= SLOW_SHARE);
            let (due, slow) = if let Some(d) = self.screen.pop_front() {
                (d, false)
            } else if slow_turn {
                (self.slow.pop_front()?, true)
            } else {
                (self.sweep.pop_front()?, false)
            };
            if skip(&due) {
                continue;
            }
            if due.pick != Pick::Screen {
                self.since_slow = if slow { 0 } else { self.since_slow + 1 };
            }
            return Some(due);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Request;
    use chrono::{DateTime, Utc};

    fn due(request: Request, pick: Pick) -> Due {
        Due {
            request,
            since: DateTime::<Utc>::MIN_UTC,
            pick,
        }
    }

    #[test]
    fn the_screen_goes_first_and_the_slow_data_gets_its_share() {
        let mut q = Queue::default();
        let mut plan: Vec<Due> = (1..=100)
            .map(|id| due(Request::NetworkErrors(id), Pick::Sweep))
            .collect();
        plan.push(due(Request::Stats(7), Pick::Slow));
        plan.push(due(Request::Service(3), Pick::Screen));
        q.fill(plan);
        let first = q.pick(|_| false).unwrap();
        assert_eq!(first.request, Request::Service(3));
        let picks: Vec<Request> = std::iter::from_fn(|| q.pick(|_| false))
            .map(|d| d.request)
            .collect();
        let slow_at = picks.iter().position(|r| *r == Request::Stats(7)).unwrap();
        assert_eq!(slow_at, SLOW_SHARE as usize - 1, "{picks:?}");
        assert_eq!(picks.len(), 101);
    }

    #[test]
    fn a_read_answered_since_the_plan_is_dropped() {
        let mut q = Queue::default();
        q.fill(vec![
            due(Request::Credit, Pick::Sweep),
            due(Request::Invoices, Pick::Sweep),
        ]);
        let next = q.pick(|d| d.request == Request::Credit).unwrap();
        assert_eq!(next.request, Request::Invoices);
        assert!(q.is_empty());
    }
}
