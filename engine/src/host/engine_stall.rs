//! Time the engine itself was not running (docs/architecture.md, "Time budgets": never charge a bot for
//! time the engine was not running). A suspended job (Ctrl-Z, a batch system's SIGSTOP, a paused
//! VM) or a starved machine stops the engine while the bots' processes may go on; the monotonic
//! clock counts on, so a call measured by it alone would charge the bot for the engine's stop.
//!
//! A heartbeat thread wakes every few milliseconds; a wake-up later than it asked for means the
//! engine was not running in between, and the excess is added to a running total. A
//! [`Stopwatch`] subtracts what that total grew by during a call. Every stall is counted for the
//! run's summary ([`stalls_so_far`]); only a long one is warned of as it happens.
//!
//! The heartbeat beats only while calls are timed: once no stopwatch has been started or read
//! for [`IDLE`], it sleeps until the next one is (an idle ladder or portal must not wake two
//! hundred times a second). Time it slept is no stall: nothing was being timed.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// How often the heartbeat wakes.
const TICK: Duration = Duration::from_millis(5);
/// Lateness of a wake-up that counts as a stall: above a busy scheduler's ordinary jitter.
const SLACK: Duration = Duration::from_millis(20);
/// The heartbeat sleeps once no stopwatch was started or read for this long. Every wait for
/// a bot reads its stopwatch far more often (`crate::interrupt::CHECK_INTERVAL`).
const IDLE: Duration = Duration::from_secs(2);

/// A stall this long is warned of while it happens; shorter ones are only counted for the run's
/// summary. A tenth of the default move budget (`--move-ms 1000`): had it been charged, a stall
/// that long would have taken a real share of a move, so it means something an operator acts on
/// (a suspended job, a machine overloaded well past its cores). The stalls below it are a busy
/// scheduler's delays, dozens in a run on two loaded cores, each charged to no bot either.
pub const STALL_WORTH_A_WARNING: Duration = Duration::from_millis(100);

struct Heartbeat {
    origin: Instant,
    /// Nanoseconds since `origin` of the last tick.
    last_tick: AtomicU64,
    /// Nanoseconds since `origin` of the last start or read of a stopwatch.
    last_use: AtomicU64,
    /// Asleep for want of calls to time; woken by the next use.
    sleeping: AtomicBool,
    asleep: Mutex<()>,
    wake: Condvar,
    idle: Duration,
    /// The stalls accounted so far.
    tally: StallTally,
}

/// The heartbeat, once a stopwatch has started it.
static BEAT: OnceLock<&'static Heartbeat> = OnceLock::new();

fn heartbeat() -> &'static Heartbeat {
    BEAT.get_or_init(|| Heartbeat::start(IDLE))
}

