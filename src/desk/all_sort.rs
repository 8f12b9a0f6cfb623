//! The All view's Services under a sort (`s`): each account's rows sorted apart (a run),
//! then the runs merged.
//!
//! A batch of answers touches at most two accounts (`SEATS_PER_BATCH`), yet ranking and
//! sorting all ten thousand rows again cost 1.5–7 ms of every batch. A run is kept while
//! its account's rows and their ranks are as they were (a due date or a status changes
//! only with a new list; a health with that service's network lists), so a batch sorts
//! again only the accounts it changed, and merging the ten sorted runs is O(N log k).
//! The order is the one a stable sort of all the rows, account after account, gives:
//! by rank, equal ranks in the accounts' order, then in each account's own.

use super::Seat;
use crate::app::columns::Sort;
use crate::app::tabs::services::{Rank, ServiceSort, rank};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::collections::binary_heap::PeekMut;

/// One account's rows as the All view lists them, with their ranks and sorted order.
#[derive(Default)]
struct Run {
    /// The rows in the order the merged table takes them from the account (indices into
    /// its services list).
    rows: Vec<usize>,
    /// Each of those rows' rank; `None` when a row is not in the list (no rank to sort
    /// by: the whole order is then ranked again as before runs, [`ranked`]).
    ranks: Option<Vec<Rank>>,
    /// Places in `rows`, stably sorted by rank.
    order: Vec<usize>,
}

/// The runs of every account under the sort last asked for.
#[derive(Default)]
pub struct Runs {
    by: Option<ServiceSort>,
    runs: Vec<Run>,
}

impl Runs {
    /// Ranks every account's rows by `by` (`rows_of`: the rows the merged table takes from
    /// the account, in its order) and sorts again each run whose rows or ranks changed;
    /// whether any did.
    pub fn refresh(
        &mut self,
        by: ServiceSort,
        seats: &[Seat],
        rows_of: impl Fn(&Seat) -> Vec<usize>,
    ) -> bool {
        let mut changed = self.by != Some(by) || self.runs.len() != seats.len();
        self.by = Some(by);
        self.runs.resize_with(seats.len(), Run::default);
        for (seat, run) in seats.iter().zip(&mut self.runs) {
            let list = seat.app.services().rows();
            let rows = rows_of(seat);
            let ranks: Option<Vec<Rank>> = rows
                .iter()
                .map(|&r| Some(rank(by, list.get(r)?, seat.app.store())))
                .collect();
            if run.ranks.is_some() && ranks == run.ranks && rows == run.rows {
                continue;
            }
            changed = true;
            run.order = match &ranks {
                Some(ranks) => sorted(ranks),
                None => Vec::new(),
            };
            run.rows = rows;
            run.ranks = ranks;
        }
        changed
    }

    /// Forgets the runs (no sort of Services is shown).
    pub fn clear(&mut self) {
        *self = Self::default();
    }

    /// The merged rows' order (places in `rows`, the accounts' rows laid end to end), when
    /// `rows` are the runs' rows and every row has a rank.
    fn merged(&self, rows: &[(usize, usize)]) -> Option<Vec<usize>> {
        let mut parts = Vec::with_capacity(self.runs.len());
        let mut at = 0;
        for (s, run) in self.runs.iter().enumerate() {
            let own = rows.get(at..at + run.rows.len())?;
            let same = own.iter().zip(&run.rows).all(|(&row, &r)| row == (s, r));
            if !same {
                return None;
            }
            parts.push((run.ranks.as_deref()?, run.order.as_slice()));
            at += run.rows.len();
        }
        (at == rows.len()).then(|| merge(&parts))
    }
}

