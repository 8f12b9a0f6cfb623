//! The shape of the source tree, checked by reading it: dependencies go one way (`app`
//! never names `ui`; the account engine names no observer; `watch` names nothing of the
//! dashboard; `api` names nothing but the leaves; no circle of imports between top-level
//! modules, nor between the children of any folder module; see docs/DESIGN.md "Direction of
//! dependencies"), files stay small
//! enough to read in one sitting, and the app's functions short enough to take in at once.

#[path = "architecture/circles.rs"]
mod circles;
#[path = "architecture/functions.rs"]
mod functions;

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The source files under `src/<dir>` that are not test code, each as its path from
/// `src` (`app/input.rs`) and its text.
fn sources(dir: &str) -> Vec<(String, String)> {
    let mut files = Vec::new();
    rust_files(&src().join(dir), &mut files);
    files
        .iter()
        .filter(|f| !is_test_code(f))
        .map(|file| {
            let rel = file.strip_prefix(src()).unwrap().to_string_lossy();
            let text = std::fs::read_to_string(file).unwrap();
            (rel.replace('\\', "/"), text)
        })
        .collect()
}

/// Tests are not held to the size rule. (The harness that stands in for the run loop,
/// feeding the view's geometry to the app, lives at `src/testkit.rs`, outside `app`.)
fn is_test_code(path: &Path) -> bool {
    let rel = path.strip_prefix(src()).unwrap();
    rel.components().any(|c| c.as_os_str() == "tests")
        || rel.file_name().is_some_and(|n| n == "tests.rs")
}

/// What names the `ui` module from inside `app`: `crate::ui`, or `super::…::ui` climbing out.
fn names_ui(line: &str) -> bool {
    let code = line.split("//").next().unwrap_or("");
    code.contains("crate::ui") || (code.contains("super::") && code.contains("::ui::"))
}

