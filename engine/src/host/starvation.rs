//! Whether a call still running at its wall-clock backstop is late by the bot's doing or by the
//! machine's (docs/architecture.md, "Time budgets").
//!
//! Under the CPU clock a bot is owed its budget of CPU time, and the backstop (a multiple of the
//! budget in wall time) only stops a bot that waits instead of computing. On a machine busier
//! than its cores, a bot that computes all along may not have been given its budget of CPU by
//! then. So the backstop counts the bot's own time: the call's wall time less the time its
//! answering thread waited on a run queue, runnable but without a CPU. Sleeping, blocking on
//! I/O and burning the CPU are the bot's own; waiting for a CPU that other processes hold is
//! not. A starved call waits on until it has had its budget, its own time reaches the
//! backstop, or a hard ceiling passes; past the ceiling the game is the machine's to replay.

use super::sched_stat::{SchedStat, TaskSample, TaskStats};
use super::{Clock, Deadline};
use std::fmt;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// The ceiling of a starved call, in budgets of wall time (times the calls sharing a core).
pub const STARVED_CALL_CEILING_FACTOR: u32 = 20;

/// A starved call is not checked again sooner than this: each check reads the kernel's
/// statistics once more.
const SHORTEST_WAIT: Duration = Duration::from_millis(2);

/// The wall-clock bounds of one call under a CPU budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backstop {
    budget: Duration,
    /// Own time (wall less waiting for a CPU) after which the bot is late.
    own_time_limit: Duration,
    /// Wall time after which a starved call is given up as the machine's doing.
    ceiling: Duration,
}

/// What the backstop makes of a call still running.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The bot took the time itself (it slept, blocked or computed): late, as before.
    Late,
    /// The machine kept the bot from a CPU: ask again after this much more wall time.
    WaitLonger(Duration),
    /// Starved past the ceiling: not the bot's fault.
    Starved(Starvation),
}

/// The evidence for a starved call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Starvation {
    pub wall: Duration,
    /// What the bot's answering thread did during the call.
    pub during: SchedStat,
    pub budget: Duration,
}

impl Backstop {
    /// The backstop of `deadline`: only a CPU budget has one to stretch (a wall-clock budget
    /// is elapsed time by the course's choice, and a call without a budget has only its
    /// hour-long watchdog).
    pub fn of(deadline: &Deadline) -> Option<Backstop> {
        let budget = deadline.budget.filter(|_| deadline.clock == Clock::Cpu)?;
        Some(Backstop {
            budget,
            own_time_limit: deadline.watchdog(),
            ceiling: budget
                .saturating_mul(STARVED_CALL_CEILING_FACTOR)
                .saturating_mul(deadline.sharing.max(1)),
        })
    }

    /// Judges a call `wall` into it, by what its answering thread did meanwhile and whether
    /// it is runnable now (`None` where the kernel could not say, which leaves the wall time
    /// alone to judge by).
    ///
    /// A thread runnable now is computing or waiting for a CPU, and under its CPU budget it
    /// is not late: a wait that began before the first look is not in its times yet, and the
    /// budget or the ceiling ends the call anyway. (A bot cannot stay runnable without a CPU
    /// of its own accord: the sandbox makes `sched_yield` return at once and refuses changes
    /// of priority.)
    pub fn judge(&self, wall: Duration, during: Option<SchedStat>, runnable: bool) -> Verdict {
        let Some(during) = during else {
            return Verdict::Late;
        };
        if during.ran >= self.budget {
            return Verdict::Late;
        }
        let own = wall.saturating_sub(during.waited);
        let own_time_left = self.own_time_limit.saturating_sub(own);
        if own_time_left.is_zero() && !runnable {
            return Verdict::Late;
        }
        if wall >= self.ceiling {
            return Verdict::Starved(Starvation {
                wall,
                during,
                budget: self.budget,
            });
        }
        let wait = own_time_left.min(self.ceiling - wall);
        Verdict::WaitLonger(wait.max(SHORTEST_WAIT))
    }
}

