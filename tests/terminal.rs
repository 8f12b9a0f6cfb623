//! The real binary in a pseudo-terminal: the terminal is given back (alternate screen
//! left, cursor shown, mouse released, raw mode off) on `q`, on SIGINT, SIGTERM and
//! SIGHUP, on a panic (with the message after the restore), when the terminal itself goes
//! away, and across Ctrl-Z or `kill -TSTP` / `fg` (with a full redraw on return).
//!
//! The pty comes from `posix_openpt(3)` through the `libc` crate; the child gets the slave as
//! its controlling terminal in a session of its own. The test keeps a slave descriptor
//! too, so it can read the terminal's modes after the child has gone.

#![cfg(unix)]

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_proxydash");
const ENTER_ALT: &str = "\x1b[?1049h";
const LEAVE_ALT: &str = "\x1b[?1049l";
const SHOW_CURSOR: &str = "\x1b[?25h";
const MOUSE_ON: &str = "\x1b[?1000h";
const MOUSE_OFF: &str = "\x1b[?1000l";
const PASTE_OFF: &str = "\x1b[?2004l";
/// Generous: the debug binary starts its sandbox and draws on a busy 2-core machine.
const WAIT: Duration = Duration::from_secs(20);

struct Pty {
    /// One pseudo-terminal session at a time: a hangup test must not share the machine's
    /// ptys and process table with six other dashboards starting at once (it once waited
    /// 20 s for a hangup under a loaded full run, which never reproduced alone).
    _turn: std::sync::MutexGuard<'static, ()>,
    master: File,
    /// Kept open so the terminal's modes can be read after the child exits.
    slave: OwnedFd,
    child: Child,
    out: Vec<u8>,
    _home: PathBuf,
}

impl Pty {
    /// Runs `program args` on a new 100×30 pty, in a session of its own, with the pty as
    /// its controlling terminal.
    fn spawn(program: &str, args: &[&str], env: &[(&str, &str)]) -> Pty {
        Pty::spawn_with(program, args, env, true)
    }

    /// [`Pty::spawn`]; with `controlling` false the pty is only the child's standard
    /// input and output, so closing it sends no SIGHUP (as for a program started from a
    /// shell that does not forward the hangup to its jobs).
    fn spawn_with(program: &str, args: &[&str], env: &[(&str, &str)], controlling: bool) -> Pty {
        static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let (master, slave) = open_pty(30, 100);
        let home = std::env::temp_dir().join(format!(
            "proxydash-pty-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos()
        ));
        std::fs::create_dir_all(&home).unwrap();
        let mut command = Command::new(program);
        command
            .args(args)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("TERM", "xterm-256color")
            .env("HOME", &home)
            .env("XDG_STATE_HOME", home.join("state"))
            .env("XDG_CONFIG_HOME", home.join("config"))
            .env("PROXYDASH_CLIPBOARD", "off")
            .stdin(Stdio::from(slave.try_clone().unwrap()))
            .stdout(Stdio::from(slave.try_clone().unwrap()))
            .stderr(Stdio::from(slave.try_clone().unwrap()));
        for (k, v) in env {
            command.env(k, v);
        }
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            command.pre_exec(move || {
                if libc::setsid() < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                if controlling && libc::ioctl(0, libc::TIOCSCTTY as _, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command.spawn().expect("spawn in the pty");
        Pty {
            _turn: turn,
            master,
            slave,
            child,
            out: Vec::new(),
            _home: home,
        }
    }

    fn dashboard(args: &[&str], env: &[(&str, &str)]) -> Pty {
        let mut all = vec!["--demo", "--refresh", "0"];
        all.extend_from_slice(args);
        Pty::spawn(BIN, &all, env)
    }

    /// Reads what the child wrote, waiting up to `timeout` for something.
    fn pump(&mut self, timeout: Duration) -> bool {
        let mut fds = libc::pollfd {
            fd: self.master.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let ms = timeout.as_millis().min(i32::MAX as u128) as i32;
        // SAFETY: one valid pollfd.
        let ready = unsafe { libc::poll(&mut fds, 1, ms) };
        if ready <= 0 || fds.revents & libc::POLLIN == 0 {
            return false;
        }
        let mut buf = [0u8; 65536];
        match self.master.read(&mut buf) {
            Ok(n) if n > 0 => {
                self.out.extend_from_slice(&buf[..n]);
                true
            }
            _ => false,
        }
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.out).into_owned()
    }

    /// Waits until `needle` appears at or after byte `from`; returns where.
    fn wait_for(&mut self, needle: &str, from: usize) -> usize {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(at) = find(&self.out, needle.as_bytes(), from) {
                return at;
            }
            if Instant::now() > deadline {
                panic!(
                    "{needle:?} did not appear after byte {from} within {WAIT:?}; output:\n{:?}",
                    self.text()
                );
            }
            self.pump(Duration::from_millis(100));
        }
    }

    /// Reads until the child has written nothing for a second (it has drawn all its data).
    fn settle(&mut self) {
        let deadline = Instant::now() + WAIT;
        while self.pump(Duration::from_secs(1)) {
            assert!(Instant::now() < deadline, "the screen never settled");
        }
    }

    /// Waits for the first frame: the alternate screen, then the tab line drawn on it.
    fn first_frame(&mut self) -> usize {
        let at = self.wait_for(ENTER_ALT, 0);
        self.wait_for("Services", at);
        at
    }

    fn send(&mut self, bytes: &[u8]) {
        self.master.write_all(bytes).unwrap();
        self.master.flush().unwrap();
    }

    fn signal(&self, signal: i32) {
        // SAFETY: a signal to our own child.
        let rc = unsafe { libc::kill(self.child.id() as i32, signal) };
        assert_eq!(rc, 0);
    }

    /// Waits for the child to exit, reading its output meanwhile.
    fn exit(&mut self) -> ExitStatus {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                while self.pump(Duration::from_millis(50)) {}
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the child did not exit; output:\n{:?}", self.text());
            }
            self.pump(Duration::from_millis(50));
        }
    }

