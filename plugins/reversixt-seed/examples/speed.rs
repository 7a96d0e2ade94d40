//! The seed search's speed from middle-game positions: each map after six greedy plies, one
//! 1 s search per mode, nodes per second printed.
//!
//! `cargo run --release -p reversixt-seed --example speed`

use agon_games::reversixt::{Map, Move, Phase, Position};
use reversixt_seed::search::{choose, Limits, Mode};
use std::time::{Duration, Instant};

const MAPS: [&str; 4] = ["infinity", "heartExercise3", "example", "comp2019_04_8p"];

/// The move after which the player to move owns the most stones (the first such).
fn greedy(position: &Position) -> Option<Move> {
    let p = position.to_move;
    let mut best: Option<(usize, Move)> = None;
    for m in position.legal_moves() {
        let mut after = position.clone();
        if after.play(p, m).is_ok() {
            let own = after.map.stones()[p as usize - 1];
            if best.is_none_or(|(n, _)| own > n) {
                best = Some((own, m));
            }
        }
    }
    best.map(|(_, m)| m)
}

fn main() -> Result<(), String> {
    for name in MAPS {
        let instances = agon_games::reversixt::session::GAME.instances;
        let text = agon_games::contract::built_in(instances, name)
            .ok_or_else(|| format!("no built-in map `{name}`"))?
            .text;
        let map = Map::parse_lenient(text).map_err(|e| format!("{name}: {e}"))?;
        let mut position = Position::new(map);
        for _ in 0..6 {
            if position.phase != Phase::Building {
                break;
            }
            let Some(m) = greedy(&position) else { break };
            position
                .play(position.to_move, m)
                .map_err(|e| e.to_string())?;
        }
        for mode in [Mode::Paranoid, Mode::MaxN] {
            let start = Instant::now();
            let limits = Limits {
                deadline: Some(start + Duration::from_secs(1)),
                max_depth: None,
            };
            let r = choose(&position, mode, &limits);
            let secs = start.elapsed().as_secs_f64();
            println!(
                "{name:32} {mode:?}: depth {}, {} nodes, {:.0} nodes/s",
                r.depth,
                r.nodes,
                r.nodes as f64 / secs
            );
        }
    }
    Ok(())
}
