//! One cell of CSV or TSV, written so that a reader splitting the text gets it back whole.

/// A CSV field (RFC 4180): quoted when it holds a comma, a double quote or a line break,
/// its quotes doubled; as it is otherwise.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

/// A TSV field: tab, line feed, carriage return and backslash written `\t`, `\n`, `\r`,
/// `\\` (as PostgreSQL's `COPY` and `mlr --tsv` write them), so no cell holds a
/// separator.
pub fn tsv_field(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
    out
}
