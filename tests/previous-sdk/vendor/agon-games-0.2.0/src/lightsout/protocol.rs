//! Lights Out (`docs/games/lightsout.md`), protocol version 2. A single-seat
//! puzzle: one observation (the board), one answer. Boards and click sets travel as packed
//! bitmaps (cell `i = row * cols + col` is bit `i % 8` of byte `i / 8`), so the largest board
//! (4096 x 4096) fits a message both ways.

use crate::protocol::GameProtocol;
use serde::{Deserialize, Serialize};

/// Lights Out's [`GameProtocol`]: [`Setup`], [`Observation`], and an [`Answer`] as the action.
pub struct LightsOut;

/// Lights Out's protocol version; a bot built for another version is refused.
pub const VERSION: u32 = 2;

impl GameProtocol for LightsOut {
    const GAME: &'static str = "lightsout";
    const VERSION: u32 = VERSION;
    type Setup = Setup;
    type Observation = Observation;
    type Action = Answer;
}

/// The board's size, known at the start call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// Rows of the board.
    pub rows: u32,
    /// Columns of the board.
    pub cols: u32,
}

/// The board: the black cells as a packed bitmap (module docs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// Rows of the board.
    pub rows: u32,
    /// Columns of the board.
    pub cols: u32,
    /// The black cells, `(rows * cols).div_ceil(8)` bytes ([`unpack`] reads them).
    pub black: Vec<u8>,
}

/// A bot's one answer to the board. An answer the engine finds wrong (clicks that leave a black
/// cell, a false claim) is a fault (under the default fault policy, the puzzle is unsolved).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Answer {
    /// The cells to click, as a packed bitmap (module docs). `proven_minimal`: the bot
    /// searched every solution (the engine checks the claim on small null spaces).
    Clicks {
        /// The clicked cells, `(rows * cols).div_ceil(8)` bytes ([`pack`] writes them).
        clicks: Vec<u8>,
        /// Whether the bot claims no solution has fewer clicks.
        proven_minimal: bool,
    },
    /// No set of clicks clears the board; the engine checks this claim with its own rank test.
    Unsolvable {
        /// Why, in the bot's words (kept up to [`crate::contract::MAX_BOT_TEXT`] characters).
        reason: String,
    },
}

/// Packs `rows * cols` cells (`cell(row, col)`) into the protocol's bitmap.
pub fn pack(rows: usize, cols: usize, cell: impl Fn(usize, usize) -> bool) -> Vec<u8> {
    let mut bytes = vec![0u8; (rows * cols).div_ceil(8)];
    for r in 0..rows {
        for c in 0..cols {
            if cell(r, c) {
                let i = r * cols + c;
                bytes[i / 8] |= 1 << (i % 8);
            }
        }
    }
    bytes
}

/// The set cells of a packed bitmap, as (row, col), or `None` when its length does not fit.
pub fn unpack(rows: usize, cols: usize, bytes: &[u8]) -> Option<Vec<(usize, usize)>> {
    if bytes.len() != (rows * cols).div_ceil(8) {
        return None;
    }
    let mut cells = Vec::new();
    for (b, &byte) in bytes.iter().enumerate() {
        let mut bits = byte;
        while bits != 0 {
            let i = b * 8 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if i >= rows * cols {
                return None;
            }
            cells.push((i / cols, i % cols));
        }
    }
    Some(cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{assert_wire, Reply, Start};

    /// Version 2, byte for byte.
    #[test]
    fn wire_format_is_stable() {
        assert_eq!(VERSION, 2);
        let start = Start {
            seat: 0,
            seats: 1,
            seed: 3,
            start_budget_ms: 0,
            move_budget_ms: 500,
            bot_params: Default::default(),
            game: Setup { rows: 3, cols: 3 },
        };
        assert_wire(&start, "00010300fbf401000303");
        let black = pack(3, 3, |r, c| r == c || r + c == 2);
        assert_wire(
            &Observation {
                rows: 3,
                cols: 3,
                black: black.clone(),
            },
            "0303025501",
        );
        let answer = Answer::Clicks {
            clicks: black,
            proven_minimal: true,
        };
        assert_wire(&Reply::new(answer).with_nodes(4), "00025501010104");
        assert_wire(
            &Reply::new(Answer::Unsolvable {
                reason: "rank".into(),
            }),
            "010472616e6b00",
        );
    }
}
