//! The binary's start-up rules, run as a user would run it.

use std::process::Command;

fn proxydash() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_proxydash"));
    for var in [
        "PROXYDASH_BASE_URL",
        "PROXYDASH_TOKEN",
        "PROXYDASH_LOGIN",
        "PROXYDASH_PASSWORD",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

#[test]
fn no_account_exits_2_naming_demo_and_the_variables() {
    let out = proxydash().output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    for needle in [
        "--demo",
        "PROXYDASH_BASE_URL",
        "PROXYDASH_TOKEN",
        "PROXYDASH_LOGIN",
        "PROXYDASH_PASSWORD",
    ] {
        assert!(err.contains(needle), "{needle} missing from: {err}");
    }
}

#[test]
fn the_dashboard_refuses_a_pipe() {
    let out = proxydash()
        .args(["--base-url", "https://api.example.com", "--token", "t"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a terminal"));
}

#[test]
fn plain_http_to_a_remote_host_is_refused_before_anything_is_sent() {
    let out = proxydash()
        .args(["--base-url", "http://api.example.com", "--token", "t"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--allow-insecure-http"), "{err}");
}

#[test]
fn help_lists_the_demo_and_the_sandbox() {
    let out = proxydash().arg("--help").output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains("--demo") && help.contains("sandbox"),
        "{help}"
    );
}

fn config_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("proxydash-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("config.toml");
    std::fs::write(&path, text).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    path
}

fn show(cmd: &mut Command) -> String {
    let out = cmd.args(["config", "show"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

const PROFILES: &str = r#"
default_profile = "main"
[profiles.main]
base_url = "https://main.example"
token = "sentinel-profile-token"
refresh = 10
[profiles.monitor]
base_url = "https://monitor.example"
login = "watcher"
password = "sentinel-profile-password"
read_only = true
"#;

#[test]
fn environment_beats_the_profile_and_flags_beat_the_environment() {
    let path = config_file("precedence", PROFILES);
    let profile_only = show(proxydash().arg("--config").arg(&path));
    assert!(
        profile_only.contains("base_url = https://main.example"),
        "{profile_only}"
    );
    assert!(profile_only.contains("refresh = 10s"), "{profile_only}");

    let env = show(
        proxydash()
            .arg("--config")
            .arg(&path)
            .env("PROXYDASH_BASE_URL", "https://env.example")
            .env("PROXYDASH_PROFILE", "monitor"),
    );
    assert!(env.contains("profile = monitor"), "{env}");
    assert!(env.contains("base_url = https://env.example"), "{env}");
    assert!(env.contains("read_only = true"), "{env}");
    assert!(env.contains("credentials = login watcher"), "{env}");

    let flag = show(
        proxydash()
            .arg("--config")
            .arg(&path)
            .env("PROXYDASH_BASE_URL", "https://env.example")
            .args(["--base-url", "https://flag.example", "--refresh", "0"]),
    );
    assert!(flag.contains("base_url = https://flag.example"), "{flag}");
    assert!(flag.contains("refresh = off"), "{flag}");
    // Defaults fill what nobody set.
    assert!(
        flag.contains("timeout = 30s") && flag.contains("connect_timeout = 5s"),
        "{flag}"
    );
    // Secrets are never printed.
    for out in [profile_only, env, flag] {
        assert!(!out.contains("sentinel"), "{out}");
    }
}

#[test]
fn config_init_writes_a_private_example_once_and_path_names_it() {
    let dir = std::env::temp_dir().join(format!("proxydash-cli-init-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("proxydash/config.toml");
    let named = proxydash()
        .env("XDG_CONFIG_HOME", &dir)
        .args(["config", "path"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&named.stdout).trim(),
        path.display().to_string()
    );
    let first = proxydash()
        .env("XDG_CONFIG_HOME", &dir)
        .args(["config", "init"])
        .output()
        .unwrap();
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
    let second = proxydash()
        .env("XDG_CONFIG_HOME", &dir)
        .args(["config", "init"])
        .output()
        .unwrap();
    assert!(!second.status.success());
    assert!(String::from_utf8_lossy(&second.stderr).contains("already exists"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 16.10: right after `config init` the example's `token_command` (`pass …`) may
/// not work yet; `config show` still shows every setting and says the secret is
/// unavailable, and why.
#[test]
fn config_show_survives_a_failing_token_command() {
    let path = config_file(
        "failing-command",
        r#"
[profiles.main]
base_url = "https://main.example"
token_command = "echo 'Error: reseller/main-token is not in the password store.' >&2; exit 1"
read_only = true
"#,
    );
    let out = show(proxydash().arg("--config").arg(&path));
    assert!(out.contains("base_url = https://main.example"), "{out}");
    assert!(out.contains("read_only = true"), "{out}");
    // Named by its key; its error output is `doctor`'s alone (issue 38 item 6).
    assert!(
        out.contains("secret unavailable: profiles.main.token_command failed: exit 1"),
        "{out}"
    );
    assert!(!out.contains("password store"), "{out}");
}

/// Issue 38 item 6: a failing `token_command` used to show its text and the first line
/// of its error output in `doctor`, `config show` and every error, so a command that
/// embeds its secret, or prints it to standard error, showed it. Now it is named by its
/// profile and key; no error output is shown at all (issue 46.5: `doctor` showed one
/// that held the token), only how many bytes of it there were.
#[test]
fn a_failing_secret_command_never_shows_its_text_or_its_secret() {
    let secret = "sk_live_4eC39HqLyjWDarjtT1zdp7dc";
    for (name, command) in [
        (
            "embedded",
            format!("curl -fsS -H 'Authorization: Bearer {secret}' http://127.0.0.1:9/ || exit 1"),
        ),
        ("stderr", format!("echo {secret} >&2; exit 1")),
        (
            "both",
            format!("printf '%s' {secret}; echo \"token {secret}\" >&2; exit 7"),
        ),
        ("quoted", format!("{secret}; exit 1")),
    ] {
        let path = config_file(
            &format!("secret-{name}"),
            &format!(
                "[profiles.resale]\nbase_url = \"http://127.0.0.1:9\"\ntoken_command = {command:?}\n"
            ),
        );
        let mut all = String::new();
        for args in [&["config", "show"][..], &["credit"], &["doctor"]] {
            let out = proxydash()
                .arg("--config")
                .arg(&path)
                .args(args)
                .output()
                .unwrap();
            all.push_str(&String::from_utf8_lossy(&out.stdout));
            all.push_str(&String::from_utf8_lossy(&out.stderr));
        }
        assert!(!all.contains(secret), "{name}: the secret shows:\n{all}");
        assert!(
            !all.contains("Bearer") && !all.contains("-fsS"),
            "{name}: the command shows:\n{all}"
        );
        assert!(
            all.contains("profiles.resale.token_command failed: exit"),
            "{name}:\n{all}"
        );
    }
    // Issue 46.5: a line that reads like any other (`auth error: token SECRETtok…
    // expired`) was shown by `doctor` and `doctor --json`, the token in it. No error
    // output is shown: `doctor` says how it ended, how much it wrote, and what to run.
    let path = config_file(
        "secret-sentence",
        // The token is not in the command's text (an auth tool prints it): only its
        // error output holds it.
        "[profiles.resale]\nbase_url = \"http://127.0.0.1:9\"\ntoken_command = \"printf 'auth error: token %s%s%s expired\\\\n' SECR ETtok 9f8e7d >&2; exit 2\"\n",
    );
    let mut said = String::new();
    for args in [&["doctor"][..], &["doctor", "--json"]] {
        let doctor = proxydash()
            .arg("--config")
            .arg(&path)
            .args(args)
            .output()
            .unwrap();
        said.push_str(&String::from_utf8_lossy(&doctor.stdout));
        said.push_str(&String::from_utf8_lossy(&doctor.stderr));
    }
    assert!(!said.contains("SECRETtok"), "{said}");
    assert!(!said.contains("auth error"), "{said}");
    let line = format!(
        "profiles.resale.token_command failed: exit 2; it wrote 42 bytes to standard error (not shown: it may hold the secret); to see what it says, run the command of profiles.resale.token_command (in {}) by hand in a shell",
        path.display()
    );
    assert!(said.contains(&line), "{line}\nnot in\n{said}");
    let credit = proxydash()
        .arg("--config")
        .arg(&path)
        .arg("credit")
        .output()
        .unwrap();
    let credit = String::from_utf8_lossy(&credit.stderr);
    assert!(
        credit.contains("profiles.resale.token_command failed: exit 2"),
        "{credit}"
    );
    assert!(!credit.contains("SECRETtok"), "{credit}");
}

/// Issue 11.5: a token command that hangs is stopped at `command_timeout`, with a message
/// naming the key; nothing waits for the 30 s `sleep`.
#[test]
fn a_hanging_token_command_is_stopped_at_its_timeout() {
    let path = config_file(
        "hanging-command",
        "[profiles.main]\nbase_url = \"http://127.0.0.1:9\"\ntoken_command = \"sleep 30\"\ncommand_timeout = 1\n",
    );
    let out = proxydash()
        .arg("--config")
        .arg(&path)
        .args(["credit"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("did not finish within 1 s") && stderr.contains("command_timeout"),
        "{stderr}"
    );
}

/// Issue 11.6: a log file on a full disk (/dev/full fails every write with ENOSPC) never
/// writes to the terminal; issue 16.10: a log file that cannot be opened is said once.
#[test]
fn log_failures_stay_off_the_terminal_and_a_bad_log_path_is_said() {
    let out = proxydash()
        .env("PROXYDASH_LOG", "debug")
        .args(["--log-file", "/dev/full", "--demo", "credit"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "",
        "nothing on stderr"
    );

    let out = proxydash()
        .args(["--log-file", "/dev/null/x.log", "--demo", "credit"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("/dev/null") && stderr.contains("diagnostics are off"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// Issue 16.10: each line of the log names the process that wrote it.
#[test]
fn every_log_line_names_its_process() {
    let dir = std::env::temp_dir().join(format!("proxydash-cli-pid-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("x.log");
    let child = proxydash()
        .args(["--log-file", path.to_str().unwrap(), "--demo", "services"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    assert!(child.wait_with_output().unwrap().status.success());
    let log = std::fs::read_to_string(&path).unwrap();
    assert!(!log.is_empty());
    for line in log.lines() {
        assert!(line.contains(&format!(" pid={pid} ")), "{line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 16.11: each command's help lists the options that apply to it.
#[test]
fn help_lists_only_the_options_that_apply() {
    let help = |args: &[&str]| {
        let out = proxydash().args(args).output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    for args in [
        &["sandbox", "--help"][..],
        &["config", "--help"],
        &["config", "show", "--help"],
    ] {
        let text = help(args);
        for option in ["--read-only", "--login", "--connect-timeout", "--base-url"] {
            assert!(!text.contains(option), "{args:?} lists {option}:\n{text}");
        }
    }
    assert!(help(&["config", "--help"]).contains("--profile"));
    let services = help(&["services", "--help"]);
    assert!(services.contains("--read-only") && services.contains("--profile"));
    let sandbox = help(&["sandbox", "--help"]);
    for kind in [
        "500-html",
        "502",
        "503",
        "truncated",
        "wrong-shape",
        "empty",
        "drop-after",
        "slow",
        "hang",
    ] {
        assert!(
            sandbox.contains(kind),
            "--faults help lacks {kind}:\n{sandbox}"
        );
    }
    assert!(!sandbox.contains("see the sandbox docs"));
}

/// Issue 16.11: a busy port names the address.
#[test]
fn a_busy_port_names_the_address() {
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = busy.local_addr().unwrap().to_string();
    let out = proxydash()
        .args(["sandbox", "--listen", &addr])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains(&addr), "{stderr}");
}

/// The account options work after a scripting subcommand's name too.
#[test]
fn account_options_after_the_subcommand() {
    let out = proxydash()
        .args([
            "--demo",
            "order",
            "11",
            "--client",
            "101",
            "--yes",
            "--read-only",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(7), "{out:?}");
}

/// Issue 26.12: `config show` without a config file says there is none, shows what the
/// environment and the defaults give, and exits 0.
#[test]
fn config_show_without_a_file_shows_the_defaults() {
    let dir = std::env::temp_dir().join(format!("proxydash-cli-nofile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = show(
        proxydash()
            .env("XDG_CONFIG_HOME", &dir)
            .env_remove("PROXYDASH_CONFIG")
            .env_remove("PROXYDASH_PROFILE")
            .env("PROXYDASH_TOKEN", "sentinel-env-token"),
    );
    assert!(out.contains("(not found; defaults apply)"), "{out}");
    assert!(out.contains("profile = default"), "{out}");
    assert!(out.contains("base_url = none"), "{out}");
    assert!(out.contains("credentials = token"), "{out}");
    assert!(out.contains("refresh = 30s"), "{out}");
    assert!(out.contains("missing = No base URL"), "{out}");
    assert!(!out.contains("sentinel-env-token"), "{out}");
}

/// Issue 26.12: the help says the status a throttled refresh really exits with.
#[test]
fn refresh_list_help_names_exit_6() {
    let out = proxydash()
        .args(["refresh-list", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("exits 6"), "{help}");
}

const THREE: &str = r#"
default_profile = "shop"
dashboard_profiles = ["shop", "resale"]
[profiles.shop]
base_url = "https://shop.example"
token = "sentinel-shop"
[profiles.resale]
base_url = "https://resale.example"
token = "sentinel-resale"
[profiles.lab]
base_url = "https://lab.example"
token = "sentinel-lab"
"#;

/// `proxydash …` with the config file at `config` and the state in `state`; its status,
/// standard output and standard error.
fn run_in(
    config: &std::path::Path,
    state: &std::path::Path,
    args: &[&str],
) -> (i32, String, String) {
    let out = proxydash()
        .env("PROXYDASH_CONFIG", config)
        .env("XDG_STATE_HOME", state)
        .env_remove("PROXYDASH_PROFILE")
        .env("PROXYDASH_LOG", "off")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Issue 37 item 12: `config show` rejected `--all-profiles` (with a tip about
/// `--log-file`) and never said `dashboard_profiles`.
#[test]
fn config_show_reads_every_profile_and_names_dashboard_profiles() {
    let path = config_file("all-profiles-show", THREE);
    let state = path.with_file_name("state");
    let (code, one, err) = run_in(&path, &state, &["config", "show"]);
    assert_eq!(code, 0, "{err}");
    assert!(one.contains("profile = shop\n"), "{one}");
    assert!(one.contains("dashboard_profiles = shop, resale"), "{one}");
    for args in [
        &["config", "show", "--all-profiles"][..],
        &["--all-profiles", "config", "show"],
    ] {
        let (code, out, err) = run_in(&path, &state, args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(!err.contains("--log-file"), "{err}");
        for (name, url) in [
            ("lab", "https://lab.example"),
            ("resale", "https://resale.example"),
            ("shop", "https://shop.example"),
        ] {
            assert!(out.contains(&format!("profile = {name}\n")), "{out}");
            assert!(out.contains(&format!("base_url = {url}\n")), "{out}");
        }
        assert!(!out.contains("sentinel"), "{out}");
    }
    // `--profile` repeated before `config` shows those two, not the first alone.
    let (code, out, err) = run_in(
        &path,
        &state,
        &["--profile", "lab", "--profile", "resale", "config", "show"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("profile = lab\n") && out.contains("profile = resale\n"),
        "{out}"
    );
    assert!(!out.contains("profile = shop\n"), "{out}");
    // Both ways of choosing at once is still a mistake.
    let (code, _, err) = run_in(
        &path,
        &state,
        &["config", "show", "--all-profiles", "--profile", "lab"],
    );
    assert_eq!(code, 2, "{err}");
}

/// Issue 37 item 12: `alerts` rejected `--all-profiles`, and `alerts unsilence ID` without
/// `--profile` said `no silence` when another profile held it.
#[test]
fn alerts_read_every_profile_and_unsilence_finds_the_profile_that_holds_it() {
    let path = config_file("all-profiles-alerts", THREE);
    let state = path.with_file_name("state");
    let _ = std::fs::remove_dir_all(&state);
    std::fs::create_dir_all(state.join("proxydash")).unwrap();
    // Open alerts as `watch` leaves them: a suspended service on lab and on resale.
    let alert = |service: u64| {
        format!(
            r#"{{"key": {{"rule": "service_status", "subject": {{"service": {service}}}}},
                "level": "critical", "message": "Service {service} is Suspended",
                "first_seen": "2026-01-01T00:00:00Z", "last_seen": "2026-01-01T00:01:00Z",
                "resolved": null}}"#
        )
    };
    std::fs::write(
        state.join("proxydash/alerts.json"),
        format!(
            r#"{{"accounts": {{"https://lab.example lab": [{}], "https://resale.example resale": [{}, {}]}}}}"#,
            alert(1001),
            alert(1001),
            alert(2002)
        ),
    )
    .unwrap();
    let run = |args: &[&str]| run_in(&path, &state, args);

    // A silence on lab only; found without naming lab.
    let (code, out, err) = run(&[
        "alerts",
        "silence",
        "--profile",
        "lab",
        "--rule",
        "credit_low",
        "--for",
        "2h",
        "--reason",
        "top-up",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let lab_only = serde_json::from_str::<serde_json::Value>(&out).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();

    for args in [
        &["alerts", "--all-profiles"][..],
        &["--all-profiles", "alerts"],
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(!err.contains("--log-file"), "{err}");
        assert!(out.starts_with("PROFILE"), "{out}");
        for row in ["lab ", "resale "] {
            assert!(
                out.lines()
                    .any(|l| l.starts_with(row) && l.contains("service_status:1001")),
                "{row}: {out}"
            );
        }
        assert!(out.contains("service_status:2002"), "{out}");
        assert!(
            out.lines()
                .any(|l| l.starts_with("lab ") && l.contains(&lab_only)),
            "{out}"
        );
    }
    // The default profile (shop) has no alerts of its own.
    let (code, out, _) = run(&["alerts"]);
    assert_eq!((code, out.trim()), (0, "No open alerts."));
    let (code, out, _) = run(&["alerts", "--all-profiles", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let profiles: Vec<&str> = v["alerts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["profile"].as_str().unwrap())
        .collect();
    assert_eq!(profiles.len(), 3, "{out}");
    assert_eq!(v["silences"][0]["profile"], "lab", "{out}");
    // `--profile` repeated before `alerts` lists those profiles, not the first alone.
    let (_, out, _) = run(&["--profile", "shop", "--profile", "resale", "alerts"]);
    assert!(out.contains("service_status:2002"), "{out}");

    let (code, out, err) = run(&["alerts", "unsilence", &lab_only]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("in profile lab"), "{out}");
    let (code, _, err) = run(&["alerts", "unsilence", &lab_only]);
    assert_eq!(code, 4, "{err}");
    assert!(err.contains("no silence"), "{err}");

    // One silence on every profile: unsilence without a profile names them and ends none.
    let (code, out, err) = run(&[
        "alerts",
        "--all-profiles",
        "silence",
        "--service",
        "1001",
        "--for",
        "1h",
        "--reason",
        "maintenance",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let everywhere = serde_json::from_str::<serde_json::Value>(&out).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (code, _, err) = run(&["alerts", "unsilence", &everywhere]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("lab, resale, shop"), "{err}");
    let (_, out, _) = run(&["alerts", "--all-profiles", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["silences"].as_array().unwrap().len(), 3, "{out}");
    let (code, _, err) = run(&["alerts", "unsilence", &everywhere, "--profile", "shop"]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(&["alerts", "unsilence", &everywhere, "--all-profiles"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("in profiles lab, resale"), "{out}");

    // An acknowledgement over every profile lands where the alert is open.
    let (code, out, err) = run(&["alerts", "--all-profiles", "ack", "service_status:1001"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("in profiles lab, resale"), "{out}");
    let (code, _, err) = run(&["alerts", "--all-profiles", "ack", "service_status:9999"]);
    assert_eq!(code, 4, "{err}");
    let _ = std::fs::remove_dir_all(&state);
}

/// Issue 46.7: a profile named `ESC ] 0 ; … BEL` (a TOML quoted key) retitled the
/// terminal through `alerts`' messages, printed raw. Names from the config file are
/// cleaned like server text: the sequence goes whole, the rest of the name stays.
#[test]
fn a_hostile_profile_name_reaches_no_terminal_through_alerts() {
    let path = config_file(
        "hostile-profile",
        "[profiles.\"shop\\u001b]0;pwned\\u0007\\u202e\"]\nbase_url = \"http://127.0.0.1:9\"\ntoken = \"t\"\n",
    );
    let state = path.parent().unwrap().join("state");
    let run = |args: &[&str]| {
        let out = proxydash()
            .env("XDG_STATE_HOME", &state)
            .arg("--config")
            .arg(&path)
            .args(args)
            .output()
            .unwrap();
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.code(), all)
    };
    let mut said = String::new();
    let (code, out) = run(&[
        "alerts",
        "silence",
        "--rule",
        "rate_limit",
        "--for",
        "1h",
        "--reason",
        "maint",
        "--all-profiles",
    ]);
    assert_eq!(code, Some(0), "{out}");
    said.push_str(&out);
    // `silence e197a2: rate_limit until … in profiles shop`
    let id = out
        .split_whitespace()
        .nth(1)
        .map(|w| w.trim_end_matches(':'));
    for args in [
        &["alerts", "--all-profiles"][..],
        &["alerts", "--all-profiles", "--json"],
        &["alerts", "unsilence", "no-such-silence"],
    ] {
        said.push_str(&run(args).1);
    }
    let (code, out) = run(&["alerts", "unsilence", id.unwrap_or_default()]);
    assert_eq!(code, Some(0), "{out}");
    said.push_str(&out);
    assert!(said.contains("in profile shop"), "{said}");
    for bad in ['\u{1b}', '\u{7}', '\u{202e}'] {
        assert!(!said.contains(bad), "{bad:?} in:\n{said:?}");
    }
    assert!(!said.contains("]0;pwned"), "{said:?}");
}
