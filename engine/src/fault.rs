//! Faults: what went wrong with a seat's call, with a cause from a fixed vocabulary, and the
//! policy that decides what a fault costs (DESIGN.md, "Fault policy").

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
    /// The bot declined to play, e.g. it refused its parameters at start.
    Refused,
    /// The seat's host is gone: an earlier call was abandoned.
    Abandoned,
}

impl fmt::Display for FaultCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FaultCause::Timeout => "timeout",
            FaultCause::Illegal => "illegal",
            FaultCause::Malformed => "malformed",
            FaultCause::Panic => "panic",
            FaultCause::Refused => "refused",
            FaultCause::Abandoned => "abandoned",
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
}

/// What a fault costs the seat. Each game has its original course's default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultPolicy {
    /// The faulty seat loses the game at once (Breakthrough's course rule).
    Forfeit,
}
