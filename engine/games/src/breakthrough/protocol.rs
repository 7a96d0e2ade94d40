//! Breakthrough (`shared/rules/breakthrough.md`), protocol version 1.
//!
//! Coordinates are absolute: row 0 is White's back row, White moves toward higher rows
//! (see `agon_games::breakthrough`). Seat 0 plays White, seat 1 Black.

use crate::protocol::GameProtocol;
use serde::{Deserialize, Serialize};

// The rules' own types travel as they are (their serde shapes are the wire format of version 1),
// so a bot has one `Side`, `Square` and `Move`, not a wire copy of each beside the rules'.
pub use super::{Move, Side, Square};

pub struct Breakthrough;

pub const VERSION: u32 = 1;

impl GameProtocol for Breakthrough {
    const GAME: &'static str = "breakthrough";
    const VERSION: u32 = VERSION;
    type Setup = Setup;
    type Observation = Observation;
    type Action = Move;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Cell {
    Empty,
    White,
    Black,
}

/// The rules' parameters and the side this bot plays.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    pub rows: u8,
    pub cols: u8,
    pub you: Side,
    pub first: Side,
    pub workers_to_base: u8,
    /// Plies after which the game is drawn.
    pub move_limit: Option<u32>,
}

/// The whole position, sent before each of this bot's moves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// `rows * cols` cells, row by row from row 0, column `a` first.
    pub board: Vec<Cell>,
    pub to_move: Side,
    /// Plies played so far.
    pub ply: u32,
    pub last_move: Option<Move>,
}
