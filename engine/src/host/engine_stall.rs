//! Time the engine itself was not running (docs/architecture.md, "Time budgets": never charge a bot for
//! time the engine was not running). A suspended job (Ctrl-Z, a batch system's SIGSTOP, a paused
//! VM) or a starved machine stops the engine while the bots' processes may go on; the monotonic
//! clock counts on, so a call measured by it alone would charge the bot for the engine's stop.
//!
//! A heartbeat thread wakes every few milliseconds; a wake-up later than it asked for means the
//! engine was not running in between, and the excess is added to a running total. A
//! [`Stopwatch`] subtracts what that total grew by during a call.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How often the heartbeat wakes.
const TICK: Duration = Duration::from_millis(5);
/// Lateness of a wake-up that counts as a stall: above a busy scheduler's ordinary jitter.
const SLACK: Duration = Duration::from_millis(20);

struct Heartbeat {
    origin: Instant,
    /// Nanoseconds since `origin` of the last tick.
    last_tick: AtomicU64,
    /// Nanoseconds of stall accounted so far.
    stalled: AtomicU64,
}

fn heartbeat() -> &'static Heartbeat {
    static BEAT: OnceLock<&'static Heartbeat> = OnceLock::new();
    BEAT.get_or_init(|| {
        let beat: &'static Heartbeat = Box::leak(Box::new(Heartbeat {
            origin: Instant::now(),
            last_tick: AtomicU64::new(0),
            stalled: AtomicU64::new(0),
        }));
        let started = std::thread::Builder::new()
            .name("agon-heartbeat".into())
            .spawn(move || loop {
                std::thread::sleep(TICK);
                let now = nanos(beat.origin.elapsed());
                let last = beat.last_tick.swap(now, Ordering::SeqCst);
                let late = Duration::from_nanos(now.saturating_sub(last)).saturating_sub(TICK);
                if late > SLACK {
                    beat.stalled.fetch_add(nanos(late), Ordering::SeqCst);
                }
            });
        if let Err(e) = started {
            log::warn!("no heartbeat thread ({e}): engine stalls will not be told from slow bots");
        }
        beat
    })
}

fn nanos(d: Duration) -> u64 {
    d.as_nanos().min(u64::MAX as u128) as u64
}

/// All the engine's stall time so far, including a stall the heartbeat has not woken up from
/// yet (the caller may run before the heartbeat after a SIGCONT).
pub fn stalled_total() -> Duration {
    let beat = heartbeat();
    let accounted = beat.stalled.load(Ordering::SeqCst);
    let now = nanos(beat.origin.elapsed());
    let since_tick =
        Duration::from_nanos(now.saturating_sub(beat.last_tick.load(Ordering::SeqCst)));
    let pending = since_tick.saturating_sub(TICK);
    let pending = if pending > SLACK {
        pending
    } else {
        Duration::ZERO
    };
    Duration::from_nanos(accounted) + pending
}

/// Measures a call in the engine's running time.
#[derive(Debug, Clone, Copy)]
pub struct Stopwatch {
    start: Instant,
    stalled_at_start: Duration,
}

impl Stopwatch {
    pub fn start() -> Stopwatch {
        Stopwatch {
            stalled_at_start: stalled_total(),
            start: Instant::now(),
        }
    }

    /// When the call started.
    pub fn started(&self) -> Instant {
        self.start
    }

    /// How long the engine was stalled since the start.
    pub fn stalled(&self) -> Duration {
        stalled_total()
            .saturating_sub(self.stalled_at_start)
            .min(self.start.elapsed())
    }

    /// Wall time since the start, less the engine's stalls.
    pub fn elapsed(&self) -> Duration {
        let elapsed = self.start.elapsed();
        elapsed.saturating_sub(self.stalled())
    }

    /// The instant at which `limit` of running time will have passed, as far as is known now:
    /// a stall moves it later.
    pub fn deadline(&self, limit: Duration) -> Instant {
        self.start + limit + self.stalled()
    }

    /// Logs a stall during the call, if there was one: it was not charged.
    pub fn note_stall(&self, what: &str) {
        let stalled = self.stalled();
        if !stalled.is_zero() {
            log::warn!(
                "the engine was not running for {:.1} ms during {what}; that time is not \
                 charged to the bot",
                stalled.as_secs_f64() * 1000.0
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elapsed_and_stall_add_up_to_the_clock() {
        let watch = Stopwatch::start();
        std::thread::sleep(Duration::from_millis(30));
        // Another test of this binary may stop the whole process meanwhile: that is a stall.
        let elapsed = watch.elapsed() + watch.stalled();
        assert!(elapsed >= Duration::from_millis(30), "{elapsed:?}");
        assert!(watch.deadline(Duration::from_millis(10)) >= watch.started());
    }

    #[test]
    fn sigstop_of_the_whole_process_is_a_stall() {
        // A child process that stops itself would not tell us anything about this one; instead
        // stop this process from a helper process for 300 ms and watch the total grow.
        let watch = Stopwatch::start();
        let me = std::process::id().to_string();
        let status = std::process::Command::new("sh")
            .args([
                "-c",
                &format!("kill -STOP {me}; sleep 0.3; kill -CONT {me}"),
            ])
            .status()
            .unwrap();
        assert!(status.success());
        std::thread::sleep(Duration::from_millis(20));
        let stalled = watch.stalled();
        assert!(stalled >= Duration::from_millis(200), "{stalled:?}");
        assert!(
            watch.elapsed() < Duration::from_millis(200),
            "{:?}",
            watch.elapsed()
        );
    }
}
