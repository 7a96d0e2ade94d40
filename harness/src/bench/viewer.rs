//! `agon bench --suite viewer`: the replay viewer's page for the two largest records the games
//! make, a 3000-turn Flip game at n = 50 and an 8-player ReversiXT game on the course's 8-player
//! map: its size and the time `agon view` takes to build it (replay, patches, packing). How fast
//! a browser opens the page is measured by the browser test's `page_open_times`.

use super::figure::{summarize, Figure};
use agon_engine::bot_spec::BotSpec;
use agon_engine::host::HostKind;
use agon_engine::loader::Plugin;
use agon_engine::record::{Budgets, MatchRecord};
use agon_engine::runner::{run_match, MatchSettings};
use agon_engine::seating::seat_from_plugin;
use agon_games::contract::RawParams;
use agon_games::registry::Registry;
use std::path::Path;
use std::time::Instant;

/// An 8-player game of greedy bots on `map` (its players decide the seats).
fn reversixt_game(greedy: &Path, map: &Path) -> anyhow::Result<MatchRecord> {
    let registry = Registry::builtin();
    let rules = registry.get("reversixt")?;
    let params = RawParams::from([("map".to_string(), map.display().to_string())]);
    let seats_wanted = rules.seats_for(&params, &agon_engine::input_file::GameFiles)?;
    let plugin = Plugin::load(greedy)?;
    let spec: BotSpec = format!("{}:greedy", greedy.display()).parse()?;
    let seats = (0..seats_wanted)
        .map(|i| seat_from_plugin(&plugin, &spec, i, rules, HostKind::Inline))
        .collect::<Result<Vec<_>, _>>()?;
    let settings = MatchSettings {
        params,
        seed: 1,
        budgets: Budgets::default(),
        fault_policy: None,
    };
    Ok(run_match(rules, &settings, seats)?)
}

fn page_figures(
    record: &MatchRecord,
    size_name: &'static str,
    build_name: &'static str,
) -> anyhow::Result<Vec<Figure>> {
    let registry = Registry::builtin();
    let mut times = Vec::new();
    let mut size = 0.0;
    for _ in 0..5 {
        let t0 = Instant::now();
        let page = crate::view::page(record, &registry, None)?;
        times.push(t0.elapsed().as_secs_f64() * 1000.0);
        size = page.len() as f64 / 1024.0;
    }
    Ok(vec![
        summarize(size_name, vec![size], "KiB"),
        summarize(build_name, times, "ms"),
    ])
}

pub fn run(flip_greedy: &Path, reversixt_greedy: &Path, map: &Path) -> anyhow::Result<Vec<Figure>> {
    let (flip, _) = super::flip::game(flip_greedy)?;
    let reversixt = reversixt_game(reversixt_greedy, map)?;
    let mut figures = page_figures(
        &flip,
        "viewer page, flip n=50 3000 turns: size (KiB)",
        "viewer page, flip n=50 3000 turns: build (ms)",
    )?;
    figures.extend(page_figures(
        &reversixt,
        "viewer page, reversixt 8 players: size (KiB)",
        "viewer page, reversixt 8 players: build (ms)",
    )?);
    Ok(figures)
}
