//! The merge of sorted runs against one stable sort of all the rows, on random runs with
//! many equal keys (ties are where a merge can go wrong).

use super::{merge, sorted};
use crate::app::tabs::services::Rank;
use chrono::NaiveDate;

/// A stable sort of the runs laid end to end: what the merge must give.
fn one_sort<T: Ord>(runs: &[Vec<T>]) -> Vec<usize> {
    let all: Vec<&T> = runs.iter().flatten().collect();
    let mut order: Vec<usize> = (0..all.len()).collect();
    order.sort_by(|&a, &b| all[a].cmp(all[b]));
    order
}

fn merged<T: Ord + Copy>(runs: &[Vec<T>]) -> Vec<usize> {
    let orders: Vec<Vec<usize>> = runs.iter().map(|keys| sorted(keys)).collect();
    let parts: Vec<(&[T], &[usize])> = runs
        .iter()
        .zip(&orders)
        .map(|(keys, order)| (keys.as_slice(), order.as_slice()))
        .collect();
    merge(&parts)
}

#[test]
fn the_merge_of_runs_is_one_stable_sort_of_them_all() {
    let mut rng = fastrand::Rng::with_seed(25);
    for case in 0..2_000 {
        // Up to 12 runs (some empty), up to 60 rows each, keys from a few values.
        let spread = rng.u32(1..=(1 + case % 20));
        let runs: Vec<Vec<u32>> = (0..rng.usize(0..=12))
            .map(|_| (0..rng.usize(0..=60)).map(|_| rng.u32(0..spread)).collect())
            .collect();
        assert_eq!(merged(&runs), one_sort(&runs), "runs {runs:?}");
    }
}

#[test]
fn the_merge_keeps_equal_ranks_in_account_then_row_order() {
    let day = |d| NaiveDate::from_ymd_opt(2026, 11, d);
    let due = |d: Option<u32>| Rank::Due(d.is_none(), d.and_then(day));
    let runs = vec![
        vec![due(Some(3)), due(None), due(Some(1)), due(Some(3))],
        vec![],
        vec![due(Some(3)), due(Some(1)), due(None)],
    ];
    // Day 1 (account 0, then 2), day 3 (account 0's two in their order, then 2's), none.
    assert_eq!(merged(&runs), vec![2, 5, 0, 3, 4, 1, 6]);
    assert_eq!(merged(&runs), one_sort(&runs));
}

#[test]
fn the_merge_of_health_ranks_is_one_stable_sort() {
    use std::cmp::Reverse;
    let mut rng = fastrand::Rng::with_seed(39);
    for _ in 0..500 {
        let runs: Vec<Vec<Rank>> = (0..rng.usize(1..=10))
            .map(|_| {
                (0..rng.usize(0..=40))
                    .map(|_| Rank::Health((rng.u8(0..3), Reverse(rng.usize(0..3)), Reverse(0))))
                    .collect()
            })
            .collect();
        assert_eq!(merged(&runs), one_sort(&runs));
    }
}
