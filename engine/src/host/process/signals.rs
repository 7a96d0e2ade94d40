//! Signalling the host: stopping the bot between calls and letting it run for one, and the
//! rules that keep a signal from reaching a process that reused the host's pid.

use super::ProcessHost;
use rustix::process::{kill_process_group, Pid, Signal};

impl ProcessHost {
    /// Stops the host's process group between calls.
    pub(super) fn pause(&mut self) {
        if self.signal_bot(Signal::STOP) {
            self.stopped = true;
        }
    }

    /// Lets the host run again, if it is stopped.
    pub(super) fn resume(&mut self) {
        if self.stopped && self.signal_bot(Signal::CONT) {
            self.stopped = false;
        }
    }

    /// Stops or continues the bot's process: through its pidfd where it has one, else as the
    /// host's process group.
    fn signal_bot(&self, signal: Signal) -> bool {
        match &self.bot_pidfd {
            Some(pidfd) if self.status.is_none() && !self.abandoned => {
                rustix::process::pidfd_send_signal(pidfd, signal).is_ok()
            }
            _ => self.signal_group(signal),
        }
    }

    /// Sends `signal` to the host's process group while the host is certainly alive or a
    /// zombie (not reaped, not abandoned), so the pid cannot belong to another process.
    pub(super) fn signal_group(&self, signal: Signal) -> bool {
        if self.status.is_some() || self.abandoned {
            return false;
        }
        Pid::from_raw(self.child.id() as i32)
            .is_some_and(|pid| kill_process_group(pid, signal).is_ok())
    }
}
