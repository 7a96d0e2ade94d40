//! How a seat runs (docs/architecture.md, "Hosts"): every host takes the same encoded messages and gives
//! back the bot's encoded answers, so a bot behaves the same whichever host runs it.
//!
//! - [`InlineHost`]: the bot is called on the match thread. Fastest; for trusted code only: a
//!   bot that never returns hangs the match, and time is measured after the call.
//! - [`ThreadHost`]: the bot lives on its own worker thread and the match waits with a deadline.
//!   A late bot forfeits; a bot that never returns is abandoned (a thread cannot be killed).
//! - [`ProcessHost`]: the bot lives in a sandboxed `agon-host` child process; the watchdog kills
//!   the process group at the deadline. The default for team code.
//! - [`RemoteSeat`]: the bot is a course client over TCP (`agon reversixt serve`); the wire
//!   protocol itself lives in [`crate::course_net`].
//!
//! One file (or folder) per concern:
//! - `inline.rs`, `thread.rs`, `process/`, `remote.rs`: the hosts above; `unavailable.rs`: a
//!   seat whose host could not be started.
//! - [`sandbox`]: the process host's confinement (limits, namespaces, own root, Landlock,
//!   seccomp and its notifier, the cgroup), applied in the `agon-host` child.
//! - `cpu_clock.rs` and [`engine_stall`]: measuring a call's time fairly; [`crash_evidence`]:
//!   naming the bot that took the engine down.
//!
//! The `agon-host` binary itself is `harness/src/bin/agon-host.rs`, a thin entry point into
//! [`process`].

mod cpu_clock;
pub mod crash_evidence;
#[cfg(test)]
pub(crate) mod crowded_cpu;
pub mod engine_stall;
mod inline;
mod parent_death;
pub mod process;
mod remote;
mod restart_error;
pub mod sandbox;
mod sched_stat;
mod starvation;
#[cfg(test)]
mod test_bots;
mod thread;
mod unavailable;

use agon_games::contract::bounded;
pub use cpu_clock::thread_cpu_time;
pub use inline::InlineHost;
pub use process::{LocateError, ProcessHost, ProcessHostConfig};
pub use remote::RemoteSeat;
pub use restart_error::RestartError;
pub use thread::ThreadHost;
pub use unavailable::UnavailableHost;

use crate::fault::FaultCause;
use crate::record::RunQueue;
use agon_abi::{BotFailure, FailureKind};
use sandbox::SandboxReport;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The kinds of host, as in `--host`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HostKind {
    Inline,
    Thread,
    Process,
    /// A course client over TCP (`agon reversixt serve`); never chosen with `--host`.
    Remote,
}

impl HostKind {
    /// Whether a bot on this host runs inside agon's own process, where what it loads stays
    /// loaded (a library is never unloaded) and its crash is agon's: the callers that bound
    /// loaded builds or guard against crashes ask this, never which host it is.
    pub fn in_process(self) -> bool {
        match self {
            HostKind::Inline | HostKind::Thread => true,
            HostKind::Process | HostKind::Remote => false,
        }
    }
}

impl fmt::Display for HostKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HostKind::Inline => "inline",
            HostKind::Thread => "thread",
            HostKind::Process => "process",
            HostKind::Remote => "remote",
        })
    }
}

impl FromStr for HostKind {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<HostKind, UnknownName> {
        match s {
            "inline" => Ok(HostKind::Inline),
            "thread" => Ok(HostKind::Thread),
            "process" => Ok(HostKind::Process),
            other => Err(UnknownName {
                kind: "host",
                given: other.to_string(),
                expected: "inline, thread or process",
            }),
        }
    }
}

/// A host or clock name that is none of theirs.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} `{given}` (expected {expected})")]
pub struct UnknownName {
    /// What was named: `host` or `clock`.
    pub kind: &'static str,
    /// The name given.
    pub given: String,
    /// The names there are, as a reader would list them.
    pub expected: &'static str,
}

/// Which clock a budget counts (docs/architecture.md, "Time budgets").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Clock {
    /// Elapsed real time.
    #[default]
    Wall,
    /// The bot's own CPU time, which keeps results fair on a loaded machine; a wall-clock
    /// watchdog of [`CPU_WATCHDOG_FACTOR`] times the budget still bounds every call.
    Cpu,
}

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Clock::Wall => "wall-clock",
            Clock::Cpu => "CPU",
        })
    }
}

impl FromStr for Clock {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Clock, UnknownName> {
        match s {
            "wall" => Ok(Clock::Wall),
            "cpu" => Ok(Clock::Cpu),
            other => Err(UnknownName {
                kind: "clock",
                given: other.to_string(),
                expected: "wall or cpu",
            }),
        }
    }
}

/// With the CPU clock, the wall-clock watchdog allows this many times the budget.
pub const CPU_WATCHDOG_FACTOR: u32 = 3;

/// The watchdog of a call without a budget: the engine always keeps one (docs/architecture.md, "Time
/// budgets"), so no bot can hold a match forever.
pub const UNLIMITED_CALL_WATCHDOG: Duration = Duration::from_secs(3600);

