//! `TableView`: selection, filter, order and problems, without a tab.
use super::*;

fn view(n: usize) -> TableView {
    let mut v = TableView::default();
    v.set_page(5);
    v.set_rows(
        (0..n).map(|i| format!("row {i}")).collect(),
        (0..n as u64).collect(),
    );
    v
}

#[test]
fn moving_paging_and_ends() {
    let mut v = view(23);
    v.move_by(-1);
    assert_eq!(v.selected_row(), Some(0));
    v.page_down();
    assert_eq!(v.selected_row(), Some(5));
    assert_eq!(v.offset(), 1);
    v.bottom();
    assert_eq!(v.selected_row(), Some(22));
    assert_eq!(v.offset(), 18);
    v.move_by(1);
    assert_eq!(v.selected_row(), Some(22));
    v.page_up();
    assert_eq!(v.selected_row(), Some(17));
    v.top();
    assert_eq!((v.selected_row(), v.offset()), (Some(0), 0));
}

#[test]
fn visible_holds_only_the_rows_on_screen() {
    let mut v = view(100_000);
    v.select_position(50_000);
    let (first, rows) = v.visible(5);
    assert_eq!(rows.len(), 5);
    assert!(first <= 50_000 && 50_000 < first + 5);
}

#[test]
fn filter_narrows_and_keeps_the_selection() {
    let mut v = view(30);
    v.select_id(12);
    v.push_filter("1");
    assert_eq!(v.selected_id(), Some(12));
    v.push_filter("2");
    assert_eq!(v.len(), 1);
    v.pop_filter();
    assert_eq!(v.len(), 12); // 1, 10..19, 21
    v.clear_filter();
    assert_eq!(v.len(), 30);
    assert_eq!(v.selected_id(), Some(12));
}

#[test]
fn new_rows_keep_the_selected_identity() {
    let mut v = view(10);
    v.select_id(7);
    v.set_rows(vec!["a".into(), "b".into(), "c".into()], vec![9, 7, 3]);
    assert_eq!(v.selected_row(), Some(1));
    v.set_rows(vec![], vec![]);
    assert_eq!(v.selected_row(), None);
}

#[test]
fn a_view_order_and_the_problems_toggle_narrow_the_rows() {
    let mut v = TableView::default();
    v.set_rows_with(
        vec!["a".into(), "b".into(), "c".into()],
        vec![1, 2, 3],
        vec![2, 0, 1],
        vec![true, false, true],
    );
    assert_eq!(v.filtered(), &[2, 0, 1]);
    v.toggle_problems();
    assert_eq!(v.filtered(), &[2, 0]);
    v.push_filter("a");
    assert_eq!(v.filtered(), &[0]);
    v.toggle_problems();
    assert_eq!(v.filtered(), &[0]);
    v.clear_filter();
    assert_eq!(v.len(), 3);
}

#[test]
fn a_pasted_escape_sequence_leaves_nothing_in_the_filter() {
    let mut t = TableView::default();
    t.push_filter("ab\u{1b}[2Jc\u{7}");
    assert_eq!(t.filter(), "abc");
}

/// Issue 36.10: `/globex late` is every word, each in any column.
#[test]
fn every_word_of_the_filter_matches_somewhere_in_the_row() {
    let mut t = TableView::default();
    t.set_rows(
        vec![
            "globex 1003 active late".into(),
            "acme 1003 active late".into(),
            "globex 1004 active".into(),
        ],
        vec![1, 2, 3],
    );
    t.push_filter("globex late");
    assert_eq!(t.filtered(), &[0]);
    t.clear_filter();
    t.push_filter("late   globex ");
    assert_eq!(t.filtered(), &[0]);
}
