use super::Side;
use serde::{Deserialize, Serialize};

/// How a finished game ended (rules file, "Moves" and "Winning").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// `None` for a draw (only the move limit draws).
    pub winner: Option<Side>,
    /// Which rule ended the game.
    pub reason: EndReason,
}

/// The rule that ended a game (rules file, "Moves" and "Winning").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The winner brought `workers_to_base` workers to the opponent's home row.
    ReachedBase,
    /// The loser has fewer than `workers_to_base` workers left (with the standard rule: none).
    TooFewWorkers,
    /// The loser was to move and had no legal move.
    NoLegalMove,
    /// The move limit was reached: a draw.
    MoveLimit,
}

impl EndReason {
    /// The reason in words, from the winner's side (e.g. "reached the opponent's home row").
    pub fn describe(self) -> &'static str {
        match self {
            EndReason::ReachedBase => "reached the opponent's home row",
            EndReason::TooFewWorkers => "opponent has too few workers left",
            EndReason::NoLegalMove => "opponent had no legal move",
            EndReason::MoveLimit => "move limit reached",
        }
    }
}
