//! Claims (rules file, "A round", 4): an axis-aligned rectangle at least 3 x 3 whose boundary is
//! all one player's colour and whose strict interior holds an unfilled cell.
//!
//! Detection is incremental. At the start of a round no candidate exists (the last round's
//! claims were resolved until none remained), filling only ever removes candidates, and paint
//! changes only by painting. So every new candidate has on its boundary a cell that took its
//! owner's colour this round, and only rectangles through those cells are searched.

use super::board::{colour, Board, Cell, FILLED};
use serde::{Deserialize, Serialize};

/// A rectangle by its boundary rows and columns, inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Rect {
    /// The boundary's top row (its North edge).
    pub top: u16,
    /// The boundary's left column (its West edge).
    pub left: u16,
    /// The boundary's bottom row, at least `top`.
    pub bottom: u16,
    /// The boundary's right column, at least `left`.
    pub right: u16,
}

impl Rect {
    /// The rectangle with these boundary rows and columns, inclusive; not checked (`top <=
    /// bottom` and `left <= right` are expected by the other methods).
    pub fn new(top: usize, left: usize, bottom: usize, right: usize) -> Rect {
        Rect {
            top: top as u16,
            left: left as u16,
            bottom: bottom as u16,
            right: right as u16,
        }
    }

    /// Rows spanned, boundary included.
    pub fn height(&self) -> usize {
        (self.bottom - self.top) as usize + 1
    }

    /// Columns spanned, boundary included.
    pub fn width(&self) -> usize {
        (self.right - self.left) as usize + 1
    }

    /// The cells of the boundary.
    pub fn boundary(&self) -> impl Iterator<Item = Cell> + '_ {
        let (t, l, b, r) = (self.top, self.left, self.bottom, self.right);
        let rows = (l..=r).flat_map(move |c| [Cell { row: t, col: c }, Cell { row: b, col: c }]);
        let cols = (t + 1..b).flat_map(move |row| [Cell { row, col: l }, Cell { row, col: r }]);
        rows.chain(cols)
    }

    /// How many cells the strict interior has (0 below 3 x 3).
    pub fn interior_len(&self) -> usize {
        self.height().saturating_sub(2) * self.width().saturating_sub(2)
    }

    /// The cells of the strict interior.
    pub fn interior(&self) -> impl Iterator<Item = Cell> + '_ {
        (self.top + 1..self.bottom)
            .flat_map(move |row| (self.left + 1..self.right).map(move |col| Cell { row, col }))
    }
}

/// A claim made: who, which rectangle, and the cells it scored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claim {
    /// The claiming player, 0-based (its colour is `player + 1`).
    pub player: usize,
    /// The rectangle whose boundary was all in the player's colour.
    pub rect: Rect,
    /// The interior cells it scored: those that were not filled yet, now filled.
    pub cells: u32,
}

/// Whether `rect` is a candidate for `player` now: its boundary all in the player's colour.
/// Returns the unfilled interior cells it would score (0: not a candidate).
pub fn value(board: &Board, player: usize, rect: &Rect) -> u32 {
    if rect.height() < 3 || rect.width() < 3 {
        return 0;
    }
    let paint = colour(player);
    if !rect.boundary().all(|c| board.get(c) == paint) {
        return 0;
    }
    rect.interior().filter(|&c| board.get(c) != FILLED).count() as u32
}

/// Appends every rectangle at least 3 x 3 whose boundary passes through `cell` and is all in
/// `player`'s colour (interior not yet looked at; duplicates possible).
pub fn rectangles_through(board: &Board, player: usize, cell: Cell, out: &mut Vec<Rect>) {
    let paint = colour(player);
    let (r, c) = (cell.row as usize, cell.col as usize);
    if board.get(cell) != paint {
        return;
    }
    // Scratch for the right-hand edges, shared by both searches (no allocation per search).
    let mut rights = Vec::new();
    // The cell on the top or bottom edge: the edge runs along its row.
    edges_along(
        board.n(),
        |a, b| board.at(a, b) == paint,
        r,
        c,
        &mut |t, l, b, rt| out.push(Rect::new(t, l, b, rt)),
        &mut rights,
    );
    // On the left or right edge: the same search with rows and columns swapped.
    edges_along(
        board.n(),
        |a, b| board.at(b, a) == paint,
        c,
        r,
        &mut |t, l, b, rt| out.push(Rect::new(l, t, rt, b)),
        &mut rights,
    );
}

