//! `proxydash doctor`, run as a user would run it: against a sandbox on loopback, and
//! against a loopback address nothing listens on.

use crate::support;

use proxydash::sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use support::{proxydash_in as proxydash, temp_dir};
use tokio::process::Command;

/// Runs `cmd` to its end: the exit status and standard output.
async fn finish(cmd: &mut Command) -> (Option<i32>, String, String) {
    let out = cmd.output().await.expect("the binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The line of the check `name`.
fn line<'a>(out: &'a str, name: &str) -> &'a str {
    out.lines()
        .find(|l| l.split_whitespace().nth(1) == Some(name))
        .unwrap_or_else(|| panic!("no {name} line in:\n{out}"))
}

async fn sandbox() -> SandboxHandle {
    Sandbox::start(SandboxConfig {
        listen: ([127, 0, 0, 1], 0).into(),
        rate_limit: Some(120),
        rate_limit_headers: true,
        ..SandboxConfig::default()
    })
    .await
    .expect("sandbox starts")
}

#[tokio::test]
async fn doctor_passes_against_the_sandbox_asking_one_credit_read() {
    let sb = sandbox().await;
    let home = temp_dir("sandbox");
    let config = home.join("config/proxydash/config.toml");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    let text = format!(
        "default_profile = \"shop\"\n[profiles.shop]\nbase_url = \"{}\"\ntoken = \"{}\"\n",
        sb.base_url(),
        sb.token()
    );
    std::fs::write(&config, text).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o600)).unwrap();
    }

    let (code, out, err) = finish(proxydash(&home).arg("doctor")).await;
    assert_eq!(code, Some(0), "{out}\n{err}");
    for name in ["config", "credentials", "permissions", "api", "state"] {
        assert!(line(&out, name).starts_with('✓'), "{name}:\n{out}");
    }
    assert!(line(&out, "config").contains("read and parsed"), "{out}");
    assert!(
        line(&out, "credentials")
            .contains("profile shop: a token from the profile's token key (not shown)"),
        "{out}"
    );
    assert!(
        !out.contains(sb.token()),
        "the token is never printed:\n{out}"
    );
    #[cfg(unix)]
    assert!(line(&out, "permissions").contains("mode 0600"), "{out}");
    assert!(line(&out, "api").contains("credit $"), "{out}");
    // The sandbox sends its limit in the headers; the budget reports what it read.
    assert!(
        out.contains("rate limit") && out.contains("X-RateLimit-Limit: 120/min"),
        "{out}"
    );
    assert!(line(&out, "state").contains("writable"), "{out}");

    // What the sandbox saw: one read of the credit, with the profile's token.
    let seen = sb.requests();
    assert_eq!(seen.len(), 1, "{seen:#?}");
    assert_eq!(seen[0].method, "GET");
    assert_eq!(seen[0].path, "/api/billing/credit");
    assert!(seen[0].authorization.is_some());

    // --json: the same checks as an array of {check, ok, detail}.
    let (code, out, _) = finish(proxydash(&home).args(["doctor", "--json"])).await;
    assert_eq!(code, Some(0));
    let checks: serde_json::Value = serde_json::from_str(&out).unwrap();
    let names: Vec<&str> = checks
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["check"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "config",
            "credentials",
            "permissions",
            "api",
            "rate limit",
            "state",
            "state files"
        ]
    );
    assert!(checks.as_array().unwrap().iter().all(|c| c["ok"] == true));
    assert!(checks[3]["detail"].as_str().unwrap().contains("credit"));
}

