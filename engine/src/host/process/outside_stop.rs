//! Stops the engine did not make: the engine stops a host between calls and lets it run during
//! one, so a host found stopped during a call was stopped by someone else (a user's SIGSTOP, a
//! debugger, a batch system), and the stop ate the bot's wall time. Read from
//! `/proc/PID/stat`.

use crate::host::sched_stat::state_in_stat;
use std::io::Read;
use std::time::{Duration, Instant};

/// How often, at most, the watchdog reads whether the host is stopped: a read costs tens of
/// microseconds, too much for every CPU-clock check (2 ms), and stops that matter last far
/// longer.
const LOOK_INTERVAL: Duration = crate::interrupt::CHECK_INTERVAL;

/// What the watchdog has seen of a host being stopped during one call.
#[derive(Debug)]
pub struct OutsideStops {
    pid: u32,
    last_look: Instant,
    /// When the host was last seen running: a stop seen next began after it.
    last_seen_running: Instant,
    /// Since when the host has been stopped, while it is.
    stopped_since: Option<Instant>,
    /// The stops that have ended; `None` while none was seen.
    ended_stops: Option<Duration>,
}

impl OutsideStops {
    /// Starts watching host `pid`, which the engine has just let run (and does not reap while
    /// it waits for the answer, so the pid stays the host's).
    pub fn watch(pid: u32) -> OutsideStops {
        let now = Instant::now();
        OutsideStops {
            pid,
            last_look: now,
            last_seen_running: now,
            stopped_since: None,
            ended_stops: None,
        }
    }

    /// Looks at the host unless it was looked at very recently.
    pub fn look_now_and_then(&mut self) {
        if self.last_look.elapsed() >= LOOK_INTERVAL {
            self.look();
        }
    }

    /// How long the host has been seen stopped during the call (looking once more now), or
    /// `None` when it never was.
    pub fn stopped_for(&mut self) -> Option<Duration> {
        self.look();
        let ongoing = self.stopped_since.map(|since| since.elapsed());
        match (self.ended_stops, ongoing) {
            (None, None) => None,
            (ended, ongoing) => Some(ended.unwrap_or_default() + ongoing.unwrap_or_default()),
        }
    }

    fn look(&mut self) {
        let now = Instant::now();
        self.note(is_stopped(self.pid), now);
    }

    fn note(&mut self, stopped: bool, now: Instant) {
        self.last_look = now;
        match (stopped, self.stopped_since) {
            (true, None) => self.stopped_since = Some(self.last_seen_running),
            (false, Some(since)) => {
                let stop = now.saturating_duration_since(since);
                self.ended_stops = Some(self.ended_stops.unwrap_or_default() + stop);
                self.stopped_since = None;
            }
            _ => {}
        }
        if !stopped {
            self.last_seen_running = now;
        }
    }
}

/// Whether process `pid` is stopped: by a stop signal (`T`) or by a tracer (`t`). A process
/// that cannot be read (gone) is not.
fn is_stopped(pid: u32) -> bool {
    let mut stat = [0u8; 512];
    let read = std::fs::File::open(format!("/proc/{pid}/stat")).and_then(|mut f| f.read(&mut stat));
    read.ok()
        .and_then(|len| state_in_stat(&stat[..len]))
        .is_some_and(|state| matches!(state, b'T' | b't'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_counts_from_the_last_look_that_saw_the_host_running() {
        let mut stops = OutsideStops::watch(0);
        let t0 = stops.last_seen_running;
        let at = |ms| t0 + Duration::from_millis(ms);
        stops.note(false, at(20));
        stops.note(true, at(40));
        stops.note(true, at(60));
        stops.note(false, at(80));
        assert_eq!(stops.ended_stops, Some(Duration::from_millis(60)));
        assert_eq!(stops.stopped_since, None);
        stops.note(true, at(100));
        assert_eq!(stops.stopped_since, Some(at(80)));
    }

    #[test]
    fn a_host_never_seen_stopped_was_not() {
        let mut stops = OutsideStops::watch(std::process::id());
        stops.look();
        assert_eq!(stops.stopped_for(), None);
    }

    #[test]
    fn a_stopped_process_is_seen_stopped_until_continued() {
        let mut child = std::process::Command::new("sleep")
            .arg("10")
            .spawn()
            .expect("sleep runs");
        let pid = child.id();
        // SAFETY: kill with integer arguments, to our own unreaped child.
        let signal = |signal| unsafe { libc::kill(pid as libc::pid_t, signal) };
        let mut stops = OutsideStops::watch(pid);
        signal(libc::SIGSTOP);
        let seen_stopped = wait_for(|| {
            stops.look();
            stops.stopped_since.is_some()
        });
        signal(libc::SIGCONT);
        let seen_running = wait_for(|| {
            stops.look();
            stops.stopped_since.is_none()
        });
        let _ = child.kill();
        let _ = child.wait();
        assert!(seen_stopped && seen_running);
        assert!(stops.stopped_for().is_some_and(|d| d > Duration::ZERO));
    }

    fn wait_for(mut condition: impl FnMut() -> bool) -> bool {
        (0..1000).any(|_| {
            std::thread::sleep(Duration::from_millis(1));
            condition()
        })
    }
}
