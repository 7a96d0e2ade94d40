//! `agon bench --suite flip`: a 3000-turn Flip game at n = 50 between two greedy bots on the
//! inline host (games per second), then the rules alone re-applying its moves (time per move:
//! validation and apply).

use super::figure::{summarize, Figure};
use agon_engine::seat_from_plugin;
use agon_engine::BotSpec;
use agon_engine::HostKind;
use agon_engine::Plugin;
use agon_engine::{run_match, MatchSettings};
use agon_engine::{Budgets, MatchRecord};
use agon_games::contract::RawParams;
use agon_games::flip::{Config, Flip, Point};
use agon_games::registry::Registry;
use std::path::Path;
use std::time::Instant;

fn params() -> RawParams {
    RawParams::from([
        ("n".to_string(), "50".to_string()),
        ("turns".to_string(), "3000".to_string()),
        ("seed".to_string(), "43".to_string()),
    ])
}

pub(super) fn game(greedy: &Path) -> anyhow::Result<(MatchRecord, f64)> {
    let registry = Registry::builtin();
    let rules = registry.get("flip")?;
    let plugin = Plugin::load(greedy)?;
    let spec: BotSpec = format!("{}:greedy", greedy.display()).parse()?;
    let seats = (0..2)
        .map(|i| seat_from_plugin(&plugin, &spec, i, rules, HostKind::Inline))
        .collect::<Result<Vec<_>, _>>()?;
    let settings = MatchSettings {
        params: params(),
        seed: 1,
        seed_secret: agon_engine::SeedSecret::draw()?,
        budgets: Budgets::default(),
        fault_policy: None,
    };
    let t0 = Instant::now();
    let record = run_match(rules, &settings, seats)?;
    Ok((record, t0.elapsed().as_secs_f64()))
}

/// The moves of each half-turn of a record.
fn half_turns(record: &MatchRecord) -> Vec<Vec<(u32, Point)>> {
    record
        .moves
        .iter()
        .map(|m| {
            if m.action == "-" {
                return Vec::new();
            }
            m.action
                .split_whitespace()
                .filter_map(|mv| {
                    let mv = mv.trim_start_matches('!');
                    let (id, xy) = mv.split_once(':')?;
                    let (x, y) = xy.split_once(',')?;
                    Some((
                        id.parse().ok()?,
                        Point::new(x.parse().ok()?, y.parse().ok()?),
                    ))
                })
                .collect()
        })
        .collect()
}

pub fn run(greedy: &Path) -> anyhow::Result<Vec<Figure>> {
    let mut rates = Vec::new();
    let mut record = None;
    for _ in 0..3 {
        let (r, seconds) = game(greedy)?;
        rates.push(1.0 / seconds);
        record = Some(r);
    }
    let record = record.expect("three games");
    let turns = half_turns(&record);
    let moves: usize = turns.iter().map(Vec::len).sum();
    let mut per_move = Vec::new();
    for _ in 0..5 {
        let mut flip = Flip::new(Config::from_params(&params())?)?;
        let t0 = Instant::now();
        for half in &turns {
            std::hint::black_box(flip.play(half));
        }
        per_move.push(t0.elapsed().as_secs_f64() * 1e9 / moves.max(1) as f64);
    }
    Ok(vec![
        summarize(
            "flip n=50, 3000 turns, greedy vs greedy, inline (games/s)",
            rates,
            "/s",
        ),
        summarize("flip rules per move: validate + apply (ns)", per_move, "ns"),
    ])
}
