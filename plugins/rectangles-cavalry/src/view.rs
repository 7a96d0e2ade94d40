//! The board as one player sees it, through an orientation.

use crate::orientation::Orientation;
use agon_sdk::protocol::rectangles::{Cell, Observation, Paint, FILLED, UNPAINTED};

pub struct View<'a> {
    pub n: usize,
    pub you: usize,
    pub obs: &'a Observation,
    pub orientation: Orientation,
}

impl View<'_> {
    /// The paint of a virtual cell.
    pub fn paint(&self, c: Cell) -> Paint {
        let real = self.orientation.to_real(c, self.n);
        self.obs.cells[real.row as usize * self.n + real.col as usize]
    }

    pub fn own(&self, c: Cell) -> bool {
        self.paint(c) == 1 + self.you as u8
    }

    pub fn filled(&self, c: Cell) -> bool {
        self.paint(c) == FILLED
    }

    /// An enemy's colour.
    pub fn enemy(&self, c: Cell) -> bool {
        let p = self.paint(c);
        p != UNPAINTED && p != FILLED && p != 1 + self.you as u8
    }

    /// The value of passing over a virtual cell (the seed report's "Moving to a Specified
    /// Cell"): an enemy's cell is worth its owner's score (more to take from the leader), one's
    /// own 1, others nothing.
    pub fn benefit(&self, c: Cell) -> u64 {
        match self.paint(c) {
            FILLED | UNPAINTED => 0,
            p if p == 1 + self.you as u8 => 1,
            p => 1 + self.obs.scores.get(p as usize - 1).copied().unwrap_or(0) as u64,
        }
    }

    /// My robots, in virtual cells.
    pub fn mine(&self) -> Vec<Cell> {
        self.obs.robots[self.you]
            .iter()
            .map(|&c| self.orientation.to_virtual(c, self.n))
            .collect()
    }

    /// Every enemy robot in virtual cells, with the virtual cell it came from last round.
    pub fn enemies(&self) -> Vec<(Cell, Cell)> {
        let mut out = Vec::new();
        for (p, robots) in self.obs.robots.iter().enumerate() {
            if p == self.you {
                continue;
            }
            for (k, &c) in robots.iter().enumerate() {
                let last = self.obs.last_moves.get(p).and_then(|m| m.get(k)).copied();
                // The cell it came from: one step back against its last move.
                let before = last.map_or(c, |d| c.stepped(d.opposite(), self.n));
                out.push((
                    self.orientation.to_virtual(c, self.n),
                    self.orientation.to_virtual(before, self.n),
                ));
            }
        }
        out
    }
}
