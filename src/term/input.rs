//! Terminal input for the run loop, read on a thread of its own, a watch for the
//! terminal going away, and the signals that end or suspend the program ([`signals`]).
//!
//! Why not crossterm's `EventStream`: once the terminal is gone (its window closed, the
//! SSH connection dropped), crossterm 0.29's reader retries forever, at full speed, on a
//! read that gives 0 bytes or EIO — inside `event::poll` whatever its timeout, and holding
//! crossterm's global reader lock (crossterm#793; the fix, #1067, is not released).
//! `EventStream::poll_next` calls `event::poll` on the task that runs the loop, so a hangup
//! could catch the loop itself in that spin: SIGHUP was then never handled, and the
//! process stayed behind at 100% CPU. So here:
//!
//! - **the reader** is a plain thread in crossterm's blocking `event::read`, which hands
//!   each event to the loop over a channel. The loop never calls into crossterm's reader,
//!   so whatever happens to that thread, the loop still answers signals and results;
//! - **the watch** is a second thread asleep in `poll(2)` on the terminal with no events
//!   asked for, which the kernel ends only for a hangup or an error (POLLHUP, POLLERR,
//!   POLLNVAL). It reports the terminal as gone with EIO, which the dashboard turns into
//!   the exit status of a hangup (129) after restoring what it can. That also covers a
//!   dashboard that gets no SIGHUP at all (it is not the session leader and its shell does
//!   not pass the hangup on), and a reader caught in crossterm's spin: the process ends,
//!   and the spin with it.
//!
//! Idle costs nothing: both threads sleep in the kernel. Neither is ever joined; they end
//! with the process. The input outlives a profile switch, so it is made once.

use crossterm::event::Event;
use futures::Stream;
use std::io::{self, IsTerminal};
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use tokio::sync::mpsc;

/// What the loop can be told from outside the app: the terminal's events (read here) and
/// the signals (`dashboard` turns them into these).
#[derive(Debug, Clone)]
pub enum Input {
    Terminal(Event),
    /// A signal asking the program to end (SIGINT, SIGTERM, SIGHUP), by number.
    Signal(i32),
    /// SIGTSTP from outside (`kill -TSTP`): suspend, as for Ctrl-Z.
    Suspend,
}

/// Events queued between the reader and the loop; a full queue holds the reader back
/// (a paste of thousands of keys waits instead of growing memory).
const QUEUE: usize = 1024;

/// Starts the reader and the watch; the stream yields terminal events, and one error when
/// the terminal is gone or cannot be read.
pub fn spawn() -> io::Result<impl Stream<Item = io::Result<Input>> + Unpin> {
    let (tx, rx) = mpsc::channel(QUEUE);
    let terminal = Terminal::open()?;
    let watch_tx = tx.clone();
    std::thread::Builder::new()
        .name("terminal-watch".into())
        .spawn(move || {
            let gone = terminal.wait_until_gone();
            let _ = watch_tx.blocking_send(Err(gone));
        })?;
    std::thread::Builder::new()
        .name("terminal-input".into())
        .spawn(move || read_events(tx))?;
    Ok(Box::pin(futures::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|input| (input, rx))
    })))
}

/// While set, the reader reads nothing: a command of yours has the terminal (the
/// foreground actions), and its keys are its own. The reader looks at it at least every
/// [`PAUSE_CHECK`], so a key typed in that moment's window may still come here.
pub static PAUSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// How often the reader looks whether it is paused.
const PAUSE_CHECK: std::time::Duration = std::time::Duration::from_millis(50);

/// Hands every event crossterm reads to the loop, until the loop is gone or reading fails.
fn read_events(tx: mpsc::Sender<io::Result<Input>>) {
    use std::sync::atomic::Ordering;
    loop {
        if PAUSED.load(Ordering::SeqCst) {
            std::thread::sleep(PAUSE_CHECK);
            continue;
        }
        // Only read what is there, so a pause is seen between keys (a hangup's spin in
        // crossterm is the watch's to end, as before).
        match crossterm::event::poll(PAUSE_CHECK) {
            Ok(false) => continue,
            Ok(true) => {}
            Err(e) => {
                let _ = tx.blocking_send(Err(e));
                return;
            }
        }
        let input = crossterm::event::read().map(Input::Terminal);
        let failed = input.is_err();
        if tx.blocking_send(input).is_err() || failed {
            return;
        }
    }
}

/// The descriptor crossterm reads: standard input when it is a terminal, else the process's
/// terminal (`/dev/tty`), as crossterm itself chooses.
enum Terminal {
    Stdin,
    Tty(OwnedFd),
}

impl Terminal {
    fn open() -> io::Result<Self> {
        if io::stdin().is_terminal() {
            return Ok(Terminal::Stdin);
        }
        let tty = std::fs::File::options()
            .read(true)
            .write(true)
            .open("/dev/tty")?;
        Ok(Terminal::Tty(tty.into()))
    }

    fn fd(&self) -> RawFd {
        match self {
            Terminal::Stdin => io::stdin().as_raw_fd(),
            Terminal::Tty(fd) => fd.as_raw_fd(),
        }
    }

    /// Sleeps until the kernel says the terminal hung up or failed; returns that as an
    /// error the dashboard recognises (EIO, what reading a hung-up terminal gives).
    fn wait_until_gone(&self) -> io::Error {
        let mut watch = libc::pollfd {
            fd: self.fd(),
            // Nothing asked for: POLLHUP, POLLERR and POLLNVAL are reported regardless,
            // and nothing else wakes the thread.
            events: 0,
            revents: 0,
        };
        loop {
            // SAFETY: one valid pollfd for the length of the call.
            let ready = unsafe { libc::poll(&mut watch, 1, -1) };
            if ready < 0 {
                let e = io::Error::last_os_error();
                if e.kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return e;
            }
            if watch.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
                return io::Error::from_raw_os_error(libc::EIO);
            }
        }
    }
}

/// SIGINT, SIGTERM and SIGHUP as a stream of [`Input::Signal`], so the loop can restore the
/// terminal and exit with 128 + the signal's number; and SIGTSTP from outside (`kill
/// -TSTP`; the terminal's own Ctrl-Z arrives as a key in raw mode) as [`Input::Suspend`],
/// so the terminal is given back before the process stops (see `super::suspend`).
pub fn signals() -> impl futures::Stream<Item = Input> + Unpin {
    use tokio::signal::unix::{SignalKind, signal};
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    for (kind, input) in [
        (SignalKind::interrupt(), Input::Signal(2)),
        (SignalKind::terminate(), Input::Signal(15)),
        (SignalKind::hangup(), Input::Signal(1)),
        (SignalKind::from_raw(libc::SIGTSTP), Input::Suspend),
    ] {
        if let Ok(mut stream) = signal(kind) {
            let tx = tx.clone();
            tokio::spawn(async move {
                while stream.recv().await.is_some() {
                    if tx.send(input.clone()).is_err() {
                        break;
                    }
                }
            });
        }
    }
    Box::pin(futures::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|input| (input, rx))
    }))
}
