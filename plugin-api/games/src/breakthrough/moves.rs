use super::{ParseSquareError, Side, Square};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// One worker's step from one square to another. Whether it is legal, and whether it captures,
/// is for the position to say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Move {
    /// The square of the worker that moves.
    pub from: Square,
    /// The square it steps onto (capturing an opponent's worker there, if any).
    pub to: Square,
}

impl Move {
    /// The step `from` to `to` (not checked: [`super::Position::check`] says if it is legal).
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
    /// The game has already ended: no move is legal.
    #[error("the game is over")]
    GameOver,
    /// One of the move's squares is not on the board.
    #[error("{square} is off the {rows}x{cols} board")]
    OffBoard {
        /// The square off the board.
        square: Square,
        /// The board's rows.
        rows: u8,
        /// The board's columns.
        cols: u8,
    },
    /// The side to move has no worker on the move's `from` square.
    #[error("{mover} has no worker on {square}")]
    NoWorker {
        /// The side to move.
        mover: Side,
        /// The move's `from` square.
        square: Square,
    },
    /// The worker stands on the opponent's home row, where workers can no longer move (rules
    /// file, "Winning").
    #[error("the {mover} worker on {square} has reached the base and can no longer move")]
    WorkerAtBase {
        /// The side to move.
        mover: Side,
        /// The move's `from` square, on the opponent's home row.
        square: Square,
    },
    /// `to` is not one row forward and at most one column aside of `from`.
    #[error("{mv} is not one step forward (straight or diagonal) for {mover}")]
    NotAForwardStep {
        /// The side to move (its forward direction decides).
        mover: Side,
        /// The move refused.
        mv: Move,
    },
    /// A straight step onto an opponent's worker: only diagonal steps capture.
    #[error("{mv} moves straight onto an occupied square; straight moves need an empty square")]
    StraightOntoPiece {
        /// The move refused.
        mv: Move,
    },
    /// A step onto a worker of the mover's own side.
    #[error("{mv} moves onto {mover}'s own worker")]
    OntoOwnWorker {
        /// The side to move.
        mover: Side,
        /// The move refused.
        mv: Move,
    },
}
