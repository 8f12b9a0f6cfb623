//! The command line for scripts, run as a user runs it: the real binary as a child process
//! against the in-process sandbox on loopback. Every subcommand in both output forms, the
//! exit status, and every error path (422, 400, 401, the network, bad usage, the refusals
//! that protect money and secrets).

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use proxydash::api::{ApiClient, ClientConfig, Credentials, IpListFormat, IpListType};
use proxydash::sandbox::{FaultSpec, RecordedRequest, Sandbox, SandboxConfig, SandboxHandle};
use serde_json::Value;
use std::path::PathBuf;
use std::process::Stdio;
use tokio::io::AsyncWriteExt;
use tokio::process::Command;

#[path = "script/accounts.rs"]
mod accounts;
#[path = "script/budget.rs"]
mod budget;
#[path = "script/codes.rs"]
mod codes;
#[path = "script/jq.rs"]
mod jq;
#[path = "script/limits.rs"]
mod limits;
#[path = "script/probe.rs"]
mod probe;
#[path = "script/reads.rs"]
mod reads;
#[path = "script/usage.rs"]
mod usage;
#[path = "script/writes.rs"]
mod writes;

/// What a finished run left.
#[derive(Debug)]
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Run {
    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", self.stdout))
    }

    #[track_caller]
    fn ok(self) -> Self {
        assert_eq!(self.code, Some(0), "{self:#?}");
        assert!(self.stderr.is_empty(), "{self:#?}");
        self
    }

    #[track_caller]
    fn fails(self, code: i32, stderr_has: &str) -> Self {
        assert_eq!(self.code, Some(code), "{self:#?}");
        assert!(
            self.stderr.contains(stderr_has),
            "{stderr_has:?} not in {self:#?}"
        );
        assert!(self.stdout.is_empty(), "{self:#?}");
        self
    }
}

async fn sandbox() -> SandboxHandle {
    Sandbox::start(SandboxConfig {
        listen: ([127, 0, 0, 1], 0).into(),
        ..SandboxConfig::default()
    })
    .await
    .expect("sandbox starts")
}

/// The binary with nothing of this environment that could change what it does or where
/// it connects; standard input is empty (not a terminal).
fn proxydash() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_proxydash"));
    for var in [
        "PROXYDASH_BASE_URL",
        "PROXYDASH_TOKEN",
        "PROXYDASH_LOGIN",
        "PROXYDASH_PASSWORD",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
    ] {
        cmd.env_remove(var);
    }
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    cmd
}

async fn finish(cmd: &mut Command, input: Option<&str>) -> Run {
    if input.is_some() {
        cmd.stdin(Stdio::piped());
    }
    let mut child = cmd.spawn().expect("the binary starts");
    if let Some(input) = input {
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(input.as_bytes()).await.unwrap();
    }
    let out = child.wait_with_output().await.unwrap();
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `proxydash --base-url <sandbox> --token <token> ARGS…`
async fn run(sb: &SandboxHandle, args: &[&str]) -> Run {
    run_with_input(sb, args, None).await
}

async fn run_with_input(sb: &SandboxHandle, args: &[&str], input: Option<&str>) -> Run {
    let mut cmd = proxydash();
    cmd.args(["--base-url", &sb.base_url(), "--token", sb.token()])
        .args(args);
    finish(&mut cmd, input).await
}

fn requests(sb: &SandboxHandle, method: &str) -> Vec<RecordedRequest> {
    sb.requests()
        .into_iter()
        .filter(|r| r.method == method)
        .collect()
}

fn body(r: &RecordedRequest) -> Value {
    serde_json::from_str(&r.body).unwrap_or_else(|e| panic!("{e}: {}", r.body))
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("proxydash-script-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The line of a table whose first cell is `key`.
fn row<'a>(table: &'a str, key: &str) -> &'a str {
    table
        .lines()
        .find(|l| l.split_whitespace().next() == Some(key))
        .unwrap_or_else(|| panic!("no row {key} in:\n{table}"))
}

/// A loopback port nothing listens on.
async fn closed_port() -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    listener.local_addr().unwrap()
    // Dropped here: nothing listens on it any more.
}
