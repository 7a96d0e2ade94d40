//! `agon bench --suite puzzles`: Flow Free `fast` on every course puzzle, the Lights Out table
//! for 1..30 x 1..30, and a random solvable 1000 x 1000 Lights Out board solved by `gf2`.

use super::figure::{summarize, Figure};
use agon_engine::Plugin;
use agon_engine::{Deadline, InlineHost, SeatHost};
use agon_games::lightsout::{nullity, Board, Click};
use agon_games::registry::Registry;
use agon_sdk::protocol::{self, flowfree as ff, lightsout as lo, Reply, Start};
use anyhow::{anyhow, Context};
use rand::{Rng, SeedableRng};
use std::path::Path;
use std::time::{Duration, Instant};

fn start<S: serde::Serialize>(game: S) -> Vec<u8> {
    protocol::encode(&Start {
        seat: 0,
        seats: 1,
        seed: 1,
        start_budget_ms: 0,
        move_budget_ms: 10_000,
        bot_params: Default::default(),
        game,
    })
}

/// The puzzles of the `puzzles` suite: the files of `folder`, else the course's built in; each
/// with its name.
fn flowfree_puzzles(folder: Option<&Path>) -> anyhow::Result<Vec<(String, String)>> {
    let Some(folder) = folder else {
        let game = &agon_games::flowfree::session::GAME;
        return Ok(game
            .instances
            .iter()
            .map(|p| (p.name.to_string(), p.text.to_string()))
            .collect());
    };
    let mut files: Vec<_> = std::fs::read_dir(folder)
        .with_context(|| format!("{}: the puzzles (--flowfree DIR)", folder.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|file| {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            Ok((file.display().to_string(), text))
        })
        .collect()
}

/// Milliseconds per solve of each course puzzle by `fast` (median of 5, inline host).
pub fn flowfree(solver: &Path, folder: Option<&Path>) -> anyhow::Result<Vec<Figure>> {
    let plugin = Plugin::load(solver)?;
    let registry = Registry::builtin();
    let game = registry.get("flowfree")?;
    let mut figures = Vec::new();
    for (file, text) in flowfree_puzzles(folder)? {
        let puzzle =
            agon_games::flowfree::Puzzle::parse(&text).map_err(|e| anyhow!("{file}: {e}"))?;
        let observation = protocol::encode(&ff::Observation {
            rows: puzzle.rows() as u32,
            cols: puzzle.cols() as u32,
            cells: puzzle.cells().iter().map(|c| c.unwrap_or(b'_')).collect(),
        });
        let mut samples = Vec::new();
        for _ in 0..5 {
            let mut host = InlineHost::new(plugin.new_bot("fast", game)?);
            host.start(
                start(ff::Setup {
                    rows: puzzle.rows() as u32,
                    cols: puzzle.cols() as u32,
                }),
                Deadline::wall(None),
            );
            let t0 = Instant::now();
            let call = host.act(observation.clone(), Deadline::wall(None));
            samples.push(t0.elapsed().as_secs_f64() * 1000.0);
            let agon_engine::CallResult::Answer(bytes) = call.result else {
                return Err(anyhow!("{file}: fast failed"));
            };
            let reply: Reply<ff::Answer> = protocol::decode(&bytes)?;
            let ff::Answer::Solved { cells } = reply.action else {
                return Err(anyhow!("{file}: fast did not solve it"));
            };
            agon_games::flowfree::verify(&puzzle, &cells).map_err(|e| anyhow!("{file}: {e}"))?;
        }
        let shown = file.rsplit('/').next().unwrap_or(&file);
        figures.push(summarize(
            format!("flowfree fast, {shown} (ms)"),
            samples,
            "ms",
        ));
    }
    Ok(figures)
}

/// The whole 1..30 x 1..30 table of solvable fractions (ms).
pub fn lightsout_table() -> Figure {
    let samples = (0..5)
        .map(|_| {
            let t0 = Instant::now();
            let mut total = 0usize;
            for r in 1..=30 {
                for c in 1..=30 {
                    total += nullity(r, c);
                }
            }
            std::hint::black_box(total);
            t0.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    summarize("lightsout table 1..30 x 1..30 (ms)", samples, "ms")
}

/// A random solvable 1000 x 1000 board (random clicks), solved by `gf2` (ms), checked.
pub fn lightsout_large(solver: &Path) -> anyhow::Result<Figure> {
    let plugin = Plugin::load(solver)?;
    let registry = Registry::builtin();
    let game = registry.get("lightsout")?;
    let n = 1000;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
    let board = Board::clicked(n, n, |_, _| rng.random_bool(0.5));
    let black = lo::pack(n, n, |r, c| board.get(r, c));
    let observation = protocol::encode(&lo::Observation {
        rows: n as u32,
        cols: n as u32,
        black,
    });
    let mut samples = Vec::new();
    for _ in 0..3 {
        let mut host = InlineHost::new(plugin.new_bot("gf2", game)?);
        host.start(
            start(lo::Setup {
                rows: n as u32,
                cols: n as u32,
            }),
            Deadline::wall(None),
        );
        let t0 = Instant::now();
        let call = host.act(
            observation.clone(),
            Deadline::wall(Some(Duration::from_secs(60))),
        );
        samples.push(t0.elapsed().as_secs_f64() * 1000.0);
        let agon_engine::CallResult::Answer(bytes) = call.result else {
            return Err(anyhow!("gf2 failed on the 1000 x 1000 board"));
        };
        let reply: Reply<lo::Answer> = protocol::decode(&bytes)?;
        let lo::Answer::Clicks { clicks, .. } = reply.action else {
            return Err(anyhow!("gf2 called a solvable board unsolvable"));
        };
        let mut check = board.clone();
        let cells = lo::unpack(n, n, &clicks).ok_or_else(|| anyhow!("a bad click bitmap"))?;
        for (r, c) in cells {
            check.click(Click {
                row: r as u32,
                col: c as u32,
            })?;
        }
        anyhow::ensure!(check.is_clear(), "gf2's clicks leave lights on");
    }
    Ok(summarize(
        "lightsout 1000 x 1000 solved by gf2 (ms)",
        samples,
        "ms",
    ))
}
