//! The terminal: entering and leaving the dashboard's mode, and making sure it is always
//! left — on quit, on an error return, on a panic (the hook restores before the message is
//! printed) and on SIGINT/SIGTERM/SIGHUP (the run loop turns those into a quit).
//!
//! Restoring is idempotent, so the panic hook, the drop guard and the normal path may all
//! call it without harm.

use crate::quiet::QuietBackend;
use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use crossterm::{cursor, execute};
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
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    MOUSE.store(mouse, Ordering::SeqCst);
    let guard = Guard(());
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
    let terminal = Terminal::new(QuietBackend::new(CrosstermBackend::new(io::stdout())))?;
    Ok((terminal, guard))
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

fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
}
