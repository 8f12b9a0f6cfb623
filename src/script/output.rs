//! What the scripting subcommands print: aligned tables, label/value blocks and JSON.
//!
//! Every cell goes through [`sanitize`], so text from the server (a product name, an
//! e-mail) cannot move the cursor or recolour the terminal. Widths are measured in
//! terminal columns (`unicode-width`), so names with wide characters stay aligned. Values
//! are formatted as the dashboard formats them ([`crate::text`]): money `$12.50`, dates
//! `YYYY-MM-DD`, a missing value `—`.

use super::format::{Form, delimited};
use crate::api::{Listed, Record};
use crate::text;
use serde::Serialize;
use std::io::{self, IsTerminal, Write};
use unicode_width::UnicodeWidthStr;

pub use crate::text::{MISSING, sanitize};

/// Where a column's cells sit: text to the left, numbers and money to the right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// A table with a header row; columns two spaces apart, no trailing blanks.
#[derive(Debug)]
pub struct Table {
    columns: Vec<(&'static str, Align)>,
    rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new(columns: &[(&'static str, Align)]) -> Self {
        Self {
            columns: columns.to_vec(),
            rows: Vec::new(),
        }
    }

    /// Adds a row (kept as given: the table sanitises it, CSV into a pipe keeps it
    /// exact); missing cells are blank, extra ones dropped.
    pub fn row<I, S>(&mut self, cells: I)
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut row: Vec<String> = cells
            .into_iter()
            .take(self.columns.len())
            .map(|c| c.as_ref().to_owned())
            .collect();
        row.resize(self.columns.len(), String::new());
        self.rows.push(row);
    }

    /// The table as `form` prints it: aligned (`table`, and `json`, which a caller
    /// prints as JSON before it comes here), or CSV or TSV ([`super::format`]).
    pub fn render_as(&self, form: Form) -> String {
        match form {
            Form::Csv | Form::Tsv => {
                let header: Vec<&str> = self.columns.iter().map(|(h, _)| *h).collect();
                delimited(form, &header, &self.rows, stdout_is_terminal())
            }
            Form::Table | Form::Json => self.render(),
        }
    }

    pub fn render(&self) -> String {
        let rows: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|row| row.iter().map(|c| sanitize(c).into_owned()).collect())
            .collect();
        let mut widths: Vec<usize> = self.columns.iter().map(|(h, _)| h.width()).collect();
        for row in &rows {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.width());
            }
        }
        let mut out = String::new();
        let header: Vec<String> = self.columns.iter().map(|(h, _)| h.to_string()).collect();
        for row in std::iter::once(&header).chain(&rows) {
            let mut line = String::new();
            for (i, (cell, ((_, align), width))) in
                row.iter().zip(self.columns.iter().zip(&widths)).enumerate()
            {
                if i > 0 {
                    line.push_str("  ");
                }
                let pad = " ".repeat(width - cell.width());
                match align {
                    Align::Right => {
                        line.push_str(&pad);
                        line.push_str(cell);
                    }
                    Align::Left => {
                        line.push_str(cell);
                        line.push_str(&pad);
                    }
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

/// One item as `Label:  value` lines, the labels padded to one width.
#[derive(Debug, Default)]
pub struct Details {
    rows: Vec<(&'static str, String)>,
}

impl Details {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn add(&mut self, label: &'static str, value: impl AsRef<str>) -> &mut Self {
        self.rows
            .push((label, sanitize(value.as_ref()).into_owned()));
        self
    }

    pub fn render(&self) -> String {
        let width = self.rows.iter().map(|(l, _)| l.width()).max().unwrap_or(0);
        let mut out = String::new();
        for (label, value) in &self.rows {
            let pad = " ".repeat(width - label.width());
            out.push_str(format!("{label}:{pad}  {value}").trim_end());
            out.push('\n');
        }
        out
    }
}

/// A list as `--json` prints it, or as a table of `columns` with a row per item in
/// `form` (aligned, CSV, TSV).
pub fn listing<T: Serialize>(
    items: &[T],
    form: Form,
    columns: &[(&'static str, Align)],
    row: impl Fn(&T) -> Vec<String>,
) -> String {
    if form == Form::Json {
        return json(items);
    }
    let mut t = Table::new(columns);
    for item in items {
        t.row(row(item));
    }
    t.render_as(form)
}

/// A list of records ([`listing`]); with `--json`, when some records could not be read,
/// an object holding the list beside them: `{"invoices": […], "skipped": […],
/// "skipped_count": N}`. A list that reads whole stays the bare array it always was, and
/// one that does not changes shape, so a script reading the array fails loudly rather
/// than take a short list for the whole.
pub fn records<T: Serialize + Record>(
    listed: &Listed<T>,
    form: Form,
    columns: &[(&'static str, Align)],
    row: impl Fn(&T) -> Vec<String>,
) -> String {
    if form == Form::Json && listed.skipped_count > 0 {
        return json(&skipped_doc(T::NOUN.1, &listed.items, listed));
    }
    listing(&listed.items, form, columns, row)
}

/// `{"<noun>": items, "skipped": […], "skipped_count": N}`.
pub fn skipped_doc<T, I: Serialize + ?Sized>(
    noun: &str,
    items: &I,
    listed: &Listed<T>,
) -> serde_json::Value {
    let mut doc = serde_json::Map::new();
    doc.insert(noun.into(), serde_json::to_value(items).unwrap_or_default());
    doc.insert(
        "skipped".into(),
        serde_json::to_value(&listed.skipped).unwrap_or_default(),
    );
    doc.insert("skipped_count".into(), listed.skipped_count.into());
    serde_json::Value::Object(doc)
}

/// Says on standard error which records of a list could not be read (`profile shop: …`
/// over several accounts); the readable ones are printed all the same.
pub fn warn_if_skipped<T: Record>(listed: &Listed<T>, profile: Option<&str>) {
    let named = listed.skipped.len();
    if let Some(line) = crate::api::skipped_line::<T>(listed.skipped_count, &listed.skipped, named)
    {
        match profile {
            Some(p) => eprintln!("proxydash: profile {p}: {line}"),
            None => eprintln!("proxydash: {line}"),
        }
    }
}

/// Pretty-printed JSON and a final newline: one document per command.
pub fn json<T: Serialize + ?Sized>(value: &T) -> String {
    // The api types serialize to plain JSON objects; this cannot fail for them.
    let mut out = serde_json::to_string_pretty(value).unwrap_or_else(|e| {
        serde_json::to_string(&format!("cannot serialize: {e}")).unwrap_or_default()
    });
    out.push('\n');
    out
}

pub fn money(x: f64) -> String {
    text::money(x)
}

pub fn date(d: Option<chrono::NaiveDate>) -> String {
    text::date(d)
}

pub fn id(i: Option<u64>) -> String {
    text::id(i)
}

/// Server text, or `—` when it is empty.
pub fn or_missing(s: &str) -> String {
    text::or_missing(s).into_owned()
}

/// A cell of a table row: server text as it is (the table sanitises it on render; CSV
/// and TSV into a pipe keep it exact), or `—` when it is empty.
pub fn cell(s: &str) -> String {
    match s.trim().is_empty() {
        true => MISSING.to_owned(),
        false => s.to_owned(),
    }
}

pub fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// A measured amount (requests or MB), as the dashboard shows it.
pub fn number(x: f64) -> String {
    text::number(x)
}

/// JSON for a terminal: what `serde_json` leaves as it is but a terminal would act on (C1
/// controls such as U+009B, which starts a CSI; bidi overrides and isolates; zero-width
/// and other invisible characters) written as `\uXXXX` escapes. They can only be inside
/// strings, so the JSON means the same; a pipe or a file gets `serde_json`'s own text.
pub fn json_for_terminal(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        if (c.is_control() && c != '\n') || crate::text::is_invisible(c) {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Text made of names from the config file (a profile's) and the program's own words,
/// for a terminal or a pipe alike: each line without control characters, escape
/// sequences, bidi or zero-width characters, as server text is (a profile named
/// `ESC ] 0 ; … BEL` retitled the terminal); JSON with those characters escaped
/// ([`json_for_terminal`]), which means the same.
pub fn clean_lines(text: &str, json: bool) -> String {
    if json {
        return json_for_terminal(text);
    }
    text.split('\n')
        .map(|line| crate::text::sanitize(line).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn stdout_is_terminal() -> bool {
    io::stdout().is_terminal()
}

/// Writes `text` to standard output. A closed pipe (`| head`) is not an error: the reader
/// has what it wanted. Any other failure is reported.
pub fn emit(text: &str) -> Result<(), String> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("cannot write to standard output: {e}")),
    }
}

/// On standard error (the output stays what was kept): the list of `request` reached the
/// client's cap ([`crate::api::limits`]), so entries after the first `kept` are missing.
pub fn warn_if_cut(request: &crate::api::Request, kept: usize) {
    if crate::api::limits::is_cut(request, kept) {
        eprintln!("proxydash: {}", crate::app::status::cut_line(request, kept));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_aligns_by_display_width_without_trailing_blanks() {
        let mut t = Table::new(&[
            ("ID", Align::Right),
            ("NAME", Align::Left),
            ("PRICE", Align::Right),
        ]);
        t.row(["1", "Ünïcødé 東京", "$1.00"]);
        t.row(["1001", "x", "$299.00"]);
        assert_eq!(
            t.render(),
            "  ID  NAME            PRICE\n   1  Ünïcødé 東京    $1.00\n1001  x             $299.00\n"
        );
    }

    #[test]
    fn last_left_column_has_no_trailing_blanks() {
        let mut t = Table::new(&[("A", Align::Left), ("B", Align::Left)]);
        t.row(["long value", ""]);
        assert_eq!(t.render(), "A           B\nlong value\n");
    }

    #[test]
    fn cells_are_sanitised() {
        let mut t = Table::new(&[("NAME", Align::Left)]);
        t.row(["evil\u{1b}]0;pwned\u{7}\u{1b}[2J name\r\n"]);
        let out = t.render();
        assert!(!out.chars().any(|c| c.is_control() && c != '\n'), "{out:?}");
        assert!(out.contains("evil name"));
        let mut d = Details::new();
        d.add("Name", "a\u{1b}[31mb");
        assert_eq!(d.render(), "Name:  ab\n");
    }

    #[test]
    fn details_pad_labels() {
        let mut d = Details::new();
        d.add("ID", "1").add("Product", "x");
        assert_eq!(d.render(), "ID:       1\nProduct:  x\n");
    }

    #[test]
    fn json_for_a_terminal_escapes_what_a_terminal_would_act_on() {
        let value = serde_json::json!({"login": "u\u{9b}2J\u{202e}exe.txt\u{200b}"});
        let text = json(&value);
        let shown = json_for_terminal(&text);
        assert!(shown.contains(r"u\u009b2J\u202eexe.txt\u200b"), "{shown}");
        let back: serde_json::Value = serde_json::from_str(&shown).unwrap();
        assert_eq!(back, value, "the same JSON");
        assert_eq!(json_for_terminal("{\n}"), "{\n}");
    }
}
