//! The terminal: entering and leaving the dashboard's mode, and making sure it is always
//! left — on quit, on an error return, on a panic (the hook restores before the message is
//! printed) and on SIGINT/SIGTERM/SIGHUP (the run loop turns those into a quit).
//!
//! Restoring is idempotent, so the panic hook, the drop guard and the normal path may all
//! call it without harm.
//!
//! Ctrl-Z ([`suspend`]): in raw mode the terminal sends it as a key instead of stopping
//! the job, so the run loop hands it here: the terminal is restored, the process group is
//! stopped with SIGTSTP as the terminal itself would have done (so the shell's `jobs`,
//! `fg` and `bg` work as usual), and when it is continued the dashboard's mode (raw,
//! alternate screen, bracketed paste, the mouse if it was on) is entered again; the caller
//! then redraws everything. A process whose group is orphaned (no shell to continue it)
//! is not stopped by the kernel: it simply carries on.
//!
//! A panic restores the terminal only when it happens on the thread that owns it (see
//! `install_panic_hook`): a panicking background task must not take the screen
//! away from a dashboard that keeps running.
//!
//! A SIGTSTP sent from outside (`kill -TSTP`) is caught (`dashboard::signals`) and takes
//! the same way, so it too leaves a usable shell behind.

pub mod input;
pub mod quiet;

use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use crossterm::{cursor, execute};
use quiet::QuietBackend;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io::{self, Stdout, Write};
use std::sync::atomic::{AtomicBool, Ordering};

static ACTIVE: AtomicBool = AtomicBool::new(false);
static MOUSE: AtomicBool = AtomicBool::new(false);

pub type Tui = Terminal<QuietBackend<CrosstermBackend<Stdout>>>;

/// Puts the terminal in raw mode on the alternate screen and returns it. The guard restores
/// the terminal when dropped.
pub fn enter(mouse: bool) -> io::Result<(Tui, Guard)> {
    install_panic_hook();
    let guard = Guard(());
    take(mouse)?;
    let terminal = Terminal::new(QuietBackend::new(CrosstermBackend::new(io::stdout())))?;
    Ok((terminal, guard))
}

/// Raw mode, the alternate screen, bracketed paste, a hidden cursor, and the mouse if asked.
fn take(mouse: bool) -> io::Result<()> {
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    MOUSE.store(mouse, Ordering::SeqCst);
    let mut out = io::stdout();
    execute!(
        out,
        EnterAlternateScreen,
        EnableBracketedPaste,
        cursor::Hide
    )?;
    if mouse {
        execute!(out, EnableMouseCapture)?;
    }
    Ok(())
}

/// Gives the terminal back as the shell had it (for one of your actions in the
/// foreground); [`take_back`] takes it again.
pub fn give() {
    input::PAUSED.store(true, Ordering::SeqCst);
    restore();
}

/// Takes the terminal again after [`give`], as it was taken at start.
pub fn take_back() -> io::Result<()> {
    let taken = take(MOUSE.load(Ordering::SeqCst));
    input::PAUSED.store(false, Ordering::SeqCst);
    taken
}

/// One of your actions in the foreground ([`crate::run::Options::foreground`]): the
/// terminal as the shell had it, for the command.
pub fn give_to_command(_terminal: &mut Tui) -> io::Result<()> {
    give();
    Ok(())
}

/// The command ended: the terminal taken again, and everything redrawn.
pub fn take_from_command(terminal: &mut Tui) -> io::Result<()> {
    take_back()?;
    let size = terminal.size()?;
    terminal.resize(ratatui::layout::Rect::new(0, 0, size.width, size.height))
}

/// Ctrl-Z (see the module docs): restores the terminal, stops this process group like the
/// terminal's own suspend character would, and takes the terminal again once continued.
/// The caller must redraw everything (`Terminal::clear`).
pub fn suspend() -> io::Result<()> {
    let mouse = MOUSE.load(Ordering::SeqCst);
    restore();
    stop_group();
    take(mouse)
}

/// Sends SIGTSTP to this process group, as the tty driver does for the suspend character,
/// with the signal's default action (stop) in place for that moment: the dashboard
/// catches SIGTSTP otherwise (a `kill -TSTP` from outside comes to the loop, which gives
/// the terminal back first), and its catcher would only be called again. The default
/// action keeps the kernel's rule that a group with no shell to continue it (orphaned)
/// is not stopped. Execution continues here after SIGCONT, and the catcher is put back.
///
/// The signal is acted on before `kill` returns: it goes to the group's processes by
/// their main thread, which is the thread calling this (the run loop's), and a signal for
/// the calling thread is handled on the way back from the system call.
fn stop_group() {
    // SAFETY: sigaction with valid, zero-initialised structs (SIG_DFL, no flags, an empty
    // mask); kill only sends a signal, 0 naming this process's own group.
    unsafe {
        let mut default: libc::sigaction = std::mem::zeroed();
        default.sa_sigaction = libc::SIG_DFL;
        libc::sigemptyset(&mut default.sa_mask);
        let mut caught: libc::sigaction = std::mem::zeroed();
        let swapped = libc::sigaction(libc::SIGTSTP, &default, &mut caught) == 0;
        libc::kill(0, libc::SIGTSTP);
        if swapped {
            libc::sigaction(libc::SIGTSTP, &caught, std::ptr::null_mut());
        }
    }
}

/// Ctrl-Z, as the key event raw mode turns it into.
pub fn is_suspend_key(key: &crossterm::event::KeyEvent) -> bool {
    use crossterm::event::{KeyCode, KeyModifiers};
    key.modifiers.contains(KeyModifiers::CONTROL)
        && matches!(key.code, KeyCode::Char('z') | KeyCode::Char('Z'))
}

/// Leaves raw mode and the alternate screen, shows the cursor, stops mouse capture.
pub fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let mut out = io::stdout();
    if MOUSE.load(Ordering::SeqCst) {
        let _ = execute!(out, DisableMouseCapture);
    }
    let _ = execute!(
        out,
        DisableBracketedPaste,
        LeaveAlternateScreen,
        cursor::Show
    );
    let _ = disable_raw_mode();
    let _ = out.flush();
}

/// Restores the terminal when dropped, so an early `?` return cannot leave it broken.
pub struct Guard(());

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// The thread that owns the terminal (the one that entered it).
static UI_THREAD: std::sync::OnceLock<std::thread::ThreadId> = std::sync::OnceLock::new();

/// A panic on the thread that owns the terminal ends the program: restore first, then let
/// the previous hook print the message on the normal screen. A panic on another thread
/// while the dashboard runs is a task's (tokio catches it and the fetcher answers its
/// request with an error): the terminal stays as it is, and the message goes to the log
/// instead of over the dashboard.
fn install_panic_hook() {
    let _ = UI_THREAD.set(std::thread::current().id());
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let on_ui_thread = UI_THREAD.get() == Some(&std::thread::current().id());
        if on_ui_thread || !ACTIVE.load(Ordering::SeqCst) {
            restore();
            previous(info);
        } else {
            tracing::error!(
                thread = std::thread::current().name().unwrap_or("?"),
                "panic: {info}"
            );
        }
    }));
}