    /// Raw mode is off: the terminal echoes and reads lines again.
    fn is_cooked(&self) -> bool {
        // SAFETY: tcgetattr fills a termios for a valid descriptor.
        let mut t: libc::termios = unsafe { std::mem::zeroed() };
        let rc = unsafe { libc::tcgetattr(self.slave.as_raw_fd(), &mut t) };
        assert_eq!(rc, 0);
        t.c_lflag & libc::ICANON != 0 && t.c_lflag & libc::ECHO != 0 && t.c_lflag & libc::ISIG != 0
    }

    fn is_raw(&self) -> bool {
        let mut t: libc::termios = unsafe { std::mem::zeroed() };
        let rc = unsafe { libc::tcgetattr(self.slave.as_raw_fd(), &mut t) };
        assert_eq!(rc, 0);
        t.c_lflag & (libc::ICANON | libc::ECHO) == 0
    }
}

/// A new pty pair, both ends close-on-exec (so no other test's child inherits them, which
/// would keep a closed terminal from hanging up), the slave sized `rows`×`cols`.
fn open_pty(rows: u16, cols: u16) -> (File, OwnedFd) {
    let check = |rc: libc::c_int, what: &str| {
        assert!(rc >= 0, "{what}: {}", std::io::Error::last_os_error());
        rc
    };
    // SAFETY: plain calls on descriptors opened here; the name buffer is large enough and
    // ptsname_r NUL-terminates it.
    unsafe {
        let master = check(
            libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC),
            "posix_openpt",
        );
        check(libc::grantpt(master), "grantpt");
        check(libc::unlockpt(master), "unlockpt");
        let mut name = [0 as libc::c_char; 128];
        check(
            libc::ptsname_r(master, name.as_mut_ptr(), name.len()),
            "ptsname_r",
        );
        let slave = check(
            libc::open(
                name.as_ptr(),
                libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC,
            ),
            "open the slave",
        );
        let size = libc::winsize {
            ws_row: rows,
            ws_col: cols,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        check(libc::ioctl(slave, libc::TIOCSWINSZ, &size), "TIOCSWINSZ");
        (File::from_raw_fd(master), OwnedFd::from_raw_fd(slave))
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self._home);
    }
}

fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| i + from)
}

/// The restore sequences after `from`, in the order `term::restore` writes them.
fn assert_restored(pty: &mut Pty, from: usize, mouse: bool) -> usize {
    let leave = pty.wait_for(LEAVE_ALT, from);
    let paste = pty.wait_for(PASTE_OFF, from);
    assert!(
        paste < leave,
        "bracketed paste is turned off before leaving"
    );
    let cursor = pty.wait_for(SHOW_CURSOR, leave);
    if mouse {
        let off = pty.wait_for(MOUSE_OFF, from);
        assert!(off < leave, "the mouse is released before leaving");
    }
    cursor
}

