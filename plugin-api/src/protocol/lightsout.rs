//! Lights Out (`shared/rules/puzzles.md`, "Lights Out"), protocol version 1. A single-seat
//! puzzle: one observation (the board), one answer.

use super::GameProtocol;
use serde::{Deserialize, Serialize};

pub struct LightsOut;

pub const VERSION: u32 = 1;

impl GameProtocol for LightsOut {
    const GAME: &'static str = "lightsout";
    const VERSION: u32 = VERSION;
    type Setup = Setup;
    type Observation = Observation;
    type Action = Answer;
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    pub rows: u32,
    pub cols: u32,
}

/// The board: `rows * cols` cells row by row from the top left, `true` black.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    pub rows: u32,
    pub cols: u32,
    pub black: Vec<bool>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Click {
    pub row: u32,
    pub col: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Answer {
    /// Cells to click (each once). `proven_minimal`: the bot searched every solution.
    Clicks {
        clicks: Vec<Click>,
        proven_minimal: bool,
    },
    /// No set of clicks clears the board; the engine checks this claim with its own rank test.
    Unsolvable { reason: String },
}
