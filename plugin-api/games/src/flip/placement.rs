//! The start board, bit-exact with the course simulator (rules file, "Initial placement").

use super::geometry::{overlap, Point, EPS, THIRD, X_LIMIT, Y_LIMIT};
use super::JavaRandom;

/// Draws in all before giving up. Sized from measured draw counts (seeds 0 to 59): the worst
/// seed needs 19,278 draws at n = 240, 109,855 at 250 and 5,390,547 at 260; the course's own
/// boards at n = 265 (seed 50) and 270 (seed 46) need 10,274,244 and 11,922,898. Above about 260
/// coins random sequential placement jams (at 265, 14 of 60 seeds place nothing more within
/// 200,000,000 draws), so a larger cap only makes the refusal slower (50,000,000 draws take
/// about 9 s at n = 265 on a 2020s laptop core).
pub const MAX_DRAWS: u64 = 50_000_000;

/// The largest n every measured seed places within [`MAX_DRAWS`] (with a tenfold margin).
pub const PRACTICAL_COINS: u32 = 260;

/// `n` coins do not fit from `seed` within `max_draws` draws: random sequential placement jams.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "could not place {n} coins with seed {seed}: after {max_draws} draws only {placed} fit; \
     random placement jams above about {PRACTICAL_COINS} coins per player, so use a smaller n \
     or another seed"
)]
pub struct PlacementJam {
    /// Coins per player asked for.
    pub n: u32,
    /// The board seed.
    pub seed: i64,
    /// The draws allowed in all.
    pub max_draws: u64,
    /// Player 1's coins placed when the draws ran out.
    pub placed: usize,
}

/// Player 1's and player 2's start positions for `n` coins from `seed`: player 1's coin k is
/// drawn in the right third, player 2's coin k is its mirror image.
pub fn place(n: u32, seed: i64) -> Result<[Vec<Point>; 2], PlacementJam> {
    place_within(n, seed, MAX_DRAWS).map(|(coins, _)| coins)
}

/// [`place`] giving up after `max_draws` draws in all; also how many draws it took.
pub fn place_within(
    n: u32,
    seed: i64,
    max_draws: u64,
) -> Result<([Vec<Point>; 2], u64), PlacementJam> {
    let mut random = JavaRandom::new(seed);
    let mut one: Vec<Point> = Vec::with_capacity(n as usize);
    let mut draws = 0u64;
    while one.len() < n as usize {
        draws += 1;
        if draws > max_draws {
            return Err(PlacementJam {
                n,
                seed,
                max_draws,
                placed: one.len(),
            });
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
    Ok(([one, two], draws))
}
