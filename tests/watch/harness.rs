//! The harness of the `watch` tests (this file and `watch_probe`): `proxydash watch` as a
//! child process against an in-process sandbox, its two streams read line by line, each
//! wait for a named line bounded by [`LIMIT`].

use crate::support::lines;
use proxydash::sandbox::{Sandbox, SandboxConfig, SandboxHandle};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// The longest any line is waited for: reached only when something hangs.
pub(crate) const LIMIT: Duration = Duration::from_secs(60);

pub(crate) fn dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("proxydash-watch-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("config")).unwrap();
    dir
}

pub(crate) struct Watch {
    pub(crate) child: Child,
    pub(crate) out: Receiver<String>,
    pub(crate) err: Receiver<String>,
    /// Every line read so far, by stream.
    pub(crate) outs: Vec<String>,
    pub(crate) errs: Vec<String>,
}

impl Watch {
    pub(crate) fn start(dir: &Path, sandbox: &SandboxHandle, args: &[&str]) -> Self {
        let mut command = Command::new(env!("CARGO_BIN_EXE_proxydash"));
        command
            // The sandbox is the test's own: the user's figure lets sweeps go at once.
            .args([
                "--base-url",
                &sandbox.base_url(),
                "--refresh",
                "1",
                "--max-rpm",
                "6000",
            ])
            .arg("watch")
            .args(args)
            .env("PROXYDASH_TOKEN", sandbox.token())
            .env("XDG_STATE_HOME", dir.join("state"))
            .env("XDG_CONFIG_HOME", dir.join("config"))
            .env_remove("PROXYDASH_PROFILE")
            .env_remove("PROXYDASH_CONFIG")
            .env_remove("PROXYDASH_LOGIN")
            .env_remove("PROXYDASH_PASSWORD")
            .env("PROXYDASH_LOG", "off");
        Self::spawn(command)
    }

    /// `watch ARGS…` on the accounts of the config file in `dir` (none from the
    /// environment).
    pub(crate) fn configured(dir: &Path, args: &[&str]) -> Self {
        let mut command = Command::new(env!("CARGO_BIN_EXE_proxydash"));
        command
            .arg("watch")
            .args(args)
            .env("XDG_STATE_HOME", dir.join("state"))
            .env("XDG_CONFIG_HOME", dir.join("config"))
            .env_remove("PROXYDASH_PROFILE")
            .env_remove("PROXYDASH_CONFIG")
            .env_remove("PROXYDASH_TOKEN")
            .env_remove("PROXYDASH_BASE_URL")
            .env("PROXYDASH_LOG", "off");
        Self::spawn(command)
    }

    pub(crate) fn spawn(mut command: Command) -> Self {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let out = lines(child.stdout.take().unwrap());
        let err = lines(child.stderr.take().unwrap());
        Self {
            child,
            out,
            err,
            outs: Vec::new(),
            errs: Vec::new(),
        }
    }

    /// Reads both streams until a line of standard error satisfies `want`.
    pub(crate) fn wait_err(&mut self, want: impl Fn(&str) -> bool) -> String {
        let give_up = Instant::now() + LIMIT;
        loop {
            self.outs.extend(self.out.try_iter());
            match self.err.recv_timeout(Duration::from_millis(50)) {
                Ok(line) => {
                    self.errs.push(line.clone());
                    if want(&line) {
                        return line;
                    }
                }
                Err(_) if Instant::now() < give_up => {}
                Err(_) => panic!(
                    "no such line on standard error; got:\n{}",
                    self.errs.join("\n")
                ),
            }
        }
    }

    /// Reads both streams until a line of standard output satisfies `want`.
    pub(crate) fn wait_out(&mut self, want: impl Fn(&str) -> bool) -> String {
        let give_up = Instant::now() + LIMIT;
        loop {
            self.errs.extend(self.err.try_iter());
            match self.out.recv_timeout(Duration::from_millis(50)) {
                Ok(line) => {
                    self.outs.push(line.clone());
                    if want(&line) {
                        return line;
                    }
                }
                Err(_) if Instant::now() < give_up => {}
                Err(_) => panic!(
                    "no such line on standard output; got:\n{}\nand on standard error:\n{}",
                    self.outs.join("\n"),
                    self.errs.join("\n")
                ),
            }
        }
    }

    /// Waits for `n` sweeps more than seen so far.
    pub(crate) fn sweeps(&mut self, n: usize) {
        for _ in 0..n {
            self.wait_err(|l| l.contains("sweep done"));
        }
    }

    /// The exit status, polled every 50 ms; a panic if the process is still running
    /// after [`LIMIT`] (it hangs), so the test fails instead of waiting forever.
    pub(crate) fn exit_status(&mut self) -> std::process::ExitStatus {
        let give_up = Instant::now() + LIMIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < give_up, "still running after {LIMIT:?}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// SIGTERM, then the exit status and the rest of both streams.
    pub(crate) fn terminate(mut self) -> (i32, Vec<String>, Vec<String>) {
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let status = self.exit_status();
        self.outs.extend(self.out.iter());
        self.errs.extend(self.err.iter());
        let (outs, errs) = (
            std::mem::take(&mut self.outs),
            std::mem::take(&mut self.errs),
        );
        (status.code().unwrap_or(-1), outs, errs)
    }
}

/// A test that fails before [`Watch::terminate`] must not leave the process running.
impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(crate) async fn sandbox() -> SandboxHandle {
    Sandbox::start(SandboxConfig::ephemeral()).await.unwrap()
}

pub(crate) fn scrape(addr: &str) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "GET /metrics HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    stream.read_to_string(&mut text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    body.to_owned()
}