#[tokio::test]
async fn doctor_against_a_stopped_address_fails_the_api_check_with_status_5() {
    let closed = {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        listener.local_addr().unwrap()
        // Dropped here: nothing listens on it any more.
    };
    let home = temp_dir("stopped");
    let base = format!("http://{closed}");
    let (code, out, err) = finish(proxydash(&home).args([
        "--base-url",
        &base,
        "--token",
        "t0ken-not-printed",
        "--connect-timeout",
        "2",
        "doctor",
    ]))
    .await;
    assert_eq!(code, Some(5), "unreachable is 5:\n{out}\n{err}");
    let api = line(&out, "api");
    assert!(api.starts_with('✗'), "{out}");
    assert!(api.contains("Read the credit"), "{out}");
    assert!(line(&out, "credentials").starts_with('✓'), "{out}");
    // No config file is worth knowing, not a failure.
    assert!(line(&out, "config").starts_with('!'), "{out}");
    assert!(!out.contains("t0ken-not-printed"), "{out}");
    // The rate limit is not known without an answer: a `?`, not a pass (issue 45).
    assert!(out.contains("not known"), "{out}");
    assert!(line(&out, "rate").starts_with('?'), "{out}");
}

/// Issue 45: a server that announces no limit leaves it unknown (`?`), and the demo's
/// doctor reads the demo's own headers.
#[tokio::test]
async fn a_limit_nobody_announced_is_a_question_and_the_demo_reads_its_own() {
    let home = temp_dir("unannounced");
    let sb = proxydash::sandbox::Sandbox::start(proxydash::sandbox::SandboxConfig::ephemeral())
        .await
        .unwrap();
    let (_, out, _) = finish(proxydash(&home).args([
        "--base-url",
        &sb.base_url(),
        "--token",
        sb.token(),
        "doctor",
    ]))
    .await;
    let rate = line(&out, "rate");
    assert!(
        rate.starts_with('?') && rate.contains("not announced"),
        "{out}"
    );
    let (code, out, _) = finish(proxydash(&home).args(["--demo", "doctor"])).await;
    assert_eq!(code, Some(0), "{out}");
    let rate = line(&out, "rate");
    assert!(
        rate.starts_with('✓') && rate.contains("X-RateLimit-Limit: 60/min"),
        "{out}"
    );
}

/// Issue 37 item 11: the credentials check names the source used (a flag replaces the
/// profile's token_command); `--json` keeps the level and the profile apart from the
/// check's name; a config file others can write is said once, naming the profile and the
/// key of the command it refuses.
#[tokio::test]
async fn doctor_names_the_source_the_level_and_the_profile() {
    let sb = sandbox().await;
    let home = temp_dir("sources");
    let config = home.join("config/proxydash/config.toml");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    let text = format!(
        "[profiles.resale]\nbase_url = \"{url}\"\ntoken_command = \"echo {token}\"\n\n[profiles.shop]\nbase_url = \"{url}\"\ntoken = \"{token}\"\n",
        url = sb.base_url(),
        token = sb.token()
    );
    std::fs::write(&config, &text).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o600)).unwrap();
    let (_, out, _) =
        finish(proxydash(&home).args(["doctor", "--token", "wrong", "--profile", "resale"])).await;
    assert!(
        line(&out, "credentials").contains("a token from the --token flag"),
        "{out}"
    );
    let (_, out, _) = finish(proxydash(&home).args(["doctor", "--profile", "resale"])).await;
    assert!(
        line(&out, "credentials").contains("a token from the profile's token_command"),
        "{out}"
    );
    // One profile named: its name in each JSON row, the text as it was.
    let (_, out, _) =
        finish(proxydash(&home).args(["doctor", "--profile", "resale", "--json"])).await;
    let checks: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(
        checks
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["profile"] == "resale"),
        "{out}"
    );
    let (_, out, _) = finish(proxydash(&home).args(["doctor", "--all-profiles", "--json"])).await;
    let checks: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = checks.as_array().unwrap();
    assert!(
        rows.iter()
            .all(|c| !c["check"].as_str().unwrap().contains(':')),
        "{out}"
    );
    assert!(rows.iter().any(|c| c["profile"] == "resale"), "{out}");
    assert!(rows.iter().any(|c| c["profile"] == "shop"), "{out}");
    for c in rows {
        let level = c["level"].as_str().unwrap();
        assert!(["ok", "warn", "fail"].contains(&level), "{c}");
        assert_eq!(c["ok"] == true, level != "fail", "{c}");
    }
    // Writable by others, with an on_alert in shop and a token_command in resale.
    let text = text.replace(
        "[profiles.shop]\n",
        "[profiles.shop]\nalerts = { on_alert = \"true\" }\n",
    );
    std::fs::write(&config, text).unwrap();
    std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o666)).unwrap();
    let (code, out, _) = finish(proxydash(&home).args(["doctor", "--profile", "shop"])).await;
    assert_eq!(code, Some(2), "{out}");
    assert_eq!(
        out.matches("writable by other users").count(),
        1,
        "said once:\n{out}"
    );
    assert!(!out.contains("  proxydash run"), "no gap:\n{out}");
    assert!(
        out.contains("token_command of profile resale") && out.contains("on_alert of profile shop"),
        "{out}"
    );
}

