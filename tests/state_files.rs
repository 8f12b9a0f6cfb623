//! Issue 38 items 1 and 2, as a user (or someone who can write the state folder) meets
//! them: the real binary against the sandbox on 127.0.0.1, with a FIFO, a link to
//! `/dev/zero` or a corrupt file where a state file should be.
//!
//! Each test waits for the line that says what happened (with a generous limit that only
//! a hang reaches), never for a stretch of quiet.

use crate::support::lines;
use proxydash::sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// The longest anything is waited for: reached only when something hangs.
const LIMIT: Duration = Duration::from_secs(60);

fn dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("proxydash-state38-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("config")).unwrap();
    std::fs::create_dir_all(dir.join("state/proxydash")).unwrap();
    dir
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo reads the path given.
    assert_eq!(
        unsafe { libc::mkfifo(c.as_ptr(), 0o600) },
        0,
        "{}",
        path.display()
    );
}

fn command(dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_proxydash"));
    command
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env_remove("PROXYDASH_PROFILE")
        .env_remove("PROXYDASH_CONFIG")
        .env_remove("PROXYDASH_LOGIN")
        .env_remove("PROXYDASH_PASSWORD")
        .env("PROXYDASH_LOG", "off");
    command
}

struct Running {
    child: Child,
    err: Receiver<String>,
    seen: Vec<String>,
}

impl Running {
    fn watch(dir: &Path, sandbox: &SandboxHandle) -> Self {
        let mut child = command(dir)
            .args(["--base-url", &sandbox.base_url(), "--refresh", "1", "watch"])
            .env("PROXYDASH_TOKEN", sandbox.token())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let err = lines(child.stderr.take().unwrap());
        Self {
            child,
            err,
            seen: Vec::new(),
        }
    }

    /// Waits for a line of standard error that holds every one of `words`.
    fn wait_for(&mut self, words: &[&str]) -> String {
        let give_up = Instant::now() + LIMIT;
        loop {
            match self.err.recv_timeout(Duration::from_millis(50)) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if words.iter().all(|w| line.contains(w)) {
                        return line;
                    }
                }
                Err(_) if Instant::now() < give_up => {}
                Err(_) => panic!("no line with {words:?}; got:\n{}", self.seen.join("\n")),
            }
        }
    }

    /// SIGTERM, then the exit status (polled; a panic when it is still running at the
    /// limit).
    fn terminate(&mut self) -> std::process::ExitStatus {
        // SAFETY: kill(2) on our own child.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let give_up = Instant::now() + LIMIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                Instant::now() < give_up,
                "SIGTERM did not end it within {LIMIT:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Item 1: a FIFO at `alerts.json`, `service_types.json` or the log used to hang `watch`
/// before it printed anything, and SIGTERM did nothing. Now each is refused at once with
/// a line naming it, the watch goes on without it, and SIGTERM ends it.
#[tokio::test(flavor = "multi_thread")]
async fn a_fifo_at_a_state_file_is_refused_and_sigterm_ends_watch() {
    let sandbox = Sandbox::start(SandboxConfig::ephemeral()).await.unwrap();
    for name in ["alerts.json", "service_types.json", "proxydash.log"] {
        let dir = dir(&name.replace('.', "-"));
        mkfifo(&dir.join("state/proxydash").join(name));
        let mut watch = Running::watch(&dir, &sandbox);
        watch.wait_for(&[name, "FIFO"]);
        watch.wait_for(&["watching"]);
        let status = watch.terminate();
        assert!(status.code() == Some(0), "{name}: {status:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Item 1: a link to `/dev/zero` at a state file is never read (it grew a process to
/// gigabytes before).
#[test]
fn a_link_to_dev_zero_at_a_state_file_is_refused_unread() {
    let dir = dir("zero");
    std::os::unix::fs::symlink("/dev/zero", dir.join("state/proxydash/alerts.json")).unwrap();
    let out = command(&dir).arg("alerts").output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("alerts.json is a symbolic link"),
        "{stderr}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("No open alerts."));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 2: one alert with a bad level used to lose every open alert ("No open alerts.").
/// The good ones are listed, the one with the bad level too (its level unknown until the
/// next sweep), and the file is moved aside with a line saying so.
#[test]
fn a_corrupt_alert_file_keeps_every_alert_it_can_read() {
    let dir = dir("corrupt");
    let alert = |service: u64, level: &str| {
        format!(
            r#"{{"key": {{"rule": "service_status", "subject": {{"service": {service}}}}},
                "level": "{level}", "message": "Service {service} is Suspended",
                "first_seen": "2026-01-01T00:00:00Z", "last_seen": "2026-01-01T00:01:00Z",
                "resolved": null}}"#
        )
    };
    let text = format!(
        r#"{{"accounts": {{"https://reseller.example default": [{}, {}, {}]}}}}"#,
        alert(1001, "warn"),
        alert(1002, "severe"),
        alert(1003, "critical"),
    );
    let path = dir.join("state/proxydash/alerts.json");
    std::fs::write(&path, &text).unwrap();
    let out = command(&dir).arg("alerts").output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    for id in ["1001", "1002", "1003"] {
        assert!(stdout.contains(&format!("service_status:{id}")), "{stdout}");
    }
    assert!(
        stderr.contains("alerts.json: 1 entry could not be read")
            && stderr.contains("alerts.json.bad"),
        "{stderr}"
    );
    let bad = path.with_file_name("alerts.json.bad");
    assert_eq!(std::fs::read_to_string(bad).unwrap(), text);
    // What was kept is in the file again: the next reader finds it, without a warning.
    let again = command(&dir).arg("alerts").output().unwrap();
    assert!(
        again.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert!(String::from_utf8_lossy(&again.stdout).contains("service_status:1002"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 1 for `budget.json`, which every command-line call reads first: a FIFO there hung
/// the call, a link to `/dev/zero` grew it to gigabytes. Each is refused unread, with a
/// line naming the file, and the command goes on and answers.
#[tokio::test(flavor = "multi_thread")]
async fn a_fifo_or_a_device_at_the_budget_file_is_refused_and_the_command_answers() {
    let sandbox = Sandbox::start(SandboxConfig {
        listen: ([127, 0, 0, 1], 0).into(),
        ..SandboxConfig::default()
    })
    .await
    .unwrap();
    for (name, plant) in [
        ("fifo", (|p: &Path| mkfifo(p)) as fn(&Path)),
        ("zero", |p: &Path| {
            std::os::unix::fs::symlink("/dev/zero", p).unwrap();
        }),
    ] {
        let dir = dir(&format!("budget-{name}"));
        let budget = dir.join("state/proxydash/budget.json");
        plant(&budget);
        let mut child = command(&dir)
            .args(["--base-url", &sandbox.base_url(), "credit", "--json"])
            .env("PROXYDASH_TOKEN", sandbox.token())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            assert!(started.elapsed() < LIMIT, "{name}: still running");
            std::thread::sleep(Duration::from_millis(20));
        };
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(status.code(), Some(0), "{name}: {stderr}");
        assert!(stderr.contains("budget.json"), "{name}: {stderr}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("credit"),
            "{name}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
