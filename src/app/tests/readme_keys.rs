//! The README's key table and the key map say the same: every key the table names is
//! bound, and every key bound on the tabs (or everywhere) is in the table. The key map is
//! the source; the README is checked against it.

use crate::app::keymap::{Binding, Part, Scope, TABLE, form_openers};
use std::collections::BTreeSet;

const README: &str = include_str!("../../../README.md");

/// The keys the README's `## Keys` table names in its first column, as the key map labels
/// them (`Ctrl-P`, `PgUp`, `↑`): what is in backticks, and the bare arrows and page keys;
/// `` `1`…`7` `` is the run of digits (`1` to the last).
fn readme_keys() -> BTreeSet<String> {
    let mut lines = README.lines().skip_while(|l| *l != "## Keys");
    assert!(lines.next().is_some(), "the README has a Keys section");
    let cells = lines
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|row| {
            row.trim_matches('|')
                .split(" | ")
                .next()
                .unwrap_or("")
                .trim()
        });
    let mut keys = BTreeSet::new();
    for cell in cells {
        let cell = (2..=9).fold(cell.to_owned(), |cell, last| {
            let run: Vec<String> = (1..=last).map(|d| format!("`{d}`")).collect();
            cell.replace(&format!("`1`…`{last}`"), &run.join(" "))
        });
        for (i, part) in cell.split('`').enumerate() {
            if i % 2 == 1 {
                keys.insert(part.to_owned());
                continue;
            }
            let bare = part
                .split([' ', ',', '/', '(', ')'])
                .filter(|w| !w.is_empty());
            keys.extend(bare.map(str::to_owned));
        }
    }
    keys
}

fn labels<'a>(bindings: impl Iterator<Item = &'a Binding>) -> BTreeSet<String> {
    bindings
        .flat_map(|b| b.keys.iter().map(|k| k.label()))
        .collect()
}

fn rows() -> impl Iterator<Item = &'static Binding> {
    TABLE.iter().flat_map(|part| match part {
        Part::Rows(rows) => *rows,
        Part::Step => &[],
    })
}

#[test]
fn the_readme_key_table_is_the_key_map() {
    let readme = readme_keys();
    assert!(readme.len() > 30, "the table is read: {readme:?}");
    let on_tabs = |b: &&Binding| {
        b.scopes
            .iter()
            .any(|s| matches!(s, Scope::Main | Scope::Tab(_) | Scope::Everywhere))
    };
    let tabs = labels(rows().filter(on_tabs));
    let steps: Vec<&Binding> = form_openers()
        .flat_map(|(kind, _)| kind.steps())
        .flat_map(|step| step.bindings.iter())
        .collect();
    let bound = labels(rows().chain(steps));
    let unbound: Vec<&String> = readme.difference(&bound).collect();
    assert!(
        unbound.is_empty(),
        "in the README, bound nowhere: {unbound:?}"
    );
    let unsaid: Vec<&String> = tabs.difference(&readme).collect();
    assert!(
        unsaid.is_empty(),
        "bound on the tabs, not in the README: {unsaid:?}"
    );
}