#[test]
fn q_restores_the_terminal_and_exits_0() {
    let mut pty = Pty::dashboard(&[], &[]);
    let at = pty.first_frame();
    assert!(pty.is_raw(), "the dashboard runs in raw mode");
    pty.send(b"q");
    let status = pty.exit();
    assert_restored(&mut pty, at, false);
    assert_eq!(status.code(), Some(0), "{}", pty.text());
    assert!(pty.is_cooked(), "raw mode is off after exit");
}

#[test]
fn the_mouse_is_released_on_quit() {
    let mut pty = Pty::dashboard(&["--mouse"], &[]);
    let at = pty.first_frame();
    pty.wait_for(MOUSE_ON, at);
    pty.send(b"q");
    let status = pty.exit();
    assert_restored(&mut pty, at, true);
    assert_eq!(status.code(), Some(0));
    assert!(pty.is_cooked());
}

#[test]
fn sigint_sigterm_and_sighup_restore_and_exit_128_plus_the_signal() {
    for (signal, code) in [
        (libc::SIGINT, 130),
        (libc::SIGTERM, 143),
        (libc::SIGHUP, 129),
    ] {
        let mut pty = Pty::dashboard(&["--mouse"], &[]);
        let at = pty.first_frame();
        pty.signal(signal);
        let status = pty.exit();
        assert_restored(&mut pty, at, true);
        assert_eq!(status.code(), Some(code), "signal {signal}: {}", pty.text());
        assert!(pty.is_cooked(), "signal {signal}: raw mode is off");
    }
}

#[test]
fn a_panic_restores_first_then_prints_and_fails() {
    let mut pty = Pty::dashboard(&["--mouse"], &[("PROXYDASH_DEBUG_PANIC", "1")]);
    let at = pty.first_frame();
    let status = pty.exit();
    let restored = assert_restored(&mut pty, at, true);
    let message = pty.wait_for("a deliberate panic after the first frame", at);
    assert!(
        message > restored,
        "the panic message comes after the restore sequences:\n{:?}",
        pty.text()
    );
    assert!(!status.success());
    assert_eq!(status.code(), Some(101), "{}", pty.text());
    assert!(pty.is_cooked());
}

/// A panic in a background task (tokio catches it) leaves the dashboard and its terminal
/// alone: no restore, no message over the screen, `q` still works; the log has it.
#[test]
fn a_panic_in_a_background_task_leaves_the_terminal_alone() {
    let mut pty = Pty::dashboard(&[], &[("PROXYDASH_DEBUG_PANIC", "task")]);
    let at = pty.first_frame();
    let log = pty._home.join("state/proxydash/proxydash.log");
    let deadline = Instant::now() + WAIT;
    while !std::fs::read_to_string(&log).is_ok_and(|l| l.contains("a deliberate panic")) {
        assert!(Instant::now() < deadline, "the panic is not in the log");
        pty.pump(Duration::from_millis(100));
    }
    assert!(pty.is_raw());
    pty.send(b"2");
    pty.wait_for("Products", at);
    pty.send(b"q");
    let status = pty.exit();
    assert_restored(&mut pty, at, false);
    assert_eq!(status.code(), Some(0), "{}", pty.text());
    // Everything the program wrote is read now: the terminal was left once, by `q`, and
    // the panic was never printed over the screen.
    let leaves = pty.text().matches(LEAVE_ALT).count();
    assert_eq!(leaves, 1, "{}", pty.text());
    assert!(find(&pty.out, b"panicked", 0).is_none(), "{}", pty.text());
}

/// The terminal goes away (the emulator's window closed): the kernel hangs up the session
/// and the dashboard ends with 129 instead of spinning on a dead terminal.
#[test]
fn a_closed_terminal_ends_the_program() {
    hang_up(Pty::dashboard(&[], &[]));
}

/// The same with no SIGHUP at all (the pty is not the dashboard's controlling terminal):
/// the dead terminal alone must end it. crossterm's reader spins forever on a terminal
/// that is gone (crossterm#793), so this is what `term::input` watches for.
#[test]
fn a_closed_terminal_ends_the_program_without_a_sighup() {
    let args = ["--demo", "--refresh", "0"];
    hang_up(Pty::spawn_with(BIN, &args, &[], false));
}

