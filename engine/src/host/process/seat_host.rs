//! The process host as a seat's host: its calls, its report at the end of a match, and a
//! restart with a fresh process that keeps the stderr of the one it replaces.

use super::{frame, ProcessHost};
use crate::host::{Call, Clock, Deadline, HostKind, HostReport, RestartError, SeatHost};
use crate::record::RunQueue;

/// The stderr kept of the hosts a seat's restarts replaced.
const EARLIER_STDERR_LIMIT: usize = 64 << 10;

impl ProcessHost {
    /// The answering threads' times, this host's and those of the hosts it replaced, while its
    /// process is there to read.
    fn run_queue_so_far(&self) -> Option<RunQueue> {
        let own = self.sched_stat.get()?.times()?.as_run_queue();
        Some(match self.earlier_run_queue {
            Some(earlier) => earlier.plus(own),
            None => own,
        })
    }
}

impl SeatHost for ProcessHost {
    fn kind(&self) -> HostKind {
        HostKind::Process
    }

    /// The start call is charged the host's start-up as well, so that time spent in a library
    /// constructor or the bot's `Default` counts against the start budget.
    fn start(&mut self, message: Vec<u8>, deadline: Deadline) -> Call<()> {
        let (startup_wall, startup_cpu) = self.unbilled_startup.take().unwrap_or_default();
        let spent = match deadline.clock {
            Clock::Cpu => startup_cpu.unwrap_or(startup_wall),
            Clock::Wall => startup_wall,
        };
        let left = Deadline {
            budget: deadline.budget.map(|b| b.saturating_sub(spent)),
            ..deadline
        };
        let call = self.call(frame::START, &message, left);
        Call {
            result: call.result.map(|_| ()),
            wall: call.wall + startup_wall,
            cpu: match (call.cpu, startup_cpu) {
                (Some(a), Some(b)) => Some(a + b),
                (cpu, _) => cpu,
            },
        }
    }

    fn act(&mut self, message: Vec<u8>, deadline: Deadline) -> Call<Vec<u8>> {
        self.call(frame::ACT, &message, deadline)
    }

    fn release(&mut self) {
        self.run_queue_at_end = self.run_queue_so_far();
        self.begin_shut_down();
    }

    fn report(&mut self) -> HostReport {
        self.shut_down();
        let stderr = match (self.earlier_stderr.is_empty(), self.stderr.text()) {
            (true, text) => text,
            (false, text) => Some(format!(
                "{}{}",
                self.earlier_stderr,
                text.unwrap_or_default()
            )),
        };
        HostReport {
            sandbox: Some(self.ready.sandbox.clone()),
            stderr,
            run_queue: self.run_queue_at_end,
        }
    }

    fn gone(&self) -> Option<String> {
        self.gone.clone()
    }

    fn restart(&mut self) -> Result<(), RestartError> {
        let Some(launch) = self.launched.clone() else {
            return Err(RestartError::NotStartedToPlay);
        };
        let mut fresh =
            ProcessHost::spawn(&launch.config, &launch.plugin, &launch.bot, &launch.game)?;
        // Read while the replaced host's process is still there to read.
        let replaced_run_queue = self.run_queue_so_far();
        self.shut_down();
        let mut earlier = std::mem::take(&mut self.earlier_stderr);
        if earlier.len() < EARLIER_STDERR_LIMIT {
            let text = self.stderr.text().unwrap_or_default();
            earlier.push_str(&text);
            if !text.is_empty() && !text.ends_with('\n') {
                earlier.push('\n');
            }
            earlier.push_str("[agon: the bot's process was started again]\n");
            let mut end = earlier.len().min(EARLIER_STDERR_LIMIT);
            while !earlier.is_char_boundary(end) {
                end -= 1;
            }
            earlier.truncate(end);
        }
        fresh.earlier_stderr = earlier;
        fresh.earlier_run_queue = replaced_run_queue;
        *self = fresh;
        Ok(())
    }
}
