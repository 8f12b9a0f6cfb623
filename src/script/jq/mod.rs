//! `--jq EXPR`: the command's JSON answer filtered by a jq expression, printed as `gh
//! --jq` prints it. jq runs in the process, in Rust ([jaq](https://github.com/01mf02/jaq):
//! `jaq-core`, `jaq-std`, `jaq-json`); no `jq` program is needed or run.
//!
//! # Choices
//!
//! - `--jq` implies `--json` (it is the JSON that is filtered), so `--format` does not go
//!   with it. Every command that has `--json` has `--jq` (a test walks the command tree
//!   for it).
//! - Each result is printed on a line of its own: a string raw (no quotes, as `jq -r`), any
//!   other value as compact JSON (as jaq writes it: `NaN` and `Infinity` stay what they
//!   are rather than become `null`). Into a pipe or a file the text is exact; on a
//!   terminal, control, bidi and zero-width characters are taken out of strings (and
//!   escaped in JSON), as everywhere else server text is shown.
//! - The expression is compiled before anything is asked: one that does not parse or
//!   names an undefined filter is bad usage (exit 2, nothing sent), with the problem and
//!   where it is (`undefined filter foo/0 at column 7`, a caret under it).
//! - An error while running (`.foo` of an array) prints what was printed before, then
//!   `proxydash: --jq: cannot index …`, and exits 1 ("any other failure": the answer was
//!   read, so it is no usage error). `halt` ends the output with the command's own status;
//!   `halt_error` is a failure (1), whatever status it names: the exit statuses keep the
//!   README's meanings.
//! - A command that exits 1 or 6 on what it found still does so (`probe` with a dead
//!   proxy: its rows filtered, status 1). A failure that prints no answer (401, 5xx, a
//!   throttled refresh) prints its line on standard error and no JSON object on standard
//!   output: the filter was written for the answer, as with `gh api --jq`.
//! - Modules (`import`, `include`) and `input`/`inputs` are not offered: the input is the
//!   answer, one document.
//!
//! # Bounds
//!
//! jaq has none of its own, so the filter runs on a thread of its own, bounded ([`run`]):
//! at most [`run::OUTPUT`] (256 MiB) printed, at most [`run::STINT`] (10 s) computing
//! without a result (time blocked writing into a slow pipe does not count), at most 1 GiB
//! of memory held and a stack 56 MiB deep ([`crate::meter`]). Past any of them it stops
//! with a line saying which, status 1. So `repeat`, `range(1e12)`, `[range(1e12)]` and
//! `def f: 1 + f; f` all end. A reader that closes the pipe (`| head -1`) ends it quietly.

mod run;

use jaq_core::load::{Arena, File, Loader, import};
use jaq_json::Val;

/// The data the filters run on: JSON values, nothing global but the filter's own table.
type Data = jaq_core::data::JustLut<Val>;
type Filter = jaq_core::Filter<Data>;

/// A jq expression that compiles (see [`parse`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Jq(String);

impl Jq {
    pub fn expr(&self) -> &str {
        &self.0
    }

    /// Prints the results of the filter over `json` (the command's answer: one JSON
    /// document, or several one after the other) on standard output; the message of why it
    /// stopped, when it did (after `proxydash: `).
    pub fn print(&self, json: &str) -> Result<(), String> {
        run::print(self.0.clone(), json.to_owned())
    }
}

/// Prints a command's answer: through `jq` when given, else as it is.
pub fn answer(text: &str, jq: Option<&Jq>) -> Result<(), String> {
    match jq {
        Some(jq) => jq.print(text),
        None => super::output::emit(text),
    }
}

/// The value parser of `--jq`: the expression, when it compiles; else what is wrong and
/// where (clap then says it, exit 2, before anything is asked).
pub fn parse(expr: &str) -> Result<Jq, String> {
    compile(expr).map(|_| Jq(expr.to_owned()))
}

/// jq's `@csv` and `@tsv`, which jaq 3 leaves to its command line: an array of strings,
/// numbers, booleans and nulls as one CSV or TSV line (strings quoted, quotes doubled;
/// tab, line breaks and backslash escaped), as jq writes them.
const DEFS: &str = r#"
def @csv: if type == "array" then map(
    if type == "string" then "\"" + (split("\"") | join("\"\"")) + "\""
    elif . == null then ""
    elif type == "number" or type == "boolean" then tojson
    else error("cannot write \(type) as CSV") end) | join(",")
  else error("@csv takes an array, not \(type)") end;
