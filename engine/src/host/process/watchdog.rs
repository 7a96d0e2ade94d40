//! What the engine's watchdog checks while a host answers a call, besides the wall-clock
//! deadline the answer pipe is read against: the bot's CPU time under the CPU clock, an engine
//! stop request, and stops from outside (`outside_stop`).

use super::outside_stop::OutsideStops;
use crate::host::{Clock, Deadline};
use std::time::Duration;

/// How often the watchdog reads the host's CPU clock when budgets count CPU time.
const CPU_CHECK_INTERVAL: Duration = Duration::from_millis(2);

/// The CPU-clock limit of a call: the host's CPU time when it began, and the budget. `None`
/// under the wall clock, without a budget, or when the host's CPU time cannot be read.
pub(super) fn cpu_limit(
    deadline: Deadline,
    start: Option<Duration>,
) -> Option<(Duration, Duration)> {
    match (deadline.clock, deadline.budget, start) {
        (Clock::Cpu, Some(budget), Some(start)) => Some((start, budget)),
        _ => None,
    }
}

/// What the watchdog checks while a host answers one call.
pub(super) struct CallWatch {
    pid: u32,
    /// Under the CPU clock: the host's CPU time when the call began, and the budget.
    cpu_limit: Option<(Duration, Duration)>,
    cpu_budget_spent: bool,
    /// `None` where a stop from outside could not be told from one the bot made itself.
    stops: Option<OutsideStops>,
}

impl CallWatch {
    /// Watches process `pid`, which has just been let run; its stops only if `watch_stops`.
    pub(super) fn new(
        pid: u32,
        cpu_limit: Option<(Duration, Duration)>,
        watch_stops: bool,
    ) -> CallWatch {
        CallWatch {
            pid,
            cpu_limit,
            cpu_budget_spent: false,
            stops: watch_stops.then(|| OutsideStops::watch(pid)),
        }
    }

    /// How often the wait for the answer stops to check: the CPU clock needs a close watch,
    /// the rest only a stop request's.
    pub(super) fn check_interval(&self) -> Duration {
        match self.cpu_limit {
            Some(_) => CPU_CHECK_INTERVAL,
            None => crate::interrupt::CHECK_INTERVAL,
        }
    }

    /// A stop request ends the wait at once: the game will not be recorded anyway.
    pub(super) fn keep_waiting(&mut self) -> bool {
        if crate::interrupt::requested().is_some() {
            return false;
        }
        if let Some(stops) = &mut self.stops {
            stops.look_now_and_then();
        }
        self.cpu_budget_spent = !self.within_cpu_budget();
        !self.cpu_budget_spent
    }

    fn within_cpu_budget(&self) -> bool {
        self.cpu_limit.is_none_or(|(start, budget)| {
            process_cpu_time(self.pid).is_none_or(|now| now.saturating_sub(start) <= budget)
        })
    }

    /// How long the host was seen stopped during the call, when that is why it is late: a stop
    /// costs no CPU time, so a bot over its CPU budget is late by its own doing.
    pub(super) fn stopped_from_outside(&mut self) -> Option<Duration> {
        if self.cpu_budget_spent {
            return None;
        }
        self.stops.as_mut()?.stopped_for()
    }
}

/// The CPU time of process `pid` (all threads), through its CPU-time clock.
pub fn process_cpu_time(pid: u32) -> Option<Duration> {
    let mut clock: libc::clockid_t = 0;
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: both calls only write to the locals passed by pointer.
    unsafe {
        if libc::clock_getcpuclockid(pid as libc::pid_t, &mut clock) != 0 {
            return None;
        }
        if libc::clock_gettime(clock, &mut ts) != 0 {
            return None;
        }
    }
    Some(Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}
