//! Flip, the coin game (`shared/rules/flip.md`), protocol version 1. Seat 0 is player 1 (starts
//! in the right third, attacks toward -x); seat 1 is player 2 (left third, attacks toward +x).

use super::GameProtocol;
use serde::{Deserialize, Serialize};

pub struct Flip;

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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    /// Player 1: right third, attacks toward -x.
    One,
    /// Player 2: left third, attacks toward +x.
    Two,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    pub n: u32,
    pub turns: u32,
    pub you: Side,
    /// The `java.util.Random` seed the start board was drawn from.
    pub board_seed: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Coin {
    pub x: f64,
    pub y: f64,
}

/// The whole table before one of this bot's half-turns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    pub you: Side,
    pub n: u32,
    pub turn: u32,
    pub turn_limit: u32,
    pub moves_allowed: u32,
    /// Coins by id.
    pub own: Vec<Coin>,
    pub opponent: Vec<Coin>,
    /// Recorded (sticky) scores: [player 1, player 2].
    pub scores: [u32; 2],
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FlipMove {
    pub id: u32,
    pub x: f64,
    pub y: f64,
}
