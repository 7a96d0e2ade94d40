//! `agon tournament run | resume | report | plan | merge`

use crate::cli::{
    TournamentCommand, TournamentDirArgs, TournamentMergeArgs, TournamentPlanArgs,
    TournamentReportArgs, TournamentResumeArgs, TournamentRunArgs,
};
use crate::console::{name, outln};
use crate::grading::game_pages;
use crate::grading::report::{rating_text, write_all};
use crate::grading::standings::{grade, unique_entries, Report};
use crate::tournament::config::Config;
use crate::tournament::folder_lock::{self, FolderLock};
use crate::tournament::journal::{self, Entry, Journal};
use crate::tournament::plan::Plan;
use crate::tournament::run::{execute, RunOptions};
use crate::tournament::shard::Shard;
use agon_engine::loader::cache_dir;
use agon_engine::seed::SeedSecret;
use agon_games::registry::Registry;
use anyhow::{anyhow, bail, Context};
use std::collections::BTreeMap;
use std::path::Path;

pub fn run(command: TournamentCommand) -> anyhow::Result<()> {
    match command {
        TournamentCommand::Run(args) => start(args),
        TournamentCommand::Resume(args) => resume(args),
        TournamentCommand::Report(args) => report(args),
        TournamentCommand::Plan(args) => plan(args),
        TournamentCommand::Merge(args) => merge(args),
        TournamentCommand::Repair(args) => repair(args),
    }
}

fn make_plan(config: &Path) -> anyhow::Result<(Config, Plan)> {
    let registry = Registry::builtin();
    let config = Config::load(config, &registry)?;
    let plan = Plan::make(&config, &registry, &cache_dir())?;
    for e in &plan.excluded {
        eprintln!(
            "agon: warning: entrant `{}` excluded: {}",
            name(&e.name),
            name(&e.error)
        );
    }
    Ok((config, plan))
}

/// More games at once than any machine runs usefully; beyond it threads and host processes
/// would only exhaust the machine.
pub const MAX_CONCURRENCY: usize = 1024;

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn start(args: TournamentRunArgs) -> anyhow::Result<()> {
    let (config, mut plan) = make_plan(&args.config)?;
    let shard = match &args.shard {
        Some(s) => Some(s.parse::<Shard>().map_err(|e| anyhow!("--shard: {e}"))?),
        None => Shard::from_env(config.shards).map_err(|e| anyhow!(e))?,
    };
    plan.shard = shard.map(|s| s.to_string());
    let given = args
        .seed_secret
        .map(|text| ("--seed-secret", text))
        .or_else(|| Some(("AGON_SEED_SECRET", std::env::var("AGON_SEED_SECRET").ok()?)));
    if let Some((from, text)) = given {
        let secret: SeedSecret = text.trim().parse().map_err(|e| anyhow!("{from}: {e}"))?;
        plan.seed_secret = Some(secret);
    }
    if let Ok(existing) = Plan::read(&args.out) {
        if existing.config_hash == plan.config_hash {
            bail!(
                "{} already holds this tournament; continue it with `agon tournament resume {}`",
                args.out.display(),
                args.out.display()
            );
        }
        bail!(
            "{} already holds another tournament ({}); choose another --out folder",
            args.out.display(),
            existing.config_hash
        );
    }
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    plan.write(&args.out)
        .with_context(|| format!("cannot write the plan into {}", args.out.display()))?;
    let concurrency = args
        .concurrency
        .or(config.concurrency)
        .unwrap_or_else(cores);
    play_and_report(&plan, &args.out, concurrency, args.quiet, shard, args.watch)
}

fn resume(args: TournamentResumeArgs) -> anyhow::Result<()> {
    let plan = Plan::read(&args.dir).map_err(|e| anyhow!(e))?;
    let shard = plan
        .shard
        .as_deref()
        .map(str::parse::<Shard>)
        .transpose()
        .map_err(|e| anyhow!(e))?;
    play_and_report(
        &plan,
        &args.dir,
        args.concurrency.unwrap_or_else(cores),
        args.quiet,
        shard,
        false,
    )
}

