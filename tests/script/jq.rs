//! `--jq EXPR` on every command that has `--json` (the list read from the command tree,
//! so a new one cannot be left out), and `--format csv|tsv` on the lists: the binary
//! against the sandbox, each run with a state folder of its own.

use super::*;
use proxydash::history::{Record, Store, Sweep};

/// `proxydash --base-url … --token … ARGS…` with its state and config in `dir` (nothing of
/// the user's), `input` on standard input.
async fn run_in(
    sb: &SandboxHandle,
    dir: &std::path::Path,
    args: &[&str],
    input: Option<&str>,
) -> Run {
    let mut cmd = proxydash();
    cmd.env("XDG_STATE_HOME", dir.join("state"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .args(["--base-url", &sb.base_url(), "--token", sb.token()])
        .args(args);
    finish(&mut cmd, input).await
}

/// Every subcommand (its path of names) that has `--json`.
fn json_commands() -> Vec<String> {
    let mut tree = proxydash::cli::Cli::command_line();
    tree.build();
    let mut found = Vec::new();
    fn walk(c: &clap::Command, path: &str, found: &mut Vec<String>) {
        if c.get_arguments().any(|a| a.get_long() == Some("json")) {
            found.push(path.to_owned());
        }
        for sub in c.get_subcommands() {
            walk(sub, format!("{path} {}", sub.get_name()).trim(), found);
        }
    }
    walk(&tree, "", &mut found);
    found
}

/// How a command with `--json` is run against a fresh sandbox: its arguments and its
/// standard input. A new command with `--json` gets a line here, or the test fails.
fn how(path: &str) -> Option<(Vec<&str>, Option<&'static str>)> {
    let args: &[&str] = match path {
        "clients" | "products" | "services" | "credit" | "invoices" | "alerts" | "doctor" => &[],
        "product" => &["11"],
        "order" => &["21", "--client", "101", "--yes"],
        "service" | "refresh-list" | "iplist" | "network" => &["1001"],
        "bind" => &["1002", "45.83.221.9"],
        "password" => &["1001"],
        "invoice" => &["7001"],
        "stats" | "rate" => &["1003"],
        "probe" => &["--allow-private", "--probe-timeout", "1", "1001"],
        "history export" => &["--since", "1d"],
        "alerts list" | "alerts rules" => &[],
        "alerts ack" => &["credit_low"],
        "alerts silence" => &["--rule", "rate_limit", "--for", "1h", "--reason", "test"],
        "alerts unsilence" => &["nothing-silenced"],
        _ => return None,
    };
    let mut all: Vec<&str> = path.split(' ').collect();
    all.extend_from_slice(args);
    let input = (path == "password").then_some("Str0ng-Passw0rd!x\n");
    Some((all, input))
}

/// One run of a command on a sandbox and state of its own (a history file in it, for
/// `history export`).
async fn fresh(args: &[&str], input: Option<&str>, name: &str) -> Run {
    let sb = Sandbox::start(SandboxConfig {
        proxies: args[0] == "probe",
        ..SandboxConfig::ephemeral()
    })
    .await
    .expect("sandbox starts");
    let dir = temp_dir(name);
    let history = dir.join("state/proxydash/history-default.sqlite");
    std::fs::create_dir_all(history.parent().unwrap()).unwrap();
    let sweep = Sweep {
        at: chrono::Utc::now(),
        records: vec![Record::Credit { credit: 12.5 }],
    };
    Store::open(&history, 90).unwrap().write(&[sweep]).unwrap();
    let mut args = args.to_vec();
    let judge;
    if args[0] == "probe" {
        judge = sb.judge_url().expect("a judge");
        args.splice(1..1, ["--probe-url", judge.as_str()]);
    }
    let out = run_in(&sb, &dir, &args, input).await;
    let _ = std::fs::remove_dir_all(&dir);
    out
}

/// The JSON type of the first document of `text`, as jq's `type` says it.
fn type_of(text: &str) -> String {
    let first = serde_json::Deserializer::from_str(text)
        .into_iter::<Value>()
        .next()
        .unwrap_or_else(|| panic!("no JSON in {text:?}"))
        .unwrap_or_else(|e| panic!("{e}: {text:?}"));
    match first {
        Value::Array(_) => "array",
        Value::Object(_) => "object",
        Value::String(_) => "string",
        Value::Number(_) => "number",
        Value::Bool(_) => "boolean",
        Value::Null => "null",
    }
    .to_owned()
}

/// Each command with `--json` run with `--jq type`: the type of what `--json` prints, as
/// a raw string, and the same exit status (`probe`'s 1 for a dead proxy too); where
/// `--json` fails, nothing on standard output (no error object).
#[tokio::test]
async fn every_command_with_json_takes_jq_and_keeps_its_exit_status() {
    let commands = json_commands();
    for must in [
        "services",
        "iplist",
        "history export",
        "alerts",
        "doctor",
        "probe",
    ] {
        assert!(
            commands.iter().any(|c| c == must),
            "{must} not found in {commands:?}"
        );
    }
    let mut checked = Vec::new();
    for path in &commands {
        let (args, input) =
            how(path).unwrap_or_else(|| panic!("`{path}` has --json: add how to run it to `how`"));
        let name = path.replace(' ', "-");
        if path == "alerts rules" {
            // YAML, not JSON: --jq is refused before anything is done.
            let out = fresh(&[args.as_slice(), &["--jq", "type"]].concat(), input, &name).await;
            out.fails(2, "YAML");
            continue;
        }
        let json = fresh(
            &[args.as_slice(), &["--json"]].concat(),
            input,
            &format!("{name}-j"),
        )
        .await;
        let jq = fresh(
            &[args.as_slice(), &["--jq", "type"]].concat(),
            input,
            &format!("{name}-q"),
        )
        .await;
        assert_eq!(jq.code, json.code, "{path}: {json:#?}\n{jq:#?}");
        let printed = json.code == Some(0) || path == "probe";
        if printed {
            assert_eq!(
                jq.stdout,
                format!("{}\n", type_of(&json.stdout)),
                "{path}: {jq:#?}"
            );
        } else {
            assert!(jq.stdout.is_empty(), "{path}: {jq:#?}");
        }
        checked.push((path.clone(), json.code));
    }
    // Probe found its dead proxy with --jq too; the ack of an alert not open is 4.
    assert!(checked.contains(&("probe".into(), Some(1))), "{checked:?}");
    assert!(
        checked.contains(&("alerts ack".into(), Some(4))),
        "{checked:?}"
    );
    assert!(
        checked.iter().filter(|(_, c)| *c == Some(0)).count() > 15,
        "{checked:?}"
    );
}

#[tokio::test]
async fn strings_are_raw_other_values_compact_json_one_a_line() {
    let sb = sandbox().await;
    let dir = temp_dir("jq-raw");
    let out = run_in(
        &sb,
        &dir,
        &[
            "services",
            "--jq",
            ".[0].product_name, .[0], (.[0:2] | map(.service_id))",
        ],
        None,
    )
    .await
    .ok();
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{out:#?}");
    assert_eq!(lines[0], "Datacenter US 10");
    assert!(
        lines[1].starts_with("{\"service_id\":1001,\"product_name\":\"Datacenter US 10\","),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2], "[1001,1002]");
    // Over several documents' worth of rows, each result on its own line.
    let ids = run_in(
        &sb,
        &dir,
        &[
            "invoices",
            "--jq",
            ".[] | select(.status == \"Unpaid\") | .id",
        ],
        None,
    )
    .await
    .ok();
    assert!(
        !ids.stdout.is_empty() && ids.stdout.lines().all(|l| l.parse::<u64>().is_ok()),
        "{ids:#?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_bad_expression_is_bad_usage_and_sends_nothing() {
    let sb = sandbox().await;
    let dir = temp_dir("jq-bad");
    let out = run_in(&sb, &dir, &["services", "--jq", ".[] | foo"], None).await;
    let out = out.fails(2, "undefined filter foo/0 at column 7");
    assert!(out.stderr.contains("--jq <EXPR>"), "{out:#?}");
    let out = run_in(&sb, &dir, &["credit", "--jq", "{a: "], None).await;
    out.fails(2, "expected");
    // --jq goes with neither --format nor a template.
    run_in(
        &sb,
        &dir,
        &["services", "--jq", ".", "--format", "csv"],
        None,
    )
    .await
    .fails(2, "--format");
    assert!(sb.requests().is_empty(), "{:?}", sb.requests());
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn errors_while_running_exit_1_after_what_was_printed() {
    let sb = sandbox().await;
    let dir = temp_dir("jq-run");
    let out = run_in(
        &sb,
        &dir,
        &["services", "--jq", ".[0].service_id, (.[0] | keys[0] | .x)"],
        None,
    )
    .await;
    assert_eq!(out.code, Some(1), "{out:#?}");
    assert_eq!(out.stdout, "1001\n");
    assert!(
        out.stderr.contains("proxydash: --jq: cannot index"),
        "{out:#?}"
    );
    let out = run_in(&sb, &dir, &["credit", "--jq", "halt_error(5)"], None).await;
    assert_eq!(
        out.code,
        Some(1),
        "halt_error's status is not the command's: {out:#?}"
    );
    let out = run_in(&sb, &dir, &["credit", "--jq", "1, halt, 2"], None)
        .await
        .ok();
    assert_eq!(out.stdout, "1\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A failure prints its line and its status, and no JSON object for the filter to meet.
#[tokio::test]
async fn failures_keep_their_status_and_print_no_json_with_jq() {
    let sb = sandbox().await;
    let dir = temp_dir("jq-fail");
    run_in(&sb, &dir, &["service", "9999", "--jq", "."], None)
        .await
        .fails(4, "9999");
    run_in(&sb, &dir, &["refresh-list", "1001", "--jq", "."], None)
        .await
        .ok();
    run_in(&sb, &dir, &["refresh-list", "1001", "--jq", "."], None)
        .await
        .fails(6, "too soon");
    let _ = std::fs::remove_dir_all(&dir);
}

/// jaq has no bounds of its own: these end, each with its line and status 1.
#[tokio::test]
async fn a_runaway_expression_is_stopped() {
    let sb = sandbox().await;
    let dir = temp_dir("jq-bounds");
    let (deep, memory, time) = tokio::join!(
        run_in(&sb, &dir, &["credit", "--jq", "def f: 1 + f; f"], None),
        run_in(
            &sb,
            &dir,
            &[
                "credit",
                "--jq",
                "reduce range(40) as $i (\"x\"; . + .) | length"
            ],
            None
        ),
        run_in(&sb, &dir, &["credit", "--jq", "last(range(1e12))"], None),
    );
    deep.fails(1, "recursed too deep");
    memory.fails(1, "more than 1 GiB of memory");
    time.fails(1, "computed for 10 s without a result");
    // A reader that has what it wants ends an endless output quietly.
    let mut cmd = proxydash();
    cmd.env("XDG_STATE_HOME", dir.join("state")).args([
        "--base-url",
        &sb.base_url(),
        "--token",
        sb.token(),
        "credit",
        "--jq",
        "repeat(1)",
    ]);
    let mut child = cmd.spawn().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 4];
    tokio::io::AsyncReadExt::read_exact(&mut stdout, &mut first)
        .await
        .unwrap();
    assert_eq!(&first, b"1\n1\n");
    drop(stdout);
    let status = child.wait().await.unwrap();
    assert_eq!(status.code(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A product whose name holds a comma, a quote, a tab and a line break, and a group that
/// begins with `=`: CSV quotes the name (RFC 4180), TSV escapes it, both keep the `=`.
#[tokio::test]
async fn csv_and_tsv_keep_every_value_whole() {
    let mut seed: Value = serde_json::from_str(include_str!("../../assets/seed.json")).unwrap();
    seed["products"][0]["name"] = "Big, \"fast\"\tproxy\nline two\\".into();
    seed["groups"][0]["name"] = "=HYPERLINK(1)".into();
    let dir = temp_dir("jq-csv");
    let path = dir.join("seed.json");
    std::fs::write(&path, seed.to_string()).unwrap();
    let sb = Sandbox::start(SandboxConfig {
        seed: Some(path),
        ..SandboxConfig::ephemeral()
    })
    .await
    .unwrap();
    let id = seed["products"][0]["id"].as_u64().unwrap();
    let csv = run_in(&sb, &dir, &["products", "--format", "csv"], None)
        .await
        .ok()
        .stdout;
    assert!(csv.starts_with("ID,NAME,GROUP,PRICE,CREATED\n"), "{csv}");
    let row = format!("{id},\"Big, \"\"fast\"\"\tproxy\nline two\\\",=HYPERLINK(1),");
    assert!(csv.contains(&row), "{row:?} not in {csv:?}");
    let tsv = run_in(&sb, &dir, &["products", "--format", "tsv"], None)
        .await
        .ok()
        .stdout;
    assert!(
        tsv.starts_with("ID\tNAME\tGROUP\tPRICE\tCREATED\n"),
        "{tsv}"
    );
    let row = format!("{id}\tBig, \"fast\"\\tproxy\\nline two\\\\\t=HYPERLINK(1)\t");
    assert!(tsv.contains(&row), "{row:?} not in {tsv:?}");
    assert!(
        tsv.lines().skip(1).all(|l| l.split('\t').count() == 5),
        "{tsv:?}"
    );
    // --format json is --json; a table is the default.
    let json = run_in(&sb, &dir, &["products", "--format", "json"], None)
        .await
        .ok();
    assert_eq!(
        json.json()[0]["productName"],
        "Big, \"fast\"\tproxy\nline two\\"
    );
    let table = run_in(&sb, &dir, &["products", "--format", "table"], None)
        .await
        .ok()
        .stdout;
    assert!(table.starts_with("ID  NAME"), "{table}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The README's table of `--format csv` columns: each command with its header.
fn readme_formats() -> Vec<(String, String)> {
    const README: &str = include_str!("../../README.md");
    README
        .lines()
        .skip_while(|l| !l.starts_with("| command | `--format csv` columns |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|row| {
            let cells: Vec<&str> = row.trim_matches('|').split(" | ").collect();
            let code = |c: &str| c.split('`').nth(1).unwrap_or_default().to_owned();
            (code(cells[0]), code(cells[1]))
        })
        .collect()
}

/// The README's table names every command with `--format table|json|csv|tsv` (read from
/// the command tree), and each prints the header it says, with an empty cell where the
/// table shows `—`.
#[tokio::test]
async fn every_list_takes_format_with_the_readme_s_header() {
    let readme = readme_formats();
    let mut tree = proxydash::cli::Cli::command_line();
    tree.build();
    let mut with_format = Vec::new();
    fn walk(c: &clap::Command, path: &str, found: &mut Vec<String>) {
        let forms = c
            .get_arguments()
            .find(|a| a.get_long() == Some("format"))
            .map(|a| {
                a.get_possible_values()
                    .iter()
                    .map(|v| v.get_name().to_owned())
                    .collect::<Vec<_>>()
            });
        if forms.is_some_and(|f| f == ["table", "json", "csv", "tsv"]) {
            found.push(path.to_owned());
        }
        for sub in c.get_subcommands() {
            walk(sub, format!("{path} {}", sub.get_name()).trim(), found);
        }
    }
    walk(&tree, "", &mut with_format);
    // `alerts`' flags are global: its subcommands have them too; the list is `alerts`.
    with_format.retain(|c| !c.starts_with("alerts "));
    let mut named: Vec<String> = readme.iter().map(|(c, _)| c.clone()).collect();
    named.sort();
    with_format.sort();
    assert_eq!(
        named, with_format,
        "the README's --format table and the command tree"
    );
    for (command, header) in &readme {
        let mut args: Vec<&str> = command.split(' ').collect();
        args.extend(match command.as_str() {
            "stats" => &["1003"][..],
            "probe" => &["--allow-private", "--probe-timeout", "1", "1001"],
            "history export" => &["--since", "1d"],
            _ => &[],
        });
        args.extend(["--format", "csv"]);
        let out = fresh(
            &args,
            None,
            &format!("format-{}", command.replace(' ', "-")),
        )
        .await;
        let expected = if command == "probe" { Some(1) } else { Some(0) };
        assert_eq!(out.code, expected, "{command}: {out:#?}");
        assert_eq!(
            out.stdout.lines().next(),
            Some(header.as_str()),
            "{command}: {out:#?}"
        );
        // A fresh state has no open alert: the header alone.
        if command != "alerts" {
            assert!(out.stdout.lines().count() > 1, "{command}: rows: {out:#?}");
        }
        assert!(
            !out.stdout.contains("\n\n"),
            "{command}: a blank line: {out:#?}"
        );
        assert!(!out.stdout.contains('—'), "{command}: {}", out.stdout);
    }
}

/// `history export` takes `--format` beside its `--csv` and `--json`, and `--jq`.
#[tokio::test]
async fn history_export_takes_every_form() {
    let sb = sandbox().await;
    let dir = temp_dir("jq-history");
    let history = dir.join("state/proxydash/history-default.sqlite");
    std::fs::create_dir_all(history.parent().unwrap()).unwrap();
    let sweep = Sweep {
        at: chrono::Utc::now(),
        records: vec![Record::Credit { credit: 12.5 }],
    };
    Store::open(&history, 90).unwrap().write(&[sweep]).unwrap();
    let export = |form: &'static [&'static str]| {
        let mut args = vec!["history", "export", "--since", "1d"];
        args.extend_from_slice(form);
        let (sb, dir) = (&sb, &dir);
        async move { run_in(sb, dir, &args, None).await.ok().stdout }
    };
    let csv = export(&["--format", "csv"]).await;
    assert_eq!(csv, export(&["--csv"]).await);
    assert_eq!(csv, export(&[]).await);
    assert!(
        csv.starts_with("at,kind,service_id,subject,value,extra,detail\n"),
        "{csv}"
    );
    assert!(csv.contains(",credit,,,12.5,,\n"), "{csv}");
    let tsv = export(&["--format", "tsv"]).await;
    assert!(tsv.contains("\tcredit\t\t\t12.5\t\t\n"), "{tsv}");
    let table = export(&["--format", "table"]).await;
    assert!(
        table.starts_with("AT ") && table.contains(" credit "),
        "{table}"
    );
    assert_eq!(
        export(&["--format", "json"]).await,
        export(&["--json"]).await
    );
    assert_eq!(export(&["--jq", ".[].value"]).await, "12.5\n");
    let _ = std::fs::remove_dir_all(&dir);
}
