//! Faults: what went wrong with a seat's call, with a cause from a fixed vocabulary. The policy
//! that decides what a fault costs is part of the game contract
//! (`agon_games::contract::FaultPolicy`); how `random-legal` counts errors is here.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a bot's call did not yield a legal action. Serialized in records and JSON as snake case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultCause {
    /// The call did not answer within its budget.
    Timeout,
    /// The answer decoded but the rules refuse it (the detail gives the rules' reason).
    Illegal,
    /// The answer did not decode as the game's protocol type.
    Malformed,
    /// The bot panicked (the detail gives the panic message).
    Panic,
    /// The bot's process died of a signal (the detail names it).
    Crash,
    /// The bot's process ran out of memory (its cgroup's `memory.max`, or its address-space
    /// limit where it has no cgroup).
    Oom,
    /// The sandbox refused a system call and killed the bot's process.
    RefusedSyscall,
    /// The bot's process exited (or closed its pipe) instead of answering.
    Exited,
    /// The bot declined to play, e.g. it refused its parameters at start.
    Refused,
    /// The seat's host is gone: an earlier call was abandoned or killed.
    Abandoned,
    /// The bot's process was killed from outside the engine (a stop signal or SIGKILL the
    /// engine did not send, e.g. a batch system signalling every process of a job), or the
    /// engine itself was asked to stop. Not the bot's fault: a game with such a fault is never
    /// recorded; it is played again (see `crate::interrupt`).
    External,
}

impl fmt::Display for FaultCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FaultCause::Timeout => "timeout",
            FaultCause::Illegal => "illegal",
            FaultCause::Malformed => "malformed",
            FaultCause::Panic => "panic",
            FaultCause::Crash => "crash",
            FaultCause::Oom => "oom",
            FaultCause::RefusedSyscall => "refused_syscall",
            FaultCause::Exited => "exited",
            FaultCause::Refused => "refused",
            FaultCause::Abandoned => "abandoned",
            FaultCause::External => "external",
        })
    }
}

/// When in the match a fault happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Start,
    Move,
}

/// One recorded fault.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fault {
    pub seat: usize,
    pub phase: Phase,
    /// Plies played before the faulty call.
    pub ply: u32,
    pub cause: FaultCause,
    pub detail: String,
    /// Wall time the call took (up to the deadline for a timeout), in microseconds.
    pub wall_us: u64,
    /// An illegal answer in the game's notation, where it decoded into an action (bounded like
    /// all bot text): the viewer draws it on the position it was refused on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
}

/// How many errors `random-legal` tolerates from a seat that has had `turns` turns.
pub fn tolerated_errors(max_error_rate: f64, turns: u32) -> u32 {
    ((max_error_rate * turns as f64).floor() as u32).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_legal_tolerates_at_least_one_error() {
        assert_eq!(tolerated_errors(0.1, 3), 1);
        assert_eq!(tolerated_errors(0.1, 25), 2);
    }
}
