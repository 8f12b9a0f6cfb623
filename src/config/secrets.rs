//! `token_command` / `password_command`: a secret printed by another program (`pass`,
//! `op read`, `gopass show -o`), so it never has to sit in the config file.
//!
//! The command runs through `sh -c` with no input. Its standard output, without the final
//! line break, is the secret. A failing command is reported by its profile and key and
//! how it ended ([`CommandFailed`]: `profiles.resale.token_command failed: exit 1`),
//! never with its text or its output, either of which may hold the secret. Its error
//! output is never shown either (`auth error: token SECRETtok… expired` would put the
//! secret on the screen, and no rule can tell every secret from a word): `doctor` says
//! how it ended, how many bytes it wrote to standard error, and to run it by hand.
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

use super::ConfigError;
use super::file::Profile;
use crate::api::Credentials;
use crate::options::Options;
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

/// Why a command gave no secret. Its words name the profile and key
/// (`profiles.resale.token_command failed: exit 1`), never the command's text nor its
/// output: a command may embed its secret, and may print it (to either stream) on its
/// way to failing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandFailed {
    /// `profiles.<profile>.token_command`, or `password_command`.
    pub key: String,
    /// What happened: `failed: exit 1`, `did not finish within 10 s …`.
    pub why: String,
    /// How many bytes it wrote to standard error (read up to [`MAX_OUTPUT`], one more
    /// meaning "more"): never what they say, which may hold the secret.
    pub error_bytes: usize,
}

impl std::fmt::Display for CommandFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.key, self.why)
    }
}

/// The config file's key of a profile's command: `profiles.resale.token_command`
/// (`what`: `token` or `password`), the profile's name quoted where TOML would need it.
pub fn key(profile: &str, what: &str) -> String {
    let bare = !profile.is_empty()
        && profile
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    let name = if bare {
        profile.to_owned()
    } else {
        format!("{profile:?}")
    };
    format!("profiles.{name}.{what}_command")
}

pub fn run(command: &str, key: &str) -> Result<Secret, CommandFailed> {
    run_with(command, key, Limits::default())
}

pub fn run_with(command: &str, key: &str, limits: Limits) -> Result<Secret, CommandFailed> {
    let failed = |why: String, error_bytes: usize| CommandFailed {
        key: key.to_owned(),
        why,
        error_bytes,
    };
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
        .map_err(|e| failed(format!("cannot be run: {e}"), 0))?;
    let _running = Running::register(&child);
    let stdout = capped_reader(child.stdout.take());
    let stderr = capped_reader(child.stderr.take());
    let deadline = Instant::now() + limits.timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() >= deadline => {
                kill(&mut child);
                return Err(failed(
                    format!(
                        "did not finish within {} s and was stopped (raise command_timeout in the profile if it needs longer)",
                        limits.timeout.as_secs()
                    ),
                    0,
                ));
            }
            Ok(None) if stdout.is_full() => {
                kill(&mut child);
                return Err(failed(too_much(), 0));
            }
            Ok(None) => thread::sleep(Duration::from_millis(10)),
            Err(e) => {
                kill(&mut child);
                return Err(failed(format!("could not be waited for: {e}"), 0));
            }
        }
    };
    // The shell has ended; whatever it started in the background may still hold the pipes.
    kill_group(&child);
    let out = stdout.join();
    let err = stderr.join();
    // Before the status: a command cut off at the cap dies of SIGPIPE.
    if out.len() > MAX_OUTPUT {
        return Err(failed(too_much(), err.len()));
    }
    if !status.success() {
        let ended = match (status.code(), signal_of(&status)) {
            (Some(code), _) => format!("exit {code}"),
            (None, Some(signal)) => format!("killed by signal {signal}"),
            (None, None) => status.to_string(),
        };
        return Err(failed(format!("failed: {ended}"), err.len()));
    }
    let text = String::from_utf8(out)
        .map_err(|_| failed("printed something that is not text".into(), err.len()))?;
    let secret = text.strip_suffix('\n').unwrap_or(&text);
    let secret = secret.strip_suffix('\r').unwrap_or(secret);
    if secret.is_empty() {
        return Err(failed("printed nothing".into(), err.len()));
    }
    Ok(Secret::new(secret))
}

#[cfg(unix)]
fn signal_of(status: &std::process::ExitStatus) -> Option<i32> {
    std::os::unix::process::ExitStatusExt::signal(status)
}

#[cfg(not(unix))]
fn signal_of(_: &std::process::ExitStatus) -> Option<i32> {
    None
}

fn too_much() -> String {
    format!(
        "printed more than {} KiB, which is no secret; it was stopped",
        MAX_OUTPUT >> 10
    )
}

/// The credentials of profile `profile` (`p`): the flags and environment first, as a
/// unit, then the profile's token, `token_command`, login and password or
/// `password_command`.
pub(super) fn credentials(
    cli: &Options,
    p: &Profile,
    profile: &str,
) -> Result<Credentials, ConfigError> {
    let c = &cli.connection.account;
    let separator = p.separator.clone().unwrap_or_else(|| ":".into());
    let login = |login: &str, password: Secret| Credentials::Login {
        login: login.to_owned(),
        password,
        separator: separator.clone(),
    };
    let limits = Limits {
        timeout: p
            .command_timeout
            .map_or(DEFAULT_TIMEOUT, |s| Duration::from_secs(s.max(1))),
    };
    let secret_of = |command: &str, what: &str, placeholder: Credentials| {
        let key = key(profile, what);
        run_with(command, &key, limits).map_err(|failed| ConfigError::Command {
            placeholder: Box::new(placeholder),
            failed,
        })
    };
    // Flags and environment first, as a unit.
    if let Some(token) = c.token.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        return Ok(Credentials::Token(Secret::new(token)));
    }
    if let Some(name) = &c.login {
        return match &c.password {
            Some(pw) => Ok(login(name, Secret::new(pw.as_str()))),
            None => Err(ConfigError::Invalid(
                "--login needs a password: set PROXYDASH_PASSWORD (or --password)".into(),
            )),
        };
    }
    // Then the profile.
    if let Some(token) = p.token.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        return Ok(Credentials::Token(Secret::new(token)));
    }
    if let Some(command) = &p.token_command {
        let placeholder = Credentials::Token(Secret::new(""));
        return Ok(Credentials::Token(secret_of(
            command,
            "token",
            placeholder,
        )?));
    }
    if let Some(name) = &p.login {
        if let Some(pw) = &p.password {
            return Ok(login(name, Secret::new(pw.as_str())));
        }
        if let Some(command) = &p.password_command {
            let placeholder = login(name, Secret::new(""));
            return Ok(login(name, secret_of(command, "password", placeholder)?));
        }
        return Err(ConfigError::Invalid(format!(
            "profile {profile} has a login but no password or password_command"
        )));
    }
    Err(ConfigError::NoAccount)
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
#[path = "secrets_tests.rs"]
mod tests;
