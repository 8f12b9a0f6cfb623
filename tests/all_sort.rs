//! The All view's Services under a sort (`s`, `S`): the merged order is one stable sort of
//! every account's services by rank (equal ranks in the accounts' order, then each
//! account's own), ended services last by due date, checked against a sort of all the
//! rows at once. Two accounts of the same seed: every rank is tied across them.

use crate::all_rows::two;
use crossterm::event::KeyCode;
use proxydash::app::is_swept;
use proxydash::app::tabs::services::{ServiceSort, rank};
use proxydash::desk::Desk;
use proxydash::desk::all::RowRef;

/// What the All view must show: every account's services laid end to end, ranked and
/// sorted at once.
fn expected(d: &Desk) -> Vec<RowRef> {
    let sort = d.all().sort;
    let by = sort.by.expect("a sort is shown");
    let mut rows: Vec<_> = d
        .seats()
        .iter()
        .enumerate()
        .flat_map(|(s, seat)| {
            seat.app.services().rows().iter().map(move |x| {
                let row = RowRef {
                    seat: s,
                    id: x.service_id,
                };
                (row, rank(by, x, seat.app.store()), !is_swept(&x.status))
            })
        })
        .collect();
    rows.sort_by_key(|r| r.1);
    if sort.reversed {
        rows.reverse();
    }
    if by == ServiceSort::DueDate {
        let (live, ended): (Vec<_>, Vec<_>) = rows.into_iter().partition(|r| !r.2);
        rows = live.into_iter().chain(ended).collect();
    }
    rows.into_iter().map(|r| r.0).collect()
}

fn shown(d: &Desk) -> Vec<RowRef> {
    let all = d.all();
    let rows = all.table().filtered().iter();
    rows.map(|&i| all.row_ref(i).expect("a merged row"))
        .collect()
}

#[tokio::test]
async fn a_sort_of_services_orders_every_accounts_rows_as_one_stable_sort() {
    let (_sbs, mut s) = two().await;
    s.press(KeyCode::Char('1'));
    let read = |d: &Desk| {
        d.seats()
            .iter()
            .all(|seat| !seat.app.services().rows().is_empty() && seat.app.in_flight() == 0)
    };
    s.until("both accounts' services listed, their reads answered", read)
        .await;
    // Due date, reversed; status reversed, then not; health, reversed; the server's
    // order; due date again, reversed then not, and with the filter open (the rows then
    // come in each account's own view order).
    let keys = ['s', 'S', 's', 'S', 's', 'S', 's', 's', 'S', '/'];
    for key in keys {
        s.press(KeyCode::Char(key));
        let d = &s.desk;
        if d.all().sort.by.is_none() {
            continue;
        }
        let shown = shown(d);
        assert!(
            shown.iter().any(|r| r.seat == 0) && shown.iter().any(|r| r.seat == 1),
            "after {key:?}: both accounts' rows are shown"
        );
        assert_eq!(shown, expected(d), "after {key:?} ({:?})", d.all().sort);
    }
}