fn play_and_report(
    plan: &Plan,
    dir: &Path,
    concurrency: usize,
    quiet: bool,
    shard: Option<Shard>,
    watch: bool,
) -> anyhow::Result<()> {
    if !(1..=MAX_CONCURRENCY).contains(&concurrency) {
        bail!(
            "--concurrency {concurrency}: expected 1 to {MAX_CONCURRENCY} games at once (each \
             game runs its bots in processes of their own; this machine has {} cores)",
            cores()
        );
    }
    let options = RunOptions {
        concurrency,
        quiet,
        shard,
        watch,
    };
    let summary = execute(plan, dir, &options).map_err(|e| anyhow!(e))?;
    outln!(
        "{}: {} games{} ({} already done), {} played in {:.1} s ({:.1} games/s) at concurrency {}",
        dir.display(),
        summary.planned,
        shard.map(|s| format!(" in shard {s}")).unwrap_or_default(),
        summary.already_done,
        summary.played,
        summary.seconds,
        summary.played as f64 / summary.seconds.max(1e-9),
        concurrency
    );
    write_report(plan, dir, false, quiet)
}

/// Grades the journal and writes every report file; the viewer pages of games that have none
/// (of all games with `again`) first, so the report links them.
fn write_report(plan: &Plan, dir: &Path, again: bool, quiet: bool) -> anyhow::Result<()> {
    // Reports written at once (two graders, or a run finishing) take turns: each writes every
    // file from one reading of the journal.
    let _lock = FolderLock::acquire(dir, folder_lock::REPORT).map_err(|e| anyhow!(e))?;
    let entries = journal::read(dir, &plan.entry_check()).map_err(|e| anyhow!(e))?;
    let (plan, entries) = crate::grading::versions::apply(plan, &entries);
    let report = grade(&plan, &entries);
    let games = unique_entries(&plan, &entries);
    let title = plan
        .settings
        .name
        .clone()
        .unwrap_or_else(|| format!("{} tournament", plan.settings.game));
    let pages = game_pages::write(dir, &games, &title, again, quiet);
    for (id, why) in pages.failed.iter().take(3) {
        log::warn!("game {id} has no viewer page: {why}");
    }
    write_all(dir, &plan, &report, &games, &pages).map_err(|e| anyhow!(e))?;
    print_standings(&report);
    outln!("report: {}", dir.join("report.html").display());
    Ok(())
}

fn print_standings(report: &Report) {
    let t = &report.tournament;
    outln!(
        "{} of {} games played{}",
        t.games_played,
        t.games_planned,
        if t.games_missing > 0 {
            format!(" ({} missing)", t.games_missing)
        } else {
            String::new()
        }
    );
    outln!("  #  entrant                      games     W     D     L   points  rating (95% CI)");
    for r in &report.standings {
        outln!(
            "{:>3}  {:<26} {:>7} {:>5} {:>5} {:>5} {:>8}  {}",
            r.rank,
            name(&r.name),
            r.games,
            r.wins,
            r.draws,
            r.losses,
            r.points,
            rating_text(r)
                + &r.mean_rank
                    .map_or(String::new(), |m| format!("  mean rank {m:.2}"))
        );
    }
    for e in &t.excluded {
        outln!("excluded: {} ({})", name(&e.name), name(&e.error));
    }
}

fn report(args: TournamentReportArgs) -> anyhow::Result<()> {
    let plan = Plan::read(&args.dir).map_err(|e| anyhow!(e))?;
    write_report(&plan, &args.dir, args.games, false)
}