/// A task's statistics, once known: set when the host has its bot's task (a thread host's
/// worker says its id once it runs, which may be after its first call began).
pub type SharedTaskStats = Arc<OnceLock<TaskStats>>;

/// The backstop of one call, with what it has seen of the answering thread.
pub struct CallBackstop {
    backstop: Backstop,
    stats: SharedTaskStats,
    /// The thread's times when the call was first seen to take a while (zero for a thread not
    /// yet known, which has only just started); `None` before, or where they could not be read.
    at_start: Option<SchedStat>,
    baseline_taken: bool,
    waits: OngoingWait,
}

impl CallBackstop {
    /// The backstop of a call under `deadline` by the thread `stats` will read; `None` without
    /// a CPU budget. Reads nothing yet: most calls answer before they need a backstop.
    pub fn start(deadline: &Deadline, stats: &SharedTaskStats) -> Option<CallBackstop> {
        Some(CallBackstop {
            backstop: Backstop::of(deadline)?,
            stats: Arc::clone(stats),
            at_start: None,
            baseline_taken: false,
            waits: OngoingWait::default(),
        })
    }

    /// Reads the thread's times the first time the call is seen to take a while, a few
    /// milliseconds at most into it: what it waited before is not counted (the call is judged
    /// that much more strictly), and a quick call costs no read.
    pub fn take_baseline(&mut self) {
        if std::mem::replace(&mut self.baseline_taken, true) {
            return;
        }
        self.at_start = match self.stats.get() {
            Some(known) => known.times(),
            None => Some(SchedStat::default()),
        };
    }

    /// Judges the call `wall` into it, reading the thread's statistics now.
    pub fn judge(&mut self, wall: Duration) -> Verdict {
        let sample = self.stats.get().and_then(TaskStats::sample);
        let (Some(sample), Some(at_start)) = (sample, self.at_start) else {
            return self.backstop.judge(wall, None, false);
        };
        let during = sample.times.since(at_start);
        let during = SchedStat {
            waited: during.waited + self.waits.seen(sample, Instant::now()),
            ..during
        };
        self.backstop.judge(wall, Some(during), sample.runnable)
    }
}

/// A wait for a CPU still going on, which the kernel has not added to the thread's times yet:
/// between two looks that found the thread runnable with its times unchanged, it did not run,
/// so it cannot have gone to sleep either (a thread runs to go to sleep): it waited throughout.
#[derive(Debug, Default)]
struct OngoingWait {
    last_look: Option<(Instant, TaskSample)>,
    unaccounted: Duration,
}

impl OngoingWait {
    /// The wait seen going on since the kernel last accounted one, given a new look.
    fn seen(&mut self, sample: TaskSample, now: Instant) -> Duration {
        if let Some((then, last)) = self.last_look {
            if last.times != sample.times {
                // Accounted now, in full.
                self.unaccounted = Duration::ZERO;
            } else if last.runnable && sample.runnable {
                self.unaccounted += now.saturating_duration_since(then);
            }
        }
        self.last_look = Some((now, sample));
        self.unaccounted
    }
}

