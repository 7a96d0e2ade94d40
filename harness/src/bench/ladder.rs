//! `agon bench --suite ladder`: hot swap under a running ladder (process host, concurrency 2,
//! two slots of fast bots). Swap latency: from the rename of a new build into the folder to
//! the start of the first game that plays it, validation included, over 20 swaps. Memory: the
//! engine's resident set after the first swap and after 200. Then the ladder plays on to
//! `--ladder-games` games in all, and the resident set and open descriptors after 1,000 games
//! are compared with those at the end: a ladder runs for days.

use super::figure::{single, with_worst_ms, Figure};
use agon_engine::Clock;
use agon_ladder::run::{run, LadderOptions};
use agon_play::match_profile::MatchProfile;
use agon_play::stop::Stop;
use anyhow::{anyhow, bail};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

const SWAPS_TIMED: usize = 20;
const SWAPS: usize = 200;
/// A swap that has not reached a game by then has failed.
const SWAP_PATIENCE: Duration = Duration::from_secs(60);

pub fn ladder(random: &Path, alphabeta: &Path, games: u64) -> anyhow::Result<Vec<Figure>> {
    let root = std::env::temp_dir().join(format!("agon-bench-ladder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let (teams, out) = (root.join("teams"), root.join("out"));
    std::fs::create_dir_all(&teams)?;
    let builds = [std::fs::read(random)?, std::fs::read(alphabeta)?];
    publish(&builds[0], &teams, "a.so")?;
    publish(&builds[0], &teams, "b.so")?;
    let profile = MatchProfile {
        start_ms: 5000,
        move_ms: 1000,
        clock: Clock::Cpu,
        ..MatchProfile::default()
    };
    let hosting = profile.hosting()?;
    let stop = Arc::new(Stop::default());
    let options = LadderOptions {
        dir: teams.clone(),
        out: out.clone(),
        game: "breakthrough".into(),
        params: Default::default(),
        concurrency: 2,
        games: None,
        seed: 1,
        seed_secret: agon_engine::SeedSecret::draw()?,
        settle: Duration::from_millis(500),
        max_builds_in_process: 8,
        profile,
        validation: hosting.clone(),
        hosting,
        configured: Default::default(),
        quiet: true,
        stop: stop.clone(),
        written: None,
    };
    let measured = std::thread::scope(|scope| {
        let ladder = scope.spawn(|| run(&options));
        let measured = measure(&teams, &out, &builds, games);
        stop.request();
        let ran = ladder.join().map_err(|_| anyhow!("the ladder panicked"))?;
        ran?;
        measured
    });
    let _ = std::fs::remove_dir_all(&root);
    measured
}

fn measure(
    teams: &Path,
    out: &Path,
    builds: &[Vec<u8>; 2],
    games: u64,
) -> anyhow::Result<Vec<Figure>> {
    wait_for_games(out, 2)?;
    let mut latencies = Vec::new();
    let mut rss_first = 0.0;
    for swap in 0..SWAPS {
        // Each swap a new content: the two builds in turn, made distinct by trailing bytes
        // (which an ELF loader ignores).
        let mut bytes = builds[(swap + 1) % 2].clone();
        bytes.extend_from_slice(&(swap as u64).to_le_bytes());
        let sha = agon_engine::loader::sha256_hex(&bytes);
        let temp = teams.join(".b.so.tmp");
        std::fs::write(&temp, &bytes)?;
        let renamed_at = unix_ms_f64();
        std::fs::rename(&temp, teams.join("b.so"))?;
        let started = first_game_with(out, &sha)?;
        if swap < SWAPS_TIMED {
            latencies.push(started - renamed_at);
        }
        if swap == 0 {
            rss_first = settled_resident_mib();
        }
    }
    let rss_swapped = settled_resident_mib();
    let mut figures = Vec::from(with_worst_ms("ladder swap -> first game", latencies));
    figures.push(single("engine RSS after 1 swap (MiB)", rss_first, "Mi"));
    figures.push(single(
        "engine RSS after 200 swaps (MiB)",
        rss_swapped,
        "Mi",
    ));
    let early = 1000.min(games);
    wait_for_games(out, early)?;
    let (rss_early, fds_early) = (resident_mib(), open_fds()?);
    wait_for_games(out, games)?;
    let (rss_late, fds_late) = (resident_mib(), open_fds()?);
    figures.push(single("engine RSS after 1000 games (MiB)", rss_early, "Mi"));
    figures.push(single("engine RSS at the end (MiB)", rss_late, "Mi"));
    figures.push(single("open fds after 1000 games", fds_early as f64, ""));
    figures.push(single("open fds at the end", fds_late as f64, ""));
    figures.push(single("ladder games played", games as f64, ""));
    Ok(figures)
}

/// How long an idle ladder is watched.
const IDLE_WINDOW: Duration = Duration::from_secs(10);

/// The CPU an idle `agon ladder` uses (a process of its own, so that nothing of the benchmark
/// is counted): on an empty folder, then with one build, waiting for a second.
pub fn idle(agon: &Path, random: &Path) -> anyhow::Result<Vec<Figure>> {
    let root = std::env::temp_dir().join(format!("agon-bench-idle-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let (teams, out) = (root.join("teams"), root.join("out"));
    std::fs::create_dir_all(&teams)?;
    let mut ladder = std::process::Command::new(agon)
        .args(["ladder", "--game", "breakthrough", "--quiet", "--out"])
        .arg(&out)
        .arg(&teams)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()?;
    let pid = ladder.id();
    std::thread::sleep(Duration::from_secs(2));
    let empty = super::process_stats::idle_cpu_per_minute(pid, IDLE_WINDOW);
    publish(&std::fs::read(random)?, &teams, "a.so")?;
    // Validated, then nothing to do: a game needs two builds.
    let judged = Instant::now();
    while !std::fs::read_to_string(out.join("events.jsonl")).is_ok_and(|e| e.contains("accepted")) {
        anyhow::ensure!(
            judged.elapsed() < SWAP_PATIENCE,
            "the build was never judged"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_secs(1));
    let one_build = super::process_stats::idle_cpu_per_minute(pid, IDLE_WINDOW);
    let running = ladder.try_wait()?.is_none();
    let _ = ladder.kill();
    let _ = ladder.wait();
    let _ = std::fs::remove_dir_all(&root);
    anyhow::ensure!(running, "the idle ladder ended early");
    Ok(vec![
        single("ladder idle CPU, empty folder (ms per minute)", empty, "ms"),
        single(
            "ladder idle CPU, one build (ms per minute)",
            one_build,
            "ms",
        ),
    ])
}

fn publish(bytes: &[u8], dir: &Path, slot: &str) -> std::io::Result<()> {
    let temp = dir.join(format!(".{slot}.tmp"));
    std::fs::write(&temp, bytes)?;
    std::fs::rename(temp, dir.join(slot))
}

/// The start time (ms since the epoch) of the first game of the ladder in `out` in which a
/// seat played `sha`.
pub(super) fn first_game_with(out: &Path, sha: &str) -> anyhow::Result<f64> {
    let t0 = Instant::now();
    loop {
        let standings = read_json(&out.join("standings.json"));
        let latest = standings["latest_games"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let started = latest
            .iter()
            .filter(|g| {
                g["seats"]
                    .as_array()
                    .is_some_and(|seats| seats.iter().any(|s| s["sha256"] == sha))
            })
            .filter_map(|g| g["started_unix_ms"].as_f64())
            .fold(f64::INFINITY, f64::min);
        if started.is_finite() {
            return Ok(started);
        }
        if t0.elapsed() > SWAP_PATIENCE {
            let events = std::fs::read_to_string(out.join("events.jsonl")).unwrap_or_default();
            bail!(
                "no game with build {sha} after {SWAP_PATIENCE:?}; last events:\n{}",
                events.lines().rev().take(3).collect::<Vec<_>>().join("\n")
            );
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

pub(super) fn wait_for_games(out: &Path, games: u64) -> anyhow::Result<()> {
    let mut last = (0, Instant::now());
    loop {
        let now = read_json(&out.join("standings.json"))["games"]
            .as_u64()
            .unwrap_or(0);
        if now >= games {
            return Ok(());
        }
        if now != last.0 {
            last = (now, Instant::now());
        } else if last.1.elapsed() > SWAP_PATIENCE {
            bail!("the ladder stopped playing at {now} games");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn read_json(path: &PathBuf) -> Value {
    std::fs::read(path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or(Value::Null)
}

pub(super) fn unix_ms_f64() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// The resident set once the intake and the validator are idle (a candidate build in flight is
/// megabytes that are about to be freed).
fn settled_resident_mib() -> f64 {
    std::thread::sleep(Duration::from_millis(500));
    resident_mib()
}

fn resident_mib() -> f64 {
    super::process_stats::resident_mib_of("self")
}

fn open_fds() -> anyhow::Result<usize> {
    Ok(std::fs::read_dir("/proc/self/fd")?.count())
}