fn plan(args: TournamentPlanArgs) -> anyhow::Result<()> {
    let (_, plan) = make_plan(&args.config)?;
    if args.json {
        outln!(
            "{}",
            crate::console::json_text(&serde_json::to_string_pretty(&plan)?)
        );
    } else {
        for g in &plan.games {
            outln!("{}", g.id);
        }
    }
    Ok(())
}

fn repair(args: TournamentDirArgs) -> anyhow::Result<()> {
    let plan = Plan::read(&args.dir).map_err(|e| anyhow!(e))?;
    let repair = journal::repair(&args.dir, &plan.entry_check()).map_err(|e| anyhow!(e))?;
    if repair.rejected.is_empty() {
        outln!(
            "{}: the journal is sound ({} games); nothing to repair",
            args.dir.display(),
            repair.kept
        );
        return Ok(());
    }
    for d in &repair.rejected {
        outln!(
            "line {}{}: {}",
            d.line,
            d.game
                .as_deref()
                .map(|g| format!(" (game {g})"))
                .unwrap_or_default(),
            name(&d.problem)
        );
    }
    outln!(
        "moved {} damaged lines to {}; kept {} games; `agon tournament resume {}` plays the \
         rest",
        repair.rejected.len(),
        args.dir.join(journal::REJECTED).display(),
        repair.kept,
        args.dir.display()
    );
    Ok(())
}

fn merge(args: TournamentMergeArgs) -> anyhow::Result<()> {
    let mut plans = Vec::new();
    for dir in &args.dirs {
        plans.push(Plan::read(dir).map_err(|e| anyhow!(e))?);
    }
    let first = &plans[0];
    for (dir, p) in args.dirs.iter().zip(&plans).skip(1) {
        if p.config_hash != first.config_hash || p.games != first.games {
            bail!(
                "{} belongs to tournament {}, {} to {}: shards of different configurations \
                 cannot be merged",
                dir.display(),
                p.config_hash,
                args.dirs[0].display(),
                first.config_hash
            );
        }
    }
    let mut merged_plan = first.clone();
    merged_plan.shard = None;
    let check = merged_plan.entry_check();
    // Every shard's entries, with the folder each came from.
    let mut found: Vec<(Entry, &Path)> = Vec::new();
    for dir in &args.dirs {
        let entries = journal::read(dir, &check).map_err(|e| anyhow!(e))?;
        found.extend(entries.into_iter().map(|e| (e, dir.as_path())));
    }
    let mut by_id: BTreeMap<&str, Vec<&(Entry, &Path)>> = BTreeMap::new();
    for item in &found {
        by_id.entry(item.0.id.as_str()).or_default().push(item);
    }
    let conflicts: Vec<String> = by_id
        .iter()
        .filter(|(_, copies)| disagree(copies.iter().map(|(entry, _)| entry)))
        .map(|(id, copies)| {
            format!(
                "{id} ({})",
                copies
                    .iter()
                    .map(|(e, dir)| format!("{}: {}", dir.display(), e.reason))
                    .collect::<Vec<_>>()
                    .join(" / ")
            )
        })
        .collect();
    if !conflicts.is_empty() {
        bail!(
            "{} games have different results in different shards; nothing was merged:\n  {}",
            conflicts.len(),
            conflicts.join("\n  ")
        );
    }
    let duplicates = by_id.values().filter(|copies| copies.len() > 1).count();
    let missing: Vec<&str> = merged_plan
        .games
        .iter()
        .filter(|g| !by_id.contains_key(g.id.as_str()))
        .map(|g| g.id.as_str())
        .collect();
    if !missing.is_empty() {
        let list = missing
            .iter()
            .take(20)
            .copied()
            .collect::<Vec<_>>()
            .join(", ");
        let more = if missing.len() > 20 { ", ..." } else { "" };
        if !args.allow_missing {
            bail!(
                "{} planned games are in no shard folder ({list}{more}); run the missing \
                 shards and merge again, or pass --allow-missing for a partial merge; nothing \
                 was merged",
                missing.len()
            );
        }
        eprintln!(
            "agon: warning: {} planned games are in no shard ({list}{more}); merging without them",
            missing.len()
        );
    }
    let staging = staging_folder(&args.out)?;
    let written = (|| -> anyhow::Result<usize> {
        std::fs::create_dir_all(staging.join("records"))
            .with_context(|| format!("cannot create {}", staging.display()))?;
        merged_plan.write(&staging)?;
        let (mut journal, _) = Journal::open(&staging, &check).map_err(|e| anyhow!(e))?;
        for copies in by_id.values() {
            let (entry, dir) = copies[0];
            let name = format!("{}.json", entry.id);
            let from = dir.join("records").join(&name);
            // The record first: a journal line always has its record.
            if from.is_file() {
                std::fs::copy(&from, staging.join("records").join(&name))
                    .with_context(|| format!("cannot copy {}", from.display()))?;
            } else {
                eprintln!(
                    "agon: warning: {} is missing; the game is merged without its record",
                    from.display()
                );
            }
            journal.append(entry).map_err(|e| anyhow!(e))?;
        }
        Ok(by_id.len())
    })();
    let games = match written {
        Ok(n) => n,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&staging);
            return Err(e);
        }
    };
    // An empty --out folder is replaced; rename(2) refuses a non-empty one.
    std::fs::rename(&staging, &args.out).map_err(|e| {
        let _ = std::fs::remove_dir_all(&staging);
        anyhow!(
            "cannot move the merged tournament to {}: {e}",
            args.out.display()
        )
    })?;
    outln!(
        "merged {} shard folders: {games} games, {duplicates} duplicates, {} missing",
        args.dirs.len(),
        missing.len()
    );
    write_report(&merged_plan, &args.out, false, false)
}

