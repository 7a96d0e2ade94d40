//! `agon bench --suite puzzles`: Flow Free `fast` on every course puzzle, the Lights Out table
//! for 1..30 x 1..30, and a random solvable 1000 x 1000 Lights Out board solved by `gf2`.

use super::figure::{summarize, Figure};
use agon_engine::host::{Deadline, InlineHost, SeatHost};
use agon_engine::loader::Plugin;
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

/// Milliseconds per solve of each course puzzle by `fast` (median of 5, inline host).
pub fn flowfree(solver: &Path, puzzles: &Path) -> anyhow::Result<Vec<Figure>> {
    let plugin = Plugin::load(solver)?;
    let registry = Registry::builtin();
    let game = registry.get("flowfree")?;
    let mut figures = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(puzzles)
        .with_context(|| format!("{}: the course puzzles (--flowfree DIR)", puzzles.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("input"))
        })
        .collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file)?;
        let puzzle = agon_games::flowfree::Puzzle::parse(&text)
            .map_err(|e| anyhow!("{}: {e}", file.display()))?;
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
            let agon_engine::host::CallResult::Answer(bytes) = call.result else {
                return Err(anyhow!("{}: fast failed", file.display()));
            };
            let reply: Reply<ff::Answer> = protocol::decode(&bytes).map_err(|e| anyhow!(e))?;
            let ff::Answer::Solved { cells } = reply.action else {
                return Err(anyhow!("{}: fast did not solve it", file.display()));
            };
            agon_games::flowfree::verify(&puzzle, &cells)
                .map_err(|e| anyhow!("{}: {e}", file.display()))?;
        }
        let name: &'static str = Box::leak(
            format!(
                "flowfree fast, {} (ms)",
                file.file_name().unwrap_or_default().to_string_lossy()
            )
            .into_boxed_str(),
        );
        figures.push(summarize(name, samples, "ms"));
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
        let agon_engine::host::CallResult::Answer(bytes) = call.result else {
            return Err(anyhow!("gf2 failed on the 1000 x 1000 board"));
        };
        let reply: Reply<lo::Answer> = protocol::decode(&bytes).map_err(|e| anyhow!(e))?;
        let lo::Answer::Clicks { clicks, .. } = reply.action else {
            return Err(anyhow!("gf2 called a solvable board unsolvable"));
        };
        let mut check = board.clone();
        let cells = lo::unpack(n, n, &clicks).ok_or_else(|| anyhow!("a bad click bitmap"))?;
        for (r, c) in cells {
            check
                .click(Click {
                    row: r as u32,
                    col: c as u32,
                })
                .map_err(|e| anyhow!(e))?;
        }
        anyhow::ensure!(check.is_clear(), "gf2's clicks leave lights on");
    }
    Ok(summarize(
        "lightsout 1000 x 1000 solved by gf2 (ms)",
        samples,
        "ms",
    ))
}
