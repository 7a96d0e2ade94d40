//! A bot on the thread or inline host runs in agon's own process, so its `exit(0)` would end
//! agon with status 0 and no result: a script would read that as success. While a command runs,
//! an exit handler turns any exit that agon itself did not decide into a failure (status 70)
//! with a message. (A bot that calls `_exit` directly skips exit handlers; only the process
//! host, the default, contains that.)

use std::sync::atomic::{AtomicBool, Ordering};

static ARMED: AtomicBool = AtomicBool::new(false);

/// The status of an exit that agon did not decide (EX_SOFTWARE).
const UNDECIDED_EXIT_STATUS: i32 = 70;

extern "C" fn on_exit() {
    if ARMED.load(Ordering::SeqCst) {
        let message = b"agon: error: the process is exiting before agon finished (did a bot on an \
in-process host call exit?); no result was produced\n";
        // SAFETY: write(2) and _exit(2) are async-signal-safe and take no locks, so they are safe
        // in an exit handler whatever state the exiting code left behind.
        unsafe {
            libc::write(2, message.as_ptr().cast(), message.len());
            libc::_exit(UNDECIDED_EXIT_STATUS);
        }
    }
}

/// From here on, an exit not announced with [`disarm`] fails.
pub fn arm() {
    static REGISTERED: std::sync::Once = std::sync::Once::new();
    REGISTERED.call_once(|| {
        // SAFETY: registers a handler with the C runtime; the handler only reads an atomic.
        unsafe {
            libc::atexit(on_exit);
        }
    });
    ARMED.store(true, Ordering::SeqCst);
}

/// agon decided to exit (it has printed its result or its error).
pub fn disarm() {
    ARMED.store(false, Ordering::SeqCst);
}

/// Exits with `status`, as agon's own decision.
pub fn exit(status: i32) -> ! {
    disarm();
    std::process::exit(status)
}