/// Whether copies of one game that were played under the same seeds decided it differently.
/// Copies under different seed secrets (shards draw their own) are different plays of the
/// game, which may well differ; the first folder's is merged.
fn disagree<'e>(copies: impl Iterator<Item = &'e Entry> + Clone) -> bool {
    copies.clone().enumerate().any(|(i, a)| {
        copies
            .clone()
            .skip(i + 1)
            .any(|b| a.seed_secret == b.seed_secret && !same_result(a, b))
    })
}

/// Whether two entries of one game agree on what the game decided.
fn same_result(a: &Entry, b: &Entry) -> bool {
    a.scores == b.scores
        && a.winner == b.winner
        && a.ranks == b.ranks
        && a.termination == b.termination
        && a.moves == b.moves
        && a.game_scores == b.game_scores
}

/// A fresh folder beside `out` to build the merge in (so it appears whole, or not at all), after
/// checking `out` can receive it and removing what earlier killed merges left.
fn staging_folder(out: &Path) -> anyhow::Result<std::path::PathBuf> {
    if let Ok(mut entries) = std::fs::read_dir(out) {
        if entries.next().is_some() {
            bail!(
                "{} exists and is not empty; choose a new or empty --out folder",
                out.display()
            );
        }
    } else if out.exists() {
        bail!("{} exists and is not a folder", out.display());
    }
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let name = out
        .file_name()
        .ok_or_else(|| anyhow!("{}: not a folder name", out.display()))?
        .to_string_lossy()
        .into_owned();
    let prefix = format!(".{name}.merging.");
    if let Ok(entries) = std::fs::read_dir(&parent) {
        for entry in entries.flatten() {
            let file = entry.file_name().to_string_lossy().into_owned();
            let pid = file
                .strip_prefix(&prefix)
                .and_then(|p| p.parse::<i32>().ok());
            if pid.is_some_and(|pid| !process_alive(pid)) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    Ok(parent.join(format!("{prefix}{}", std::process::id())))
}

fn process_alive(pid: i32) -> bool {
    rustix::process::Pid::from_raw(pid)
        .is_some_and(|p| rustix::process::test_kill_process(p).is_ok())
}
