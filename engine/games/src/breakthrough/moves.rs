use super::{ParseSquareError, Side, Square};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// One worker's step from one square to another. Whether it is legal, and whether it captures,
/// is for the position to say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }
}

/// Plain `from-to`; the position's [`super::Position::notation`] writes `x` for captures.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// Accepts `b2-b3` and `b2xc3` (the separator does not decide legality: the position does).
impl FromStr for Move {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Move, ParseSquareError> {
        let (from, to) = s
            .split_once(['-', 'x'])
            .ok_or_else(|| ParseSquareError(s.to_string()))?;
        Ok(Move::new(from.parse()?, to.parse()?))
    }
}

/// Why a move is not legal, in the words of the rules file ("Moves").
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum IllegalMove {
    #[error("the game is over")]
    GameOver,
    #[error("{square} is off the {rows}x{cols} board")]
    OffBoard { square: Square, rows: u8, cols: u8 },
    #[error("{mover} has no worker on {square}")]
    NoWorker { mover: Side, square: Square },
    #[error("the {mover} worker on {square} has reached the base and can no longer move")]
    WorkerAtBase { mover: Side, square: Square },
    #[error("{mv} is not one step forward (straight or diagonal) for {mover}")]
    NotAForwardStep { mover: Side, mv: Move },
    #[error("{mv} moves straight onto an occupied square; straight moves need an empty square")]
    StraightOntoPiece { mv: Move },
    #[error("{mv} moves onto {mover}'s own worker")]
    OntoOwnWorker { mover: Side, mv: Move },
}
