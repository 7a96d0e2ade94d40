//! `agon bench --suite reversixt`: legal-move generation on a course map, over the positions
//! of a seeded random game (phase 1), as positions per second; whole two-player games on an
//! 8 x 8 board between greedy bots through the engine, as games per second; the seed player's
//! search speed (nodes per second of its moves in a game on the eight-player map).

use super::figure::{summarize, Figure, SAMPLES};
use agon_engine::seat_from_plugin;
use agon_engine::BotSpec;
use agon_engine::Budgets;
use agon_engine::HostKind;
use agon_engine::Plugin;
use agon_engine::{run_match, MatchSettings};
use agon_games::contract::{GameRules, RawParams};
use agon_games::reversixt::session::ReversiXtRules;
use agon_games::reversixt::{Map, Phase, Position};
use anyhow::{anyhow, Context};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

/// The text of `map`: a built-in map by its name, else the file.
fn map_text(map: &str) -> anyhow::Result<String> {
    let instances = agon_games::reversixt::session::GAME.instances;
    match agon_games::contract::built_in(instances, map) {
        Some(built_in) => Ok(built_in.text.to_string()),
        None => std::fs::read_to_string(map).with_context(|| format!("cannot read {map}")),
    }
}

pub fn legal_moves(map_name: &str, per_sample: Duration) -> anyhow::Result<Figure> {
    let text = map_text(map_name)?;
    let map = Map::parse_lenient(&text).map_err(|e| anyhow!("{map_name}: {e}"))?;
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

/// The classic Othello start in the course's map format: two players, no overrides, no bombs,
/// 8 x 8, the four centre stones.
const OTHELLO: &str = "2\n0\n0 0\n8 8\n\
0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0\n0 0 0 1 2 0 0 0\n\
0 0 0 2 1 0 0 0\n0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0\n";

/// The seed player's nodes per second, one sample per move it searched (moves it answered
/// without a search report no nodes): seats 0 and 4 of the eight-player map, 100 ms a move
/// (less for short `--seconds`: the sample time, at least 10 ms), the other seats greedy;
/// inline host.
pub fn seed_nodes(
    seed: &Path,
    greedy: &Path,
    map: &str,
    per_sample: Duration,
) -> anyhow::Result<Figure> {
    let ms = per_sample.as_millis().clamp(10, 100);
    let rules: &dyn GameRules = &ReversiXtRules;
    let seed_plugin = Plugin::load(seed)?;
    let greedy_plugin = Plugin::load(greedy)?;
    let seed_spec: BotSpec = format!("{}:seed?ms={ms}", seed.display()).parse()?;
    let greedy_spec: BotSpec = format!("{}:greedy", greedy.display()).parse()?;
    let params = RawParams::from([("map".to_string(), map.to_string())]);
    let players = rules.seats_for(&params, &agon_engine::GameFiles)?;
    let seats = (0..players)
        .map(|i| {
            if i % 4 == 0 {
                seat_from_plugin(&seed_plugin, &seed_spec, i, rules, HostKind::Inline)
            } else {
                seat_from_plugin(&greedy_plugin, &greedy_spec, i, rules, HostKind::Inline)
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    let settings = MatchSettings {
        params,
        seed: 1,
        seed_secret: agon_engine::SeedSecret::draw()?,
        budgets: Budgets {
            start_ms: None,
            move_ms: Some(1000),
            clock: Default::default(),
        },
        fault_policy: None,
    };
    let record = run_match(rules, &settings, seats)?;
    if !record.faults.is_empty() {
        return Err(anyhow!("the benchmark game faulted: {:?}", record.faults));
    }
    let samples: Vec<f64> = record
        .moves
        .iter()
        .filter(|m| m.seat % 4 == 0 && m.wall_us >= 1000)
        .filter_map(|m| m.nodes.map(|n| n as f64 / (m.wall_us as f64 / 1e6)))
        .collect();
    if samples.is_empty() {
        return Err(anyhow!("the seed player searched no move"));
    }
    Ok(summarize(
        "ReversiXT seed search, 8-player map, nodes per second of a move",
        samples,
        "/s",
    ))
}

/// Whole games, greedy against greedy on the inline host (the rules, the protocol encoding and
/// the bots' own search all count), as games per second.
pub fn greedy_games(greedy: &Path, per_sample: Duration) -> anyhow::Result<Figure> {
    let rules: &dyn GameRules = &ReversiXtRules;
    let plugin = Plugin::load(greedy)?;
    let spec: BotSpec = format!("{}:greedy", greedy.display()).parse()?;
    let settings = MatchSettings {
        params: RawParams::from([("instance".to_string(), OTHELLO.to_string())]),
        seed: 1,
        seed_secret: agon_engine::SeedSecret::draw()?,
        budgets: Budgets::default(),
        fault_policy: None,
    };
    let mut samples = Vec::with_capacity(SAMPLES);
    for _ in 0..SAMPLES {
        let t0 = Instant::now();
        let mut games = 0u64;
        while t0.elapsed() < per_sample {
            let seats = (0..2)
                .map(|i| seat_from_plugin(&plugin, &spec, i, rules, HostKind::Inline))
                .collect::<Result<Vec<_>, _>>()?;
            let record = run_match(rules, &settings, seats)?;
            if !record.faults.is_empty() || record.moves.len() < 50 {
                return Err(anyhow!(
                    "the benchmark game went wrong: {} moves, faults {:?}",
                    record.moves.len(),
                    record.faults
                ));
            }
            games += 1;
        }
        samples.push(games as f64 / t0.elapsed().as_secs_f64());
    }
    Ok(summarize(
        "ReversiXT 8x8 greedy vs greedy, whole games, inline host",
        samples,
        "/s",
    ))
}
