//! A Flow Free instance as the solvers see it: cells, colours as small indices, neighbours.

use agon_sdk::flowfree::{verify, Puzzle};
use agon_sdk::protocol::flowfree::Observation;

pub struct Problem {
    pub puzzle: Puzzle,
    pub letters: Vec<u8>,
    /// Per cell: the source's colour index, or `None` for an empty cell.
    pub fixed: Vec<Option<u8>>,
    pub neighbours: Vec<Vec<usize>>,
    /// Same-colour neighbours a cell needs: 1 for a source, 2 for a path cell.
    pub need: Vec<u8>,
}

impl Problem {
    pub fn new(observation: &Observation) -> Result<Problem, String> {
        let puzzle = agon_sdk::flowfree::convert::puzzle(observation)?;
        let letters = puzzle.letters();
        let fixed: Vec<Option<u8>> = puzzle
            .cells()
            .iter()
            .map(|c| c.map(|l| letters.iter().position(|&x| x == l).expect("a letter") as u8))
            .collect();
        let neighbours = (0..fixed.len())
            .map(|i| puzzle.neighbours(i).collect())
            .collect();
        let need = fixed
            .iter()
            .map(|f| if f.is_some() { 1 } else { 2 })
            .collect();
        Ok(Problem {
            puzzle,
            letters,
            fixed,
            neighbours,
            need,
        })
    }

    pub fn cells(&self) -> usize {
        self.fixed.len()
    }

    pub fn colours(&self) -> usize {
        self.letters.len()
    }

    /// Letters of a full colouring.
    pub fn grid(&self, colours: &[u8]) -> Vec<u8> {
        colours.iter().map(|&k| self.letters[k as usize]).collect()
    }

    /// Whether a full colouring is a solution (the counts and no separate loop).
    pub fn accepts(&self, colours: &[u8]) -> bool {
        verify(&self.puzzle, &self.grid(colours)).is_ok()
    }
}
