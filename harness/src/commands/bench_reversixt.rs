//! `agon bench --suite reversixt`: legal-move generation on a course map, over the positions
//! of a seeded random game (phase 1), as positions per second.

use super::bench::{summarize, Figure, SAMPLES};
use agon_games::reversixt::{Map, Phase, Position};
use anyhow::{anyhow, Context};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

pub fn legal_moves(map_file: &Path, per_sample: Duration) -> anyhow::Result<Figure> {
    let text = std::fs::read_to_string(map_file)
        .with_context(|| format!("cannot read {}", map_file.display()))?;
    let map = Map::parse(&text).map_err(|e| anyhow!("{}: {e}", map_file.display()))?;
    // The positions of one seeded random game's building phase.
    let mut positions = Vec::new();
    let mut position = Position::new(map);
    let mut rng = SmallRng::seed_from_u64(2019);
    while position.phase == Phase::Building && positions.len() < 400 {
        let moves = position.legal_moves();
        positions.push(position.clone());
        let m = moves[rng.random_range(0..moves.len())];
        position
            .play(position.to_move, m)
            .map_err(|e| anyhow!("the rules refused their own move: {e}"))?;
    }
    let mut samples = Vec::with_capacity(SAMPLES);
    for _ in 0..SAMPLES {
        let t0 = Instant::now();
        let mut done = 0u64;
        while t0.elapsed() < per_sample {
            for p in &positions {
                black_box(p.legal_moves());
            }
            done += positions.len() as u64;
        }
        samples.push(done as f64 / t0.elapsed().as_secs_f64());
    }
    Ok(summarize(
        "ReversiXT legal-move generation (positions of a random game)",
        samples,
        "/s",
    ))
}
