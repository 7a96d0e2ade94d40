//! Lights Out over GF(2) by light chasing: once the clicks of the first row are chosen, each
//! following row's clicks are forced (they must clear the row above), so the whole problem
//! reduces to the `c` first-row unknowns and the `c` lights left in the last row. The chase runs
//! along the longer side, so the reduced system has `min(rows, cols)` unknowns.
//!
//! The click matrix `A` is symmetric, so a board `b` is solvable exactly when it has an even
//! overlap with every click pattern that toggles nothing (the null space of `A`); the fraction
//! of solvable boards is `2^-nullity`.

use super::{Bits, Board};

/// An affine function of the first-row clicks `x`: `value(x) = cons ^ sum of lin[j] where x_j`.
#[derive(Clone)]
struct Affine {
    lin: Vec<Bits>,
    cons: Bits,
}

impl Affine {
    fn zero(width: usize, vars: usize) -> Affine {
        Affine {
            lin: vec![Bits::zeros(width); vars],
            cons: Bits::zeros(width),
        }
    }

    fn xor_with(&mut self, other: &Affine) {
        for (a, b) in self.lin.iter_mut().zip(&other.lin) {
            a.xor_with(b);
        }
        self.cons.xor_with(&other.cons);
    }

    fn spread(&self) -> Affine {
        Affine {
            lin: self.lin.iter().map(Bits::spread).collect(),
            cons: self.cons.spread(),
        }
    }
}

/// The lights left in the last row as an affine function of the first row's clicks.
fn residue(board: &Board) -> Affine {
    let c = board.cols();
    let mut identity = Affine::zero(c, c);
    for (j, bits) in identity.lin.iter_mut().enumerate() {
        bits.set(j, true);
    }
    let mut previous = Affine::zero(c, c); // clicks of row k-1
    let mut current = identity; // clicks of row k
    for k in 0..board.rows() {
        // Lights of row k after its own clicks and those of the rows next to it above.
        let mut lights = current.spread();
        lights.xor_with(&previous);
        lights.cons.xor_with(board.row(k));
        if k + 1 == board.rows() {
            return lights;
        }
        // Row k+1's clicks must clear them.
        previous = std::mem::replace(&mut current, lights);
    }
    unreachable!("boards have at least one row")
}

/// Row-reduces `rows` (each `width` bits, the last column possibly an augmentation) over GF(2)
/// on the first `vars` columns; returns the pivot column of each leading row.
fn reduce(rows: &mut [Bits], vars: usize) -> Vec<usize> {
    let mut pivots = Vec::new();
    let mut next = 0;
    for col in 0..vars {
        let Some(p) = (next..rows.len()).find(|&i| rows[i].get(col)) else {
            continue;
        };
        rows.swap(next, p);
        let pivot = rows[next].clone();
        for (i, row) in rows.iter_mut().enumerate() {
            if i != next && row.get(col) {
                row.xor_with(&pivot);
            }
        }
        pivots.push(col);
        next += 1;
    }
    pivots
}

/// Everything about one board: solvable or not, one solution, the null space.
pub struct Analysis {
    /// The chase ran over the transposed board (it had more columns than rows).
    transposed: bool,
    /// The board as chased (transposed if needed).
    board: Board,
    /// First-row clicks of one solution, when solvable.
    particular: Option<Bits>,
    /// First-row clicks of a basis of the patterns that toggle nothing.
    null_basis: Vec<Bits>,
}

impl Analysis {
    /// Analyses `board`: one row reduction of the light-chasing system of `min(rows, cols)`
    /// unknowns (see the module docs). A 0 x 0 board panics.
    pub fn new(board: &Board) -> Analysis {
        let transposed = board.cols() > board.rows();
        let board = if transposed {
            board.transpose()
        } else {
            board.clone()
        };
        let c = board.cols();
        let r = residue(&board);
        // Row i of the system: bit j is bit i of lin[j]; bit c is the constant.
        let mut rows: Vec<Bits> = (0..c)
            .map(|i| {
                let mut row = Bits::zeros(c + 1);
                for (j, image) in r.lin.iter().enumerate() {
                    if image.get(i) {
                        row.set(j, true);
                    }
                }
                row.set(c, r.cons.get(i));
                row
            })
            .collect();
        let pivots = reduce(&mut rows, c);
        let consistent = rows[pivots.len()..].iter().all(|row| !row.get(c));
        let particular = consistent.then(|| {
            let mut x = Bits::zeros(c);
            for (row, &col) in pivots.iter().enumerate() {
                x.set(col, rows[row].get(c));
            }
            x
        });
        let null_basis = (0..c)
            .filter(|col| !pivots.contains(col))
            .map(|free| {
                let mut x = Bits::zeros(c);
                x.set(free, true);
                for (row, &col) in pivots.iter().enumerate() {
                    if rows[row].get(free) {
                        x.set(col, true);
                    }
                }
                x
            })
            .collect();
        Analysis {
            transposed,
            board,
            particular,
            null_basis,
        }
    }

