//! `token_command` / `password_command`: a secret printed by another program (`pass`,
//! `op read`, `gopass show -o`), so it never has to sit in the config file.
//!
//! The command runs through `sh -c` with no input. Its standard output, without the final
//! line break, is the secret; a failing command is reported with its exit status and the
//! first line of its standard error — never with its output, which may hold the secret.
//!
//! Bounded, because it is someone else's program:
//! - it has [`Limits::timeout`] to finish (`command_timeout` in the profile, 10 s by
//!   default); after that it is killed with its whole process group (`sh -c 'sleep 15'`
//!   leaves no `sleep` behind) and the error says which key to raise;
//! - its output is read up to [`MAX_OUTPUT`] (64 KiB; a token is well under 1 KiB); more
//!   is an error and the command is killed, so 400 MB of output never reaches memory or
//!   a header. Standard error is read up to the same cap, for its first line.
//!
//! This blocks the calling thread for up to the timeout: the dashboard calls it off its
//! UI task (see [`crate::dashboard`]), the command line before anything else happens.

use crate::secret::Secret;
use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The most a command may print on standard output (and what is read of its standard error).
pub const MAX_OUTPUT: usize = 64 << 10;

/// How long a command may take when the profile does not say.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a command may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            timeout: DEFAULT_TIMEOUT,
        }
    }
}

pub fn run(command: &str, what: &str) -> Result<Secret, String> {
    run_with(command, what, Limits::default())
}

pub fn run_with(command: &str, what: &str, limits: Limits) -> Result<Secret, String> {
    let mut shell = Command::new("sh");
    shell
        .arg("-c")
        .arg(command)
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .stdout(Stdio::piped());
    // Its own process group, so a timeout kills what the shell started too.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut shell, 0);
    let mut child = shell
        .spawn()
        .map_err(|e| format!("cannot run the {what} command: {e}"))?;
    let _running = Running::register(&child);
    let stdout = capped_reader(child.stdout.take());
    let stderr = capped_reader(child.stderr.take());
    let deadline = Instant::now() + limits.timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() >= deadline => {
                kill(&mut child);
                return Err(format!(
                    "the {what} command `{command}` did not finish within {} s and was stopped (raise command_timeout in the profile if it needs longer)",
                    limits.timeout.as_secs()
                ));
            }
            Ok(None) if stdout.is_full() => {
                kill(&mut child);
                return Err(too_much(what, command));
            }
            Ok(None) => thread::sleep(Duration::from_millis(10)),
            Err(e) => {
                kill(&mut child);
                return Err(format!("cannot wait for the {what} command: {e}"));
            }
        }
    };
    // The shell has ended; whatever it started in the background may still hold the pipes.
    kill_group(&child);
    let out = stdout.join();
    let err = stderr.join();
    // Before the status: a command cut off at the cap dies of SIGPIPE.
    if out.len() > MAX_OUTPUT {
        return Err(too_much(what, command));
    }
    if !status.success() {
        let stderr = String::from_utf8_lossy(&err);
        let first = stderr.lines().next().unwrap_or("").trim();
        return Err(format!(
            "the {what} command `{command}` failed ({status}){}",
            if first.is_empty() {
                String::new()
            } else {
                format!(": {first}")
            }
        ));
    }
    let text = String::from_utf8(out)
        .map_err(|_| format!("the {what} command printed something that is not text"))?;
    let secret = text.strip_suffix('\n').unwrap_or(&text);
    let secret = secret.strip_suffix('\r').unwrap_or(secret);
    if secret.is_empty() {
        return Err(format!("the {what} command `{command}` printed nothing"));
    }
    Ok(Secret::new(secret))
}

fn too_much(what: &str, command: &str) -> String {
    format!(
        "the {what} command `{command}` printed more than {} KiB, which is no {what}; it was stopped",
        MAX_OUTPUT >> 10
    )
}

/// A pipe read on a thread of its own, up to one byte past [`MAX_OUTPUT`] (which is how
/// "too much" is told apart from "exactly the cap"), then no further.
struct Capped {
    thread: thread::JoinHandle<Vec<u8>>,
    full: Arc<AtomicBool>,
}

impl Capped {
    fn is_full(&self) -> bool {
        self.full.load(Ordering::Acquire)
    }

    fn join(self) -> Vec<u8> {
        self.thread.join().unwrap_or_default()
    }
}

fn capped_reader<R: Read + Send + 'static>(pipe: Option<R>) -> Capped {
    let full = Arc::new(AtomicBool::new(false));
    let flag = full.clone();
    let thread = thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(pipe) = pipe {
            let _ = pipe.take(MAX_OUTPUT as u64 + 1).read_to_end(&mut buf);
        }
        flag.store(buf.len() > MAX_OUTPUT, Ordering::Release);
        buf
    });
    Capped { thread, full }
}

/// The process groups of the commands running now, so a program that quits while one
/// still runs (Ctrl-C during a profile switch) can stop them: [`stop_all`].
static RUNNING: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// One entry of [`RUNNING`], removed when the wait ends however it ends.
struct Running(u32);

impl Running {
    fn register(child: &Child) -> Self {
        if let Ok(mut running) = RUNNING.lock() {
            running.push(child.id());
        }
        Self(child.id())
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Ok(mut running) = RUNNING.lock() {
            running.retain(|&id| id != self.0);
        }
    }
}

/// Kills every secret command still running (with its process group): called when the
/// dashboard ends, so nothing it started outlives it.
pub fn stop_all() {
    let ids: Vec<u32> = RUNNING.lock().map(|r| r.clone()).unwrap_or_default();
    for id in ids {
        kill_group_id(id);
    }
}

fn kill(child: &mut Child) {
    kill_group(child);
    let _ = child.kill();
    let _ = child.wait();
}

fn kill_group(child: &Child) {
    kill_group_id(child.id());
}

fn kill_group_id(id: u32) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(id) {
        // SAFETY: kill(2) with a negative pid signals that process group; the group is
        // the one made for this child (`process_group(0)`), so nothing else is hit.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_without_the_final_newline_is_the_secret() {
        assert_eq!(
            run("printf 'abc def\\n'", "token").unwrap().expose(),
            "abc def"
        );
    }

    #[test]
    fn a_failing_command_says_so_without_its_output() {
        let err = run(
            "printf 'leaked-%s' secret; echo 'no such entry' >&2; exit 3",
            "token",
        )
        .unwrap_err();
        assert!(err.contains("no such entry"), "{err}");
        assert!(!err.contains("leaked-secret"), "{err}");
    }

    #[test]
    fn empty_output_is_an_error() {
        assert!(run("true", "password").is_err());
    }

    #[test]
    fn a_command_that_hangs_is_stopped_at_the_timeout() {
        let limits = Limits {
            timeout: Duration::from_millis(200),
        };
        let err = run_with("sleep 30", "token", limits).unwrap_err();
        assert!(
            err.contains("did not finish") && err.contains("command_timeout"),
            "{err}"
        );
    }

    #[test]
    fn endless_output_is_cut_and_refused() {
        // `yes` never ends by itself: only the cap (or the timeout) stops it.
        let err = run_with("yes", "token", Limits::default()).unwrap_err();
        assert!(err.contains("more than 64 KiB"), "{err}");
        let err = run("head -c 70000 /dev/zero | tr '\\0' x", "token").unwrap_err();
        assert!(err.contains("more than 64 KiB"), "{err}");
        assert_eq!(
            run("head -c 65535 /dev/zero | tr '\\0' x", "token")
                .unwrap()
                .expose()
                .len(),
            65535
        );
    }
}
