//! Each row's derived text (its search key, its cells' widths, its problem mark), kept
//! from one rebuild of a table to the next with what it was made from.
//!
//! A big account's rows are rebuilt after every burst of answers (and ten accounts' when
//! the All view switches tab), but an answer changes one service's row: making every
//! row's cells again (dates formatted, text lowercased) cost milliseconds a rebuild. A
//! row whose inputs compare equal to those its text was made from takes that text again;
//! only the others are made. What a row shows depends on nothing but its inputs, so the
//! rows are the same as made afresh.

use super::columns::{self, CellText, Column};
use std::collections::HashMap;

/// What one row's text was made from (`I`), and what was derived from it.
struct Made<I> {
    inputs: I,
    key: String,
    widths: Vec<u16>,
    problem: bool,
}

/// The rows' derived text with their row IDs (service IDs), in the order of the last
/// rebuild.
pub struct RowMemo<I> {
    made: Vec<(u64, Made<I>)>,
}

impl<I> Default for RowMemo<I> {
    fn default() -> Self {
        Self { made: Vec::new() }
    }
}

impl<I> std::fmt::Debug for RowMemo<I> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RowMemo({} rows)", self.made.len())
    }
}

/// A table's rows as derived: a search key and a problem mark per row, in the rows'
/// order, and the columns' natural widths (each header's, widened by every row's cells).
pub struct Derived {
    pub keys: Vec<String>,
    pub problems: Vec<bool>,
    pub natural: Vec<u16>,
}

impl<I> RowMemo<I> {
    /// Derives the rows (`(id, row)`, in order): a row whose kept inputs are `same` as it
    /// takes its kept text; `make` makes the others' inputs, cells and problem mark. Rows
    /// no longer listed are forgotten.
    pub fn derive<R>(
        &mut self,
        columns: &[Column],
        rows: impl IntoIterator<Item = (u64, R)>,
        same: impl Fn(&I, &R) -> bool,
        mut make: impl FnMut(&R) -> (I, Vec<CellText>, bool),
    ) -> Derived {
        // The rows are mostly where they were: a row is looked for at its place first,
        // and by its ID only when the rows moved.
        let mut old: Vec<Option<(u64, Made<I>)>> = std::mem::take(&mut self.made)
            .into_iter()
            .map(Some)
            .collect();
        let mut at: Option<HashMap<u64, usize>> = None;
        let mut natural: Vec<u16> = columns.iter().map(|c| columns::width(c.header)).collect();
        let mut keys = Vec::new();
        let mut problems = Vec::new();
        for (i, (id, row)) in rows.into_iter().enumerate() {
            let place = match old.get(i) {
                Some(Some((kept, _))) if *kept == id => Some(i),
                _ => at.get_or_insert_with(|| index(&old)).get(&id).copied(),
            };
            let kept = place.and_then(|p| old[p].take()).map(|(_, m)| m);
            let made = match kept {
                Some(m) if same(&m.inputs, &row) => m,
                _ => {
                    let (inputs, cells, problem) = make(&row);
                    Made {
                        inputs,
                        key: columns::search_key(&cells),
                        widths: cells.iter().map(CellText::width).collect(),
                        problem,
                    }
                }
            };
            for (n, w) in natural.iter_mut().zip(&made.widths) {
                *n = (*n).max(*w);
            }
            keys.push(made.key.clone());
            problems.push(made.problem);
            self.made.push((id, made));
        }
        Derived {
            keys,
            problems,
            natural,
        }
    }
}

/// Each kept row's place by its ID.
fn index<I>(old: &[Option<(u64, Made<I>)>]) -> HashMap<u64, usize> {
    old.iter()
        .enumerate()
        .filter_map(|(i, m)| Some((m.as_ref()?.0, i)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLS: [Column; 2] = [Column::number("ID", 0), Column::text("Name", 1, 4)];

    fn cells(id: u64, name: &str) -> Vec<CellText> {
        vec![CellText::new(id.to_string()), CellText::new(name)]
    }

    #[test]
    fn a_row_is_made_again_only_when_its_inputs_changed() {
        let mut memo: RowMemo<String> = RowMemo::default();
        let mut made = Vec::new();
        let derive = |memo: &mut RowMemo<String>, rows: &[(u64, &str)], made: &mut Vec<u64>| {
            memo.derive(
                &COLS,
                rows.iter().copied(),
                |kept, row| kept == row,
                |row| {
                    made.push(0);
                    (row.to_string(), cells(0, row), row.ends_with('!'))
                },
            )
        };
        let first = derive(&mut memo, &[(1, "Alpha"), (2, "Beta!")], &mut made);
        assert_eq!(made.len(), 2);
        assert_eq!(first.problems, [false, true]);
        assert_eq!(first.natural, [2, 5]);
        let again = derive(&mut memo, &[(1, "Alpha"), (2, "Gamma long")], &mut made);
        assert_eq!(made.len(), 3, "only the changed row is made again");
        assert_eq!(again.keys[0], first.keys[0]);
        assert!(again.keys[1].contains("gamma long"));
        assert_eq!(again.problems, [false, false]);
        assert_eq!(again.natural, [2, 10]);
        // Rows that moved are found by their ID.
        let moved = derive(&mut memo, &[(2, "Gamma long"), (1, "Alpha")], &mut made);
        assert_eq!(made.len(), 3);
        assert_eq!(moved.keys, [again.keys[1].clone(), again.keys[0].clone()]);
        // A row gone and back is made afresh.
        derive(&mut memo, &[(1, "Alpha")], &mut made);
        derive(&mut memo, &[(1, "Alpha"), (2, "Gamma long")], &mut made);
        assert_eq!(made.len(), 4);
    }
}