/// Under a sort of Services, every account's services in one order; else none (account
/// by account).
pub fn services_order(
    runs: &Runs,
    seats: &[Seat],
    rows: &[(usize, usize)],
    sort: Sort<ServiceSort>,
) -> Vec<usize> {
    let Some(by) = sort.by else {
        return Vec::new();
    };
    let lists: Vec<&[crate::api::ServiceSummary]> =
        seats.iter().map(|s| s.app.services().rows()).collect();
    let mut order = runs
        .merged(rows)
        .unwrap_or_else(|| ranked(seats, &lists, rows, by));
    if sort.reversed {
        order.reverse();
    }
    // By due date, an ended service never falls due: last either way (as in one account).
    if by == ServiceSort::DueDate {
        let ended = |i: usize| {
            let (s, r) = rows[i];
            lists[s]
                .get(r)
                .is_some_and(|x| !crate::app::is_swept(&x.status))
        };
        let (first, last): (Vec<usize>, Vec<usize>) = order.into_iter().partition(|&i| !ended(i));
        return first.into_iter().chain(last).collect();
    }
    order
}

/// Every row ranked and sorted at once: what the runs stand for, used when a row has no
/// rank (it is not in its account's list).
fn ranked(
    seats: &[Seat],
    lists: &[&[crate::api::ServiceSummary]],
    rows: &[(usize, usize)],
    by: ServiceSort,
) -> Vec<usize> {
    // Each row's rank once (see `services::rank`), then the order by it.
    let ranks: Vec<Option<Rank>> = rows
        .iter()
        .map(|&(s, r)| Some(rank(by, lists[s].get(r)?, seats[s].app.store())))
        .collect();
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|&a, &b| match (&ranks[a], &ranks[b]) {
        (Some(x), Some(y)) => x.cmp(y),
        _ => std::cmp::Ordering::Equal,
    });
    order
}

/// Places `0..keys.len()` stably sorted by key.
fn sorted<T: Ord>(keys: &[T]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by(|&a, &b| keys[a].cmp(&keys[b]));
    order
}

/// The places of the runs laid end to end, in the order a stable sort of all of them by
/// key gives: by key, then by run, then by place in the run. Each run is its keys and
/// its order ([`sorted`] of them); the smallest head of the k runs is taken each time.
fn merge<T: Ord + Copy>(runs: &[(&[T], &[usize])]) -> Vec<usize> {
    let mut starts = Vec::with_capacity(runs.len());
    let mut total = 0;
    for (keys, _) in runs {
        starts.push(total);
        total += keys.len();
    }
    let mut next = vec![0; runs.len()];
    // Each run's head, by key and then by run: no two heads are equal.
    let mut heads: BinaryHeap<Reverse<(T, usize)>> = runs
        .iter()
        .enumerate()
        .filter_map(|(k, (keys, order))| Some(Reverse((keys[*order.first()?], k))))
        .collect();
    let mut out = Vec::with_capacity(total);
    while let Some(mut head) = heads.peek_mut() {
        let Reverse((_, k)) = *head;
        let (keys, order) = runs[k];
        out.push(starts[k] + order[next[k]]);
        next[k] += 1;
        match order.get(next[k]) {
            Some(&p) => *head = Reverse((keys[p], k)),
            None => {
                PeekMut::pop(head);
            }
        }
    }
    out
}

#[cfg(test)]
#[path = "all_sort_tests.rs"]
mod tests;

/// The Alerts of every account in one order, as one account's are: the open ones first,
/// worst first, the newest first at one level; then the resolved, newest first. Each
/// account's order is already so; this keeps it (a stable sort) and interleaves them.
pub fn alerts_order(seats: &[Seat], rows: &[(usize, usize)]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..rows.len()).collect();
    let alert = |i: usize| {
        let (s, r) = rows[i];
        seats.get(s).and_then(|seat| seat.app.alerts().rows.get(r))
    };
    order.sort_by_key(|&i| match alert(i) {
        Some(a) => (
            a.resolved.is_some(),
            std::cmp::Reverse(if a.resolved.is_some() {
                None
            } else {
                Some(a.level)
            }),
            std::cmp::Reverse(a.resolved.unwrap_or(a.first_seen)),
        ),
        None => (
            true,
            std::cmp::Reverse(None),
            std::cmp::Reverse(Default::default()),
        ),
    });
    order
}
