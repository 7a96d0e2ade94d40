//! Breakthrough (`docs/games/breakthrough.md`), protocol version 1.
//!
//! Coordinates are absolute: row 0 is White's back row, White moves toward higher rows
//! (see `agon_games::breakthrough`). Seat 0 plays White, seat 1 Black.

use crate::protocol::GameProtocol;
use serde::{Deserialize, Serialize};

// The rules' own types travel as they are (their serde shapes are the wire format of version 1),
// so a bot has one `Side`, `Square` and `Move`, not a wire copy of each beside the rules'.
pub use super::{Move, Side, Square};

/// Breakthrough's [`GameProtocol`]: [`Setup`], [`Observation`], and a [`Move`] as the action.
pub struct Breakthrough;

/// Breakthrough's protocol version; a bot built for another version is refused.
pub const VERSION: u32 = 1;

impl GameProtocol for Breakthrough {
    const GAME: &'static str = "breakthrough";
    const VERSION: u32 = VERSION;
    type Setup = Setup;
    type Observation = Observation;
    type Action = Move;
}

/// What stands on one square of [`Observation::board`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Cell {
    /// No worker.
    Empty,
    /// A White worker.
    White,
    /// A Black worker.
    Black,
}

/// The rules' parameters and the side this bot plays.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// Rows of the board; row 0 is White's back row.
    pub rows: u8,
    /// Columns of the board; column 0 is `a`.
    pub cols: u8,
    /// The side this bot plays (White for seat 0, Black for seat 1).
    pub you: Side,
    /// The side that moves first.
    pub first: Side,
    /// Workers a side must bring to the opponent's home row to win, and the fewest it may keep
    /// (1: the standard rule; rules file, "Winning").
    pub workers_to_base: u8,
    /// Plies after which the game is drawn; `None`: no limit.
    pub move_limit: Option<u32>,
}

/// The whole position, sent before each of this bot's moves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// `rows * cols` cells, row by row from row 0, column `a` first.
    pub board: Vec<Cell>,
    /// The side to move: this bot's own side.
    pub to_move: Side,
    /// Plies played so far.
    pub ply: u32,
    /// The move played just before this observation (the opponent's); `None` at the start
    /// and after a passed turn (the `skip` fault policy).
    pub last_move: Option<Move>,
}
