//! The rules' [`Board`] an observation shows, so a bot can solve with the engine's own algebra.

use super::protocol::{unpack, Observation};
use super::Board;

/// The board an observation shows, or why the bitmap does not fit its size.
pub fn board(observation: &Observation) -> Result<Board, String> {
    let (rows, cols) = (observation.rows as usize, observation.cols as usize);
    let cells = unpack(rows, cols, &observation.black)
        .filter(|_| rows > 0 && cols > 0)
        .ok_or_else(|| {
            format!(
                "{} bytes for a {rows} x {cols} board",
                observation.black.len()
            )
        })?;
    let mut board = Board::new(rows, cols);
    for (r, c) in cells {
        board.set(r, c, true);
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lightsout::protocol::pack;

    #[test]
    fn the_board_round_trips_and_a_short_bitmap_is_refused() {
        let black = pack(2, 3, |r, c| r == c);
        let observation = Observation {
            rows: 2,
            cols: 3,
            black,
        };
        let board = board(&observation).unwrap();
        assert!(board.get(0, 0) && board.get(1, 1) && !board.get(0, 1));
        assert_eq!(board.black_cells(), 2);
        let short = Observation {
            black: vec![],
            ..observation
        };
        assert!(super::board(&short).is_err());
    }
}