/// Issue 46.7: a FIFO, a link or an oversized file at a state file's name is refused by
/// every other command (it goes on without it), and `doctor` said nothing of it. It names
/// each, why and what to do, and opens none of them (a FIFO would block it).
#[cfg(unix)]
#[tokio::test]
async fn doctor_names_the_state_files_other_commands_refuse() {
    let home = temp_dir("state-files");
    let state = home.join("state/proxydash");
    std::fs::create_dir_all(&state).unwrap();
    let fifo = state.join("budget.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    std::os::unix::fs::symlink("/etc/hostname", state.join("alerts.json")).unwrap();
    std::fs::File::create(state.join("throttle.json"))
        .unwrap()
        .set_len(9 << 20)
        .unwrap();
    let (code, out, err) = finish(proxydash(&home).args(["--demo", "doctor"])).await;
    let said = out
        .lines()
        .find(|l| l.contains("state files"))
        .unwrap_or_else(|| panic!("no state files line:\n{out}\n{err}"));
    assert!(said.starts_with('!'), "{said}");
    for why in [
        "budget.json is a FIFO (named pipe), not a regular file",
        "alerts.json is a symbolic link",
        "throttle.json is over 8 MiB",
        "every command goes on without them",
    ] {
        assert!(said.contains(why), "{why:?} not in {said}");
    }
    assert_eq!(code, Some(0), "a warning, not a failure:\n{out}\n{err}");
    // Nothing of the kind: a pass.
    let clean = temp_dir("state-files-clean");
    let (_, out, _) = finish(proxydash(&clean).args(["--demo", "doctor"])).await;
    assert!(
        out.lines()
            .any(|l| l.starts_with('✓') && l.contains("state files")),
        "{out}"
    );
}

/// Issue 47.1: your own actions are checked by `doctor`: a bad one named with its line
/// and why, the others counted; a key a tab uses is said too.
#[tokio::test]
async fn doctor_names_a_bad_action_with_its_line() {
    let sb = sandbox().await;
    let home = temp_dir("actions");
    let config = home.join("config/proxydash/config.toml");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    let text = format!(
        "default_profile = \"shop\"\n\
         [[actions]]\n\
         key = \"X\"\n\
         description = \"Push\"\n\
         command = [\"pm\", \"{{service_id}}\"]\n\
         [[actions]]\n\
         key = \"Y\"\n\
         description = \"Leak\"\n\
         command = [\"curl\", \"{{password}}\"]\n\
         [[actions]]\n\
         key = \"b\"\n\
         description = \"Taken\"\n\
         command = [\"x\"]\n\
         [profiles.shop]\nbase_url = \"{}\"\ntoken = \"{}\"\n",
        sb.base_url(),
        sb.token()
    );
    std::fs::write(&config, text).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let (code, out, err) = finish(proxydash(&home).arg("doctor")).await;
    assert_eq!(code, Some(0), "warnings only:\n{out}\n{err}");
    let actions = line(&out, "actions");
    assert!(
        actions.starts_with('!') || actions.starts_with('⚠'),
        "{actions}"
    );
    assert!(actions.contains("1 action of yours read"), "{actions}");
    assert!(
        actions.contains("action at config.toml line 6: {password} needs secrets = true; left out"),
        "{actions}"
    );
    assert!(actions.contains("key b is"), "{actions}");
}
