//! Stop requests from outside: SIGTERM, SIGINT and SIGHUP, as a batch system, Ctrl-C or a
//! closed terminal send them. Once one arrives, the engine starts no new game, abandons the
//! games in flight without recording them (a game cut short says nothing about its bots), and
//! exits non-zero; `agon tournament resume` plays what is left.
//!
//! A ladder asks for the gentler behaviour with [`finish_games_in_flight`]: the first stop
//! signal only stops new games ([`stop_asked`]), and the games in flight are played to their
//! end; a second signal abandons them as above.
//!
//! The handler only stores the signal's number and counts, and writes one byte to a pipe;
//! everything else reads them with [`requested`] and [`stop_asked`], and a loop that would
//! otherwise sleep until something happens is woken by [`subscribe`] (an idle server looks at
//! nothing on a timer).

use crossbeam_channel::{Receiver, Sender};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};
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
/// The write end of the pipe the handler wakes [`subscribe`]'s listener with (-1: none yet).
static WAKE: AtomicI32 = AtomicI32::new(-1);

extern "C" fn note(signal: libc::c_int) {
    // Only atomic stores and write(2): async-signal-safe.
    REQUESTED.store(signal, Ordering::SeqCst);
    RECEIVED.fetch_add(1, Ordering::SeqCst);
    let wake = WAKE.load(Ordering::SeqCst);
    if wake >= 0 {
        // SAFETY: write(2) of one byte from a local; errno is saved and restored, since the
        // interrupted code may be about to read it.
        unsafe {
            let errno = *libc::__errno_location();
            let byte = signal as u8;
            libc::write(wake, std::ptr::addr_of!(byte).cast(), 1);
            *libc::__errno_location() = errno;
        }
    }
}

/// From now on the first stop signal lets the games in flight finish (see the module's doc);
/// only a second one abandons them.
pub fn finish_games_in_flight() {
    FINISH_IN_FLIGHT.store(true, Ordering::SeqCst);
}

/// Replaces the default action of the stop signals (die at once, leaving games half played)
/// with a note the engine reads between moves and while it waits for a bot.
pub fn install() -> std::io::Result<()> {
    install_signals(&STOP_SIGNALS)
}

/// [`install`] for the signals named (a server that reloads on SIGHUP leaves that one out).
pub fn install_signals(signals: &[i32]) -> std::io::Result<()> {
    wake_pipe()?;
    for &signal in signals {
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

/// Those waiting for a stop signal (see [`subscribe`]).
static SUBSCRIBERS: Mutex<Vec<Sender<i32>>> = Mutex::new(Vec::new());

/// A channel that receives every stop signal from now on (and one at once if a stop was asked
/// already), so that a loop can sleep until there is something to do rather than look at the
/// flags on a timer. Needs [`install`] for signals to reach it.
pub fn subscribe() -> Receiver<i32> {
    let (tx, rx) = crossbeam_channel::unbounded();
    let mut subscribers = SUBSCRIBERS.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(signal) = stop_asked() {
        let _ = tx.send(signal);
    }
    subscribers.push(tx);
    rx
}

/// The pipe the handler writes to, and the thread that passes each byte on to the subscribers;
/// made once.
fn wake_pipe() -> std::io::Result<()> {
    static MADE: OnceLock<Result<(), i32>> = OnceLock::new();
    let made = MADE.get_or_init(|| {
        let (read, write) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)
            .map_err(|e| e.raw_os_error())?;
        // The handler must never block on a full pipe: the listener reads as fast as signals
        // come, and a byte lost to a full pipe still leaves the flags set.
        rustix::fs::fcntl_setfl(&write, rustix::fs::OFlags::NONBLOCK)
            .map_err(|e| e.raw_os_error())?;
        std::thread::Builder::new()
            .name("stop-signals".into())
            .spawn(move || pass_on(read))
            .map_err(|e| e.raw_os_error().unwrap_or(libc::EAGAIN))?;
        WAKE.store(std::os::fd::IntoRawFd::into_raw_fd(write), Ordering::SeqCst);
        Ok(())
    });
    made.map_err(std::io::Error::from_raw_os_error)
}

fn pass_on(read: std::os::fd::OwnedFd) {
    let mut byte = [0u8; 1];
    loop {
        match rustix::io::read(&read, &mut byte) {
            Ok(0) => return,
            Ok(_) => {}
            Err(rustix::io::Errno::INTR) => continue,
            Err(_) => return,
        }
        let signal = REQUESTED.load(Ordering::SeqCst);
        let mut subscribers = SUBSCRIBERS.lock().unwrap_or_else(|p| p.into_inner());
        subscribers.retain(|tx| tx.send(signal).is_ok());
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
