//! ReversiXT (`shared/rules/reversixt.md`), protocol version 1. Seat `k` is player `k + 1`.
//!
//! Bots receive the whole state every time: the board as map-file text (squares and the
//! transitions still standing; holes where bombs fell), every player's override stones and bombs,
//! who is disqualified, the phase, and the bot's own clock and depth limit (rules file, "Time
//! and depth limits"). The answer is the course server's move triple (x, y, special).

use super::GameProtocol;
use serde::{Deserialize, Serialize};

pub struct ReversiXt;

pub const VERSION: u32 = 1;

impl GameProtocol for ReversiXt {
    const GAME: &'static str = "reversixt";
    const VERSION: u32 = VERSION;
    type Setup = Setup;
    type Observation = Observation;
    type Action = Move;
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// This bot's player number, 1..=players.
    pub you: u8,
    pub players: u8,
    /// The map file as loaded.
    pub map: String,
    /// Milliseconds added to the bot's time account before each request (`0`: no time limit).
    pub time_ms: u64,
    /// Plies the bot may search (`0`: no depth limit).
    pub depth: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Building,
    Bombing,
}

/// The state before one of this bot's moves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    pub you: u8,
    pub phase: Phase,
    /// The board in the map-file format: the header as loaded, the squares and transitions as
    /// they stand now.
    pub board: String,
    /// Per player (index 0 is player 1).
    pub overrides: Vec<u32>,
    pub bombs: Vec<u32>,
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
    pub x: u16,
    pub y: u16,
    pub special: u8,
}
