//! `--format table|json|csv|tsv`: the forms a list command prints its rows in.
//!
//! # Choices
//!
//! - `csv` and `tsv` have a header row and the table's own columns, headers and cells
//!   (money `$12.50`, dates `YYYY-MM-DD`, the PROFILE column over several accounts), so
//!   what a script reads is what the table shows; but a missing value (the table's `—`)
//!   is an empty cell. `json` is `--json` (the API's members, all of them).
//! - CSV is RFC 4180: a cell holding a comma, a double quote, a carriage return or a line
//!   feed is quoted, its quotes doubled; the others are written as they are. Lines end in
//!   `\n` (as `history export --csv` writes them; RFC 4180 readers take both).
//! - TSV is one record a line, cells split by tabs, with a tab, a line feed, a carriage
//!   return and a backslash in a cell written `\t`, `\n`, `\r`, `\\` (the escapes of
//!   PostgreSQL's `COPY` and of `mlr --tsv`): a reader splitting on tabs and lines never
//!   sees a cell break.
//! - Server text is kept exact into a pipe or a file: a cell beginning with `=`, `+`,
//!   `-` or `@` is not altered, though a spreadsheet may take it for a formula (CSV
//!   injection). The data is the account's own, a negative amount begins with `-`, and a
//!   script must get what the server said; open such a file in a spreadsheet as text (or
//!   use `--format json`). On a terminal each cell is shown as the table shows it
//!   (control and escape characters taken out).

use crate::text::{MISSING, csv_field, sanitize, tsv_field};

/// How a list is printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Form {
    /// Aligned columns under a header (the default).
    #[default]
    Table,
    /// As `--json`.
    Json,
    /// Comma-separated values (RFC 4180) with a header row.
    Csv,
    /// Tab-separated values with a header row, tabs, line breaks and backslashes escaped.
    Tsv,
}

/// `--format`, on the commands that print rows.
#[derive(Debug, clap::Args, Clone, Default)]
pub struct FormatArgs {
    /// How to print the rows: table (the default), json (as --json), csv or tsv (a header
    /// row and the table's columns).
    #[arg(long, value_enum, value_name = "FORMAT", conflicts_with_all = ["json", "jq"])]
    pub format: Option<Form>,
}

/// The header and the rows as `form` (CSV or TSV) writes them; `shown` (a terminal):
/// each cell without control and escape characters.
pub fn delimited(form: Form, header: &[&str], rows: &[Vec<String>], shown: bool) -> String {
    let cell = |c: &str| -> String {
        let c = if c == MISSING { "" } else { c };
        let c = if shown { sanitize(c) } else { c.into() };
        match form {
            Form::Tsv => tsv_field(&c),
            _ => csv_field(&c),
        }
    };
    let sep = if form == Form::Tsv { "\t" } else { "," };
    let mut out = String::new();
    let header: Vec<String> = header.iter().map(|h| cell(h)).collect();
    out.push_str(&header.join(sep));
    out.push('\n');
    for row in rows {
        let cells: Vec<String> = row.iter().map(|c| cell(c)).collect();
        out.push_str(&cells.join(sep));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows() -> Vec<Vec<String>> {
        vec![
            vec!["1".into(), "a, \"b\"\nc".into(), MISSING.into()],
            vec!["2".into(), "tab\there\\".into(), "=1+1".into()],
        ]
    }

    #[test]
    fn csv_quotes_what_needs_it_and_nothing_else() {
        let out = delimited(Form::Csv, &["ID", "NAME", "X"], &rows(), false);
        assert_eq!(
            out,
            "ID,NAME,X\n1,\"a, \"\"b\"\"\nc\",\n2,tab\there\\,=1+1\n"
        );
    }

    #[test]
    fn tsv_escapes_tabs_breaks_and_backslashes() {
        let out = delimited(Form::Tsv, &["ID", "NAME", "X"], &rows(), false);
        assert_eq!(
            out,
            "ID\tNAME\tX\n1\ta, \"b\"\\nc\t\n2\ttab\\there\\\\\t=1+1\n"
        );
    }

    #[test]
    fn on_a_terminal_cells_lose_their_escapes() {
        let rows = vec![vec!["x\u{1b}[31my".to_owned()]];
        assert_eq!(delimited(Form::Csv, &["A"], &rows, true), "A\nxy\n");
        assert_eq!(
            delimited(Form::Csv, &["A"], &rows, false),
            "A\nx\u{1b}[31my\n"
        );
    }
}
