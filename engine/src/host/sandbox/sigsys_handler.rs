//! The host's SIGSYS handler: the seccomp filter answers a refused call with a trap (SIGSYS)
//! rather than killing the host outright, so that the host can write which call it was on its
//! stderr ([`super::refusal_line`]) before it dies of SIGSYS all the same.
//!
//! The trap skips the call: it never runs, whatever the handler does. The handler is installed
//! before the filter, and the filter refuses any later change of SIGSYS's handling, so a bot
//! can neither replace it nor ignore the signal. A bot can block SIGSYS (and the C library
//! blocks every signal while it starts a thread or a process): the kernel then resets SIGSYS to
//! its default action and the host dies of it without running the handler, so without a line.

use super::refusal_line::{write_line, LINE_CAPACITY};
use std::ffi::c_void;

/// `si_code` of a SIGSYS sent by seccomp (`SYS_SECCOMP`, asm-generic/siginfo.h); a SIGSYS the
/// bot sent itself has another.
const SI_CODE_SECCOMP: i32 = 1;

/// Where the kernel puts the refused call's number in a SIGSYS `siginfo_t` on 64-bit Linux
/// (`_sigsys._syscall`: after three `int`s, padding to 8 bytes and the call's address). The
/// libc crate has no accessor for it with glibc, so it is read at its offset.
const SYSCALL_NUMBER_OFFSET: usize = 24;

const _: () = assert!(std::mem::size_of::<libc::siginfo_t>() == 128);

/// Installs the handler; the filter must come after (it refuses this call).
pub fn install() -> Result<(), super::ConfineError> {
    // SAFETY: a zeroed sigaction is a valid value to fill in; sigaction reads it.
    let installed = unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = report_and_die as *const () as libc::sighandler_t;
        // On the thread's alternate stack where it has one: a refused call made deep in a
        // recursion must still be reported.
        action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
        // Nothing else interrupts the few instructions between the report and the death.
        libc::sigfillset(&mut action.sa_mask);
        libc::sigaction(libc::SIGSYS, &action, std::ptr::null_mut())
    };
    if installed == 0 {
        Ok(())
    } else {
        Err(super::ConfineError::last_os("SIGSYS handler"))
    }
}

/// Restores SIGSYS's default action, where the filter could not be installed after all.
pub fn uninstall() {
    // SAFETY: as in `install`, with the default action.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = libc::SIG_DFL;
        libc::sigaction(libc::SIGSYS, &action, std::ptr::null_mut());
    }
}

/// Writes the refusal line for a trap of the filter, then dies of SIGSYS. Async-signal-safe:
/// only system calls and the formatting of [`write_line`].
extern "C" fn report_and_die(_: libc::c_int, info: *mut libc::siginfo_t, _: *mut c_void) {
    // SAFETY: the kernel passes a full siginfo_t to a handler installed with SA_SIGINFO.
    let (code, number) = unsafe {
        let number = info.cast::<u8>().add(SYSCALL_NUMBER_OFFSET).cast::<i32>();
        ((*info).si_code, number.read_unaligned())
    };
    if code == SI_CODE_SECCOMP {
        let mut line = [0u8; LINE_CAPACITY];
        let len = write_line(number, &mut line);
        // SAFETY: write(2) from a buffer on this stack. A short or failed write (the bot
        // closed or filled its stderr) only loses the line.
        unsafe { libc::write(libc::STDERR_FILENO, line.as_ptr().cast(), len) };
    }
    die_of_sigsys()
}

fn die_of_sigsys() -> ! {
    // SAFETY: sigaction, pthread_sigmask, raise and abort are async-signal-safe, and each
    // reads only the locals passed to it.
    unsafe {
        let mut default: libc::sigaction = std::mem::zeroed();
        default.sa_sigaction = libc::SIG_DFL;
        // Under the filter this call is itself refused, while SIGSYS is blocked (as it is
        // during its own handler): the kernel then resets SIGSYS to its default action and
        // the host dies of it, here.
        libc::sigaction(libc::SIGSYS, &default, std::ptr::null_mut());
        // Reached only without the filter, where the reset took effect.
        let mut sigsys: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut sigsys);
        libc::sigaddset(&mut sigsys, libc::SIGSYS);
        libc::pthread_sigmask(libc::SIG_UNBLOCK, &sigsys, std::ptr::null_mut());
        libc::raise(libc::SIGSYS);
        libc::abort()
    }
}
