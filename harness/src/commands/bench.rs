//! `agon bench`: the plugin boundary and the hosts, each measured in the same run as the bare
//! mechanism it adds to, and the rules' random-playout rate on one core.

use crate::cli::BenchArgs;
use crate::console::outln;
use agon_engine::game::Registry;
use agon_engine::host::{
    Deadline, InlineHost, ProcessHost, ProcessHostConfig, SeatHost, ThreadHost,
};
use agon_engine::loader::{cache_dir, Plugin, StagedPlugin};
use agon_engine::sandbox::SandboxConfig;
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
pub struct Figure {
    pub name: &'static str,
    /// Median over the samples.
    pub median: f64,
    /// Best sample.
    pub best: f64,
    pub unit: &'static str,
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

    let suite = args.suite.as_str();
    if ![
        "all",
        "hosts",
        "rules",
        "tournament",
        "puzzles",
        "flip",
        "reversixt",
        "ladder",
    ]
    .contains(&suite)
    {
        anyhow::bail!(
            "--suite `{suite}`: expected all, hosts, rules, tournament, puzzles, flip, reversixt \
             or ladder"
        );
    }
    let wants = |part: &str| suite == "all" || suite == part;

    if wants("hosts") {
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

        // The process host, against a bare pipe round trip to a child process.
        let process =
            ProcessHostConfig::locate(SandboxConfig::default()).map_err(|e| anyhow!(e))?;
        let staged = StagedPlugin::stage(&noop, &cache_dir())?;
        figures.push(bare_pipe_round_trip(per_sample, observation.len())?);
        let mut host = ProcessHost::spawn(&process, &staged, "noop", game.name())?;
        figures.push(per_call("process host, noop bot", per_sample, || {
            black_box(host.act(observation.clone(), budget));
        }));
        drop(host);
        figures.push(startup(&process, &staged)?);
        let misbehave = sibling(&noop, "libmisbehave.so")?;
        let misbehave = StagedPlugin::stage(&misbehave, &cache_dir())?;
        figures.extend(deadline_precision(&process, &misbehave)?);
    }
    if wants("rules") {
        figures.push(playouts(per_sample));
    }
    if wants("flip") {
        figures.extend(super::bench_flip::run(&sibling(
            &noop,
            "libflip_greedy.so",
        )?)?);
    }
    if wants("reversixt") {
        figures.push(super::bench_reversixt::legal_moves(
            &args.reversixt_map,
            per_sample,
        )?);
        let greedy = sibling(&noop, "libreversixt_greedy.so")?;
        figures.push(super::bench_reversixt::greedy_games(&greedy, per_sample)?);
        figures.push(super::bench_reversixt::seed_nodes(
            &sibling(&noop, "libreversixt_seed.so")?,
            &greedy,
            &args.reversixt_map,
            per_sample,
        )?);
    }
    if wants("puzzles") {
        figures.extend(super::bench_puzzles::flowfree(
            &sibling(&noop, "libflowfree_solver.so")?,
            &args.flowfree,
        )?);
        figures.push(super::bench_puzzles::lightsout_table());
        figures.push(super::bench_puzzles::lightsout_large(&sibling(
            &noop,
            "liblightsout_gf2.so",
        )?)?);
    }
    if wants("tournament") {
        figures.extend(super::bench_tournament::throughput(&sibling(
            &noop,
            "libbreakthrough_random.so",
        )?)?);
        figures.push(super::bench_tournament::journal_append()?);
    }

    // Minutes of games: only when asked for by name.
    if suite == "ladder" {
        figures.extend(super::bench_ladder::ladder(
            &sibling(&noop, "libbreakthrough_random.so")?,
            &sibling(&noop, "libbreakthrough_alphabeta.so")?,
            args.ladder_games,
        )?);
    }

    if args.json {
        outln!("{}", serde_json::to_string_pretty(&figures)?);
        return Ok(());
    }
    outln!("{:<44} {:>14} {:>14}", "measure", "median", "best");
    for f in &figures {
        outln!(
            "{:<44} {:>11.1} {:<2} {:>11.1} {:<2}",
            f.name,
            f.median,
            f.unit,
            f.best,
            f.unit
        );
    }
    let get = |name: &str| {
        figures
            .iter()
            .find(|f| f.name.starts_with(name))
            .map(|f| f.median)
    };
    if let (Some(pipe), Some(process), Some(startup)) = (
        get("bare pipe"),
        get("process host,"),
        get("process host start-up"),
    ) {
        outln!(
            "process host / bare pipe round trip: {:.2}x (target <= 1.5x); start-up median \
             {:.2} ms (target <= 3 ms)",
            process / pipe,
            startup / 1000.0
        );
    }
    if let (Some(p50), Some(p99)) = (get("deadline overshoot p50"), get("deadline overshoot p99")) {
        outln!(
            "kill past the deadline, both cores busy: p50 {:.2} ms, p99 {:.2} ms (target p99 < \
             20 ms)",
            p50 / 1000.0,
            p99 / 1000.0
        );
    }
    if let (Some(plain), Some(inline), Some(bare), Some(thread), Some(games)) = (
        get("plain"),
        get("inline"),
        get("bare crossbeam"),
        get("thread"),
        get("Breakthrough"),
    ) {
        outln!();
        outln!(
            "inline overhead over a plain call: {:.0} ns per move (target <= 1000 ns)",
            inline - plain
        );
        outln!(
            "thread host / bare round trip: {:.2}x (target <= 3x)",
            thread / bare
        );
        outln!("random playouts: {games:.0} games/s on one core (target >= 100000)");
    }
    if let (Some(one), Some(two), Some(append)) = (
        get("tournament, concurrency 1"),
        get("tournament, concurrency 2"),
        get("journal append"),
    ) {
        outln!(
            "tournament throughput: {one:.1} games/s at concurrency 1, {two:.1} at 2: {:.2}x \
             (target >= 1.8x); journal append with fsync {append:.0} us per game",
            two / one
        );
    }
    if let (Some(median), Some(worst), Some(first), Some(swapped)) = (
        get("ladder swap -> first game ("),
        get("ladder swap -> first game, worst"),
        get("engine RSS after 1 swap"),
        get("engine RSS after 200 swaps"),
    ) {
        outln!(
            "ladder swap latency: median {median:.0} ms, worst {worst:.0} ms (target <= 1000 ms); \
             engine RSS after 200 swaps {:+.1}% of after the first (target within 10%)",
            (swapped / first - 1.0) * 100.0
        );
    }
    if let (Some(rss_early), Some(rss_late), Some(fds_early), Some(fds_late)) = (
        get("engine RSS after 1000 games"),
        get("engine RSS at the end"),
        get("open fds after 1000 games"),
        get("open fds at the end"),
    ) {
        outln!(
            "ladder over {} games: RSS {rss_early:.1} -> {rss_late:.1} MiB, open fds \
             {fds_early:.0} -> {fds_late:.0}",
            args.ladder_games
        );
    }
    Ok(())
}

