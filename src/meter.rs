//! A bound on one thread's heap and stack: the global allocator of the binary counts what
//! a metered thread (the `--jq` filter's, [`crate::script::jq`]) holds, and ends the
//! process with a message and status 1 when it goes past its bound.
//!
//! jaq (the jq interpreter) has no limits of its own: `[range(1e12)]` fills memory at
//! about 300 MB a second, and a filter that calls itself without end (`def f: 1 + f; f`)
//! overflows the stack, which aborts the process. A thread that calls [`limit`] is
//! watched by the allocator on every allocation it makes:
//!
//! - the bytes it has allocated and not freed (past `bytes`: "used more than 1 GiB");
//! - how deep its stack is (past `stack`: "recursed too deep"), read as the distance from
//!   where [`limit`] was called to the allocating frame (a recursion that never
//!   allocates is not seen, but jaq's evaluation allocates at every level).
//!
//! Every other thread is only looked at (one thread-local read per allocation) and never
//! stopped. The bound stops the process with `_exit` after writing the message with
//! `write(2)`: the allocator may not allocate or take a lock, and the output the filter
//! printed before is on standard output already (what sat in its buffer is lost). The
//! binary installs [`Metered`] (`src/main.rs`); without it (the library's tests) the
//! bounds are not enforced.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting the allocations of the metered thread.
pub struct Metered;

/// What is counted on the current thread; all zero (not metered) but on a thread that
/// called [`limit`].
struct Meter {
    /// Bytes allocated and not freed since [`limit`] (may go below zero: the thread frees
    /// what another allocated).
    live: Cell<isize>,
    /// The most `live` may reach; 0: the thread is not metered.
    bytes: Cell<isize>,
    /// The address of a local of the frame that called [`limit`].
    base: Cell<usize>,
    /// The deepest the stack may grow below `base`.
    stack: Cell<usize>,
    /// What is said past `bytes`, and past `stack`.
    said: Cell<(&'static str, &'static str)>,
}

thread_local! {
    // `const` and without a destructor: reading it never allocates, as the allocator needs.
    static METER: Meter = const {
        Meter {
            live: Cell::new(0),
            bytes: Cell::new(0),
            base: Cell::new(0),
            stack: Cell::new(0),
            said: Cell::new(("", "")),
        }
    };
}

/// Meters the calling thread from now on: at most `bytes` allocated and not freed, and a
/// stack at most `stack` bytes deeper than this call's frame; `said` is the line written
/// past each (`proxydash: …\n`).
pub fn limit(bytes: usize, stack: usize, said: (&'static str, &'static str)) {
    let here = 0u8;
    METER.with(|m| {
        m.live.set(0);
        m.said.set(said);
        m.base.set(&here as *const u8 as usize);
        m.stack.set(stack);
        m.bytes.set(isize::try_from(bytes).unwrap_or(isize::MAX));
    });
}

/// Stops metering the calling thread.
pub fn unlimit() {
    METER.with(|m| m.bytes.set(0));
}

/// Counts `delta` bytes for the current thread; past a bound, ends the process.
#[inline]
fn count(delta: isize) {
    let _ = METER.try_with(|m| {
        let bytes = m.bytes.get();
        if bytes == 0 {
            return;
        }
        let live = m.live.get().saturating_add(delta);
        m.live.set(live);
        if delta > 0 && live > bytes {
            stop(m.said.get().0);
        }
        let here = 0u8;
        let depth = m.base.get().saturating_sub(&here as *const u8 as usize);
        if depth > m.stack.get() {
            stop(m.said.get().1);
        }
    });
}

/// Writes `message` to standard error and ends the process with status 1, without
/// allocating, locking or unwinding.
fn stop(message: &str) -> ! {
    // SAFETY: write(2) and _exit(2) are async-signal-safe system calls; the buffer is valid
    // for its length.
    unsafe {
        libc::write(2, message.as_ptr().cast(), message.len());
        libc::_exit(1)
    }
}

fn size(layout: Layout) -> isize {
    isize::try_from(layout.size()).unwrap_or(isize::MAX)
}

// SAFETY: every call is passed to `System` unchanged; the counting only reads and writes
// this thread's cells.
unsafe impl GlobalAlloc for Metered {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is passed on.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            count(size(layout));
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is passed on.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            count(size(layout));
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is passed on.
        unsafe { System.dealloc(ptr, layout) };
        count(-size(layout));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract is passed on.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            count(isize::try_from(new_size).unwrap_or(isize::MAX) - size(layout));
        }
        p
    }
}
