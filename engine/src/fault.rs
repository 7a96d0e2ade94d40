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
    /// The bot's process died of a signal (the detail names it).
    Crash,
    /// The bot's process ran out of memory (its address-space limit).
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
}

/// What a fault costs the seat (DESIGN.md, "Fault policy"). Each game has its original course's
/// default; a match or tournament may override it. Written as `forfeit`, `disqualify`, `skip`,
/// `skip-stall[:TURNS]` or `random-legal[:RATE]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum FaultPolicy {
    /// The faulty seat loses the game at once (Breakthrough's course rule).
    Forfeit,
    /// The faulty seat is removed from the game; with two seats the other seat wins.
    Disqualify,
    /// The faulty seat's turn passes without an action; faults never end the game (the
    /// course rule of Flip: a game with faults plays on to its turn limit).
    Skip,
    /// As `Skip`, and a game in which `turns` turns in a row, over all seats, ended in a fault
    /// is stalled: it ends with no winner (opt-in, for games with no turn limit of their own).
    SkipStall { turns: u32 },
    /// The engine plays a uniformly random legal action for the faulty seat and counts the
    /// error; a seat whose errors exceed `max(1, rate x its turns so far)` is disqualified.
    RandomLegal { max_error_rate: f64 },
}

/// Faulted turns in a row that stall a game under `skip-stall` when no number is given: two
/// rounds of a two-seat game.
pub const DEFAULT_STALL_TURNS: u32 = 4;

/// Under every policy that plays on after faults (`skip`, `random-legal`), this many turns in a
/// row ending in a fault stall the game anyway: a safety against a game that could otherwise
/// never end (every seat faulting forever in a game without a turn limit), far beyond any
/// course's turn limit (Flip's is 3000 turns; `../shared/rules/flip.md`).
pub const SAFETY_STALL_TURNS: u32 = 100_000;

/// The error rate `random-legal` allows when none is given.
pub const DEFAULT_MAX_ERROR_RATE: f64 = 0.1;

impl FaultPolicy {
    /// Whether a fault under this policy ends the game at once.
    pub fn ends_game(&self) -> bool {
        matches!(self, FaultPolicy::Forfeit | FaultPolicy::Disqualify)
    }

    /// Faulted turns in a row after which a game is stalled.
    pub fn stall_turns(&self) -> u32 {
        match self {
            FaultPolicy::SkipStall { turns } => *turns,
            _ => SAFETY_STALL_TURNS,
        }
    }
}

impl fmt::Display for FaultPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FaultPolicy::Forfeit => f.write_str("forfeit"),
            FaultPolicy::Disqualify => f.write_str("disqualify"),
            FaultPolicy::Skip => f.write_str("skip"),
            FaultPolicy::SkipStall { turns } => write!(f, "skip-stall:{turns}"),
            FaultPolicy::RandomLegal { max_error_rate } => {
                write!(f, "random-legal:{max_error_rate}")
            }
        }
    }
}

impl std::str::FromStr for FaultPolicy {
    type Err = String;
    fn from_str(s: &str) -> Result<FaultPolicy, String> {
        let bad = || {
            format!(
                "unknown fault policy `{s}` (expected forfeit, disqualify, skip, skip-stall, \
                 skip-stall:TURNS with TURNS from 1, random-legal or random-legal:RATE with RATE \
                 from 0 to 1)"
            )
        };
        match s {
            "forfeit" => Ok(FaultPolicy::Forfeit),
            "disqualify" => Ok(FaultPolicy::Disqualify),
            "skip" => Ok(FaultPolicy::Skip),
            "skip-stall" => Ok(FaultPolicy::SkipStall {
                turns: DEFAULT_STALL_TURNS,
            }),
            _ if s.starts_with("skip-stall:") => match s["skip-stall:".len()..].parse() {
                Ok(turns) if turns > 0 => Ok(FaultPolicy::SkipStall { turns }),
                _ => Err(bad()),
            },
            "random-legal" => Ok(FaultPolicy::RandomLegal {
                max_error_rate: DEFAULT_MAX_ERROR_RATE,
            }),
            _ => {
                let rate: f64 = s
                    .strip_prefix("random-legal:")
                    .and_then(|r| r.parse().ok())
                    .ok_or_else(bad)?;
                if !(0.0..=1.0).contains(&rate) {
                    return Err(bad());
                }
                Ok(FaultPolicy::RandomLegal {
                    max_error_rate: rate,
                })
            }
        }
    }
}

impl From<FaultPolicy> for String {
    fn from(p: FaultPolicy) -> String {
        p.to_string()
    }
}

impl TryFrom<String> for FaultPolicy {
    type Error = String;
    fn try_from(s: String) -> Result<FaultPolicy, String> {
        s.parse()
    }
}

/// How many errors `random-legal` tolerates from a seat that has had `turns` turns.
pub fn tolerated_errors(max_error_rate: f64, turns: u32) -> u32 {
    ((max_error_rate * turns as f64).floor() as u32).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policies_parse_and_print() {
        for text in [
            "forfeit",
            "disqualify",
            "skip",
            "skip-stall:6",
            "random-legal:0.25",
        ] {
            assert_eq!(text.parse::<FaultPolicy>().unwrap().to_string(), text);
        }
        assert_eq!(
            "random-legal".parse::<FaultPolicy>(),
            Ok(FaultPolicy::RandomLegal {
                max_error_rate: DEFAULT_MAX_ERROR_RATE
            })
        );
        assert_eq!(
            "skip-stall".parse::<FaultPolicy>(),
            Ok(FaultPolicy::SkipStall { turns: 4 })
        );
        for bad in [
            "",
            "lose",
            "random-legal:2",
            "random-legal:x",
            "skip-stall:0",
            "skip-stall:",
        ] {
            assert!(bad.parse::<FaultPolicy>().is_err(), "{bad}");
        }
        assert_eq!(tolerated_errors(0.1, 3), 1);
        assert_eq!(tolerated_errors(0.1, 25), 2);
    }
}
