//! What the replay viewer draws of a Lights Out board; `view.js` draws it.

use super::board::{Board, Click};
use super::protocol::{unpack, Answer};
use crate::contract::ViewData;
use serde_json::json;

fn rows(board: &Board) -> Vec<String> {
    board.render().lines().map(str::to_string).collect()
}

/// The lights, one string per row (`#` black, `.` white), and the verdict once answered.
pub(super) fn board(board: &Board, verdict: Option<&str>) -> ViewData {
    json!({ "rows": board.rows(), "cols": board.cols(), "lights": rows(board), "verdict": verdict })
}

/// An answer: its clicks and the board after them (each click applied by the rules), or the
/// reason it gives for an unsolvable board.
pub(super) fn answer(board: &Board, answer: &Answer) -> Option<ViewData> {
    match answer {
        Answer::Unsolvable { reason } => Some(json!({ "unsolvable": reason })),
        Answer::Clicks { clicks, .. } => {
            let cells = unpack(board.rows(), board.cols(), clicks)?;
            let mut after = board.clone();
            for &(r, c) in &cells {
                after
                    .click(Click {
                        row: r as u32,
                        col: c as u32,
                    })
                    .ok()?;
            }
            Some(json!({ "clicks": cells, "after": rows(&after) }))
        }
    }
}
