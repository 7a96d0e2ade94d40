//! A PID namespace of the host's own. `unshare(CLONE_NEWPID)` moves only the children a process
//! makes afterwards, so the host forks once it is confined: the child, pid 1 of the new
//! namespace, goes on to load and serve the bot, and sees no other process at all; the parent,
//! the process the engine started, stays outside as its supervisor and runs no team code. It
//! waits for the child and ends the same way (the same exit code, or the same signal), so the
//! engine, which reaps the supervisor, classifies the bot's death as before.
//!
//! The kernel drops the signals a namespace's pid 1 sends itself without a handler: `abort`
//! (and Rust's abort on a failed allocation) then ends in SIGSEGV rather than SIGABRT, which
//! `host::process::classify_death` allows for. A bot can no longer kill itself with a signal.
//!
//! The bot's process reports its pid as the engine sees it (its supervisor learns it from
//! `fork`), so that the engine reads the right CPU clock and stop state, and stops and
//! continues that process alone, through a pidfd: the supervisor sleeps through every call.

use super::ConfineError;
use std::os::fd::OwnedFd;

/// Forks the confined host. Returns, in the child that serves the bot, its pid as the engine
/// sees it; the parent supervises and never returns.
pub fn split() -> Result<u32, ConfineError> {
    let pipe = || {
        rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)
            .map_err(ConfineError::call("supervisor pipe"))
    };
    let (read, write) = pipe()?;
    // Held open by the bot's process only: its end tells the supervisor, which then reaps it.
    let (ended, alive) = pipe()?;
    // SAFETY: the host is single-threaded here (no plugin is loaded yet), so the child may
    // run any code after fork.
    match unsafe { libc::fork() } {
        -1 => Err(ConfineError::last_os("forking the bot's process")),
        0 => {
            drop(write);
            drop(ended);
            // Open for as long as this process lives.
            std::mem::forget(alive);
            bot_side(read)
        }
        child => {
            drop(read);
            drop(alive);
            supervise(child, write, ended)
        }
    }
}

/// The child: dies with its supervisor, and learns its pid outside the namespace.
fn bot_side(from_supervisor: OwnedFd) -> Result<u32, ConfineError> {
    rustix::process::set_parent_process_death_signal(Some(rustix::process::Signal::KILL))
        .map_err(ConfineError::call("parent-death signal"))?;
    let mut pid = [0u8; 4];
    rustix::io::read(&from_supervisor, &mut pid)
        .ok()
        .filter(|&n| n == pid.len())
        .ok_or(ConfineError::NoPidFromSupervisor)?;
    // The supervisor keeps its end open while it lives: a hang-up now means it died before
    // the death signal above was set, which then never comes.
    let mut fds = [rustix::event::PollFd::new(
        &from_supervisor,
        rustix::event::PollFlags::empty(),
    )];
    let zero = rustix::event::Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    let _ = rustix::event::poll(&mut fds, Some(&zero));
    if fds[0].revents().contains(rustix::event::PollFlags::HUP) {
        return Err(ConfineError::SupervisorEnded);
    }
    Ok(u32::from_le_bytes(pid))
}

/// The parent: tells the child its pid, lets go of the engine's pipes (the child's alone now,
/// so that its death closes them), waits for it and ends as it did.
///
/// It waits on `ended` first, a pipe whose other end only the child holds, and reaps the child
/// once that closes: a parent blocked in `waitpid` is woken each time its child stops or
/// continues, which the engine does around every call.
fn supervise(child: libc::pid_t, to_child: OwnedFd, ended: OwnedFd) -> ! {
    let _ = rustix::io::write(&to_child, &(child as u32).to_le_bytes());
    for fd in [3, 4, super::notifier::HANDOVER_FD] {
        // SAFETY: closing descriptors this process holds and no longer uses.
        unsafe { libc::close(fd) };
    }
    let mut byte = [0u8; 1];
    while matches!(
        rustix::io::read(&ended, &mut byte),
        Ok(1..) | Err(rustix::io::Errno::INTR)
    ) {}
    let mut status = 0;
    loop {
        // SAFETY: waitpid on our own child, writing only to the local.
        let waited = unsafe { libc::waitpid(child, &mut status, 0) };
        if waited == child {
            break;
        }
        if std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            // SAFETY: _exit ends this process at once.
            unsafe { libc::_exit(3) };
        }
    }
    // `to_child` stays open until this process ends: the child's sign that it lives.
    end_as(status)
}

/// Ends this process as a child with wait status `status` ended.
fn end_as(status: libc::c_int) -> ! {
    if libc::WIFSIGNALED(status) {
        let signal = libc::WTERMSIG(status);
        // SAFETY: the default action for the signal, unblocked, then the signal itself: this
        // process (not pid 1 of any namespace) dies of it. No core: RLIMIT_CORE is 0.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, signal);
            libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
            libc::raise(signal);
        }
    }
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        3
    };
    // SAFETY: _exit ends this process at once, without running the host's atexit handlers.
    unsafe { libc::_exit(code) }
}
