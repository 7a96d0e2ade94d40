//! Rectangles (`docs/games/rectangles.md`), protocol version 1. Seat `k` is player `k`, whose
//! colour is `k + 1` on the board.
//!
//! Every round each bot receives the whole state (rules file, "What a bot sees each round"):
//! the board, every robot, the scores, the round and the last round's moves. Round 0 asks for
//! the start cells (one per robot), every later round for one direction per robot. All seats of
//! a round are asked at once and see the same state.

use crate::protocol::GameProtocol;
use serde::{Deserialize, Serialize};

pub use super::board::{Cell, Paint, FILLED, UNPAINTED};
pub use super::Direction;

/// Rectangles' [`GameProtocol`]: [`Setup`], [`Observation`], and an [`Action`] per round.
pub struct Rectangles;

/// Rectangles' protocol version; a bot built for another version is refused.
pub const VERSION: u32 = 1;

impl GameProtocol for Rectangles {
    const GAME: &'static str = "rectangles";
    const VERSION: u32 = VERSION;
    type Setup = Setup;
    type Observation = Observation;
    type Action = Action;
}

/// The game's parameters and the player this bot is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// This bot's player, 0-based.
    pub you: u8,
    /// Players in the game, 2 to 8.
    pub players: u8,
    /// The board's side: an n x n grid.
    pub n: u16,
    /// Robots per player.
    pub robots: u16,
    /// Move rounds in a row without a claim that end the game (rules file, "End and result").
    pub idle_rounds: u32,
    /// Move rounds after which the game ends whatever happens.
    pub max_rounds: u32,
}

/// The state at the start of a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// This bot's player, 0-based; its colour on the board is `you + 1`.
    pub you: u8,
    /// 0: place the robots; from 1: move them.
    pub round: u32,
    /// Row-major, n x n: `UNPAINTED`, `FILLED`, or `1 + player`.
    pub cells: Vec<Paint>,
    /// Per player, per robot (empty lists before placement).
    pub robots: Vec<Vec<Cell>>,
    /// Per player, the cells claimed so far.
    pub scores: Vec<u32>,
    /// Per player, the last round's moves (empty before the first move round).
    pub last_moves: Vec<Vec<Direction>>,
    /// Move rounds in a row without a claim so far.
    pub idle: u32,
    /// Players taken out of the game (their robots stay).
    pub out: Vec<bool>,
}

/// A bot's answer for one round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// Round 0: the start cell of each robot.
    Place(Vec<Cell>),
    /// Later rounds: each robot's direction.
    Move(Vec<Direction>),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{assert_wire, Reply, Start};

    /// Version 1, byte for byte.
    #[test]
    fn wire_format_is_stable() {
        assert_eq!(VERSION, 1);
        let start = Start {
            seat: 1,
            seats: 2,
            seed: 5,
            start_budget_ms: 1000,
            move_budget_ms: 100,
            bot_params: Default::default(),
            game: Setup {
                you: 1,
                players: 2,
                n: 3,
                robots: 1,
                idle_rounds: 12,
                max_rounds: 120,
            },
        };
        assert_wire(&start, "010205fbe8036400010203010c78");
        let observation = Observation {
            you: 0,
            round: 2,
            cells: vec![0, 1, 2, 255, 0, 0, 0, 0, 1],
            robots: vec![vec![Cell { row: 0, col: 1 }], vec![Cell { row: 2, col: 2 }]],
            scores: vec![3, 0],
            last_moves: vec![vec![Direction::East], vec![Direction::Stay]],
            idle: 1,
            out: vec![false, true],
        };
        assert_wire(
            &observation,
            "000209000102ff000000000102010001010202020300020102010401020001",
        );
        assert_wire(
            &Reply::new(Action::Move(vec![Direction::North, Direction::West])).with_nodes(7),
            "010200030107",
        );
        assert_wire(
            &Reply::new(Action::Place(vec![Cell { row: 1, col: 300 }])),
            "000101fb2c0100",
        );
    }
}
