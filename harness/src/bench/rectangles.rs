//! `agon bench --suite rectangles`: the rules' time per round (painting, incremental claims,
//! scores) at n = 100 with 4 players of 16 robots each, mid-game, on rounds the real players
//! played (royal cavalry, army, chaser and random).

use super::figure::{summarize, Figure, SAMPLES};
use agon_engine::seat_from_plugin;
use agon_engine::BotSpec;
use agon_engine::Budgets;
use agon_engine::HostKind;
use agon_engine::Plugin;
use agon_engine::{run_match, MatchSettings};
use agon_games::contract::{raw_params, GameRules};
use agon_games::rectangles::session::{parse_notation, RectanglesRules};
use agon_games::rectangles::{Config, Direction, Game};
use agon_sdk::protocol::rectangles::Action;
use anyhow::anyhow;
use std::path::Path;
use std::time::{Duration, Instant};

/// Rounds played before the measured ones, and how many are measured.
const OPENING: usize = 150;
const MEASURED: usize = 150;

/// Median microseconds per round of `Game::step` over rounds OPENING.. of a recorded game.
pub fn rules_per_round(
    players: [(&Path, &str); 4],
    per_sample: Duration,
) -> anyhow::Result<Figure> {
    let rules: &dyn GameRules = &RectanglesRules;
    let rounds = (OPENING + MEASURED).to_string();
    let params = raw_params(&[
        ("n", "100"),
        ("players", "4"),
        ("robots", "16"),
        ("max_rounds", &rounds),
    ]);
    let settings = MatchSettings {
        params,
        seed: 7,
        seed_secret: agon_engine::SeedSecret::draw()?,
        budgets: Budgets::default(),
        fault_policy: None,
    };
    let seats = players
        .iter()
        .enumerate()
        .map(|(i, (file, bot))| {
            let plugin = Plugin::load(file)?;
            let spec: BotSpec = format!("{}:{bot}", file.display()).parse()?;
            Ok(seat_from_plugin(
                &plugin,
                &spec,
                i,
                rules,
                HostKind::Inline,
            )?)
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let record = run_match(rules, &settings, seats)?;
    if !record.faults.is_empty() {
        return Err(anyhow!(
            "the benchmark game had faults: {:?}",
            record.faults
        ));
    }
    // The recorded actions, round by round.
    let mut rounds: Vec<Vec<Action>> = Vec::new();
    for m in &record.moves {
        let round =
            m.round
                .ok_or_else(|| anyhow!("a Rectangles move without a round"))? as usize;
        rounds.resize_with(round + 1, Vec::new);
        rounds[round]
            .push(parse_notation(&m.action).ok_or_else(|| anyhow!("bad action {}", m.action))?);
    }
    let moves = |actions: &[Action]| -> Vec<Vec<Direction>> {
        actions
            .iter()
            .map(|a| match a {
                Action::Move(m) => m.clone(),
                Action::Place(_) => Vec::new(),
            })
            .collect()
    };
    let mut game = Game::new(Config {
        idle_rounds: u32::MAX,
        max_rounds: u32::MAX,
        ..Config::with(100, 4, 16)
    });
    let placements = rounds[0]
        .iter()
        .map(|a| match a {
            Action::Place(cells) => cells.clone(),
            Action::Move(_) => Vec::new(),
        })
        .collect();
    game.place(placements)?;
    for actions in &rounds[1..=OPENING] {
        game.step(moves(actions))?;
    }
    let measured: Vec<Vec<Vec<Direction>>> =
        rounds[OPENING + 1..].iter().map(|a| moves(a)).collect();
    let mut samples = Vec::with_capacity(SAMPLES);
    let mut claims = 0usize;
    for _ in 0..SAMPLES {
        let mut spent = Duration::ZERO;
        let mut stepped = 0u64;
        let t0 = Instant::now();
        while t0.elapsed() < per_sample {
            let mut g = game.clone();
            let inputs = measured.clone();
            let start = Instant::now();
            for round in inputs {
                claims += g.step(round)?.claims.len();
            }
            spent += start.elapsed();
            stepped += measured.len() as u64;
        }
        samples.push(spent.as_secs_f64() * 1e6 / stepped.max(1) as f64);
    }
    if claims == 0 {
        return Err(anyhow!("no claim in the measured rounds: not a mid-game"));
    }
    Ok(summarize(
        "Rectangles rules per round, n=100, 4x16 robots, mid-game",
        samples,
        "us",
    ))
}
