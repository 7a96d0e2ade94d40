//! "Rectmania", the seed team's end game: find the largest unclaimed rectangles, then complete
//! one with a priority queue of (robot, cell) costs.
//!
//! Search (the report's "Searching for Rectangles Containing No Black Squares"): dilate the
//! filled mask by one cell (the outside counts as filled), take each free cell in turn, grow
//! a rectangle from it right and down alternately while it stays free, block it and its right
//! and bottom lines, and finally grow every rectangle found by one cell on each side: its
//! boundary then lies on paintable cells around an unfilled interior.

use agon_sdk::protocol::rectangles::Cell;
use agon_sdk::rectangles::Rect;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Up to `limit` unclaimed rectangles, largest first, on an n x n board whose filled cells
/// `filled` marks.
pub fn search(n: usize, filled: &[bool], limit: usize) -> Vec<Rect> {
    let at = |r: i32, c: i32| {
        r < 0 || c < 0 || r >= n as i32 || c >= n as i32 || filled[r as usize * n + c as usize]
    };
    let mut black = vec![false; n * n];
    for r in 0..n as i32 {
        for c in 0..n as i32 {
            black[r as usize * n + c as usize] =
                (-1..=1).any(|dr| (-1..=1).any(|dc| at(r + dr, c + dc)));
        }
    }
    let mut found = Vec::new();
    for start in 0..n * n {
        if found.len() >= limit {
            break;
        }
        if black[start] {
            continue;
        }
        let (top, left) = (start / n, start % n);
        let (mut bottom, mut right) = (top, left);
        let free_col = |black: &[bool], c: usize, top: usize, bottom: usize| {
            c < n && (top..=bottom).all(|r| !black[r * n + c])
        };
        let free_row = |black: &[bool], r: usize, left: usize, right: usize| {
            r < n && (left..=right).all(|c| !black[r * n + c])
        };
        loop {
            let grow_right = free_col(&black, right + 1, top, bottom);
            if grow_right {
                right += 1;
            }
            let grow_down = free_row(&black, bottom + 1, left, right);
            if grow_down {
                bottom += 1;
            }
            if !grow_right && !grow_down {
                break;
            }
        }
        for r in top..=(bottom + 1).min(n - 1) {
            for c in left..=(right + 1).min(n - 1) {
                black[r * n + c] = true;
            }
        }
        // Grown back by one: the boundary on the dilation ring, which is never filled.
        found.push(Rect::new(top - 1, left - 1, bottom + 1, right + 1));
    }
    found.sort_by_key(|t| Reverse(t.interior_len()));
    found
}

/// The report's "Completing a Rectangle": assigns every cell of `todo` to a robot. The queue
/// holds (cost, robot, cell); the cheapest pair is taken, the cell added to the robot's
/// route, every other pair of that cell dropped, and the robot's remaining pairs re-costed from
/// the cell just taken. Returns each robot's route, in order.
pub fn assign(robots: &[Cell], todo: &[Cell]) -> Vec<Vec<Cell>> {
    let mut routes: Vec<Vec<Cell>> = vec![Vec::new(); robots.len()];
    let mut done = vec![false; todo.len()];
    // The position and the cost so far at the end of each robot's route.
    let mut end: Vec<(Cell, usize)> = robots.iter().map(|&c| (c, 0)).collect();
    let mut queue = BinaryHeap::new();
    for (r, &c) in robots.iter().enumerate() {
        for (s, &cell) in todo.iter().enumerate() {
            queue.push(Reverse((c.distance(cell), r, s)));
        }
    }
    while let Some(Reverse((cost, r, s))) = queue.pop() {
        if done[s] {
            continue;
        }
        // Stale: the robot's route has grown since this pair was costed.
        let fresh = end[r].1 + end[r].0.distance(todo[s]);
        if fresh != cost {
            queue.push(Reverse((fresh, r, s)));
            continue;
        }
        done[s] = true;
        routes[r].push(todo[s]);
        end[r] = (todo[s], cost);
    }
    routes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_board_yields_the_largest_rectangle_inside_its_ring() {
        let n = 8;
        let found = search(n, &vec![false; n * n], 4);
        assert_eq!(found[0], Rect::new(0, 0, 7, 7));
    }

    #[test]
    fn filled_cells_split_the_search_and_found_rectangles_avoid_them() {
        let n = 9;
        let mut filled = vec![false; n * n];
        for r in 0..n {
            filled[r * n + 4] = true;
        }
        let found = search(n, &filled, 8);
        assert!(found.len() >= 2);
        for t in &found {
            for c in t.boundary() {
                assert!(!filled[c.row as usize * n + c.col as usize], "{t:?}");
            }
        }
    }

    #[test]
    fn each_cell_goes_to_the_robot_that_reaches_it_cheapest_along_its_route() {
        let robots = [Cell::new(0, 0), Cell::new(9, 9)];
        let todo = [Cell::new(0, 1), Cell::new(0, 2), Cell::new(9, 8)];
        let routes = assign(&robots, &todo);
        assert_eq!(routes[0], vec![Cell::new(0, 1), Cell::new(0, 2)]);
        assert_eq!(routes[1], vec![Cell::new(9, 8)]);
    }
}
