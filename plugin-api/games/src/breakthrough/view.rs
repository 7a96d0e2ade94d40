//! What the replay viewer draws of a Breakthrough position; `view.js` draws it.

use super::{Move, Position, Side, Square};
use crate::contract::ViewData;
use serde_json::json;

/// The board, top row first (as `render` prints it): `W`, `B` or `.` per square.
pub(super) fn position(position: &Position) -> ViewData {
    let config = position.config();
    let rows: Vec<String> = (0..config.rows)
        .rev()
        .map(|row| {
            (0..config.cols)
                .map(|col| match position.piece_at(Square::new(row, col)) {
                    Some(side) => side.letter(),
                    None => '.',
                })
                .collect()
        })
        .collect();
    json!({
        "rows": config.rows,
        "cols": config.cols,
        "board": rows,
        // Per seat, the letter its workers are drawn with (for the viewer's legend).
        "sides": Side::BOTH.map(|side| side.letter().to_string()),
        "to_move": position.outcome().is_none().then(|| position.to_move().seat()),
        "white_workers": position.workers(Side::White),
        "black_workers": position.workers(Side::Black),
    })
}

/// A move as squares (row 0 at the bottom, as in notation); `None` for a pass or a notation
/// that does not read.
pub(super) fn action(notation: &str) -> Option<ViewData> {
    let mv: Move = notation.parse().ok()?;
    Some(json!({
        "from": [mv.from.row, mv.from.col],
        "to": [mv.to.row, mv.to.col],
    }))
}