def @tsv: if type == "array" then map(
    if type == "string" then split("\\") | join("\\\\") | split("\t") | join("\\t")
      | split("\n") | join("\\n") | split("\r") | join("\\r")
    elif . == null then ""
    elif type == "number" or type == "boolean" then tojson
    else error("cannot write \(type) as TSV") end) | join("\t")
  else error("@tsv takes an array, not \(type)") end;
"#;

/// Compiles `code` with jq's standard library (jaq's core, std and JSON definitions,
/// and [`DEFS`]).
fn compile(code: &str) -> Result<Filter, String> {
    let arena = Arena::default();
    let ours = jaq_core::load::parse(DEFS, |p| p.defs()).unwrap_or_default();
    let defs = jaq_core::defs()
        .chain(jaq_std::defs())
        .chain(jaq_json::defs())
        .chain(ours);
    let modules = Loader::new(defs)
        .load(&arena, File { code, path: () })
        .map_err(|errors| load_error(code, errors))?;
    import(&modules, |_| Err("modules are not read by --jq".into()))
        .map_err(|errors| load_error(code, errors))?;
    let funs = jaq_core::funs()
        .chain(jaq_std::funs())
        .chain(jaq_json::funs());
    jaq_core::Compiler::default()
        .with_funs(funs)
        .compile(modules)
        .map_err(|errors| {
            let first = errors.into_iter().flat_map(|(_, e)| e).next();
            match first {
                Some((found, undefined)) => {
                    let what = match undefined {
                        jaq_core::compile::Undefined::Filter(arity) => {
                            format!("undefined filter {found}/{arity}")
                        }
                        other => format!("undefined {} {found}", other.as_str()),
                    };
                    at(code, found, &what)
                }
                None => "the expression does not compile".to_owned(),
            }
        })
}

/// The first error of loading (lexing, parsing, importing) `code`, with where it is.
fn load_error(code: &str, errors: jaq_core::load::Errors<&str, ()>) -> String {
    use jaq_core::load::Error;
    let found_text = |found: &str| match found.chars().next() {
        None => "the end of the expression".to_owned(),
        Some(c) => format!("{c:?}"),
    };
    let Some((_, error)) = errors.into_iter().next() else {
        return "the expression does not parse".to_owned();
    };
    match error {
        Error::Lex(e) => match e.into_iter().next() {
            Some((expected, found)) => {
                let what = format!(
                    "expected {}, found {}",
                    expected.as_str(),
                    found_text(found)
                );
                at(code, first(found), &what)
            }
            None => "the expression does not parse".to_owned(),
        },
        Error::Parse(e) => match e.into_iter().next() {
            Some((expected, found)) => {
                let what = format!(
                    "expected {}, found {}",
                    expected.as_str(),
                    found_text(found)
                );
                at(code, first(found), &what)
            }
            None => "the expression does not parse".to_owned(),
        },
        Error::Io(e) => match e.into_iter().next() {
            Some((path, why)) => at(code, path, &format!("cannot load {path}: {why}")),
            None => "the expression does not load".to_owned(),
        },
    }
}

/// The place of what a lexer or parser found: its first character (the rest of the text
/// follows it).
fn first(found: &str) -> &str {
    &found[..found.chars().next().map_or(0, char::len_utf8)]
}

/// `what` at the place of `part` (a slice of `code`): `what at column 7:`, the line of
/// the expression and a caret under the place.
fn at(code: &str, part: &str, what: &str) -> String {
    let start = (part.as_ptr() as usize)
        .checked_sub(code.as_ptr() as usize)
        .filter(|s| *s <= code.len() && code.is_char_boundary(*s));
    let Some(start) = start else {
        return what.to_owned();
    };
    let line_start = code[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_no = code[..start].matches('\n').count() + 1;
    let line = code[line_start..].lines().next().unwrap_or("");
    let column = code[line_start..start].chars().count() + 1;
    let width = part.chars().count().clamp(1, line.chars().count().max(1));
    let place = match code.contains('\n') {
        true => format!("line {line_no}, column {column}"),
        false => format!("column {column}"),
    };
    let line = crate::text::sanitize(line);
    format!(
        "{what} at {place}:\n  {line}\n  {}{}",
        " ".repeat(column - 1),
        "^".repeat(width)
    )
}

#[cfg(test)]
mod tests;
