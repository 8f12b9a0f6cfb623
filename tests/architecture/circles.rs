//! Import circles between the crate's top-level modules: a module that names another,
//! directly or through others, that names it back. Test code (files of tests, a file's
//! `#[cfg(test)]` module) is left out: tests may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};

/// The top-level module a source file belongs to (`app/input.rs` → `app`, `cli.rs` →
/// `cli`); `None` for the crate roots.
pub fn module_of(rel: &str) -> Option<String> {
    let first = rel.split('/').next()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (!matches!(name, "lib" | "main")).then(|| name.to_owned())
}

/// `text` without its `#[cfg(test)]` module (kept at the end of a file by custom).
pub fn without_tests(text: &str) -> &str {
    let mut offset = 0;
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim() == "#[cfg(test)]"
            && lines
                .peek()
                .is_some_and(|next| next.trim_start().starts_with("mod "))
        {
            return &text[..offset];
        }
        offset += line.len() + 1;
    }
    text
}

/// Every circle (a strongly connected set of two or more modules), each with the lines
/// that make its edges; `named` gives the modules a line names.
pub fn circles(
    files: &[(String, String)],
    named: impl Fn(&str) -> Vec<String>,
) -> Vec<(Vec<String>, Vec<String>)> {
    let modules: BTreeSet<String> = files.iter().filter_map(|(r, _)| module_of(r)).collect();
    // from -> to -> where
    let mut edges: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for (rel, text) in files {
        let Some(from) = module_of(rel) else { continue };
        for (n, line) in without_tests(text).lines().enumerate() {
            for to in named(line) {
                if to != from && modules.contains(&to) {
                    edges
                        .entry(from.clone())
                        .or_default()
                        .entry(to)
                        .or_default()
                        .push(format!("src/{rel}:{}", n + 1));
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