#[test]
fn the_app_never_names_the_ui() {
    let files = sources("app");
    assert!(files.len() > 10, "the app's files are found");
    let mut offending = Vec::new();
    for (rel, text) in &files {
        for (n, line) in text.lines().enumerate() {
            if names_ui(line) {
                offending.push(format!("src/{rel}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        offending.is_empty(),
        "src/app must not depend on src/ui (what the view measures comes back as a Geometry it wrote into; \
         formatting lives in crate::text):\n{}",
        offending.join("\n")
    );
}

/// The top-level modules a line names (`crate::app::…`, `use crate::{ui, app}`), outside
/// comments.
fn named_modules(line: &str) -> Vec<String> {
    let code = line.split("//").next().unwrap_or("");
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inner = group.split('}').next().unwrap_or("");
            for part in inner.split(',') {
                let name = part.trim().split("::").next().unwrap_or("").trim();
                if !name.is_empty() {
                    out.push(name.to_owned());
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            out.push(name);
        }
    }
    out
}

/// Lines of the non-test sources under `src/<dir>` naming one of `forbidden`.
fn naming(dir: &str, forbidden: &[&str]) -> Vec<String> {
    let mut offending = Vec::new();
    for (rel, text) in sources(dir) {
        for (n, line) in text.lines().enumerate() {
            if named_modules(line)
                .iter()
                .any(|m| forbidden.contains(&m.as_str()))
            {
                offending.push(format!("src/{rel}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    offending
}

/// The dashboard and the command line, as modules.
const DASHBOARD: &[&str] = &[
    "app",
    "ui",
    "run",
    "headless",
    "desk",
    "dashboard",
    "testkit",
    "clipboard",
    "term",
];

#[test]
fn the_engine_imports_neither_dashboard_nor_cli_nor_watch() {
    let mut forbidden = DASHBOARD.to_vec();
    forbidden.extend(["cli", "watch", "script", "metrics", "main"]);
    let offending = naming("account", &forbidden);
    assert!(
        offending.is_empty(),
        "src/account (the engine) knows nothing of its observers:\n{}",
        offending.join("\n")
    );
}

#[test]
fn watch_runs_engines_only_and_imports_no_dashboard() {
    let offending = naming("watch", DASHBOARD);
    assert!(
        offending.is_empty(),
        "src/watch imports no dashboard module:\n{}",
        offending.join("\n")
    );
}

/// The leaves: modules the API client may use. Everything else is above it.
const LEAVES: &[&str] = &["text", "files", "secret"];

/// The crate's top-level modules, from its files.
fn top_level_modules() -> Vec<String> {
    let files = sources("");
    let mut out: Vec<String> = files
        .iter()
        .filter_map(|(rel, _)| circles::module_of(rel))
        .collect();
    out.sort();
    out.dedup();
    out
}

#[test]
fn the_api_client_imports_nothing_above_it() {
    let modules = top_level_modules();
    assert!(modules.len() > 20, "the modules are found: {modules:?}");
    let above: Vec<&str> = modules
        .iter()
        .map(String::as_str)
        .filter(|m| *m != "api" && !LEAVES.contains(m))
        .collect();
    let offending = naming("api", &above);
    assert!(
        offending.is_empty(),
        "src/api imports only the leaves ({LEAVES:?}); where it needs more it defines the \
         interface (api::gate):\n{}",
        offending.join("\n")
    );
}

#[test]
fn the_import_rule_sees_what_it_forbids() {
    assert_eq!(named_modules("use crate::app::{App, Msg};"), ["app"]);
    assert_eq!(
        named_modules("use crate::{ui, account::Engine};"),
        ["ui", "account"]
    );
    assert_eq!(named_modules("    let x = crate::run::step(a);"), ["run"]);
    assert!(named_modules("// crate::app once").is_empty());
}

/// Issue 24: a module that names another never gets named back by it, directly or
/// through others (the API client defines the gate the scheduler implements; the CLI's
/// values are read by config, not the other way; the terminal's input is the loop's).
#[test]
fn no_import_circle_between_top_level_modules() {
    let files = sources("");
    assert!(files.len() > 50, "the sources are found");
    let found = circles::circles(&files, circles::module_of, |_, line| named_modules(line));
    assert!(
        found.is_empty(),
        "import circles:\n{}",
        circles_text(&found)
    );
}

fn circles_text(found: &[(Vec<String>, Vec<String>)]) -> String {
    let text: Vec<String> = found
        .iter()
        .map(|(c, lines)| format!("{}:\n  {}", c.join(" <-> "), lines.join("\n  ")))
        .collect();
    text.join("\n")
}

/// The folder modules whose children are not checked for circles among themselves, each
/// with why.
const NOT_CHECKED_INSIDE: &[&str] = &[];

/// Every folder module under `src` (`app`, `app/forms`, `app/forms/order`, …) but test
/// folders, each as its path from `src`.
fn folder_modules(dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir()
            && !is_test_code(&path)
            && path.file_name().is_some_and(|n| n != "snapshots")
        {
            let rel = path.strip_prefix(src()).unwrap().to_string_lossy();
            out.push(rel.replace('\\', "/"));
            folder_modules(&path, out);
        }
    }
}

/// Issue 24: inside a module too, no child names another that names it back (the key
/// types are the key map's, which names no form or popup; the popup stack's type is the
/// app's own; a probe's verdict is made from an error by `Verdict` itself), in every
/// folder module at every depth.
#[test]
fn no_import_circle_inside_modules() {
    let mut parents = Vec::new();
    folder_modules(&src(), &mut parents);
    parents.sort();
    for nested in ["app/forms", "app/forms/order", "script", "desk"] {
        assert!(
            parents.iter().any(|p| p == nested),
            "{nested} is found: {parents:?}"
        );
    }
    let mut found_inside = Vec::new();
    for parent in parents
        .iter()
        .filter(|p| !NOT_CHECKED_INSIDE.contains(&p.as_str()))
    {
        let found = circles_inside(parent, &sources(parent));
        if !found.is_empty() {
            found_inside.push(format!("inside {parent}:\n{}", circles_text(&found)));
        }
    }
    assert!(
        found_inside.is_empty(),
        "import circles {}",
        found_inside.join("\n")
    );
}

/// The circles between the children of `parent`, whose files (`files`) name each other
/// directly or through what the parent's own file re-exports.
fn circles_inside(parent: &str, files: &[(String, String)]) -> Vec<(Vec<String>, Vec<String>)> {
    let own = [format!("{parent}/mod.rs"), format!("{parent}.rs")];
    let reexported = files
        .iter()
        .find(|(rel, _)| own.contains(rel))
        .map(|(_, text)| text.clone())
        .or_else(|| std::fs::read_to_string(src().join(format!("{parent}.rs"))).ok())
        .map(|text| circles::reexports(&text))
        .unwrap_or_default();
    circles::circles(
        files,
        |rel| circles::child_of(parent, rel),
        |rel, line| {
            let mut named = circles::named_inside(parent, rel, line);
            for name in &mut named {
                if let Some(child) = reexported.get(name) {
                    child.clone_into(name);
                }
            }
            named
        },
    )
}

/// A child naming a sibling through what the parent re-exports (`crate::app::Cx` is
/// `cx`'s) is an edge too: the circle through it is seen.
#[test]
fn the_circle_rule_sees_through_reexports() {
    let file = |rel: &str, text: &str| (rel.to_owned(), text.to_owned());
    let files = [
        file(
            "app/mod.rs",
            "mod cx;
#[cfg(test)]
mod tests;
pub use cx::{Cx, Work};
",
        ),
        file(
            "app/cx.rs",
            "use super::forms::Sent;
",
        ),
        file(
            "app/forms/mod.rs",
            "use crate::app::Cx;
",
        ),
        file(
            "app/orders.rs",
            "use super::Work;
",
        ),
    ];
    let found = circles_inside("app", &files);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, ["cx", "forms"]);
}

#[test]
fn the_circle_rule_sees_a_circle_inside_a_module() {
    let file = |rel: &str, text: &str| (rel.to_owned(), text.to_owned());
    let files = [
        file("app/mod.rs", "use forms::Form;\nuse keymap::Action;\n"),
        file("app/keymap/mod.rs", "use super::{App, popup::PopupKind};\n"),
        file(
            "app/popup.rs",
            "use super::{\n    App,\n    forms::Form,\n};\n",
        ),
        file(
            "app/forms/mod.rs",
            "use super::super::text;\nuse crate::app::App;\n",
        ),
        file(
            "app/forms/bind_ip.rs",
            "use super::core::X;\nuse super::super::keymap::Action;\n",
        ),
        file("app/tabs.rs", "use crate::app::{forms, Command};\n"),
    ];
    let found = circles::circles(
        &files,
        |rel| circles::child_of("app", rel),
        |rel, line| circles::named_inside("app", rel, line),
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, ["forms", "keymap", "popup"]);
    assert!(
        found[0]
            .1
            .iter()
            .any(|l| l == "popup -> forms: src/app/popup.rs:1"),
        "{found:?}"
    );
}

/// A nested folder module (`app/forms`) is read with its own children: `super::` climbs
/// from a file of `app/forms/order/` into `app/forms`, `crate::app::forms::…` names them.
#[test]
fn the_circle_rule_sees_a_circle_inside_a_nested_module() {
    let file = |rel: &str, text: &str| (rel.to_owned(), text.to_owned());
    let files = [
        file("app/forms/mod.rs", "mod order;\nmod core;\n"),
        file(
            "app/forms/core.rs",
            "use crate::app::forms::order::Order;\n",
        ),
        file("app/forms/order/mod.rs", "use super::core::Field;\n"),
        file(
            "app/forms/order/steps.rs",
            "use super::super::super::keymap::Action;\n",
        ),
    ];
    let found = circles::circles(
        &files,
        |rel| circles::child_of("app/forms", rel),
        |rel, line| circles::named_inside("app/forms", rel, line),
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, ["core", "order"]);
}

#[test]
fn the_circle_rule_sees_a_circle() {
    let file = |rel: &str, text: &str| (rel.to_owned(), text.to_owned());
    let files = [
        file("api/mod.rs", "use crate::scheduler::Budget;\n"),
        file("scheduler/mod.rs", "use crate::text::x;\n"),
        file(
            "text.rs",
            "// crate::api in a comment\nuse crate::api::Request;\n",
        ),
        file("ui.rs", "use crate::api::Request;\n"),
        file(
            "cli.rs",
            "fn f() {}\n#[cfg(test)]\nmod tests {\n    use crate::ui::x;\n}\n",
        ),
    ];
    let found = circles::circles(&files, circles::module_of, |_, line| named_modules(line));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, ["api", "scheduler", "text"]);
    assert!(
        found[0]
            .1
            .iter()
            .any(|l| l.starts_with("text -> api: src/text.rs:2"))
    );
}

#[test]
fn the_rule_sees_what_it_forbids() {
    assert!(names_ui("use crate::ui::layout;"));
    assert!(names_ui("    let w = crate::ui::columns::table_width(n);"));
    assert!(!names_ui("// once crate::ui::layout, now geometry"));
    assert!(!names_ui("use crate::text::count;"));
}

/// Issue 24: each file or folder at `src/` is a module whose doc opens by saying what it
/// is, so the crate root reads as a table of contents.
#[test]
fn every_top_level_module_says_what_it_is() {
    let mut silent = Vec::new();
    let mut seen = 0;
    for entry in std::fs::read_dir(src()).unwrap() {
        let path = entry.unwrap().path();
        let file = if path.is_dir() {
            if path.with_extension("rs").exists() {
                continue; // `cli.rs` beside `cli/`: the file is the module's.
            }
            path.join("mod.rs")
        } else if path.extension().is_some_and(|e| e == "rs") {
            path.clone()
        } else {
            continue;
        };
        seen += 1;
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        let first = text.lines().next().unwrap_or("");
        if !first.starts_with("//! ") || first.len() < 20 {
            silent.push(format!("{}: {first:?}", file.display()));
        }
    }
    assert!(seen > 20, "the crate root is read");
    assert!(
        silent.is_empty(),
        "modules at src/ whose file does not open with a line of doc saying what it is:\n{}",
        silent.join("\n")
    );
}

/// The most lines a source file (outside tests) should have.
const MAX_LINES: usize = 450;

#[test]
fn source_files_stay_small() {
    let mut long = Vec::new();
    for (rel, text) in sources("") {
        let lines = text.lines().count();
        if lines > MAX_LINES {
            long.push(format!("src/{rel}: {lines} lines"));
        }
    }
    assert!(
        long.is_empty(),
        "files over {MAX_LINES} lines (split them by job):\n{}",
        long.join("\n")
    );
}

/// The most lines a function of the app (outside tests) should have (issue 15): one
/// longer does several jobs, and each wants a name of its own.
const MAX_FN_LINES: usize = 80;

fn too_long(source: &str) -> Vec<functions::Function> {
    functions::functions(source)
        .into_iter()
        .filter(|f| f.lines > MAX_FN_LINES)
        .collect()
}

#[test]
fn the_length_rule_sees_what_it_forbids() {
    // `fn` line, body, closing brace: `n` lines in all.
    let function =
        |name: &str, n: usize| format!("fn {name}() {{\n{}}}\n", "    x();\n".repeat(n - 2));
    let source = [
        function("long", MAX_FN_LINES + 1),
        function("at_the_limit", MAX_FN_LINES),
        format!(
            "#[cfg(test)]\nmod tests {{\n{}}}\n",
            function("a_test", 200)
        ),
    ]
    .concat();
    let found: Vec<(String, usize, usize)> = too_long(&source)
        .into_iter()
        .map(|f| (f.name, f.line, f.lines))
        .collect();
    assert_eq!(found, [("long".to_owned(), 1, MAX_FN_LINES + 1)]);
}

#[test]
fn dashboard_functions_stay_short() {
    let (mut seen, mut long) = (0, Vec::new());
    let dashboard = ["app", "ui", "desk"].into_iter().flat_map(sources);
    for (rel, text) in dashboard {
        seen += functions::functions(&text).len();
        for f in too_long(&text) {
            long.push(format!(
                "src/{rel}:{}: fn {} is {} lines",
                f.line, f.name, f.lines
            ));
        }
    }
    // A scanner that lost its way would find few functions, and none long.
    assert!(seen > 200, "only {seen} functions found in the dashboard");
    assert!(
        long.is_empty(),
        "functions over {MAX_FN_LINES} lines in src/app, src/ui, src/desk (split them by job):\n{}",
        long.join("\n")
    );
}

/// What asks a value for its type at run time (`Any`, a downcast): the forms and popups
/// are plain enums the app matches, each answering through its trait.
fn asks_the_type(line: &str) -> bool {
    let code = line.split("//").next().unwrap_or("");
    code.contains("downcast") || code.contains("std::any") || code.contains("dyn Any")
}

/// The Rust files under `src/<dir>`, tests included, each as its path from `src` and its
/// text.
fn every_file(dir: &str) -> Vec<(String, String)> {
    let mut files = Vec::new();
    rust_files(&src().join(dir), &mut files);
    files
        .iter()
        .map(|file| {
            let rel = file.strip_prefix(src()).unwrap().to_string_lossy();
            (
                rel.replace('\\', "/"),
                std::fs::read_to_string(file).unwrap(),
            )
        })
        .collect()
}

/// Issue 48.2: no form or popup is told apart by a downcast (`Form::downcast`,
/// `Popup::form_as::<OrderForm>`, an `else if` chain of them in the ui), so a forgotten
/// form is a compile error: a form draws itself and answers the app through `FormLogic`,
/// and `Form` is an enum with one variant per form. Tests are held to it too.
#[test]
fn no_form_or_popup_is_downcast() {
    let mut offending = Vec::new();
    for dir in ["app", "ui"] {
        for (rel, text) in every_file(dir) {
            for (n, line) in text.lines().enumerate() {
                if asks_the_type(line) {
                    offending.push(format!("src/{rel}:{}: {}", n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        offending.is_empty(),
        "the dashboard asks a form or a popup through its trait, never its type at run time:\n{}",
        offending.join("\n")
    );
}

#[test]
fn the_downcast_rule_sees_what_it_forbids() {
    assert!(asks_the_type(
        "        if let Some(f) = form.downcast::<OrderForm>() {"
    ));
    assert!(asks_the_type("use std::any::Any;"));
    assert!(asks_the_type("    (&*self.0 as &dyn Any).downcast_ref()"));
    assert!(!asks_the_type("// once a downcast chain"));
    assert!(!asks_the_type("        Popup::Form(Form::Order(f)) => f,"));
}

/// The files of `src/app` that extend the context (`impl Cx<'_>`).
fn extending_the_context() -> Vec<String> {
    let mut found = Vec::new();
    for (rel, text) in sources("app") {
        let extends = text.lines().any(|line| {
            let code = line.split("//").next().unwrap_or("").trim_start();
            code.starts_with("impl")
                && (code.contains(" Cx<") || code.contains("::Cx<"))
                && !code.contains(" for ")
        });
        if extends {
            found.push(format!("src/{rel}"));
        }
    }
    found.sort();
    found
}

/// Issue 48.5: what the app's context can do is written in one or two files (its own,
/// `app/cx.rs`, and the tabs' views over the answers), not spread over every part that
/// uses it: a part's own steps are its functions, taking the context, or its own narrower
/// context (`TabCx`, `FormCx`).
#[test]
fn the_context_is_extended_in_two_files_at_most() {
    let found = extending_the_context();
    assert!(
        found.iter().any(|f| f == "src/app/cx.rs"),
        "the rule finds app/cx.rs: {found:?}"
    );
    assert!(
        found.len() <= 2,
        "`impl Cx` in more than two files of src/app:\n{}",
        found.join("\n")
    );
}

/// The `match`es over a tab (their scrutinee names a tab, their arms `Tab::…`) that have
/// a wildcard arm at their top level, in `text`: `(line, text)`.
fn wildcards_over_tab(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for (n, line) in lines.iter().enumerate() {
        let trimmed = line.trim();
        let Some(at) = trimmed.find("match ") else {
            continue;
        };
        let scrutinee = &trimmed[at + 6..];
        if !scrutinee.ends_with('{') || !scrutinee.to_lowercase().contains("tab") {
            continue;
        }
        let (mut depth, mut names_tab, mut wild) = (1i32, false, None);
        for (k, inner) in lines.iter().enumerate().skip(n + 1) {
            let t = inner.trim();
            if depth == 1 && (t.starts_with("_ =>") || t.starts_with("_ if ")) {
                wild = Some(k + 1);
            }
            names_tab |= t.contains("Tab::");
            depth += t.matches('{').count() as i32 - t.matches('}').count() as i32;
            if depth <= 0 {
                break;
            }
        }
        if let (true, Some(k)) = (names_tab, wild) {
            found.push((k, trimmed.to_owned()));
        }
    }
    found
}

/// Issue 48.1: no wildcard over `Tab` in the dashboard: a new tab is then a compile error
/// wherever tabs are told apart, not a silent fall-through (nor an
/// `#[allow(unreachable_patterns)]` that hides it).
#[test]
fn no_wildcard_over_tab() {
    let mut offending = Vec::new();
    for dir in ["app", "ui", "desk"] {
        for (rel, text) in sources(dir) {
            for (k, line) in wildcards_over_tab(&text) {
                offending.push(format!("src/{rel}:{k}: a wildcard arm in `{line}`"));
            }
            if text.contains("unreachable_patterns") {
                offending.push(format!("src/{rel}: allows unreachable patterns"));
            }
        }
    }
    assert!(
        offending.is_empty(),
        "name every tab where tabs are told apart:\n{}",
        offending.join("\n")
    );
}

#[test]
fn the_wildcard_rule_sees_what_it_forbids() {
    let bad = "fn f(tab: Tab) {\n    match tab {\n        Tab::Services => 1,\n        _ => 2,\n    }\n}\n";
    assert_eq!(wildcards_over_tab(bad), [(4, "match tab {".to_owned())]);
    let nested = "match self.tab {\n    Tab::Alerts => match x {\n        _ => 1,\n    },\n    Tab::Services => 2,\n}\n";
    assert!(wildcards_over_tab(nested).is_empty());
    let other = "match action {\n    Action::Up => 1,\n    _ => 2,\n}\n";
    assert!(wildcards_over_tab(other).is_empty());
}
