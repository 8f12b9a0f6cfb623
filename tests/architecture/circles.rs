//! Import circles between modules: a module that names another, directly or through
//! others, that names it back. Between the crate's top-level modules, and between the
//! modules inside one (`app::forms`, `app::keymap`…; a child naming its parent, the
//! shell its children share, is no edge). Test code (files of tests, a file's
//! `#[cfg(test)]` module) is left out: tests may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};

/// The top-level module a source file belongs to (`app/input.rs` → `app`, `cli.rs` →
/// `cli`); `None` for the crate roots.
pub fn module_of(rel: &str) -> Option<String> {
    let first = rel.split('/').next()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (!matches!(name, "lib" | "main")).then(|| name.to_owned())
}

/// `text` without its `#[cfg(test)]` module written inline (kept at the end of a file by
/// custom); a `#[cfg(test)] mod tests;` declared among the modules cuts nothing.
pub fn without_tests(text: &str) -> &str {
    let mut offset = 0;
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim() == "#[cfg(test)]"
            && lines
                .peek()
                .is_some_and(|next| next.trim_start().starts_with("mod ") && next.contains('{'))
        {
            return &text[..offset];
        }
        offset += line.len() + 1;
    }
    text
}

/// The module directly inside `parent` a source file belongs to (`app/forms/order/mod.rs`
/// → `forms` in `app`); `None` for the parent's own file and files elsewhere.
pub fn child_of(parent: &str, rel: &str) -> Option<String> {
    let rest = rel.strip_prefix(parent)?.strip_prefix('/')?;
    let first = rest.split('/').next()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "mod").then(|| name.to_owned())
}

/// The modules inside `parent` (a folder under `src`: `app`, `app/forms`) that a line of
/// the file `rel` names: `crate::app::forms`, `super::keymap` (from `app/x.rs`),
/// `super::super::{popup, tabs}` (from `app/x/y.rs`), outside comments. Names that are not
/// modules (`crate::app::App`) are dropped by [`circles`].
pub fn named_inside(parent: &str, rel: &str, line: &str) -> Vec<String> {
    let code = line.split("//").next().unwrap_or("");
    // The file's module path: `app/forms/mod.rs` is `app::forms`.
    let path: Vec<&str> = rel
        .trim_end_matches(".rs")
        .split('/')
        .filter(|s| *s != "mod")
        .collect();
    let mut out = Vec::new();
    let parent_path: Vec<&str> = parent.split('/').collect();
    let crate_prefix = format!("crate::{}::", parent_path.join("::"));
    let mut rest = code;
    while let Some(i) = rest.find(&crate_prefix) {
        rest = &rest[i + crate_prefix.len()..];
        out.extend(first_segments(rest));
    }
    let mut rest = code;
    while let Some(i) = rest.find("super::") {
        // `super::super::…`: climb once per `super`.
        let mut tail = &rest[i..];
        let mut climbed = 0;
        while let Some(t) = tail.strip_prefix("super::") {
            tail = t;
            climbed += 1;
        }
        let at = path.len().saturating_sub(climbed);
        if climbed <= path.len() && path[..at] == parent_path[..] {
            out.extend(first_segments(tail));
        }
        rest = tail;
    }
    out
}

