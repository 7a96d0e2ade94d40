//! Stop requests from outside: SIGTERM, SIGINT and SIGHUP, as a batch system, Ctrl-C or a
//! closed terminal send them. Once one arrives, the engine starts no new game, abandons the
//! games in flight without recording them (a game cut short says nothing about its bots), and
//! exits non-zero; `agon tournament resume` plays what is left.
//!
//! The handler only stores the signal's number; everything else reads it with [`requested`].

use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;

/// How often a wait for a bot looks for a stop request when nothing else wakes it.
pub const CHECK_INTERVAL: Duration = Duration::from_millis(20);

/// The signals that ask the engine to stop. A host process killed by one of these (or by
/// SIGKILL) that the engine did not send was killed from outside: see
/// [`crate::fault::FaultCause::External`].
pub const STOP_SIGNALS: [i32; 3] = [libc::SIGTERM, libc::SIGINT, libc::SIGHUP];

static REQUESTED: AtomicI32 = AtomicI32::new(0);

extern "C" fn note(signal: libc::c_int) {
    // Only an atomic store: async-signal-safe.
    REQUESTED.store(signal, Ordering::SeqCst);
}

/// Replaces the default action of the stop signals (die at once, leaving games half played)
/// with a note the engine reads between moves and while it waits for a bot.
pub fn install() -> std::io::Result<()> {
    for signal in STOP_SIGNALS {
        // SAFETY: a plain sigaction with a handler that only stores an atomic; no SA_RESTART,
        // so a blocking wait in the thread that takes the signal returns early.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = note as extern "C" fn(libc::c_int) as usize;
            libc::sigemptyset(&mut action.sa_mask);
            if libc::sigaction(signal, &action, std::ptr::null_mut()) != 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
    }
    Ok(())
}

/// The stop signal received, if any.
pub fn requested() -> Option<i32> {
    match REQUESTED.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

/// The conventional exit status of a program stopped by `signal`.
pub fn exit_status(signal: i32) -> i32 {
    128 + signal
}

/// The signal's name, for messages.
pub fn name(signal: i32) -> &'static str {
    match signal {
        libc::SIGTERM => "SIGTERM",
        libc::SIGINT => "SIGINT",
        libc::SIGHUP => "SIGHUP",
        libc::SIGKILL => "SIGKILL",
        _ => "a signal",
    }
}