impl Heartbeat {
    /// A heartbeat of its own thread, which sleeps after `idle` without use.
    fn start(idle: Duration) -> &'static Heartbeat {
        let beat: &'static Heartbeat = Box::leak(Box::new(Heartbeat {
            origin: Instant::now(),
            last_tick: AtomicU64::new(0),
            last_use: AtomicU64::new(0),
            sleeping: AtomicBool::new(false),
            asleep: Mutex::new(()),
            wake: Condvar::new(),
            idle,
            tally: StallTally::default(),
        }));
        let started = std::thread::Builder::new()
            .name("agon-heartbeat".into())
            .spawn(move || loop {
                std::thread::sleep(TICK);
                beat.tick();
            });
        if let Err(e) = started {
            log::warn!("no heartbeat thread ({e}): engine stalls will not be told from slow bots");
        }
        beat
    }

    fn tick(&self) {
        let now = nanos(self.origin.elapsed());
        if now.saturating_sub(self.last_use.load(Ordering::SeqCst)) > nanos(self.idle) {
            self.sleep_until_used();
            return;
        }
        let last = self.last_tick.swap(now, Ordering::SeqCst);
        let late = Duration::from_nanos(now.saturating_sub(last)).saturating_sub(TICK);
        if late > SLACK {
            self.tally.add(late);
            warn_if_long(late);
        }
    }

    fn sleep_until_used(&self) {
        let mut asleep = self.asleep.lock().unwrap_or_else(|p| p.into_inner());
        // A use between the check and the lock keeps it awake.
        let now = nanos(self.origin.elapsed());
        if now.saturating_sub(self.last_use.load(Ordering::SeqCst)) <= nanos(self.idle) {
            return;
        }
        self.sleeping.store(true, Ordering::SeqCst);
        while self.sleeping.load(Ordering::SeqCst) {
            asleep = self.wake.wait(asleep).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// A stopwatch is started or read at `now` (nanoseconds since the origin): the heartbeat
    /// beats, from `now` on if it slept.
    fn used(&self, now: u64) {
        self.last_use.fetch_max(now, Ordering::SeqCst);
        if self.sleeping.load(Ordering::SeqCst) {
            let _asleep = self.asleep.lock().unwrap_or_else(|p| p.into_inner());
            if self.sleeping.swap(false, Ordering::SeqCst) {
                self.last_tick.store(now, Ordering::SeqCst);
                self.wake.notify_one();
            }
        }
    }
}

fn warn_if_long(stall: Duration) {
    if worth_a_warning(stall) {
        log::warn!(
            "the engine was not running for {} ms (a suspended job or an overloaded machine); \
             no bot is charged for that time",
            stall.as_millis()
        );
    }
}

fn worth_a_warning(stall: Duration) -> bool {
    stall >= STALL_WORTH_A_WARNING
}

/// The stalls counted so far, and their time.
#[derive(Default)]
struct StallTally {
    count: AtomicU64,
    nanos: AtomicU64,
}

impl StallTally {
    fn add(&self, stall: Duration) {
        self.nanos.fetch_add(nanos(stall), Ordering::SeqCst);
        self.count.fetch_add(1, Ordering::SeqCst);
    }

    fn so_far(&self) -> Stalls {
        Stalls {
            count: self.count.load(Ordering::SeqCst),
            total: Duration::from_nanos(self.nanos.load(Ordering::SeqCst)),
        }
    }
}

/// How often, and how long in all, the engine was stalled: what a run says once at its end.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stalls {
    pub count: u64,
    pub total: Duration,
}

impl fmt::Display for Stalls {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let times = if self.count == 1 { "time" } else { "times" };
        write!(
            f,
            "the engine was stalled {} {times}, {} ms in all; no bot was charged for that time",
            self.count,
            self.total.as_millis()
        )
    }
}

/// The stalls of this process so far (none where no call was ever timed).
pub fn stalls_so_far() -> Stalls {
    BEAT.get()
        .map_or_else(Stalls::default, |beat| beat.tally.so_far())
}

fn nanos(d: Duration) -> u64 {
    d.as_nanos().min(u64::MAX as u128) as u64
}

/// All the engine's stall time so far, including a stall the heartbeat has not woken up from
/// yet (the caller may run before the heartbeat after a SIGCONT).
pub fn stalled_total() -> Duration {
    stalled_until(Instant::now())
}

/// [`stalled_total`] as of `now`. A [`Stopwatch`] passes the instant it has just read: every
/// bot call is timed, so each end of a call costs one read of the monotonic clock, not three.
fn stalled_until(now: Instant) -> Duration {
    heartbeat().stalled_until(now)
}

impl Heartbeat {
    fn stalled_until(&self, now: Instant) -> Duration {
        let now = nanos(now.saturating_duration_since(self.origin));
        self.used(now);
        let accounted = self.tally.nanos.load(Ordering::SeqCst);
        let since_tick =
            Duration::from_nanos(now.saturating_sub(self.last_tick.load(Ordering::SeqCst)));
        let pending = since_tick.saturating_sub(TICK);
        let pending = if pending > SLACK {
            pending
        } else {
            Duration::ZERO
        };
        Duration::from_nanos(accounted) + pending
    }
}

/// Measures a call in the engine's running time.
#[derive(Debug, Clone, Copy)]
pub struct Stopwatch {
    start: Instant,
    stalled_at_start: Duration,
}

impl Stopwatch {
    pub fn start() -> Stopwatch {
        let start = Instant::now();
        Stopwatch {
            start,
            stalled_at_start: stalled_until(start),
        }
    }

    /// When the call started.
    pub fn started(&self) -> Instant {
        self.start
    }

