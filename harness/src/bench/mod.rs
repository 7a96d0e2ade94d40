//! `agon bench`: figures of the hosts, the rules, each game's engine work, tournaments and the
//! ladder, by suite. Each suite is a file here; [`figure`] is the one type they all report.

mod figure;
mod flip;
mod hosts;
mod ladder;
mod puzzles;
mod rectangles;
mod reversixt;
mod rules;
mod summary;
mod tournament;
mod viewer;

use crate::cli::BenchArgs;
use crate::console::outln;
use agon_engine::loader::Plugin;
use anyhow::{anyhow, Context};
use figure::SAMPLES;
use std::path::PathBuf;
use std::time::Duration;

pub fn run(args: BenchArgs) -> anyhow::Result<()> {
    if !(args.seconds.is_finite() && args.seconds > 0.0 && args.seconds <= 3600.0) {
        anyhow::bail!(
            "--seconds: expected a number of seconds from 0 to 3600, got {}",
            args.seconds
        );
    }
    let noop = match &args.noop {
        Some(p) => p.clone(),
        None => default_noop()?,
    };
    let plugin = Plugin::load(&noop)?;
    let per_sample = Duration::from_secs_f64(args.seconds / SAMPLES as f64);
    let mut figures = Vec::new();

    let suite = args.suite.as_str();
    if ![
        "all",
        "hosts",
        "rules",
        "tournament",
        "puzzles",
        "flip",
        "reversixt",
        "rectangles",
        "viewer",
        "ladder",
    ]
    .contains(&suite)
    {
        anyhow::bail!(
            "--suite `{suite}`: expected all, hosts, rules, tournament, puzzles, flip, reversixt, \
             rectangles, viewer or ladder"
        );
    }
    let wants = |part: &str| suite == "all" || suite == part;

    if wants("hosts") {
        let misbehave = sibling(&noop, "libmisbehave.so")?;
        figures.extend(hosts::figures(&noop, &plugin, &misbehave, per_sample)?);
    }
    if wants("rules") {
        figures.push(rules::playouts(per_sample));
    }
    if wants("flip") {
        figures.extend(flip::run(&sibling(&noop, "libflip_greedy.so")?)?);
    }
    if wants("reversixt") {
        figures.push(reversixt::legal_moves(&args.reversixt_map, per_sample)?);
        let greedy = sibling(&noop, "libreversixt_greedy.so")?;
        figures.push(reversixt::greedy_games(&greedy, per_sample)?);
        figures.push(reversixt::seed_nodes(
            &sibling(&noop, "libreversixt_seed.so")?,
            &greedy,
            &args.reversixt_map,
            per_sample,
        )?);
    }
    if wants("rectangles") {
        let cavalry = sibling(&noop, "librectangles_cavalry.so")?;
        let army = sibling(&noop, "librectangles_army.so")?;
        let chaser = sibling(&noop, "librectangles_chaser.so")?;
        let random = sibling(&noop, "librectangles_random.so")?;
        figures.push(rectangles::rules_per_round(
            [
                (&cavalry, "cavalry"),
                (&army, "army"),
                (&chaser, "chaser"),
                (&random, "random"),
            ],
            per_sample,
        )?);
    }
    if wants("viewer") {
        figures.extend(viewer::run(
            &sibling(&noop, "libflip_greedy.so")?,
            &sibling(&noop, "libreversixt_greedy.so")?,
            &args.reversixt_map,
        )?);
    }
    if wants("puzzles") {
        figures.extend(puzzles::flowfree(
            &sibling(&noop, "libflowfree_solver.so")?,
            &args.flowfree,
        )?);
        figures.push(puzzles::lightsout_table());
        figures.push(puzzles::lightsout_large(&sibling(
            &noop,
            "liblightsout_gf2.so",
        )?)?);
    }
    if wants("tournament") {
        figures.extend(tournament::throughput(&sibling(
            &noop,
            "libbreakthrough_random.so",
        )?)?);
        figures.push(tournament::journal_append()?);
    }

    // Minutes of games: only when asked for by name.
    if suite == "ladder" {
        figures.extend(ladder::ladder(
            &sibling(&noop, "libbreakthrough_random.so")?,
            &sibling(&noop, "libbreakthrough_alphabeta.so")?,
            args.ladder_games,
        )?);
    }

    if args.json {
        outln!("{}", serde_json::to_string_pretty(&figures)?);
        return Ok(());
    }
    summary::print(&figures, args.ladder_games);
    Ok(())
}

/// Another plugin in the folder of `plugin`.
fn sibling(plugin: &std::path::Path, name: &str) -> anyhow::Result<PathBuf> {
    let path = plugin.with_file_name(name);
    anyhow::ensure!(
        path.exists(),
        "{} not found (it is built with the workspace)",
        path.display()
    );
    Ok(path)
}

/// `libnoop.so` next to the running executable (cargo puts both in `target/<profile>`).
fn default_noop() -> anyhow::Result<PathBuf> {
    let exe = std::env::current_exe().context("cannot locate the agon executable")?;
    let dir = exe
        .parent()
        .ok_or_else(|| anyhow!("the executable has no folder"))?;
    let path = dir.join("libnoop.so");
    if !path.exists() {
        return Err(anyhow!(
            "{} not found; build it with `cargo build --release -p noop` or pass --noop FILE",
            path.display()
        ));
    }
    Ok(path)
}
