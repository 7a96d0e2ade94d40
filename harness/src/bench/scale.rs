//! `agon bench --suite scale`: what a very large sharded tournament costs once its games are
//! played. N games in K shard folders are synthesised as a job array would leave them (each
//! shard's slice of a real plan, a journal line and a record per game, the record a real game's
//! compact JSON, and the viewer's data file each task's report wrote), then `agon tournament
//! merge --no-report` and `agon tournament report` run as the programs staff run, each timed
//! with its peak memory (the child's maximum resident set).

use super::figure::{single, Figure};
use agon_engine::loader::cache_dir;
use agon_games::registry::Registry;
use agon_play::record_files;
use agon_play::view::game_files;
use agon_tournament::config::Config;
use agon_tournament::entry::Entry;
use agon_tournament::plan::Plan;
use agon_tournament::shard::Shard;
use anyhow::{anyhow, bail, Context};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Entrants of the synthetic tournament: 10 pairings, so a million games stay within the
/// limit of games per pairing.
const ENTRANTS: usize = 5;

/// The figures of `games` games in `shards` shards; `agon` runs merge and report.
pub fn run(agon: &Path, random: &Path, games: usize, shards: u32) -> anyhow::Result<Vec<Figure>> {
    if shards == 0 || games < shards as usize {
        bail!("--scale-shards: expected 1 to --scale-games shards");
    }
    let dir = agon_engine::output_file::fresh_scratch("bench-scale")?;
    let result = measure(&dir, agon, random, games, shards);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn measure(
    dir: &Path,
    agon: &Path,
    random: &Path,
    games: usize,
    shards: u32,
) -> anyhow::Result<Vec<Figure>> {
    let plan = plan(dir, random, games)?;
    let record = template_record(dir, agon, random)?;
    let data = viewer_data(&record)?;
    let started = Instant::now();
    let folders = write_shards(dir, &plan, shards, (&record, &data))?;
    let synthesis = started.elapsed().as_secs_f64();
    let bytes: u64 = folders.iter().map(|f| disk_bytes(f)).sum();
    let per_game = bytes as f64 / plan.games.len() as f64;
    eprintln!(
        "scale: {} games in {shards} shard folders written in {synthesis:.1} s ({:.1} MB)",
        plan.games.len(),
        bytes as f64 / 1e6
    );
    let merged = dir.join("merged");
    let mut merge = Command::new(agon);
    merge.args(["tournament", "merge"]).args(&folders);
    merge.arg("--out").arg(&merged).arg("--no-report");
    let (merge_s, merge_mb) = timed(&mut merge)?;
    let mut figures = vec![
        single("scale: disk per game, shard folders (bytes)", per_game, "B"),
        single("scale: merge, wall time (s)", merge_s, "s"),
        single("scale: merge, peak memory (MB)", merge_mb, "MB"),
    ];
    let mut report = Command::new(agon);
    report.args(["tournament", "report"]).arg(&merged);
    let (report_s, report_mb) = timed(&mut report)?;
    check_merged(&merged, plan.games.len())?;
    figures.push(single("scale: report, wall time (s)", report_s, "s"));
    figures.push(single("scale: report, peak memory (MB)", report_mb, "MB"));
    Ok(figures)
}

/// A real plan of about `games` games among [`ENTRANTS`] random bots.
fn plan(dir: &Path, random: &Path, games: usize) -> anyhow::Result<Plan> {
    let pairings = ENTRANTS * (ENTRANTS - 1) / 2;
    let mut text = format!(
        "game = \"breakthrough\"\nseed = 1\nhost = \"process\"\ngames_per_pairing = {}\n",
        games.div_ceil(pairings).max(1)
    );
    for i in 0..ENTRANTS {
        text.push_str(&format!(
            "[[entrant]]\nname = \"bot{i}\"\nbot = \"{}:random\"\n",
            random.display()
        ));
    }
    let path = dir.join("scale.toml");
    std::fs::write(&path, text)?;
    let registry = Registry::builtin();
    let config = Config::load(&path, &registry)?;
    Ok(Plan::make(&config, &registry, &cache_dir())?)
}

/// The compact record of one real game, every synthetic game's record.
fn template_record(dir: &Path, agon: &Path, random: &Path) -> anyhow::Result<Vec<u8>> {
    let path = dir.join("template.json");
    let bot = format!("{}:random", random.display());
    let out = Command::new(agon)
        .args(["match", "--game", "breakthrough", "--host", "inline"])
        .args(["--bot", &bot, "--bot", &bot, "--seed", "1", "--record"])
        .arg(&path)
        .output()?;
    if !out.status.success() {
        bail!(
            "the template game failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(std::fs::read(&path)?)
}

/// The viewer's data file of the template record.
fn viewer_data(record: &[u8]) -> anyhow::Result<Vec<u8>> {
    let record: agon_engine::MatchRecord = serde_json::from_slice(record)?;
    let shown = agon_play::view::shown(&record, &Registry::builtin(), None)?;
    Ok(agon_play::view::data_file(&shown).into_bytes())
}

/// The shard folders a job array of `shards` tasks leaves: each shard's slice of the plan, and
/// a journal line, a record and the viewer's data file per game (each task's report wrote
/// those).
fn write_shards(
    dir: &Path,
    plan: &Plan,
    shards: u32,
    (record, data): (&[u8], &[u8]),
) -> anyhow::Result<Vec<PathBuf>> {
    let names: Vec<String> = plan.entrants.iter().map(|e| e.name.clone()).collect();
    let sha256: Vec<String> = plan.entrants.iter().map(|e| e.sha256.clone()).collect();
    let mut slices: Vec<Vec<_>> = vec![Vec::new(); shards as usize];
    for (i, game) in plan.games.iter().enumerate() {
        slices[Shard::dealt(i, shards).index as usize].push(game.clone());
    }
    let mut without_games = plan.clone();
    without_games.games = Vec::new();
    let mut folders = Vec::new();
    for (index, games) in slices.into_iter().enumerate() {
        let folder = dir.join(format!("shard-{index}"));
        std::fs::create_dir_all(record_files::folder(&folder))?;
        std::fs::create_dir_all(folder.join(game_files::FOLDER))?;
        let mut slice = without_games.clone();
        slice.games_total = Some(plan.games.len());
        slice.shard = Some(Shard::new(index as u32, shards)?);
        let mut journal =
            std::io::BufWriter::new(std::fs::File::create(folder.join("journal.jsonl"))?);
        for game in &games {
            let winner = (game.seed % 2) as usize;
            let mut scores = vec![0.0; game.seats.len()];
            scores[winner] = 1.0;
            let entry = Entry {
                id: game.id.clone(),
                param_set: game.param_set,
                seed: game.seed,
                seed_secret: plan.seed_secret,
                seats: game.seats.clone(),
                names: game.seats.iter().map(|&e| names[e].clone()).collect(),
                sha256: game.seats.iter().map(|&e| sha256[e].clone()).collect(),
                result: agon_play::journal::GameResult {
                    moves: 40,
                    ..agon_play::journal::GameResult::by_rules(&scores, &[], "synthetic")
                },
                ms_per_move: vec![0.1; game.seats.len()],
                nodes: vec![None; game.seats.len()],
            };
            serde_json::to_writer(&mut journal, &entry)?;
            journal.write_all(b"\n")?;
            std::fs::write(record_files::path(&folder, &game.id), record)
                .with_context(|| format!("writing a record into {}", folder.display()))?;
            std::fs::write(game_files::data_path(&folder, &game.id), data)
                .with_context(|| format!("writing a data file into {}", folder.display()))?;
        }
        journal.flush()?;
        slice.games = games;
        slice.write(&folder)?;
        folders.push(folder);
    }
    Ok(folders)
}

/// The merged folder's report must count every game once, and none missing.
fn check_merged(merged: &Path, games: usize) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(merged.join("standings.json"))?;
    let standings: serde_json::Value = serde_json::from_str(&text)?;
    let summary = &standings["tournament"];
    if summary["games_played"] != games || summary["games_missing"] != 0 {
        bail!("the merge counted {summary} of {games} games");
    }
    Ok(())
}

/// Bytes the files under `dir` take.
fn disk_bytes(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => disk_bytes(&e.path()),
            _ => e.metadata().map_or(0, |m| m.len()),
        })
        .sum()
}

/// Runs `command`, which must succeed: its wall time (s) and peak memory (MB).
fn timed(command: &mut Command) -> anyhow::Result<(f64, f64)> {
    let started = Instant::now();
    let child = command
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()?;
    let pid = child.id() as libc::pid_t;
    let mut stderr = child.stderr.expect("piped");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
        text
    });
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: pid is our child, not yet waited for (Child is not used to wait).
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let seconds = started.elapsed().as_secs_f64();
    let stderr = reader.join().unwrap_or_default();
    if waited != pid || !libc::WIFEXITED(status) || libc::WEXITSTATUS(status) != 0 {
        return Err(anyhow!("{command:?} failed: {stderr}"));
    }
    Ok((seconds, usage.ru_maxrss as f64 / 1024.0))
}
