//! What the engine's watchdog checks while a host answers a call: the wall-clock deadline the
//! answer pipe is read against (moved later for a bot the machine starved of a CPU, see
//! `host::starvation`), the bot's CPU time under the CPU clock, an engine stop request, and
//! stops from outside (`outside_stop`).

use super::frame::Waiting;
use super::outside_stop::OutsideStops;
use crate::host::engine_stall::Stopwatch;
use crate::host::starvation::{CallBackstop, SharedTaskStats, Starvation, Verdict};
use crate::host::{Clock, Deadline};
use std::time::{Duration, Instant};

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
    /// The call's time, without the engine's own stalls.
    stopwatch: Stopwatch,
    /// Wall time allowed so far: the watchdog, and more for a bot starved of a CPU.
    allowed: Duration,
    /// Under a CPU budget: what judges a call still running at `allowed`.
    backstop: Option<CallBackstop>,
    /// The backstop's last word, once it has given one that ends the call.
    verdict: Option<Verdict>,
    /// Under the CPU clock: the host's CPU time when the call began, and the budget.
    cpu_limit: Option<(Duration, Duration)>,
    cpu_budget_spent: bool,
    /// `None` where a stop from outside could not be told from one the bot made itself.
    stops: Option<OutsideStops>,
}

/// How a call that ran late came to.
pub(super) enum Lateness {
    /// By the bot's own doing: it is charged.
    Own,
    /// The host was stopped from outside for about this long.
    Stopped(Duration),
    /// The machine kept the bot from a CPU past the ceiling.
    Starved(Starvation),
}

impl CallWatch {
    /// Watches process `pid`, which has just been let run, from `stopwatch`'s start; its stops
    /// only if `watch_stops`.
    pub(super) fn new(
        pid: u32,
        stopwatch: Stopwatch,
        deadline: Deadline,
        cpu_start: Option<Duration>,
        stats: &SharedTaskStats,
        watch_stops: bool,
    ) -> CallWatch {
        CallWatch {
            pid,
            stopwatch,
            allowed: deadline.watchdog(),
            backstop: CallBackstop::start(&deadline, stats),
            verdict: None,
            cpu_limit: cpu_limit(deadline, cpu_start),
            cpu_budget_spent: false,
            stops: watch_stops.then(|| OutsideStops::watch(pid)),
        }
    }

    /// The call's time so far, without the engine's own stalls.
    pub(super) fn elapsed(&self) -> Duration {
        self.stopwatch.elapsed()
    }

    /// When the call is given up, asking the backstop once it has passed.
    fn judged_deadline(&mut self) -> Instant {
        let at = self.stopwatch.deadline(self.allowed);
        if self.verdict.is_some() || Instant::now() < at {
            return at;
        }
        let Some(backstop) = &mut self.backstop else {
            return at;
        };
        match backstop.judge(self.stopwatch.elapsed()) {
            Verdict::WaitLonger(more) => {
                self.allowed += more;
                self.stopwatch.deadline(self.allowed)
            }
            settled => {
                self.verdict = Some(settled);
                at
            }
        }
    }

    fn within_cpu_budget(&self) -> bool {
        self.cpu_limit.is_none_or(|(start, budget)| {
            process_cpu_time(self.pid).is_none_or(|now| now.saturating_sub(start) <= budget)
        })
    }

    /// Why the call that ran past its deadline did. A bot over its CPU budget is late by its
    /// own doing whatever else happened: neither a stop nor a wait for a CPU costs CPU time.
    pub(super) fn lateness(&mut self) -> Lateness {
        if self.cpu_budget_spent {
            return Lateness::Own;
        }
        if let Some(Verdict::Starved(starvation)) = self.verdict {
            return Lateness::Starved(starvation);
        }
        match self.stops.as_mut().and_then(OutsideStops::stopped_for) {
            Some(stopped) => Lateness::Stopped(stopped),
            None => Lateness::Own,
        }
    }
}

impl Waiting for CallWatch {
    fn deadline(&mut self) -> Option<Instant> {
        Some(self.judged_deadline())
    }

    /// The CPU clock needs a close watch, the rest only a stop request's.
    fn check_every(&self) -> Option<Duration> {
        Some(match self.cpu_limit {
            Some(_) => CPU_CHECK_INTERVAL,
            None => crate::interrupt::CHECK_INTERVAL,
        })
    }

    /// A stop request ends the wait at once: the game will not be recorded anyway.
    fn keep_waiting(&mut self) -> bool {
        if crate::interrupt::requested().is_some() {
            return false;
        }
        if let Some(backstop) = &mut self.backstop {
            backstop.take_baseline();
        }
        if let Some(stops) = &mut self.stops {
            stops.look_now_and_then();
        }
        self.cpu_budget_spent = !self.within_cpu_budget();
        !self.cpu_budget_spent
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
