//! What the replay viewer draws of a Flow Free instance; `view.js` draws it.

use super::Puzzle;
use crate::contract::ViewData;
use serde_json::json;

fn rows(puzzle: &Puzzle, cell: impl Fn(usize) -> u8) -> Vec<String> {
    (0..puzzle.rows())
        .map(|r| {
            (0..puzzle.cols())
                .map(|c| cell(r * puzzle.cols() + c) as char)
                .collect()
        })
        .collect()
}

/// The instance (`_` empty, a letter per source) and, once solved, the grid of letters.
pub(super) fn instance(puzzle: &Puzzle, solution: Option<&[u8]>) -> ViewData {
    let sources = rows(puzzle, |i| puzzle.cells()[i].unwrap_or(b'_'));
    let solved = solution.map(|grid| rows(puzzle, |i| grid.get(i).copied().unwrap_or(b'?')));
    json!({ "rows": puzzle.rows(), "cols": puzzle.cols(), "sources": sources, "solution": solved })
}

/// An answer: the grid it fills in (whether or not the rules accept it), or the reason it gave
/// up. `notation` is the record's: rows joined by `/`, or `gave up: REASON`.
pub(super) fn answer(puzzle: &Puzzle, notation: &str, gave_up: &str) -> Option<ViewData> {
    if let Some(reason) = notation.strip_prefix(gave_up) {
        return Some(json!({ "gave_up": reason.trim_start() }));
    }
    let cells: Vec<u8> = notation.bytes().filter(|&b| b != b'/').collect();
    (cells.len() == puzzle.rows() * puzzle.cols() && cells.is_ascii())
        .then(|| json!({ "grid": rows(puzzle, |i| cells[i]) }))
}
