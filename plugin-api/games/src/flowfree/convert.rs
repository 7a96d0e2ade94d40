//! The rules' [`Puzzle`] an observation shows, so a bot can search with the engine's own parser
//! and check its answer with [`super::verify`].

use super::protocol::Observation;
use super::Puzzle;

/// The puzzle an observation shows, or why its grid is not one.
pub fn puzzle(observation: &Observation) -> Result<Puzzle, String> {
    let cols = observation.cols as usize;
    if cols == 0 || !observation.cells.len().is_multiple_of(cols) {
        return Err("the grid is not rectangular".into());
    }
    let text: String = observation
        .cells
        .chunks(cols)
        .map(|row| String::from_utf8_lossy(row).into_owned() + "\n")
        .collect();
    Puzzle::parse(&text).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grid_becomes_its_puzzle_and_a_ragged_one_is_refused() {
        let observation = Observation {
            rows: 2,
            cols: 2,
            cells: b"A_A_".to_vec(),
        };
        let puzzle = puzzle(&observation).unwrap();
        assert_eq!((puzzle.rows(), puzzle.cols()), (2, 2));
        assert_eq!(puzzle.letters(), vec![b'A']);
        let ragged = Observation {
            cells: b"A_A".to_vec(),
            ..observation
        };
        assert!(super::puzzle(&ragged).is_err());
    }
}