/// Rectangles with a horizontal edge on line `line` through position `at`, on a board seen
/// through `painted(line, position)`; reported as (top line, left position, bottom line, right
/// position).
fn edges_along(
    n: usize,
    painted: impl Fn(usize, usize) -> bool,
    line: usize,
    at: usize,
    found: &mut impl FnMut(usize, usize, usize, usize),
    rights: &mut Vec<(usize, usize)>,
) {
    let mut lo = at;
    while lo > 0 && painted(line, lo - 1) {
        lo -= 1;
    }
    let mut hi = at;
    while hi + 1 < n && painted(line, hi + 1) {
        hi += 1;
    }
    if hi - lo < 2 {
        return;
    }
    // How far the colour runs from (line, p) towards the other edge, in steps of `step`.
    let run = |p: usize, down: bool| -> usize {
        let mut k = 0;
        loop {
            let next = if down {
                line + k + 1
            } else {
                match line.checked_sub(k + 1) {
                    Some(x) => x,
                    None => return k,
                }
            };
            if next >= n || !painted(next, p) {
                return k;
            }
            k += 1;
        }
    };
    for down in [true, false] {
        let near = |p: usize| {
            let l2 = if down {
                line + 2
            } else {
                match line.checked_sub(2) {
                    Some(x) => x,
                    None => return false,
                }
            };
            let l1 = if down { line + 1 } else { line - 1 };
            l2 < n && painted(l1, p) && painted(l2, p)
        };
        let mut lefts = (lo..=at.min(hi - 2)).filter(|&p| near(p)).peekable();
        if lefts.peek().is_none() {
            continue;
        }
        rights.clear();
        rights.extend(
            (at.max(lo + 2)..=hi)
                .filter(|&p| near(p))
                .map(|p| (p, run(p, down))),
        );
        for left in lefts {
            let left_run = run(left, down);
            for &(right, right_run) in rights.iter().filter(|(p, _)| *p >= left + 2) {
                for depth in 2..=left_run.min(right_run) {
                    let other = if down { line + depth } else { line - depth };
                    if (left + 1..right).all(|p| painted(other, p)) {
                        let (top, bottom) = if down { (line, other) } else { (other, line) };
                        found(top, left, bottom, right);
                    }
                }
            }
        }
    }
}

/// Resolves the candidates among `rects` (per player) until none remains: the one with the
/// most unfilled interior cells first, ties by lower player, then smaller top row, left column,
/// height and width (rules file, "A round", 4, ours). Fills the claimed interiors.
pub fn resolve(board: &mut Board, mut candidates: Vec<(usize, Rect)>) -> Vec<Claim> {
    candidates.sort_unstable();
    candidates.dedup();
    let mut claims = Vec::new();
    loop {
        let mut best: Option<(u32, usize, usize)> = None; // (cells, player, index)
        candidates.retain(|(player, rect)| value(board, *player, rect) > 0);
        for (i, (player, rect)) in candidates.iter().enumerate() {
            let cells = value(board, *player, rect);
            let better = match best {
                None => true,
                Some((best_cells, _, j)) => {
                    let (bp, br) = &candidates[j];
                    (std::cmp::Reverse(cells), player, rect.top, rect.left)
                        .cmp(&(std::cmp::Reverse(best_cells), bp, br.top, br.left))
                        .then((rect.height(), rect.width()).cmp(&(br.height(), br.width())))
                        .is_lt()
                }
            };
            if better {
                best = Some((cells, *player, i));
            }
        }
        let Some((cells, player, i)) = best else {
            return claims;
        };
        let (_, rect) = candidates.swap_remove(i);
        for cell in rect.interior() {
            board.set(cell, FILLED);
        }
        claims.push(Claim {
            player,
            rect,
            cells,
        });
    }
}

/// Every candidate on the board, by trying every rectangle: the reference the incremental
/// search is checked against.
#[cfg(test)]
pub fn all_candidates(board: &Board, players: usize) -> Vec<(usize, Rect)> {
    let n = board.n();
    let mut found = Vec::new();
    for player in 0..players {
        for top in 0..n {
            for bottom in top + 2..n {
                for left in 0..n {
                    for right in left + 2..n {
                        let rect = Rect::new(top, left, bottom, right);
                        if value(board, player, &rect) > 0 {
                            found.push((player, rect));
                        }
                    }
                }
            }
        }
    }
    found
}