/// The budget of one call and the clock it counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deadline {
    pub budget: Option<Duration>,
    pub clock: Clock,
    /// Calls made at once per core (a round of simultaneous moves with more seats than cores):
    /// under the CPU clock each gets a share of a core, so the wall-clock watchdog stretches by
    /// this much. 1 for a call alone.
    pub sharing: u32,
}

impl Deadline {
    pub fn wall(budget: Option<Duration>) -> Deadline {
        Deadline {
            budget,
            clock: Clock::Wall,
            sharing: 1,
        }
    }

    /// A budget of the bot's CPU time, for a call alone.
    pub fn cpu(budget: Option<Duration>) -> Deadline {
        Deadline {
            budget,
            clock: Clock::Cpu,
            sharing: 1,
        }
    }

    /// The wall time after which a host gives up on the call.
    pub fn watchdog(&self) -> Duration {
        match (self.budget, self.clock) {
            (None, _) => UNLIMITED_CALL_WATCHDOG,
            (Some(b), Clock::Wall) => b,
            (Some(b), Clock::Cpu) => b
                .saturating_mul(CPU_WATCHDOG_FACTOR)
                .saturating_mul(self.sharing.max(1)),
        }
    }

    /// Whether an answered call overran its budget by its clock (hosts that cannot interrupt a
    /// call, or that bound it only by the watchdog, learn this after the answer).
    pub fn overrun(&self, wall: Duration, cpu: Option<Duration>) -> bool {
        match (self.budget, self.clock) {
            (None, _) => false,
            (Some(b), Clock::Wall) => wall > b,
            (Some(b), Clock::Cpu) => cpu.unwrap_or(wall) > b,
        }
    }
}

/// What a host learned about its seat over the match, for the record.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HostReport {
    pub sandbox: Option<SandboxReport>,
    /// The bot's standard error, bounded (process host only).
    pub stderr: Option<String>,
    /// The bot's answering thread's times over the match, where the kernel keeps them.
    pub run_queue: Option<RunQueue>,
}

/// One seat's bot, behind some host.
pub trait SeatHost: Send {
    fn kind(&self) -> HostKind;
    /// Delivers the encoded `Start` message.
    fn start(&mut self, message: Vec<u8>, deadline: Deadline) -> Call<()>;
    /// Delivers an encoded observation and returns the encoded reply.
    fn act(&mut self, message: Vec<u8>, deadline: Deadline) -> Call<Vec<u8>>;
    /// The match is over: the host may begin to end, without being waited for. The runner
    /// releases every seat before it asks any for its [`SeatHost::report`] (which waits), so
    /// that a match's hosts end side by side, not one after another.
    fn release(&mut self) {}
    /// What the host learned, once the match is over.
    fn report(&mut self) -> HostReport {
        HostReport::default()
    }
    /// Why the host can no longer be called (it died, or was killed at a deadline), if so.
    fn gone(&self) -> Option<String> {
        None
    }
    /// Names this seat's calls for [`crash_evidence`]: on a host that runs the bot in the
    /// engine's process, a crash during one of its calls is written down as this seat's.
    fn label_calls(&mut self, _label: crash_evidence::CrashLabel) {}
    /// Starts the bot afresh in a new host, when this kind of host can; the caller then sends
    /// the start message again.
    fn restart(&mut self) -> Result<(), RestartError> {
        Err(RestartError::NotRestartable(self.kind()))
    }
}

/// The result of one call with its measured times.
#[derive(Debug)]
pub struct Call<T> {
    pub result: CallResult<T>,
    /// Wall time from the request to the answer (or to the deadline).
    pub wall: Duration,
    /// CPU time of the thread that ran the bot during the call, where it could be measured.
    pub cpu: Option<Duration>,
}

#[derive(Debug)]
pub enum CallResult<T> {
    Answer(T),
    /// The bot returned a failure instead of an answer (a caught panic, a refusal, a protocol
    /// mismatch).
    Failed(BotFailure),
    /// No answer before the host's watchdog fired.
    TimedOut,
    /// The host saw the bot fail in a way it reports itself: a crash, running out of memory, a
    /// refused system call, an exit, an oversized answer, or a seat abandoned earlier.
    Fault {
        cause: FaultCause,
        detail: String,
    },
}

impl<T> CallResult<T> {
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> CallResult<U> {
        match self {
            CallResult::Answer(t) => CallResult::Answer(f(t)),
            CallResult::Failed(b) => CallResult::Failed(b),
            CallResult::TimedOut => CallResult::TimedOut,
            CallResult::Fault { cause, detail } => CallResult::Fault { cause, detail },
        }
    }
}

/// A failure's kind in words, for fault details.
pub fn describe_failure(failure: &BotFailure) -> String {
    let message = bounded(&failure.message);
    match failure.kind {
        FailureKind::Panic => format!("bot panicked: {message}"),
        FailureKind::Refused => format!("bot refused: {message}"),
        FailureKind::Protocol => format!("bot reported a protocol error: {message}"),
    }
}
