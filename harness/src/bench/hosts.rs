//! The plugin boundary and the hosts, each measured in the same run as the bare mechanism it
//! adds to: a plain call, a crossbeam round trip, a pipe round trip to a child process. The
//! clocks a call is timed with are measured too: the in-process hosts read the bot thread's CPU
//! clock at both ends of every call, and that is a system call (the vDSO serves only the
//! monotonic and real-time clocks).

use super::figure::{per_call, summarize, Figure};
use agon_engine::SandboxConfig;
use agon_engine::{
    crash_evidence, thread_cpu_time, Clock, Deadline, InlineHost, ProcessHost, ProcessHostConfig,
    SeatHost, ThreadHost,
};
use agon_engine::{loader::cache_dir, Plugin, StagedPlugin};
use agon_games::breakthrough::{Config, Position};
use agon_games::registry::Registry;
use agon_sdk::breakthrough::convert;
use agon_sdk::protocol::{self, breakthrough as wire};
use anyhow::Context;
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

/// The figures of the `hosts` suite: `plugin` is the noop plugin loaded from `noop`,
/// `misbehave` the plugin whose `loop` bot the deadline precision is measured with.
pub fn figures(
    noop: &Path,
    plugin: &Plugin,
    misbehave: &Path,
    per_sample: Duration,
) -> anyhow::Result<Vec<Figure>> {
    let registry = Registry::builtin();
    let game = registry.get("breakthrough")?;
    let budget = Deadline::wall(Some(Duration::from_secs(10)));
    // As in a tournament: the bot's CPU time is what the budget counts.
    let cpu_budget = Deadline {
        clock: Clock::Cpu,
        ..budget
    };
    let observation = protocol::encode(&convert::observation(
        &Position::start(Config::STANDARD),
        None,
    ));
    let reply = protocol::encode(&protocol::Reply::new(wire::Move {
        from: wire::Square { row: 1, col: 0 },
        to: wire::Square { row: 2, col: 0 },
    }));
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
    figures.push(per_call(
        "monotonic clock, one read (vDSO)",
        per_sample,
        || {
            black_box(Instant::now());
        },
    ));
    figures.push(per_call(
        "CPU clock of this thread, one read",
        per_sample,
        || {
            black_box(thread_cpu_time());
        },
    ));

    // The hosts with the noop plugin.
    let mut inline = InlineHost::new(plugin.new_bot("noop", game)?);
    figures.push(per_call(
        "inline host, noop bot, CPU-clock budget",
        per_sample,
        || {
            black_box(inline.act(observation.clone(), cpu_budget));
        },
    ));
    let mut thread = ThreadHost::spawn(plugin.new_bot("noop", game)?, "bench-noop".into())?;
    figures.push(per_call(
        "thread host, noop bot, CPU-clock budget",
        per_sample,
        || {
            black_box(thread.act(observation.clone(), cpu_budget));
        },
    ));
    // As in a tournament's in-process games: every call registered for crash evidence.
    let evidence = std::env::temp_dir().join(format!("agon-bench-evidence-{}", std::process::id()));
    crash_evidence::install(&evidence)?;
    thread.label_calls(crash_evidence::CrashLabel::new("bench", 0, "noop"));
    figures.push(per_call(
        "thread host, noop bot, calls watched for crash evidence",
        per_sample,
        || {
            black_box(thread.act(observation.clone(), cpu_budget));
        },
    ));
    let _ = std::fs::remove_file(&evidence);

    // The process host, against a bare pipe round trip to a child process.
    let process = ProcessHostConfig::locate(SandboxConfig::default())?;
    let staged = StagedPlugin::stage(noop, &cache_dir())?;
    figures.push(bare_pipe_round_trip(per_sample, observation.len())?);
    let mut host = ProcessHost::spawn(&process, &staged, "noop", game.name())?;
    figures.push(per_call("process host, noop bot", per_sample, || {
        black_box(host.act(observation.clone(), budget));
    }));
    // What a tournament's calls cost: a CPU budget adds the read of the bot's scheduler
    // statistics that a starved call is judged against (docs/busy-machines.md).
    figures.push(per_call(
        "process host, noop bot, CPU-clock budget",
        per_sample,
        || {
            black_box(host.act(observation.clone(), cpu_budget));
        },
    ));
    drop(host);
    figures.push(startup(&process, &staged)?);
    let misbehave = StagedPlugin::stage(misbehave, &cache_dir())?;
    figures.extend(deadline_precision(&process, &misbehave)?);
    Ok(figures)
}

/// What the noop bot does, without the plugin boundary: look at nothing, copy out the reply.
#[inline(never)]
fn plain_call(observation: &[u8], reply: &[u8]) -> Vec<u8> {
    black_box(observation);
    reply.to_vec()
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
            name: "deadline overshoot p50 (us)".into(),
            median: at(0.5),
            best: overshoot[0],
            unit: "us",
        },
        Figure {
            name: "deadline overshoot p99 (us)".into(),
            median: at(0.99),
            best: overshoot[0],
            unit: "us",
        },
    ])
}
