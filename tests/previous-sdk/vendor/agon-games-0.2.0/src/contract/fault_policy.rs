//! What a fault costs the seat that made it: each game names its original course's policy, and
//! a match or tournament may override it (docs/architecture.md, "Fault policy").

use serde::{Deserialize, Serialize};
use std::fmt;

/// What a fault costs the seat (docs/architecture.md, "Fault policy"). Each game has its original course's
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
    SkipStall {
        /// Faulted turns in a row that stall the game, from 1 ([`DEFAULT_STALL_TURNS`] when
        /// none is given).
        turns: u32,
    },
    /// The engine plays a uniformly random legal action for the faulty seat and counts the
    /// error; a seat whose errors exceed `max(1, rate x its turns so far)` is disqualified.
    RandomLegal {
        /// The share of its turns so far a seat may fault (one fault is always allowed), 0 to
        /// 1 ([`DEFAULT_MAX_ERROR_RATE`] when none is given).
        max_error_rate: f64,
    },
}

/// Faulted turns in a row that stall a game under `skip-stall` when no number is given: two
/// rounds of a two-seat game.
pub const DEFAULT_STALL_TURNS: u32 = 4;

/// Under every policy that plays on after faults (`skip`, `random-legal`), this many turns in a
/// row ending in a fault stall the game anyway: a safety against a game that could otherwise
/// never end (every seat faulting forever in a game without a turn limit), far beyond any
/// course's turn limit (Flip's is 3000 turns; `docs/games/flip.md`).
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
    }
}
