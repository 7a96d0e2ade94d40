//! Path choice (the seed report's "Moving to a Specified Cell"): of the shortest walks to a
//! target, the one whose cells are worth most, by dynamic programming over the rectangle the
//! two cells span, O(dx * dy).

use crate::view::View;
use agon_sdk::protocol::rectangles::{Cell, Direction};

/// The first step of the shortest walk from `from` to `to` that passes over the most
/// `View::benefit`.
pub fn best_step(view: &View, from: Cell, to: Cell) -> Direction {
    if from == to {
        return Direction::Stay;
    }
    let (dr, dc) = (
        to.row as i32 - from.row as i32,
        to.col as i32 - from.col as i32,
    );
    let (h, w) = (dr.unsigned_abs() as usize, dc.unsigned_abs() as usize);
    if h == 0 || w == 0 {
        return from.step_toward(to);
    }
    let (sr, sc) = (dr.signum(), dc.signum());
    let cell = |i: usize, j: usize| {
        Cell::new(
            (from.row as i32 + sr * i as i32) as usize,
            (from.col as i32 + sc * j as i32) as usize,
        )
    };
    // best[i][j]: the most benefit from cell (i, j) of the span to the target.
    let mut best = vec![0u64; (h + 1) * (w + 1)];
    for i in (0..=h).rev() {
        for j in (0..=w).rev() {
            let next = match (i < h, j < w) {
                (true, true) => best[(i + 1) * (w + 1) + j].max(best[i * (w + 1) + j + 1]),
                (true, false) => best[(i + 1) * (w + 1) + j],
                (false, true) => best[i * (w + 1) + j + 1],
                (false, false) => 0,
            };
            best[i * (w + 1) + j] = view.benefit(cell(i, j)) + next;
        }
    }
    let vertical = if sr > 0 {
        Direction::South
    } else {
        Direction::North
    };
    let horizontal = if sc > 0 {
        Direction::East
    } else {
        Direction::West
    };
    if best[w + 1] >= best[1] {
        vertical
    } else {
        horizontal
    }
}
