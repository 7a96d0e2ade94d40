//! The end of a host: shut down when the match is over, killed and reaped (or left to a
//! background reaper when the kernel holds it), or found dead, its death made a fault.

use super::death::{cgroup_oom_kill, classify_death};
use super::frame::{self, ReadError};
use super::ProcessHost;
use crate::fault::FaultCause;
use crate::host::sandbox::{notifier, refused_calls};
use rustix::process::Signal;
use std::os::fd::AsFd;
use std::process::ExitStatus;
use std::time::{Duration, Instant};

/// How long the engine waits for a killed host to be reaped before leaving it to a background
/// reaper (a process in an uninterruptible wait dies only when the wait ends).
const REAP_LIMIT: Duration = Duration::from_secs(2);

impl ProcessHost {
    /// Ends the host: closes its input (a well-behaved host exits), then kills what is left.
    pub(super) fn shut_down(&mut self) {
        if self.gone.is_none() {
            self.begin_shut_down();
            let until = Instant::now() + Duration::from_millis(100);
            while self.status.is_none() && Instant::now() < until {
                match self.child.try_wait() {
                    Ok(Some(status)) => self.status = Some(status),
                    _ => std::thread::sleep(Duration::from_millis(1)),
                }
            }
            self.gone = Some("the match is over".into());
        }
        self.kill();
        self.stderr.finish(Duration::from_millis(100));
    }

    /// Asks a host still in play to exit, without waiting for it: closing the request pipe
    /// ends a well-behaved host's read loop, once it runs.
    pub(super) fn begin_shut_down(&mut self) {
        if self.gone.is_none() {
            self.requests = None;
            self.resume();
        }
    }

    /// Kills the whole process group and reaps the host, waiting at most [`REAP_LIMIT`]: a
    /// host stuck in an uninterruptible wait (a frozen file system) is left to a background
    /// reaper instead of hanging the engine.
    pub(super) fn kill(&mut self) -> Option<ExitStatus> {
        if self.status.is_none() && !self.abandoned {
            // The cgroup, the group, and the host itself in case it left the group (the seccomp
            // filter refuses that, but the host must never be waited for unkilled).
            if let Some(cgroup) = &self.cgroup {
                cgroup.kill();
            }
            self.signal_group(Signal::KILL);
            let _ = self.child.kill();
            let until = Instant::now() + REAP_LIMIT;
            loop {
                match self.child.try_wait() {
                    Ok(Some(status)) => {
                        self.status = Some(status);
                        break;
                    }
                    Ok(None) if Instant::now() < until => {
                        std::thread::sleep(Duration::from_millis(1))
                    }
                    Ok(None) => {
                        self.abandon();
                        break;
                    }
                    Err(_) => break,
                }
            }
        }
        self.status
    }

    /// Leaves an unreapable host to a thread that waits for it as long as it takes.
    fn abandon(&mut self) {
        let pid = self.child.id() as libc::pid_t;
        log::warn!(
            "agon-host {pid} did not die within {} ms of SIGKILL (stuck in the kernel); left \
             to a background reaper",
            REAP_LIMIT.as_millis()
        );
        self.abandoned = true;
        if self.gone.is_none() {
            self.gone = Some(format!(
                "the bot's process could not be reaped within {} ms of SIGKILL (stuck in an \
                 uninterruptible wait) and was abandoned",
                REAP_LIMIT.as_millis()
            ));
        }
        // Its cgroup can be removed only once it is gone: the reaper drops it then.
        let cgroup = self.cgroup.take();
        let reaper = std::thread::Builder::new().name(format!("reap-{pid}"));
        let _ = reaper.spawn(move || {
            let mut status = 0;
            // SAFETY: waitpid on our own child, writing only to the local.
            unsafe { libc::waitpid(pid, &mut status, 0) };
            drop(cgroup);
        });
    }

    /// The host's exit status if it has already ended on its own (its answer pipe may still
    /// look open to a deadline that fired first).
    pub(super) fn died_before_the_deadline(&mut self) -> Option<ExitStatus> {
        if self.status.is_some() {
            return None;
        }
        self.child.try_wait().ok().flatten()
    }

    /// The fault a failed read or write amounts to: the host's death, classified.
    pub(super) fn fault_for(&mut self, error: ReadError) -> (FaultCause, String) {
        match error {
            ReadError::TooLarge(len) => {
                self.kill();
                (
                    FaultCause::Malformed,
                    format!(
                        "an answer of {len} bytes exceeds the limit of {} bytes",
                        frame::MAX_BODY
                    ),
                )
            }
            ReadError::Deadline => {
                self.kill();
                (FaultCause::Timeout, "no answer before the deadline".into())
            }
            ReadError::Refused => {
                let call = self
                    .refusals
                    .as_ref()
                    .and_then(|listener| notifier::refused_call(listener.as_fd()));
                self.kill();
                (FaultCause::RefusedSyscall, refused_calls::describe(call))
            }
            ReadError::Closed | ReadError::Io(_) => {
                let status = self.reap_after_close();
                self.stderr.finish(Duration::from_millis(200));
                self.classify(status)
            }
        }
    }

    /// How the host died: an OOM kill its cgroup counted ([`cgroup_oom_kill`]), else by its
    /// wait status and stderr ([`classify_death`]).
    pub(super) fn classify(&self, status: Option<ExitStatus>) -> (FaultCause, String) {
        cgroup_oom_kill(status, self.cgroup.as_ref()).unwrap_or_else(|| {
            classify_death(
                status,
                self.stderr.text().as_deref(),
                self.ready.sandbox.seccomp,
            )
        })
    }

    /// The host closed its pipe: it is normally dying. Waits briefly for it to exit on its own
    /// (to learn how it died), then kills it.
    fn reap_after_close(&mut self) -> Option<ExitStatus> {
        let until = Instant::now() + Duration::from_millis(200);
        while Instant::now() < until {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.status = Some(status);
                    return Some(status);
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                Err(_) => break,
            }
        }
        self.kill();
        None
    }
}

impl Drop for ProcessHost {
    fn drop(&mut self) {
        self.shut_down();
    }
}
