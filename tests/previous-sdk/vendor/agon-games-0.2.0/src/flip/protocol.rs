//! Flip, the coin game (`docs/games/flip.md`), protocol version 1. Seat 0 is player 1 (starts
//! in the right third, attacks toward -x); seat 1 is player 2 (left third, attacks toward +x).

use crate::protocol::GameProtocol;
use serde::{Deserialize, Serialize};

/// Flip's [`GameProtocol`]: [`Setup`], [`Observation`], and a half-turn of [`FlipMove`]s as
/// the action.
pub struct Flip;

/// Flip's protocol version; a bot built for another version is refused.
pub const VERSION: u32 = 1;

impl GameProtocol for Flip {
    const GAME: &'static str = "flip";
    const VERSION: u32 = VERSION;
    type Setup = Setup;
    type Observation = Observation;
    /// The moves of one half-turn, applied in order; invalid ones are skipped, those beyond
    /// the allowed number ignored.
    type Action = Vec<FlipMove>;
}

/// Which player a bot is (the rules' [`super::Player`] on the wire).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    /// Player 1: right third, attacks toward -x.
    One,
    /// Player 2: left third, attacks toward +x.
    Two,
}

/// The game's parameters and the player this bot is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// Coins per player.
    pub n: u32,
    /// The turn limit: turns 0 to `turns - 1` are played.
    pub turns: u32,
    /// The player this bot is (seat 0 is player 1).
    pub you: Side,
    /// The `java.util.Random` seed the start board was drawn from.
    pub board_seed: i64,
}

/// A coin's centre, in the table's coordinates (x in [-60, 60], y in [-20, 20]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Coin {
    /// Along the table's length; player 1 attacks toward -x.
    pub x: f64,
    /// Across the table.
    pub y: f64,
}

/// The whole table before one of this bot's half-turns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    /// The player this bot is.
    pub you: Side,
    /// Coins per player.
    pub n: u32,
    /// The turn in progress, from 0.
    pub turn: u32,
    /// The turn limit: the game ends after turn `turn_limit - 1`.
    pub turn_limit: u32,
    /// Moves this half-turn may make: 1 for player 1 on turn 0, otherwise 2 ("Turns").
    pub moves_allowed: u32,
    /// This bot's coins by id.
    pub own: Vec<Coin>,
    /// The opponent's coins by id.
    pub opponent: Vec<Coin>,
    /// Recorded (sticky) scores: [player 1, player 2].
    pub scores: [u32; 2],
}

/// One move: flip own coin `id` to the new centre (`x`, `y`), which must be exactly 2 from the
/// old one, overlap no coin and lie on the table (rules file, "Moves").
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FlipMove {
    /// The coin to move, one of this bot's ids `0..n`.
    pub id: u32,
    /// The new centre's x.
    pub x: f64,
    /// The new centre's y.
    pub y: f64,
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
            seed: 9,
            start_budget_ms: 1000,
            move_budget_ms: 250,
            bot_params: [("depth".to_string(), "2".to_string())].into(),
            game: Setup {
                n: 3,
                turns: 40,
                you: Side::Two,
                board_seed: -5,
            },
        };
        assert_wire(&start, "010209fbe803fa01056465707468013203280109");
        let coin = |x, y| Coin { x, y };
        let observation = Observation {
            you: Side::One,
            n: 1,
            turn: 2,
            turn_limit: 40,
            moves_allowed: 2,
            own: vec![coin(1.5, -0.25)],
            opponent: vec![coin(0.0, 3.0)],
            scores: [1, 0],
        };
        assert_wire(
            &observation,
            "000102280201000000000000f83f000000000000d0bf01000000000000000000000000000008400100",
        );
        let reply = Reply::new(vec![FlipMove {
            id: 0,
            x: 2.5,
            y: 0.5,
        }])
        .with_nodes(7);
        assert_wire(&reply, "01000000000000000440000000000000e03f0107");
    }
}
