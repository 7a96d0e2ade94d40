//! Flow Free (`shared/rules/puzzles.md`, "Flow Free"), protocol version 1. A single-seat
//! puzzle: one observation (the grid), one answer. A bot reports its attempted assignments as
//! the reply's `nodes`.

use super::GameProtocol;
use serde::{Deserialize, Serialize};

pub struct FlowFree;

pub const VERSION: u32 = 1;

impl GameProtocol for FlowFree {
    const GAME: &'static str = "flowfree";
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

/// The grid, row by row: `b'_'` for an empty cell, an uppercase ASCII letter for a source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    pub rows: u32,
    pub cols: u32,
    pub cells: Vec<u8>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Answer {
    /// Every cell's letter, row by row.
    Solved { cells: Vec<u8> },
    /// The bot stopped without a solution (a cut-off, or it proved none exists).
    GaveUp { reason: String },
}