/// Closes both ends of the test's pty once the dashboard is idle (so no redraw meets the
/// dead terminal first: only the input side can notice) and expects exit status 129
/// within [`WAIT`].
fn hang_up(mut pty: Pty) {
    pty.first_frame();
    pty.settle();
    let Pty {
        master,
        slave,
        child,
        ..
    } = &mut pty;
    drop(std::mem::replace(
        slave,
        File::open("/dev/null").unwrap().into(),
    ));
    drop(std::mem::replace(master, File::open("/dev/null").unwrap()));
    let deadline = Instant::now() + WAIT;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "still running after the hangup");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(129), "{status:?}");
}

/// `kill -TSTP` from outside, under a job-control shell: caught, so the terminal is given
/// back before the job stops (an uncaught one would leave the shell in raw mode), and
/// `fg` brings the dashboard back whole.
#[test]
fn sigtstp_from_outside_restores_before_stopping() {
    // The shell runs `fg` only once the test has looked at the stopped job's terminal (the
    // file `$1` appears): otherwise `fg` may take the terminal back to raw mode before the
    // test reads it, and the check races the shell.
    let go = std::env::temp_dir().join(format!("proxydash-fg-{}", std::process::id()));
    let _ = std::fs::remove_file(&go);
    let script = r#"set -m; "$0" --demo --refresh 0; until [ -e "$1" ]; do sleep 0.02; done; fg >/dev/null; echo "exit=$?""#;
    let go_arg = go.to_str().unwrap();
    let mut pty = Pty::spawn(
        "bash",
        &["--norc", "--noprofile", "-c", script, BIN, go_arg],
        &[],
    );
    let at = pty.first_frame();
    let shell = pty.child.id();
    let children = std::fs::read_to_string(format!("/proc/{shell}/task/{shell}/children"))
        .expect("the shell's children");
    let dashboard: i32 = children.split_whitespace().next().unwrap().parse().unwrap();
    // SAFETY: a signal to our own grandchild.
    assert_eq!(unsafe { libc::kill(dashboard, libc::SIGTSTP) }, 0);
    let restored = assert_restored(&mut pty, at, false);
    let stopped = pty.wait_for("Stopped", restored);
    assert!(
        pty.is_cooked(),
        "the shell has its terminal back while the job is stopped"
    );
    std::fs::write(&go, b"").unwrap();
    let back = pty.wait_for(ENTER_ALT, stopped);
    pty.wait_for("Services", back);
    assert!(pty.is_raw());
    pty.send(b"q");
    let status = pty.exit();
    pty.wait_for("exit=0", back);
    assert_eq!(status.code(), Some(0), "{}", pty.text());
    let _ = std::fs::remove_file(&go);
}

/// Ctrl-Z under a job-control shell: the terminal is restored, the job stops, `fg`
/// continues it, and the dashboard takes the terminal again and redraws everything.
#[test]
fn ctrl_z_suspends_and_fg_resumes_with_a_full_redraw() {
    let script = r#"set -m; "$0" --demo --refresh 0 --mouse; fg >/dev/null; echo "exit=$?""#;
    let mut pty = Pty::spawn("bash", &["--norc", "--noprofile", "-c", script, BIN], &[]);
    let at = pty.first_frame();
    pty.wait_for(MOUSE_ON, at);
    pty.send(b"\x1a");
    let restored = assert_restored(&mut pty, at, true);
    let stopped = pty.wait_for("Stopped", restored);
    // `fg` continues it: the dashboard's mode again, the mouse again, and a whole frame.
    let back = pty.wait_for(ENTER_ALT, stopped);
    pty.wait_for(MOUSE_ON, back);
    let clear = pty.wait_for("\x1b[2J", back);
    pty.wait_for("Services", clear);
    pty.wait_for("Products", clear);
    assert!(pty.is_raw(), "raw mode is back");
    pty.send(b"q");
    let status = pty.exit();
    assert_restored(&mut pty, back, true);
    pty.wait_for("exit=0", back);
    assert_eq!(status.code(), Some(0), "{}", pty.text());
    assert!(pty.is_cooked());
}