    /// Whether some set of clicks clears the board.
    pub fn solvable(&self) -> bool {
        self.particular.is_some()
    }

    /// The dimension of the null space: `2^nullity` solutions when solvable.
    pub fn nullity(&self) -> usize {
        self.null_basis.len()
    }

    /// The click pattern the first-row clicks `x` force (on the board, or on an empty board
    /// with `homogeneous`), in the original orientation.
    fn pattern(&self, x: &Bits, homogeneous: bool) -> Board {
        let (r, c) = (self.board.rows(), self.board.cols());
        let mut clicks = Vec::with_capacity(r);
        let mut previous = Bits::zeros(c);
        let mut current = x.clone();
        for k in 0..r {
            let mut lights = current.spread();
            lights.xor_with(&previous);
            if !homogeneous {
                lights.xor_with(self.board.row(k));
            }
            let done = std::mem::replace(&mut current, lights);
            previous = done.clone();
            clicks.push(done);
        }
        let pattern = Board::from_rows(c, clicks);
        if self.transposed {
            pattern.transpose()
        } else {
            pattern
        }
    }

    /// One solution (a click pattern), when the board is solvable.
    pub fn solution(&self) -> Option<Board> {
        self.particular.as_ref().map(|x| self.pattern(x, false))
    }

    /// The click patterns that toggle nothing, a basis of them.
    pub fn null_patterns(&self) -> Vec<Board> {
        (0..self.nullity()).map(|i| self.null_pattern(i)).collect()
    }

    /// Basis pattern `i` of the null space (each is a whole board: build only those needed).
    pub fn null_pattern(&self, i: usize) -> Board {
        self.pattern(&self.null_basis[i], true)
    }

    /// For an unsolvable board: a pattern that toggles nothing yet covers an odd number of the
    /// board's black cells, which proves no clicks can clear it.
    pub fn obstruction(&self, board: &Board) -> Option<Board> {
        if self.solvable() {
            return None;
        }
        (0..self.nullity()).map(|i| self.null_pattern(i)).find(|z| {
            (0..board.rows()).fold(false, |odd, row| odd ^ z.row(row).dot(board.row(row)))
        })
    }

    /// The solution with the fewest clicks, walking the solutions in Gray-code order (one XOR
    /// and a popcount each). Exhaustive, and so proven minimal, when the null space has at most
    /// `2^max_nullity` elements; otherwise, and when `stop` says so (asked every 4096 steps),
    /// the best found. `None` for an unsolvable board. Returns the pattern, whether it is
    /// proven minimal, and how many solutions were looked at.
    pub fn fewest_clicks(
        &self,
        max_nullity: usize,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<(Board, bool, u64)> {
        let first = self.solution()?;
        let k = self.nullity();
        if k == 0 {
            return Some((first, true, 1));
        }
        let flat = |b: &Board| -> Vec<u64> {
            (0..b.rows())
                .flat_map(|r| b.row(r).words().to_vec())
                .collect()
        };
        let count = |v: &[u64]| v.iter().map(|w| w.count_ones() as u64).sum::<u64>();
        let mut current = flat(&first);
        let (mut best, mut best_count) = (current.clone(), count(&current));
        // Patterns are built when the walk first needs them.
        let mut patterns: Vec<Option<Vec<u64>>> = vec![None; k];
        let exhaustive = k <= max_nullity;
        let steps: u64 = if exhaustive { 1u64 << k } else { u64::MAX };
        let mut proven = exhaustive;
        let mut looked = 1u64;
        for step in 1..steps {
            let flip = step.trailing_zeros() as usize;
            if flip >= k {
                break;
            }
            let pattern = patterns[flip].get_or_insert_with(|| flat(&self.null_pattern(flip)));
            for (a, b) in current.iter_mut().zip(pattern.iter()) {
                *a ^= b;
            }
            looked += 1;
            let c = count(&current);
            if c < best_count {
                best_count = c;
                best.clone_from(&current);
            }
            if step % 4096 == 0 && stop() {
                proven = false;
                break;
            }
        }
        let (rows, cols) = (first.rows(), first.cols());
        let words = first.row(0).words().len();
        let mut pattern = Board::new(rows, cols);
        for r in 0..rows {
            for c in 0..cols {
                if best[r * words + c / 64] >> (c % 64) & 1 == 1 {
                    pattern.set(r, c, true);
                }
            }
        }
        Some((pattern, proven, looked))
    }
}

/// The nullity of the `rows x cols` click matrix: a fraction `2^-nullity` of boards is solvable.
pub fn nullity(rows: usize, cols: usize) -> usize {
    Analysis::new(&Board::new(rows, cols)).nullity()
}