    /// How long the engine was stalled since the start.
    pub fn stalled(&self) -> Duration {
        self.stalled_at(Instant::now())
    }

    /// Wall time since the start, less the engine's stalls.
    pub fn elapsed(&self) -> Duration {
        self.elapsed_at(Instant::now())
    }

    /// The instant at which `limit` of running time will have passed, as far as is known now:
    /// a stall moves it later.
    pub fn deadline(&self, limit: Duration) -> Instant {
        self.start + limit + self.stalled()
    }

    /// The stall and the running time are taken at one instant, so that they add up to the
    /// clock exactly.
    fn stalled_at(&self, now: Instant) -> Duration {
        stalled_until(now)
            .saturating_sub(self.stalled_at_start)
            .min(now.saturating_duration_since(self.start))
    }

    fn elapsed_at(&self, now: Instant) -> Duration {
        now.saturating_duration_since(self.start)
            .saturating_sub(self.stalled_at(now))
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
    fn one_reading_of_the_clock_splits_into_running_and_stalled_time() {
        let watch = Stopwatch::start();
        std::thread::sleep(Duration::from_millis(5));
        let now = Instant::now();
        assert_eq!(
            watch.elapsed_at(now) + watch.stalled_at(now),
            now - watch.started()
        );
        // An instant before the start (a caller's own earlier reading) is no time at all.
        if let Some(before) = watch.started().checked_sub(Duration::from_millis(1)) {
            assert_eq!(watch.elapsed_at(before), Duration::ZERO);
            assert_eq!(watch.stalled_at(before), Duration::ZERO);
        }
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
        let counted = stalls_so_far();
        assert!(counted.count >= 1, "{counted:?}");
        assert!(counted.total >= Duration::from_millis(200), "{counted:?}");
        assert!(
            watch.elapsed() < Duration::from_millis(200),
            "{:?}",
            watch.elapsed()
        );
    }

    /// Before, the heartbeat woke 200 times a second for as long as the process lived, so an
    /// idle ladder or portal never slept.
    #[test]
    fn the_heartbeat_sleeps_when_nothing_is_timed_and_wakes_with_no_stall() {
        let beat = Heartbeat::start(Duration::from_millis(50));
        beat.stalled_until(Instant::now());
        let start = Instant::now();
        while !beat.sleeping.load(Ordering::SeqCst) {
            assert!(start.elapsed() < Duration::from_secs(20), "it never slept");
            std::thread::sleep(Duration::from_millis(10));
        }
        let ticked = beat.last_tick.load(Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(
            beat.last_tick.load(Ordering::SeqCst),
            ticked,
            "it beat while asleep"
        );
        // The time it slept is no stall of a call started now.
        let stalled = beat.stalled_until(Instant::now());
        assert!(!beat.sleeping.load(Ordering::SeqCst));
        assert_eq!(
            stalled,
            Duration::from_nanos(beat.tally.nanos.load(Ordering::SeqCst))
        );
        let start = Instant::now();
        while beat.last_tick.load(Ordering::SeqCst) == ticked {
            assert!(start.elapsed() < Duration::from_secs(20), "it never woke");
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn only_a_stall_that_matters_for_a_budget_is_warned_of() {
        assert!(!worth_a_warning(SLACK + Duration::from_millis(1)));
        assert!(!worth_a_warning(Duration::from_millis(99)));
        assert!(worth_a_warning(STALL_WORTH_A_WARNING));
        assert!(worth_a_warning(Duration::from_secs(5)));
    }

    #[test]
    fn every_stall_is_counted_for_the_summary() {
        let tally = StallTally::default();
        assert_eq!(tally.so_far(), Stalls::default());
        tally.add(Duration::from_millis(25));
        assert_eq!(
            tally.so_far().to_string(),
            "the engine was stalled 1 time, 25 ms in all; no bot was charged for that time"
        );
        tally.add(Duration::from_micros(16_600));
        tally.add(Duration::from_millis(400));
        let stalls = tally.so_far();
        assert_eq!(stalls.count, 3);
        assert_eq!(
            stalls.to_string(),
            "the engine was stalled 3 times, 441 ms in all; no bot was charged for that time"
        );
    }
}
