//! `agon bench --suite tournament`: tournament throughput with fast bots at concurrency 1 and 2
//! (process host, the default for team code), and the cost of one fsynced journal append.

use super::figure::{summarize, Figure};
use agon_engine::loader::cache_dir;
use agon_engine::output_file::fresh_scratch;
use agon_games::registry::Registry;
use agon_play::journal::{self, Journal};
use agon_tournament::config::Config;
use agon_tournament::entry::Entry;
use agon_tournament::plan::Plan;
use agon_tournament::run::{execute, RunOptions};
use std::path::Path;
use std::time::Instant;

/// Four seeded random bots, every pairing, 40 games each: 240 fast games per run.
fn config_text(random: &Path) -> String {
    let mut text = String::from(
        "game = \"breakthrough\"\ngames_per_pairing = 40\nseed = 1\nhost = \"process\"\n",
    );
    for name in ["a", "b", "c", "d"] {
        text.push_str(&format!(
            "[[entrant]]\nname = \"{name}\"\nbot = \"{}:random\"\n",
            random.display()
        ));
    }
    text
}

pub fn throughput(random: &Path) -> anyhow::Result<Vec<Figure>> {
    let dir = fresh_scratch("bench-tournament")?;
    let path = dir.join("bench.toml");
    std::fs::write(&path, config_text(random))?;
    let registry = Registry::builtin();
    let config = Config::load(&path, &registry)?;
    let plan = Plan::make(&config, &registry, &cache_dir())?;
    let mut figures = Vec::new();
    for (concurrency, name) in [
        (1, "tournament, concurrency 1 (games/s)"),
        (2, "tournament, concurrency 2 (games/s)"),
    ] {
        let mut rates = Vec::new();
        for run in 0..3 {
            let out = dir.join(format!("c{concurrency}-{run}"));
            std::fs::create_dir_all(&out)?;
            plan.write(&out)?;
            let options = RunOptions {
                concurrency,
                quiet: true,
                watch: false,
            };
            let summary = execute(&plan, &out, &options)?;
            rates.push(summary.played as f64 / summary.seconds);
        }
        figures.push(summarize(name, rates, "/s"));
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(figures)
}

/// One journal line written and fsynced, in microseconds.
pub fn journal_append() -> anyhow::Result<Figure> {
    let dir = fresh_scratch("bench-journal")?;
    let (mut journal, _) = Journal::open(&dir, &journal::any_entry::<Entry>)?;
    let entry = Entry {
        id: "0123456789abcdef-s00-e00e01-g000".into(),
        param_set: 0,
        seed: 1,
        seed_secret: Some(agon_engine::SeedSecret::from_bytes([1; 32])),
        seats: vec![0, 1],
        names: vec!["a".into(), "b".into()],
        sha256: vec!["0".repeat(64), "1".repeat(64)],
        result: journal::GameResult {
            game_scores: vec![3.0, 1.0],
            moves: 40,
            game_ms: 5.0,
            ..journal::GameResult::by_rules(
                &[1.0, 0.0],
                &[],
                "white wins: reached the opponent's home row",
            )
        },
        ms_per_move: vec![0.1, 0.1],
        nodes: vec![None, None],
    };
    let mut samples = Vec::new();
    for _ in 0..200 {
        let t0 = Instant::now();
        journal.append(&entry)?;
        samples.push(t0.elapsed().as_secs_f64() * 1e6);
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(summarize("journal append with fsync (us)", samples, "us"))
}
