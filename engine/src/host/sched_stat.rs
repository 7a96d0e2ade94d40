//! What the kernel says of one task's scheduling: from `/proc/.../schedstat`, the CPU time it
//! ran and the time it waited on a run queue, runnable but not given a CPU (throttled time of
//! its cgroup included); from `/proc/.../stat`, its state now. Waiting for a CPU is what tells
//! a bot the machine starved from one that slept: sleeping and blocking count in neither.
//!
//! The kernel adds a wait to `schedstat` only once the task runs again, so a wait still going
//! on shows as the state `R` with times that do not move (`host::starvation` counts it).
//!
//! Both files are opened once per host and read with `pread`: `schedstat` at the start of a
//! call under a CPU budget (about a microsecond: the kernel formats three numbers), both only
//! when the call's wall-clock backstop fires.

use crate::record::RunQueue;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::time::Duration;

/// What `schedstat` said at one moment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SchedStat {
    /// Time the task has run on a CPU.
    pub ran: Duration,
    /// Time the task has waited on a run queue for a CPU, as far as accounted.
    pub waited: Duration,
}

impl SchedStat {
    /// What happened between `earlier` and `self`.
    pub fn since(self, earlier: SchedStat) -> SchedStat {
        SchedStat {
            ran: self.ran.saturating_sub(earlier.ran),
            waited: self.waited.saturating_sub(earlier.waited),
        }
    }

    /// As a record keeps it.
    pub fn as_run_queue(self) -> RunQueue {
        let us = |d: Duration| u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
        RunQueue {
            ran_us: us(self.ran),
            waited_us: us(self.waited),
        }
    }
}

/// A task's times and whether it is runnable (running or waiting for a CPU), read together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskSample {
    pub times: SchedStat,
    pub runnable: bool,
}

/// One task's `schedstat` and `stat` files, kept open.
#[derive(Debug)]
pub struct TaskStats {
    schedstat: File,
    stat: File,
}

impl TaskStats {
    /// The main thread of process `pid`, which is the thread that answers in `agon-host`.
    pub fn of_process(pid: u32) -> Option<TaskStats> {
        Self::open(&format!("/proc/{pid}"))
    }

    /// Thread `tid` of the engine's own process.
    pub fn of_own_thread(tid: i32) -> Option<TaskStats> {
        Self::open(&format!("/proc/self/task/{tid}"))
    }

    /// `None` where the kernel keeps no such files (`schedstat` needs `CONFIG_SCHED_INFO`) or
    /// the task is gone: the backstop then judges by wall time alone, as it always did.
    fn open(dir: &str) -> Option<TaskStats> {
        let open = |name: &str| {
            File::open(format!("{dir}/{name}"))
                .map_err(|e| log::debug!("no scheduler statistics at {dir}/{name}: {e}"))
                .ok()
        };
        Some(TaskStats {
            schedstat: open("schedstat")?,
            stat: open("stat")?,
        })
    }

    /// The times now; `None` once the task is gone or the file says something else.
    pub fn times(&self) -> Option<SchedStat> {
        let mut text = [0u8; 96];
        let len = self.schedstat.read_at(&mut text, 0).ok()?;
        parse_schedstat(&text[..len])
    }

    /// The times and the state now.
    pub fn sample(&self) -> Option<TaskSample> {
        let mut stat = [0u8; 512];
        let len = self.stat.read_at(&mut stat, 0).ok()?;
        let state = state_in_stat(&stat[..len])?;
        Some(TaskSample {
            times: self.times()?,
            runnable: state == b'R',
        })
    }
}

/// `schedstat`'s first two fields, in nanoseconds: "ran waited timeslices". All zero is a
/// kernel that keeps no statistics (every task that exists has run).
fn parse_schedstat(text: &[u8]) -> Option<SchedStat> {
    let mut fields = std::str::from_utf8(text).ok()?.split_ascii_whitespace();
    let mut nanoseconds = || fields.next()?.parse::<u64>().ok().map(Duration::from_nanos);
    let times = SchedStat {
        ran: nanoseconds()?,
        waited: nanoseconds()?,
    };
    (times != SchedStat::default()).then_some(times)
}

/// The state letter of a `stat` line: the field after the command name, which is in
/// parentheses and may itself hold spaces and `)`, hence after the last `)`.
pub fn state_in_stat(stat: &[u8]) -> Option<u8> {
    let after_name = stat.iter().rposition(|&b| b == b')')? + 1;
    stat[after_name..]
        .iter()
        .copied()
        .find(|b| !b.is_ascii_whitespace())
}

/// The calling thread's id, by which [`TaskStats::of_own_thread`] finds it.
pub fn current_thread_id() -> i32 {
    rustix::thread::gettid().as_raw_nonzero().get()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_two_fields_are_run_and_wait_times_in_nanoseconds() {
        assert_eq!(
            parse_schedstat(b"1324364 145734 1\n"),
            Some(SchedStat {
                ran: Duration::from_nanos(1_324_364),
                waited: Duration::from_nanos(145_734),
            })
        );
        assert_eq!(parse_schedstat(b"12\n"), None);
        assert_eq!(parse_schedstat(b"0 0 0\n"), None, "statistics switched off");
        assert_eq!(parse_schedstat(b"x 1 1\n"), None);
        assert_eq!(parse_schedstat(b""), None);
    }

    #[test]
    fn the_state_follows_the_last_parenthesis_of_the_command_name() {
        assert_eq!(state_in_stat(b"42 (agon-host) S 1 42 42 0"), Some(b'S'));
        assert_eq!(state_in_stat(b"42 (a) T (b) R 1 42 42 0"), Some(b'R'));
        assert_eq!(state_in_stat(b"42 (x y)) t 1 42"), Some(b't'));
        assert_eq!(state_in_stat(b"42 (no end"), None);
    }

    #[test]
    fn a_thread_that_runs_is_seen_running_and_runnable() {
        let own = TaskStats::of_own_thread(current_thread_id()).expect("its files");
        let before = own.times().expect("readable");
        let spin_until = std::time::Instant::now() + Duration::from_millis(20);
        while std::time::Instant::now() < spin_until {
            std::hint::spin_loop();
        }
        let now = own.sample().expect("readable");
        assert!(now.runnable, "a thread reading its own state runs");
        assert!(now.times.since(before).ran > Duration::ZERO, "{now:?}");
    }

    #[test]
    fn a_sleeping_process_is_not_runnable_and_an_ended_one_reads_as_gone() {
        let mut child = std::process::Command::new("sleep")
            .arg("10")
            .spawn()
            .expect("sleep runs");
        let stats = TaskStats::of_process(child.id()).expect("open while it lives");
        let asleep = (0..1000).any(|_| {
            std::thread::sleep(Duration::from_millis(1));
            stats.sample().is_some_and(|s| !s.runnable)
        });
        let _ = child.kill();
        let _ = child.wait();
        assert!(asleep);
        assert_eq!(stats.times(), None);
    }
}
