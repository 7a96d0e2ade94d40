//! Coins by grid cell of one diameter, so an overlap test looks at nine cells, not every coin.

use super::geometry::{overlap, Point, DIAMETER, X_LIMIT, Y_LIMIT};
use super::Player;

/// A coin: its owner and id.
pub(super) type Coin = (Player, u32);

#[derive(Debug, Clone)]
pub(super) struct Grid {
    cells: Vec<Vec<Coin>>,
}

const GRID_COLS: usize = (2.0 * X_LIMIT / DIAMETER) as usize;
const GRID_ROWS: usize = (2.0 * Y_LIMIT / DIAMETER) as usize;

impl Grid {
    pub(super) fn new() -> Grid {
        Grid {
            cells: vec![Vec::new(); GRID_COLS * GRID_ROWS],
        }
    }

    /// The cell of `p`; points off the table fall in the nearest edge cell. Clamping first and
    /// truncating second equals flooring first (negative values clamp to 0 either way), without
    /// a call to `floor` (not an instruction in the baseline x86-64 target); NaN lands in 0.
    fn cell(p: Point) -> (usize, usize) {
        let cx = ((p.x + X_LIMIT) / DIAMETER).clamp(0.0, (GRID_COLS - 1) as f64);
        let cy = ((p.y + Y_LIMIT) / DIAMETER).clamp(0.0, (GRID_ROWS - 1) as f64);
        (cx as usize, cy as usize)
    }

    pub(super) fn insert(&mut self, p: Point, coin: Coin) {
        let (cx, cy) = Grid::cell(p);
        self.cells[cy * GRID_COLS + cx].push(coin);
    }

    pub(super) fn remove(&mut self, p: Point, coin: Coin) {
        let (cx, cy) = Grid::cell(p);
        let cell = &mut self.cells[cy * GRID_COLS + cx];
        if let Some(i) = cell.iter().position(|&c| c == coin) {
            cell.swap_remove(i);
        }
    }

    /// The first coin other than `moving` that a coin centred on `p` would overlap, looking at
    /// the 3 x 3 cells around `p` row by row, each cell in insertion order (the order decides
    /// which coin a refused move names). `coins` are the centres, per player by id.
    pub(super) fn first_overlap(
        &self,
        p: Point,
        moving: Coin,
        coins: &[Vec<Point>; 2],
    ) -> Option<Coin> {
        let (cx, cy) = Grid::cell(p);
        for y in cy.saturating_sub(1)..=(cy + 1).min(GRID_ROWS - 1) {
            let row = &self.cells[y * GRID_COLS..(y + 1) * GRID_COLS];
            for cell in &row[cx.saturating_sub(1)..=(cx + 1).min(GRID_COLS - 1)] {
                for &(owner, id) in cell {
                    if (owner, id) != moving && overlap(p, coins[owner.index()][id as usize]) {
                        return Some((owner, id));
                    }
                }
            }
        }
        None
    }
}