impl fmt::Display for Starvation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the machine starved the bot: in {} ms of its call it was given {} ms of CPU and \
             waited {} ms for one that other processes held (its budget is {} ms of CPU); \
             not the bot's fault",
            self.wall.as_millis(),
            self.during.ran.as_millis(),
            self.during.waited.as_millis(),
            self.budget.as_millis()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    fn backstop() -> Backstop {
        Backstop::of(&Deadline::cpu(Some(100 * MS))).expect("a CPU budget has a backstop")
    }

    fn did(ran_ms: u32, waited_ms: u32) -> Option<SchedStat> {
        Some(SchedStat {
            ran: ran_ms * MS,
            waited: waited_ms * MS,
        })
    }

    #[test]
    fn only_a_cpu_budget_has_a_backstop_to_stretch() {
        assert_eq!(Backstop::of(&Deadline::wall(Some(100 * MS))), None);
        assert_eq!(Backstop::of(&Deadline::cpu(None)), None);
        let shared = Backstop::of(&Deadline {
            budget: Some(100 * MS),
            clock: Clock::Cpu,
            sharing: 2,
        })
        .expect("a backstop");
        assert_eq!(
            (shared.own_time_limit, shared.ceiling),
            (600 * MS, 4000 * MS)
        );
    }

    fn look(ran_ms: u32, waited_ms: u32, runnable: bool) -> TaskSample {
        TaskSample {
            times: did(ran_ms, waited_ms).unwrap(),
            runnable,
        }
    }

    #[test]
    fn a_wait_still_going_on_counts_from_the_first_look_that_saw_it() {
        let mut waits = OngoingWait::default();
        let t0 = Instant::now();
        let at = |ms| t0 + ms * MS;
        assert_eq!(waits.seen(look(3, 277, true), at(300)), Duration::ZERO);
        assert_eq!(waits.seen(look(3, 277, true), at(570)), 270 * MS);
        assert_eq!(waits.seen(look(3, 277, true), at(600)), 300 * MS);
        // It ran: the kernel has added the whole wait to its times.
        assert_eq!(waits.seen(look(4, 600, true), at(610)), Duration::ZERO);
        // Asleep at either look: it may have slept in between, which is its own time.
        assert_eq!(waits.seen(look(4, 600, false), at(700)), Duration::ZERO);
        assert_eq!(waits.seen(look(4, 600, true), at(800)), Duration::ZERO);
    }

    #[test]
    fn a_bot_that_slept_is_late() {
        assert_eq!(backstop().judge(300 * MS, did(2, 0), false), Verdict::Late);
    }

    #[test]
    fn a_bot_that_ran_its_budget_is_late_whatever_it_waited() {
        assert_eq!(
            backstop().judge(300 * MS, did(100, 200), false),
            Verdict::Late
        );
    }

    #[test]
    fn a_starved_bot_waits_until_its_own_time_reaches_the_backstop() {
        // 60 ms run and 200 waiting in 300: 100 ms its own, 200 more to go.
        assert_eq!(
            backstop().judge(300 * MS, did(60, 200), false),
            Verdict::WaitLonger(200 * MS)
        );
        // Sleeping once the machine is quiet again still ends the call at the backstop.
        assert_eq!(
            backstop().judge(500 * MS, did(60, 200), false),
            Verdict::Late
        );
    }

    #[test]
    fn past_the_ceiling_a_starved_bot_is_the_machines_doing() {
        let verdict = backstop().judge(2000 * MS, did(90, 1900), false);
        let Verdict::Starved(evidence) = verdict else {
            panic!("{verdict:?}");
        };
        assert_eq!(evidence.during, did(90, 1900).unwrap());
        let text = evidence.to_string();
        assert!(
            text.contains("given 90 ms of CPU and waited 1900 ms"),
            "{text}"
        );
        // Nearly there: the last wait ends at the ceiling.
        assert_eq!(
            backstop().judge(1990 * MS, did(90, 1890), false),
            Verdict::WaitLonger(10 * MS)
        );
    }

    /// A thread runnable at the look is computing or waiting for a CPU, maybe since before
    /// the first look (a wait not yet in its times): under its budget it is not late, and the
    /// ceiling still ends the call.
    #[test]
    fn a_runnable_bot_under_its_budget_is_not_late() {
        assert_eq!(
            backstop().judge(300 * MS, did(10, 0), true),
            Verdict::WaitLonger(SHORTEST_WAIT)
        );
        assert!(matches!(
            backstop().judge(2000 * MS, did(10, 0), true),
            Verdict::Starved(_)
        ));
        assert_eq!(backstop().judge(300 * MS, did(100, 0), true), Verdict::Late);
    }

    #[test]
    fn without_the_kernels_word_the_wall_time_judges() {
        assert_eq!(backstop().judge(300 * MS, None, false), Verdict::Late);
    }

    #[test]
    fn a_check_is_never_sooner_than_the_shortest_wait() {
        assert_eq!(
            backstop().judge(300 * MS, did(10, 1), false),
            Verdict::WaitLonger(SHORTEST_WAIT)
        );
    }
}
