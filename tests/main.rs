//! Every integration test in one binary (issue 39): the dependency graph is linked once
//! instead of once per file. Each file of `tests/` is a module here, and the directories
//! beside some of them hold their parts. `Cargo.toml` says `autotests = false`, so a file
//! not named here would never be built: `every_test_file_is_a_module` fails then.
//!
//! Run one file's tests with its module name: `cargo test --test integration watch::`.

mod support;

mod accounts;
mod alert_policy;
mod all_rows;
mod all_sort;
mod all_view;
mod architecture;
mod assets;
mod budget_scopes;
mod cli;
mod client;
mod completion;
mod dashboard;
mod decoding;
mod demo_everywhere;
mod doctor;
mod engine;
mod escapes;
mod faults;
mod forms;
mod fuzz;
mod history_cli;
mod history_crash;
mod log_sanitized;
mod metrics_flood;
mod palette;
mod probe;
mod probe_judges;
mod probe_rotation;
mod ratelimit;
mod readme;
mod sandbox;
mod script;
mod secrets;
mod secrets_in_logs;
mod state_files;
mod terminal;
mod unknown;
mod watch;
mod watch_probe;

/// Each `tests/*.rs` file (and each directory with a `mod.rs`) is a module of this
/// binary, or its tests would silently never run.
#[test]
fn every_test_file_is_a_module() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let main = std::fs::read_to_string(dir.join("main.rs")).expect("tests/main.rs");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("tests/") {
        let path = entry.expect("an entry").path();
        let name = if path.is_dir() {
            if !path.join("mod.rs").exists() {
                continue;
            }
            path.file_name().unwrap().to_string_lossy().into_owned()
        } else if path.extension().is_some_and(|e| e == "rs") {
            path.file_stem().unwrap().to_string_lossy().into_owned()
        } else {
            continue;
        };
        if name != "main" && !main.lines().any(|l| l == format!("mod {name};")) {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "tests/ files not declared in tests/main.rs (so never built): {missing:?}"
    );
}