pub const SAMPLES: usize = 9;

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

/// A bare round trip through pipes to a child process that echoes (`cat`), carrying a message
/// of `size` bytes each way: the mechanism the process host adds its framing and checks to.
fn bare_pipe_round_trip(per_sample: Duration, size: usize) -> anyhow::Result<Figure> {
    use std::io::{Read, Write};
    let mut cat = std::process::Command::new("cat")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .context("the bare pipe baseline needs `cat`")?;
    let mut to_child = cat.stdin.take().expect("piped");
    let mut from_child = cat.stdout.take().expect("piped");
    let message = vec![7u8; size];
    let mut back = vec![0u8; size];
    let figure = per_call(
        "bare pipe round trip to a child (baseline)",
        per_sample,
        || {
            to_child.write_all(&message).expect("cat reads");
            from_child.read_exact(&mut back).expect("cat echoes");
            black_box(&back);
        },
    );
    drop(to_child);
    let _ = cat.wait();
    Ok(figure)
}

/// Starting a host: spawn, exec, load the plugin, confine, ready (microseconds).
fn startup(config: &ProcessHostConfig, plugin: &StagedPlugin) -> anyhow::Result<Figure> {
    let mut samples = Vec::new();
    for _ in 0..31 {
        let t0 = Instant::now();
        let host = ProcessHost::spawn(config, plugin, "noop", "breakthrough")?;
        samples.push(t0.elapsed().as_secs_f64() * 1e6);
        drop(host);
    }
    Ok(summarize("process host start-up (us)", samples, "us"))
}

/// How long after a 20 ms deadline a spinning bot's host is killed and reaped, while two other
/// threads keep both cores busy (microseconds).
fn deadline_precision(
    config: &ProcessHostConfig,
    misbehave: &StagedPlugin,
) -> anyhow::Result<Vec<Figure>> {
    let budget = Duration::from_millis(20);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let hogs: Vec<_> = (0..2)
        .map(|_| {
            let stop = std::sync::Arc::clone(&stop);
            std::thread::spawn(move || {
                let mut x = 0u64;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    x = black_box(x.wrapping_add(1));
                }
            })
        })
        .collect();
    let mut overshoot = Vec::new();
    let start = protocol::encode(&protocol::Start {
        seat: 0,
        seats: 2,
        seed: 0,
        start_budget_ms: 0,
        move_budget_ms: 20,
        bot_params: Default::default(),
        game: convert::setup(&Config::STANDARD, agon_games::breakthrough::Side::White),
    });
    let observation = protocol::encode(&convert::observation(
        &Position::start(Config::STANDARD),
        None,
    ));
    let result = (|| -> anyhow::Result<()> {
        for _ in 0..100 {
            let mut host = ProcessHost::spawn(config, misbehave, "loop", "breakthrough")?;
            host.start(start.clone(), Deadline::wall(Some(Duration::from_secs(5))));
            let t0 = Instant::now();
            black_box(host.act(observation.clone(), Deadline::wall(Some(budget))));
            overshoot.push(t0.elapsed().saturating_sub(budget).as_secs_f64() * 1e6);
        }
        Ok(())
    })();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for hog in hogs {
        let _ = hog.join();
    }
    result?;
    overshoot.sort_by(|a, b| a.total_cmp(b));
    let at = |q: f64| overshoot[((overshoot.len() - 1) as f64 * q).round() as usize];
    Ok(vec![
        Figure {
            name: "deadline overshoot p50 (us)",
            median: at(0.5),
            best: overshoot[0],
            unit: "us",
        },
        Figure {
            name: "deadline overshoot p99 (us)",
            median: at(0.99),
            best: overshoot[0],
            unit: "us",
        },
    ])
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

pub fn summarize(name: &'static str, mut samples: Vec<f64>, unit: &'static str) -> Figure {
    samples.sort_by(|a, b| a.total_cmp(b));
    // Times: the smallest is best; rates: the largest.
    let best = if unit == "/s" {
        samples[samples.len() - 1]
    } else {
        samples[0]
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
