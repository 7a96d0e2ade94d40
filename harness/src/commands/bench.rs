//! `agon bench`: the plugin boundary and the hosts, each measured in the same run as the bare
//! mechanism it adds to, and the rules' random-playout rate on one core.

use crate::cli::BenchArgs;
use agon_engine::game::Registry;
use agon_engine::host::{Deadline, InlineHost, SeatHost, ThreadHost};
use agon_engine::loader::Plugin;
use agon_games::breakthrough::{Config, Position};
use agon_plugin_api::protocol::{self, breakthrough as wire};
use agon_plugin_api::sdk::breakthrough as convert;
use anyhow::{anyhow, Context};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Serialize)]
struct Figure {
    name: &'static str,
    /// Median over the samples.
    median: f64,
    /// Fastest sample.
    best: f64,
    unit: &'static str,
}

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
    let registry = Registry::builtin();
    let game = registry.get("breakthrough")?;
    let budget = Deadline::wall(Some(Duration::from_secs(10)));
    let observation = protocol::encode(&convert::observation(
        &Position::start(Config::STANDARD),
        None,
    ));
    let reply = protocol::encode(&protocol::Reply::new(wire::Move {
        from: wire::Square { row: 1, col: 0 },
        to: wire::Square { row: 2, col: 0 },
    }));
    let per_sample = Duration::from_secs_f64(args.seconds / SAMPLES as f64);
    let mut figures = Vec::new();

    // The bare mechanisms.
    figures.push(per_call(
        "plain function call (baseline)",
        per_sample,
        || {
            black_box(plain_call(black_box(&observation), &reply));
        },
    ));
    figures.push(bare_round_trip(per_sample, &observation, &reply));

    // The hosts with the noop plugin.
    let mut inline = InlineHost::new(plugin.new_bot("noop", game)?);
    figures.push(per_call("inline host, noop bot", per_sample, || {
        black_box(inline.act(observation.clone(), budget));
    }));
    let mut thread = ThreadHost::spawn(plugin.new_bot("noop", game)?, "bench-noop".into())?;
    figures.push(per_call("thread host, noop bot", per_sample, || {
        black_box(thread.act(observation.clone(), budget));
    }));

    figures.push(playouts(per_sample));

    if args.json {
        println!("{}", serde_json::to_string_pretty(&figures)?);
        return Ok(());
    }
    println!("{:<44} {:>14} {:>14}", "measure", "median", "best");
    for f in &figures {
        println!(
            "{:<44} {:>11.1} {:<2} {:>11.1} {:<2}",
            f.name, f.median, f.unit, f.best, f.unit
        );
    }
    let get = |name: &str| {
        figures
            .iter()
            .find(|f| f.name.starts_with(name))
            .map(|f| f.median)
    };
    if let (Some(plain), Some(inline), Some(bare), Some(thread), Some(games)) = (
        get("plain"),
        get("inline"),
        get("bare"),
        get("thread"),
        get("Breakthrough"),
    ) {
        println!();
        println!(
            "inline overhead over a plain call: {:.0} ns per move (target <= 1000 ns)",
            inline - plain
        );
        println!(
            "thread host / bare round trip: {:.2}x (target <= 3x)",
            thread / bare
        );
        println!("random playouts: {games:.0} games/s on one core (target >= 100000)");
    }
    Ok(())
}

const SAMPLES: usize = 9;

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

/// What the noop bot does, without the plugin boundary: look at nothing, copy out the reply.
#[inline(never)]
fn plain_call(observation: &[u8], reply: &[u8]) -> Vec<u8> {
    black_box(observation);
    reply.to_vec()
}

/// Nanoseconds per call of `f`: SAMPLES samples, each as many calls as fit in `per_sample`.
fn per_call(name: &'static str, per_sample: Duration, mut f: impl FnMut()) -> Figure {
    // Warm up and size the batch so one timing covers many calls.
    let mut batch = 1u64;
    loop {
        let t0 = Instant::now();
        for _ in 0..batch {
            f();
        }
        if t0.elapsed() > Duration::from_millis(20) {
            break;
        }
        batch *= 2;
    }
    let mut samples = Vec::with_capacity(SAMPLES);
    for _ in 0..SAMPLES {
        let t0 = Instant::now();
        let mut calls = 0u64;
        while t0.elapsed() < per_sample {
            for _ in 0..batch {
                f();
            }
            calls += batch;
        }
        samples.push(t0.elapsed().as_nanos() as f64 / calls as f64);
    }
    summarize(name, samples, "ns")
}

fn summarize(name: &'static str, mut samples: Vec<f64>, unit: &'static str) -> Figure {
    samples.sort_by(|a, b| a.total_cmp(b));
    let best = if unit == "ns" {
        samples[0]
    } else {
        samples[samples.len() - 1]
    };
    Figure {
        name,
        median: samples[samples.len() / 2],
        best,
        unit,
    }
}

/// A bare crossbeam round trip between two threads carrying the same bytes as a move.
fn bare_round_trip(per_sample: Duration, observation: &[u8], reply: &[u8]) -> Figure {
    let (to_worker, worker_rx) = crossbeam_channel::bounded::<Vec<u8>>(1);
    let (worker_tx, from_worker) = crossbeam_channel::bounded::<Vec<u8>>(1);
    let reply = reply.to_vec();
    let worker = std::thread::spawn(move || {
        for message in worker_rx {
            black_box(&message);
            if worker_tx.send(reply.clone()).is_err() {
                break;
            }
        }
    });
    let figure = per_call("bare crossbeam round trip (baseline)", per_sample, || {
        to_worker.send(observation.to_vec()).expect("worker alive");
        black_box(from_worker.recv().expect("worker alive"));
    });
    drop(to_worker);
    let _ = worker.join();
    figure
}

/// Engine-internal random playouts from the standard start, games per second on this thread.
fn playouts(per_sample: Duration) -> Figure {
    let start = Position::start(Config::STANDARD);
    let mut rng = SmallRng::seed_from_u64(1);
    let mut plies = 0u64;
    let mut samples = Vec::with_capacity(SAMPLES);
    for _ in 0..SAMPLES {
        let t0 = Instant::now();
        let mut games = 0u64;
        while t0.elapsed() < per_sample {
            for _ in 0..64 {
                let mut p = start;
                while p.outcome().is_none() {
                    let count = p.move_count();
                    let mv = p.nth_move(rng.random_range(0..count)).expect("count > 0");
                    p.apply_unchecked(mv);
                }
                plies += p.ply() as u64;
                games += 1;
            }
        }
        samples.push(games as f64 / t0.elapsed().as_secs_f64());
    }
    black_box(plies);
    summarize("Breakthrough random playouts (8x8)", samples, "/s")
}
