//! Flow Free (`docs/games/flowfree.md`), protocol version 1. A single-seat
//! puzzle: one observation (the grid), one answer. A bot reports its attempted assignments as
//! the reply's `nodes`.

use crate::protocol::GameProtocol;
use serde::{Deserialize, Serialize};

/// Flow Free's [`GameProtocol`]: [`Setup`], [`Observation`], and an [`Answer`] as the action.
pub struct FlowFree;

/// Flow Free's protocol version; a bot built for another version is refused.
pub const VERSION: u32 = 1;

impl GameProtocol for FlowFree {
    const GAME: &'static str = "flowfree";
    const VERSION: u32 = VERSION;
    type Setup = Setup;
    type Observation = Observation;
    type Action = Answer;
}

/// The grid's size, known at the start call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// Rows of the grid.
    pub rows: u32,
    /// Columns of the grid.
    pub cols: u32,
}

/// The grid, row by row: `b'_'` for an empty cell, an uppercase ASCII letter for a source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// Rows of the grid.
    pub rows: u32,
    /// Columns of the grid.
    pub cols: u32,
    /// `rows * cols` cells, row-major: cell (r, c) is at `r * cols + c`.
    pub cells: Vec<u8>,
}

/// A bot's one answer to the puzzle. A solution that fails the engine's check ([`super::verify`])
/// is a fault (under the default fault policy, the puzzle is unsolved).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Answer {
    /// Every cell's letter, row by row.
    Solved {
        /// `rows * cols` uppercase ASCII letters, row-major, sources keeping their own.
        cells: Vec<u8>,
    },
    /// The bot stopped without a solution (a cut-off, or it proved none exists).
    GaveUp {
        /// Why, in the bot's words (kept up to [`crate::contract::MAX_BOT_TEXT`] characters).
        reason: String,
    },
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
            seat: 0,
            seats: 1,
            seed: 3,
            start_budget_ms: 0,
            move_budget_ms: 500,
            bot_params: Default::default(),
            game: Setup { rows: 2, cols: 2 },
        };
        assert_wire(&start, "00010300fbf401000202");
        assert_wire(
            &Observation {
                rows: 2,
                cols: 2,
                cells: b"A__A".to_vec(),
            },
            "020204415f5f41",
        );
        assert_wire(
            &Reply::new(Answer::Solved {
                cells: b"AAAA".to_vec(),
            })
            .with_nodes(300),
            "00044141414101fb2c01",
        );
        assert_wire(
            &Reply::new(Answer::GaveUp {
                reason: "cut".into(),
            }),
            "010363757400",
        );
    }
}