/// What the parent's own file (`text`: `app/mod.rs`) re-exports from its children, by the
/// name it is re-exported under: `pub use cx::{Cx, Work};` → `Cx` → `cx`, `Work` → `cx`.
/// A child naming `crate::app::Cx` or `super::Cx` names `cx` through it.
pub fn reexports(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (_, line) in statements(without_tests(text)) {
        let code = line.split("//").next().unwrap_or("").trim();
        let Some(rest) = code.strip_prefix("pub") else {
            continue;
        };
        // `pub use`, `pub(crate) use`, `pub(in crate::app) use`.
        let rest = match rest.strip_prefix('(') {
            Some(r) => r.split_once(')').map_or("", |(_, r)| r),
            None => rest,
        };
        let Some(path) = rest.trim_start().strip_prefix("use ") else {
            continue;
        };
        let path = path
            .trim_start_matches("self::")
            .trim_start_matches("super::");
        let Some((child, names)) = path.split_once("::") else {
            continue;
        };
        if matches!(child, "crate" | "std") || child.contains('{') {
            continue;
        }
        let names = names.trim_end_matches(';');
        let listed: Vec<String> = match names.strip_prefix('{') {
            Some(group) => group
                .trim_end_matches('}')
                .split(',')
                .map(|n| n.split("::").last().unwrap_or("").trim().to_owned())
                .collect(),
            None => vec![names.split("::").last().unwrap_or("").trim().to_owned()],
        };
        for name in listed {
            // `Foo as Bar` is re-exported as `Bar`.
            let name = name.rsplit(" as ").next().unwrap_or("").trim().to_owned();
            if !name.is_empty() && name != "*" && name != "self" {
                out.insert(name, child.to_owned());
            }
        }
    }
    out
}

/// The first path segment of each path at the start of `rest`: `forms::Form` → `forms`;
/// `{keymap::Action, popup::{A, B}}` → `keymap`, `popup`.
fn first_segments(rest: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.trim()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let Some(group) = rest.strip_prefix('{') else {
        return vec![ident(rest)];
    };
    let (mut depth, mut start, mut out) = (0, 0, Vec::new());
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                out.push(ident(&group[start..i]));
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(ident(&group[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.retain(|n| !n.is_empty());
    out
}

/// The lines of `text` with each `use` spread over several lines joined into its first:
/// `(number of the first line, text)`.
fn statements(text: &str) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut open = false;
    for (n, line) in text.lines().enumerate() {
        if open && let Some(last) = out.last_mut() {
            last.1.push_str(line.trim());
            open = !line.contains(';');
            continue;
        }
        let code = line.split("//").next().unwrap_or("");
        open = code.trim_start().contains("use ") && code.trim_end().ends_with('{');
        out.push((n + 1, line.to_owned()));
    }
    out
}

/// Every circle (a strongly connected set of two or more modules), each with the lines
/// that make its edges; `module_of` gives the module a file belongs to, `named` the
/// modules a line of a file names.
pub fn circles(
    files: &[(String, String)],
    module_of: impl Fn(&str) -> Option<String>,
    named: impl Fn(&str, &str) -> Vec<String>,
) -> Vec<(Vec<String>, Vec<String>)> {
    let modules: BTreeSet<String> = files.iter().filter_map(|(r, _)| module_of(r)).collect();
    // from -> to -> where
    let mut edges: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for (rel, text) in files {
        let Some(from) = module_of(rel) else { continue };
        for (n, line) in statements(without_tests(text)) {
            for to in named(rel, &line) {
                if to != from && modules.contains(&to) {
                    edges
                        .entry(from.clone())
                        .or_default()
                        .entry(to)
                        .or_default()
                        .push(format!("src/{rel}:{n}"));
                }
            }
        }
    }
    let reach = |start: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![start.to_owned()];
        while let Some(m) = todo.pop() {
            for next in edges.get(&m).map(|e| e.keys()).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> =
        modules.iter().map(|m| (m, reach(m))).collect();
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for m in &modules {
        if done.contains(m) || !reached[m].contains(m) {
            continue;
        }
        let circle: Vec<String> = modules
            .iter()
            .filter(|o| reached[m].contains(*o) && reached[*o].contains(m))
            .cloned()
            .collect();
        let mut lines = Vec::new();
        for a in &circle {
            for b in &circle {
                if let Some(at) = edges.get(a).and_then(|e| e.get(b)) {
                    lines.push(format!("{a} -> {b}: {}", at.join(", ")));
                }
            }
        }
        done.extend(circle.iter().cloned());
        out.push((circle, lines));
    }
    out
}
