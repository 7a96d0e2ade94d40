//! The board seen in one of its eight orientations (the seed report's "re-orientation
//! mechanism"): rotations and mirrors, so the cavalry is written once, sweeping "south", and
//! runs in any direction.

use agon_sdk::protocol::rectangles::{Cell, Direction};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Orientation {
    pub transpose: bool,
    pub flip_rows: bool,
    pub flip_cols: bool,
}

impl Orientation {
    /// All eight, numbered 0..8.
    pub fn nth(k: usize) -> Orientation {
        Orientation {
            transpose: k & 4 != 0,
            flip_rows: k & 1 != 0,
            flip_cols: k & 2 != 0,
        }
    }

    /// The same orientation sweeping the other way along its rows.
    pub fn reversed(self) -> Orientation {
        Orientation {
            flip_rows: !self.flip_rows,
            ..self
        }
    }

    /// A board cell as the strategy sees it.
    pub fn to_virtual(self, c: Cell, n: usize) -> Cell {
        let (mut r, mut k) = (c.row as usize, c.col as usize);
        if self.transpose {
            std::mem::swap(&mut r, &mut k);
        }
        if self.flip_rows {
            r = n - 1 - r;
        }
        if self.flip_cols {
            k = n - 1 - k;
        }
        Cell::new(r, k)
    }

    /// A cell the strategy names, on the board.
    pub fn to_real(self, c: Cell, n: usize) -> Cell {
        let (mut r, mut k) = (c.row as usize, c.col as usize);
        if self.flip_rows {
            r = n - 1 - r;
        }
        if self.flip_cols {
            k = n - 1 - k;
        }
        if self.transpose {
            std::mem::swap(&mut r, &mut k);
        }
        Cell::new(r, k)
    }

    /// A move the strategy names, on the board.
    pub fn direction_to_real(self, d: Direction) -> Direction {
        use Direction::*;
        let flipped = match d {
            North if self.flip_rows => South,
            South if self.flip_rows => North,
            East if self.flip_cols => West,
            West if self.flip_cols => East,
            other => other,
        };
        if !self.transpose {
            return flipped;
        }
        match flipped {
            North => West,
            South => East,
            East => South,
            West => North,
            Stay => Stay,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_orientation_maps_cells_and_moves_consistently() {
        let n = 7;
        for k in 0..8 {
            let o = Orientation::nth(k);
            for (r, c) in [(0, 0), (1, 5), (6, 2), (3, 3)] {
                let real = Cell::new(r, c);
                let v = o.to_virtual(real, n);
                assert_eq!(o.to_real(v, n), real);
                for d in Direction::ALL {
                    // A virtual step, taken on the board, lands where the virtual board says.
                    let moved_virtual = o.to_real(v.stepped(d, n), n);
                    assert_eq!(
                        real.stepped(o.direction_to_real(d), n),
                        moved_virtual,
                        "{k} {d:?}"
                    );
                }
            }
        }
    }
}
