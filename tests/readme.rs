//! The README is the source of what a script sees: its table of exit statuses must say
//! what the code's statuses (`script::status`) mean, number for number.

use proxydash::script::status;

const README: &str = include_str!("../README.md");

/// The rows of the first Markdown table after the line that starts with `heading`: each
/// row's cells, trimmed, header and rule left out.
fn table_after(heading: &str) -> Vec<Vec<String>> {
    let mut lines = README.lines().skip_while(|l| !l.starts_with(heading));
    assert!(lines.next().is_some(), "README has no line {heading:?}");
    lines
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|row| {
            row.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_owned())
                .collect()
        })
        .collect()
}

#[test]
fn the_readme_exit_statuses_are_the_codes() {
    let rows = table_after("Exit status, one meaning each");
    let readme: Vec<(u8, String)> = rows
        .iter()
        .map(|r| {
            let n = r[0].trim_matches('`').parse().expect("a status number");
            (n, r[1].to_lowercase())
        })
        .collect();
    // Each status of the code, with words its README row must open with or hold.
    let code = [
        (status::OK, "success"),
        (status::FAILED, "any other failure"),
        (status::USAGE, "bad usage"),
        (status::AUTH, "authentication"),
        (status::NOT_FOUND, "not found"),
        (status::UNREACHABLE, "unreachable"),
        (status::THROTTLED, "throttled"),
        (status::READ_ONLY, "read-only"),
    ];
    let numbers: Vec<u8> = readme.iter().map(|(n, _)| *n).collect();
    let mut expected: Vec<u8> = code.iter().map(|(n, _)| *n).collect();
    expected.sort();
    assert_eq!(
        numbers, expected,
        "the README lists each status once, in order"
    );
    for (n, words) in code {
        let meaning = &readme.iter().find(|(r, _)| *r == n).unwrap().1;
        assert!(
            meaning.contains(words),
            "status {n}: {meaning:?} lacks {words:?}"
        );
    }
}

#[test]
fn the_table_reader_reads_a_table() {
    let rows = table_after("## Keys");
    assert!(rows.len() > 10, "{rows:?}");
    assert!(rows.iter().all(|r| r.len() == 2), "{rows:?}");
}
