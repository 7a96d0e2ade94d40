//! The start board, bit-exact with the course simulator (rules file, "Initial placement").

use super::geometry::{overlap, Point, EPS, THIRD, X_LIMIT, Y_LIMIT};
use super::JavaRandom;

/// Draws per coin before giving up (a third of the table holds well over the coin limit).
const MAX_DRAWS: u64 = 10_000_000;

/// Player 1's and player 2's start positions for `n` coins from `seed`: player 1's coin k is
/// drawn in the right third, player 2's coin k is its mirror image.
pub fn place(n: u32, seed: i64) -> Result<[Vec<Point>; 2], String> {
    let mut random = JavaRandom::new(seed);
    let mut one: Vec<Point> = Vec::with_capacity(n as usize);
    let mut draws = 0u64;
    while one.len() < n as usize {
        draws += 1;
        if draws > MAX_DRAWS {
            return Err(format!("could not place {n} coins (placed {})", one.len()));
        }
        // x is always drawn first.
        let x = THIRD + 2.0 * THIRD * random.next_double();
        let y = -Y_LIMIT + 2.0 * Y_LIMIT * random.next_double();
        let p = Point::new(x, y);
        let outside = x - 1.0 + EPS < THIRD
            || x + 1.0 - EPS > X_LIMIT
            || y - 1.0 + EPS < -Y_LIMIT
            || y + 1.0 - EPS > Y_LIMIT;
        if outside || one.iter().any(|&q| q == p || overlap(p, q)) {
            continue;
        }
        one.push(p);
    }
    let two = one.iter().map(|p| Point::new(-p.x, p.y)).collect();
    Ok([one, two])
}
