//! `agon bench`: figures of the hosts, the rules, each game's engine work, tournaments and the
//! ladder, by suite. Each suite is a file here; [`figure`] is the one type they all report.

mod figure;
mod flip;
mod hosts;
mod ladder;
mod portal;
mod portal_flood;
mod process_stats;
mod puzzles;
mod rectangles;
mod reversixt;
mod rules;
mod scale;
mod summary;
mod tournament;
mod viewer;

use crate::cli::BenchArgs;
use agon_engine::Plugin;
use agon_play::console::outln;
use anyhow::{anyhow, Context};
use figure::{Figure, SAMPLES};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What the suites measure with: the `noop` plugin (its folder holds the other plugins) and
/// the time per sample.
struct Bench<'a> {
    args: &'a BenchArgs,
    noop: PathBuf,
    plugin: Plugin,
    per_sample: Duration,
}

type Suite = fn(&Bench) -> anyhow::Result<Vec<Figure>>;

/// The suites in the order `all` runs them, and whether `all` runs them: `ladder` takes
/// minutes of games and `scale` gigabytes of disk, so they run only when asked for by name.
const SUITES: [(&str, Suite, bool); 11] = [
    ("hosts", hosts_suite, true),
    ("rules", rules_suite, true),
    ("flip", flip_suite, true),
    ("reversixt", reversixt_suite, true),
    ("rectangles", rectangles_suite, true),
    ("viewer", viewer_suite, true),
    ("puzzles", puzzles_suite, true),
    ("tournament", tournament_suite, true),
    ("ladder", ladder_suite, false),
    ("scale", scale_suite, false),
    ("portal", portal_suite, false),
];

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
    let bench = Bench {
        plugin: Plugin::load(&noop)?,
        noop,
        per_sample: Duration::from_secs_f64(args.seconds / SAMPLES as f64),
        args: &args,
    };
    let suite = args.suite.as_str();
    if suite != "all" && !SUITES.iter().any(|&(name, _, _)| name == suite) {
        anyhow::bail!(
            "--suite `{suite}`: expected all, hosts, rules, tournament, puzzles, flip, reversixt, \
             rectangles, viewer, ladder, scale or portal"
        );
    }
    let mut figures = Vec::new();
    for (name, measure, in_all) in SUITES {
        if name == suite || (suite == "all" && in_all) {
            figures.extend(measure(&bench)?);
        }
    }
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&figures)?);
        return Ok(());
    }
    summary::print(&figures, args.ladder_games);
    Ok(())
}

fn hosts_suite(b: &Bench) -> anyhow::Result<Vec<Figure>> {
    let misbehave = sibling(&b.noop, "libmisbehave.so")?;
    hosts::figures(&b.noop, &b.plugin, &misbehave, b.per_sample)
}

fn rules_suite(b: &Bench) -> anyhow::Result<Vec<Figure>> {
    Ok(vec![rules::playouts(b.per_sample)])
}

fn flip_suite(b: &Bench) -> anyhow::Result<Vec<Figure>> {
    flip::run(&sibling(&b.noop, "libflip_greedy.so")?)
}

fn reversixt_suite(b: &Bench) -> anyhow::Result<Vec<Figure>> {
    let map = &b.args.reversixt_map;
    let legal_moves = reversixt::legal_moves(map, b.per_sample)?;
    let greedy = sibling(&b.noop, "libreversixt_greedy.so")?;
    let greedy_games = reversixt::greedy_games(&greedy, b.per_sample)?;
    let seed = sibling(&b.noop, "libreversixt_seed.so")?;
    let seed_nodes = reversixt::seed_nodes(&seed, &greedy, map, b.per_sample)?;
    Ok(vec![legal_moves, greedy_games, seed_nodes])
}

fn rectangles_suite(b: &Bench) -> anyhow::Result<Vec<Figure>> {
    let cavalry = sibling(&b.noop, "librectangles_cavalry.so")?;
    let army = sibling(&b.noop, "librectangles_army.so")?;
    let chaser = sibling(&b.noop, "librectangles_chaser.so")?;
    let random = sibling(&b.noop, "librectangles_random.so")?;
    let bots: [(&Path, &str); 4] = [
        (&cavalry, "cavalry"),
        (&army, "army"),
        (&chaser, "chaser"),
        (&random, "random"),
    ];
    Ok(vec![rectangles::rules_per_round(bots, b.per_sample)?])
}

fn viewer_suite(b: &Bench) -> anyhow::Result<Vec<Figure>> {
    viewer::run(
        &sibling(&b.noop, "libflip_greedy.so")?,
        &sibling(&b.noop, "libreversixt_greedy.so")?,
        &b.args.reversixt_map,
    )
}

fn puzzles_suite(b: &Bench) -> anyhow::Result<Vec<Figure>> {
    let mut figures = puzzles::flowfree(
        &sibling(&b.noop, "libflowfree_solver.so")?,
        b.args.flowfree.as_deref(),
    )?;
    figures.push(puzzles::lightsout_table());
    let gf2 = sibling(&b.noop, "liblightsout_gf2.so")?;
    figures.push(puzzles::lightsout_large(&gf2)?);
    Ok(figures)
}

fn tournament_suite(b: &Bench) -> anyhow::Result<Vec<Figure>> {
    let mut figures = tournament::throughput(&sibling(&b.noop, "libbreakthrough_random.so")?)?;
    figures.push(tournament::journal_append()?);
    Ok(figures)
}

fn ladder_suite(b: &Bench) -> anyhow::Result<Vec<Figure>> {
    let agon = std::env::current_exe().context("cannot locate the agon executable")?;
    let random = sibling(&b.noop, "libbreakthrough_random.so")?;
    let mut figures = ladder::idle(&agon, &random)?;
    figures.extend(ladder::ladder(
        &random,
        &sibling(&b.noop, "libbreakthrough_alphabeta.so")?,
        b.args.ladder_games,
    )?);
    Ok(figures)
}

fn scale_suite(b: &Bench) -> anyhow::Result<Vec<Figure>> {
    let agon = std::env::current_exe().context("cannot locate the agon executable")?;
    scale::run(
        &agon,
        &sibling(&b.noop, "libbreakthrough_random.so")?,
        b.args.scale_games,
        b.args.scale_shards,
    )
}

fn portal_suite(b: &Bench) -> anyhow::Result<Vec<Figure>> {
    let agon = std::env::current_exe().context("cannot locate the agon executable")?;
    let random = sibling(&b.noop, "libbreakthrough_random.so")?;
    let alphabeta = sibling(&b.noop, "libbreakthrough_alphabeta.so")?;
    portal::portal(
        &agon,
        [&random, &alphabeta],
        b.args.portal_uploads,
        b.args.portal_games,
    )
}

/// Another plugin in the folder of `plugin`.
fn sibling(plugin: &Path, name: &str) -> anyhow::Result<PathBuf> {
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