/// `--demo` reads and writes none of the user's state files (issue 13): its sandbox is
/// new on each start, so its history, alerts and throttles are worth nothing after it,
/// and the user's must not see them. A demo that has loaded and drawn its data, then quit,
/// leaves the state directory as it found it (the log aside) and creates no history file.
#[test]
fn the_demo_leaves_the_users_state_files_alone() {
    let state = std::env::temp_dir().join(format!("proxydash-demo-state-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&state);
    let dir = state.join("proxydash");
    std::fs::create_dir_all(&dir).unwrap();
    let alerts = r#"{"accounts":{}}"#;
    let throttles = r#"{"accounts":{}}"#;
    std::fs::write(dir.join("alerts.json"), alerts).unwrap();
    std::fs::write(dir.join("throttle.json"), throttles).unwrap();
    let mut pty = Pty::dashboard(&[], &[("XDG_STATE_HOME", state.to_str().unwrap())]);
    let at = pty.first_frame();
    // The seed's services on screen: the start-up sweep was answered (and recorded).
    pty.wait_for("Active", at);
    pty.settle();
    pty.send(b"q");
    assert_eq!(pty.exit().code(), Some(0), "{}", pty.text());
    let mut left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name != "proxydash.log")
        .collect();
    left.sort();
    assert_eq!(left, ["alerts.json", "throttle.json"], "{}", dir.display());
    assert_eq!(
        std::fs::read_to_string(dir.join("alerts.json")).unwrap(),
        alerts
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("throttle.json")).unwrap(),
        throttles
    );
    let _ = std::fs::remove_dir_all(&state);
}

/// Issue 38 item 3: `iplist ID` on a terminal used to strip escapes and bells but let a
/// served username's CR-LF forge a line of its own (`FAKE:…` at the start of a line) and
/// U+202E reach the terminal. On a terminal each entry is one line without control or
/// bidi characters; into a pipe the list keeps its exact bytes.
#[test]
fn iplist_on_a_terminal_is_one_clean_line_per_entry_and_exact_into_a_pipe() {
    use proxydash::sandbox::{Sandbox, SandboxConfig};
    let hostile = "pd1001\r\nFAKE: account locked, call +1 555 0100 \u{202e}exe.txt";
    let mut seed: serde_json::Value =
        serde_json::from_str(include_str!("../assets/seed.json")).unwrap();
    for s in seed["services"].as_array_mut().unwrap() {
        if s["id"] == 1001 {
            s["username"] = hostile.into();
        }
    }
    let dir = std::env::temp_dir().join(format!("proxydash-iplist38-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let seed_path = dir.join("seed.json");
    std::fs::write(&seed_path, seed.to_string()).unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let sandbox = runtime
        .block_on(Sandbox::start(SandboxConfig {
            seed: Some(seed_path),
            ..SandboxConfig::ephemeral()
        }))
        .unwrap();
    let url = sandbox.base_url();
    let args = [
        "--base-url",
        url.as_str(),
        "iplist",
        "1001",
        "--type",
        "http-auth",
    ];
    let token = sandbox.token().to_owned();

    let mut pty = Pty::spawn(BIN, &args, &[("PROXYDASH_TOKEN", token.as_str())]);
    assert_eq!(pty.exit().code(), Some(0), "{}", pty.text());
    let shown = pty.text();
    // The terminal turns each line break into CR-LF: a lone CR would be the server's.
    let lines: Vec<&str> = shown.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert!(lines.len() > 1, "{shown:?}");
    for line in &lines {
        assert!(!line.starts_with("FAKE"), "a forged line: {shown:?}");
        assert!(
            !line.chars().any(|c| c.is_control() || c == '\u{202e}'),
            "a control or bidi character: {line:?}"
        );
    }
    assert_eq!(
        lines.iter().filter(|l| l.contains(":8080:pd1001")).count(),
        10,
        "one line per entry: {shown:?}"
    );

    let piped = Command::new(BIN)
        .args(args)
        .env("PROXYDASH_TOKEN", &token)
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("PROXYDASH_LOG", "off")
        .output()
        .unwrap();
    assert_eq!(piped.status.code(), Some(0));
    let exact = String::from_utf8(piped.stdout).unwrap();
    assert!(
        exact.contains(hostile),
        "the exact bytes into a pipe: {exact:?}"
    );
    drop(sandbox);
    let _ = std::fs::remove_dir_all(&dir);
}
