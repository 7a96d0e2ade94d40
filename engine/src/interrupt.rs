//! Stop requests from outside: SIGTERM, SIGINT and SIGHUP, as a batch system, Ctrl-C or a
//! closed terminal send them. Once one arrives, the engine starts no new game, abandons the
//! games in flight without recording them (a game cut short says nothing about its bots), and
//! exits non-zero; `agon tournament resume` plays what is left.
//!
//! A ladder asks for the gentler behaviour with [`finish_games_in_flight`]: the first stop
//! signal only stops new games ([`stop_asked`]), and the games in flight are played to their
//! end; a second signal abandons them as above.
//!
//! The handler only stores the signal's number and counts; everything else reads them with
//! [`requested`] and [`stop_asked`].

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, Ordering};
use std::time::Duration;

/// How often a wait for a bot looks for a stop request when nothing else wakes it.
pub const CHECK_INTERVAL: Duration = Duration::from_millis(20);

/// The signals that ask the engine to stop. A host process killed by one of these (or by
/// SIGKILL) that the engine did not send was killed from outside: see
/// [`crate::fault::FaultCause::External`].
pub const STOP_SIGNALS: [i32; 3] = [libc::SIGTERM, libc::SIGINT, libc::SIGHUP];

static REQUESTED: AtomicI32 = AtomicI32::new(0);
static RECEIVED: AtomicU32 = AtomicU32::new(0);
static FINISH_IN_FLIGHT: AtomicBool = AtomicBool::new(false);

extern "C" fn note(signal: libc::c_int) {
    // Only atomic stores: async-signal-safe.
    REQUESTED.store(signal, Ordering::SeqCst);
    RECEIVED.fetch_add(1, Ordering::SeqCst);
}

/// From now on the first stop signal lets the games in flight finish (see the module's doc);
/// only a second one abandons them.
pub fn finish_games_in_flight() {
    FINISH_IN_FLIGHT.store(true, Ordering::SeqCst);
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

/// The stop signal received that abandons games in flight, if any: the first one, or under
/// [`finish_games_in_flight`] the second.
pub fn requested() -> Option<i32> {
    let needed = if FINISH_IN_FLIGHT.load(Ordering::SeqCst) {
        2
    } else {
        1
    };
    (RECEIVED.load(Ordering::SeqCst) >= needed)
        .then(|| REQUESTED.load(Ordering::SeqCst))
        .filter(|&signal| signal != 0)
}

/// The stop signal received, if any, whether or not games in flight are to finish: no new
/// game may start.
pub fn stop_asked() -> Option<i32> {
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
