//! The rules' own speed: random playouts on one core, no plugin involved.

use super::figure::{summarize, Figure, SAMPLES};
use agon_games::breakthrough::{Config, Position};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Engine-internal random playouts from the standard start, games per second on this thread.
pub fn playouts(per_sample: Duration) -> Figure {
    let start = Position::start(Config::STANDARD);
    let mut rng = SmallRng::seed_from_u64(1);
    let mut plies = 0u64;
    let mut samples = Vec::with_capacity(SAMPLES);
    for _ in 0..SAMPLES {
        let t0 = Instant::now();
        let mut games = 0u64;
        while t0.elapsed() < per_sample {
            for _ in 0..64 {
                let mut p = start;
                while p.outcome().is_none() {
                    let count = p.move_count();
                    let mv = p.nth_move(rng.random_range(0..count)).expect("count > 0");
                    p.apply_unchecked(mv);
                }
                plies += p.ply() as u64;
                games += 1;
            }
        }
        samples.push(games as f64 / t0.elapsed().as_secs_f64());
    }
    black_box(plies);
    summarize("Breakthrough random playouts (8x8)", samples, "/s")
}
