//! ReversiXT (`docs/games/reversixt.md`), protocol version 1. Seat `k` is player `k + 1`.
//!
//! Bots receive the whole state every time: the board as map-file text (squares and the
//! transitions still standing; holes where bombs fell), every player's override stones and bombs,
//! who is disqualified, the phase, and the bot's own clock and depth limit (rules file, "Time
//! and depth limits"). The answer is the course server's move triple (x, y, special).

use crate::protocol::GameProtocol;
use serde::{Deserialize, Serialize};

/// ReversiXT's [`GameProtocol`]: [`Setup`], [`Observation`], and a [`Move`] as the action.
pub struct ReversiXt;

/// ReversiXT's protocol version; a bot built for another version is refused.
pub const VERSION: u32 = 1;

impl GameProtocol for ReversiXt {
    const GAME: &'static str = "reversixt";
    const VERSION: u32 = VERSION;
    type Setup = Setup;
    type Observation = Observation;
    type Action = Move;
}

/// The map, this bot's player number and the limits of the match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// This bot's player number, 1..=players.
    pub you: u8,
    /// Players in the game: the map's, 2 to 8, one seat each.
    pub players: u8,
    /// The map file as loaded.
    pub map: String,
    /// Milliseconds added to the bot's time account before each request (`0`: no time limit).
    pub time_ms: u64,
    /// Plies the bot may search (`0`: no depth limit).
    pub depth: u32,
}

/// The phase of the move asked for (the game is never over when a bot is asked).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Phase 1: place a stone (rules file, "Phase 1 (building)").
    Building,
    /// Phase 2: throw a bomb, special value 0 (rules file, "Phase 2 (bombing)").
    Bombing,
}

/// The state before one of this bot's moves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// This bot's player number, the player to move.
    pub you: u8,
    /// The phase this move belongs to.
    pub phase: Phase,
    /// The board in the map-file format: the header as loaded, the squares and transitions as
    /// they stand now.
    pub board: String,
    /// Per player (index 0 is player 1).
    pub overrides: Vec<u32>,
    /// Per player, the bombs left.
    pub bombs: Vec<u32>,
    /// Per player, whether the player is out (its stones stay on the board).
    pub disqualified: Vec<bool>,
    /// Moves played so far.
    pub ply: u32,
    /// The bot's time account for this request in milliseconds (`0`: no time limit).
    pub time_account_ms: u64,
    /// Plies the bot may search (`0`: no depth limit).
    pub depth: u32,
}

/// A move as the course protocol sends it: the square and the special value (rules file,
/// "Effects": 0, a player number on a choice square, 20 or 21 on a bonus square).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    /// The target square's column, from 0 at the left.
    pub x: u16,
    /// The target square's row, from 0 at the top.
    pub y: u16,
    /// The special value: 0, a player number, 20 (bomb) or 21 (override stone).
    pub special: u8,
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
            seat: 2,
            seats: 3,
            seed: 11,
            start_budget_ms: 2000,
            move_budget_ms: 1000,
            bot_params: Default::default(),
            game: Setup {
                you: 3,
                players: 3,
                map: "3\n".into(),
                time_ms: 1500,
                depth: 4,
            },
        };
        assert_wire(&start, "02030bfbd007fbe80300030302330afbdc0504");
        let observation = Observation {
            you: 3,
            phase: Phase::Bombing,
            board: "2 0\n".into(),
            overrides: vec![1, 0, 2],
            bombs: vec![0, 3, 1],
            disqualified: vec![false, true, false],
            ply: 301,
            time_account_ms: 70_000,
            depth: 0,
        };
        assert_wire(
            &observation,
            "0301043220300a030100020300030103000100fb2d01fc7011010000",
        );
        assert_wire(
            &Reply::new(Move {
                x: 300,
                y: 7,
                special: 21,
            })
            .with_nodes(99),
            "fb2c0107150163",
        );
    }
}
