//! SIGINT and SIGTERM from the first instruction: they end the program, as their default
//! action does, until a part that stops gracefully takes them over ([`take_over`]).
//!
//! Why not simply the default: once anything registers a handler through tokio (the
//! dashboard's loop, `watch`'s stop, the sandbox's Ctrl-C), the default action is gone
//! for the whole process, and a signal that arrives while nothing listens for it yet (a
//! state file being read, a `token_command` running) would only set a flag nobody reads:
//! a `watch` stuck on a FIFO once sat ten minutes through SIGTERM. And a program started
//! with SIGINT or SIGTERM ignored (a background job, some supervisors) is still stopped
//! by them here. So [`install`] puts a handler in place first thing in `main`, and tokio
//! chains to it (it calls the handler it found before its own). Until [`take_over`] names
//! a signal, the handler puts the default action back and raises the signal again: the
//! process ends by that signal, as a shell or a supervisor expects (status 128 + n).
//! After it, the handler leaves the signal to whoever took it over; with `force` a second
//! one ends the program all the same (`watch`: a stop that hangs is not waited for).

use std::sync::atomic::{AtomicU32, Ordering};

/// The signals handled here.
pub const HANDLED: [i32; 2] = [libc::SIGINT, libc::SIGTERM];

/// One bit per signal (by its number, below 32): taken over; a second one forces the end.
static TAKEN: AtomicU32 = AtomicU32::new(0);
static FORCE: AtomicU32 = AtomicU32::new(0);
/// Per signal: whether one arrived since it was taken over.
static SEEN: AtomicU32 = AtomicU32::new(0);

fn bit(signal: i32) -> u32 {
    1u32.checked_shl(signal as u32).unwrap_or(0)
}

/// Installs the handler for SIGINT and SIGTERM. Call first thing in `main`, before any
/// other thread exists and before any file or command is touched.
pub fn install() {
    for signal in HANDLED {
        // SAFETY: a zeroed `sigaction` is valid (empty mask, no flags); the handler only
        // reads and writes atomics and calls async-signal-safe functions (`signal`,
        // `raise`).
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

/// From now on `signals` are the caller's (it stops gracefully on them, through tokio's
/// `signal` streams it registered first). With `force`, a second one of them ends the
/// program at once.
pub fn take_over(signals: &[i32], force: bool) {
    for &signal in signals {
        TAKEN.fetch_or(bit(signal), Ordering::SeqCst);
        if force {
            FORCE.fetch_or(bit(signal), Ordering::SeqCst);
        }
    }
}

extern "C" fn on_signal(signal: libc::c_int) {
    let bit = bit(signal);
    if TAKEN.load(Ordering::SeqCst) & bit != 0 {
        let before = SEEN.fetch_or(bit, Ordering::SeqCst);
        if before & bit == 0 || FORCE.load(Ordering::SeqCst) & bit == 0 {
            return;
        }
    }
    // SAFETY: `signal` and `raise` are async-signal-safe. The signal is blocked while its
    // handler runs, so the raised one is delivered, with the default action, when this
    // handler (and tokio's, which called it) returns.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}
