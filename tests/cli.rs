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
