//! `agon bench --suite viewer`: the replay viewer's page for the two largest records the games
//! make, a 3000-turn Flip game at n = 50 and an 8-player ReversiXT game on the course's 8-player
//! map: its size and the time `agon view` takes to build it (replay, patches, packing). How fast
//! a browser opens the page is measured by the browser test's `page_open_times`.

use super::figure::{summarize, Figure};
use agon_engine::local_match;
use agon_engine::MatchRecord;
use agon_games::registry::Registry;
use std::path::Path;
use std::time::Instant;

/// A game of greedy bots on `map`, one per seat the map has, on the inline host.
fn reversixt_game(greedy: &Path, map: &str) -> anyhow::Result<MatchRecord> {
    let params = [("map", map)];
    let rules = Registry::builtin();
    let seats = rules.get("reversixt")?.seats_for(
        &agon_games::contract::raw_params(&params),
        &agon_engine::GameFiles,
    )?;
    let bots = vec![format!("{}:greedy", greedy.display()); seats];
    // A budget no greedy move comes near: the figure is the page, not the game.
    Ok(local_match::play("reversixt", &params, &bots, 1, 60_000)?)
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
        let page = agon_play::view::page(record, &registry, None)?;
        times.push(t0.elapsed().as_secs_f64() * 1000.0);
        size = page.len() as f64 / 1024.0;
    }
    Ok(vec![
        summarize(size_name, vec![size], "KiB"),
        summarize(build_name, times, "ms"),
    ])
}

pub fn run(flip_greedy: &Path, reversixt_greedy: &Path, map: &str) -> anyhow::Result<Vec<Figure>> {
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
