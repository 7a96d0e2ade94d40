//! `agon tournament run | resume | report | plan | merge`

use crate::cli::{
    TournamentCommand, TournamentDirArgs, TournamentMergeArgs, TournamentPlanArgs,
    TournamentReportArgs, TournamentResumeArgs, TournamentRunArgs,
};
use agon_engine::loader::cache_dir;
use agon_engine::MatchRecord;
use agon_engine::SeedSecret;
use agon_games::registry::Registry;
use agon_play::console::{name, outln};
use agon_play::journal;
use agon_play::journal::folder_lock::{self, FolderLock};
use agon_play::record_files;
use agon_play::standings::sprt::SprtState;
use agon_tournament::config::Config;
use agon_tournament::entry::Entry;
use agon_tournament::format;
use agon_tournament::grading::game_pages;
use agon_tournament::grading::grade::{grade, unique_entries, Report};
use agon_tournament::grading::report::write_all;
use agon_tournament::layout::{self, Task};
use agon_tournament::merge;
use agon_tournament::plan::Plan;
use agon_tournament::run::{execute_steps, RunOptions};
use agon_tournament::shard::Shard;
use anyhow::{anyhow, bail, Context};
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
    agon_play::admission::usable_cpus()
}

pub fn start(args: TournamentRunArgs) -> anyhow::Result<()> {
    let (config, mut plan) = make_plan(&args.config)?;
    let shard = shard_to_play(&args, config.shards, &plan.config_hash)?;
    if shard.is_some() && !plan.settings.format.schedule().known_up_front() {
        bail!(
            "a {} tournament lays out its games as results come in, so it cannot be split into \
             shards: run it as one job (its games still run --concurrency at a time)",
            plan.settings.format.name()
        );
    }
    if let Some(shard) = shard {
        plan = plan.sliced(shard);
    }
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
    let concurrency = Concurrency {
        games: concurrency,
        oversubscribe: args.oversubscribe,
    };
    play_and_report(plan, &args.out, concurrency, args.quiet, shard, args.watch)
}

/// The shard this run plays: `--shard`, else the one the environment's job array task is
/// (see `tournament::layout`), else none (the whole plan).
fn shard_to_play(
    args: &TournamentRunArgs,
    configured: Option<u32>,
    config_hash: &str,
) -> anyhow::Result<Option<Shard>> {
    if let Some(text) = &args.shard {
        let shard: Shard = text.parse().map_err(|e| anyhow!("--shard: {e}"))?;
        if configured.is_some_and(|n| n != shard.count) {
            bail!(
                "--shard {shard}: the config fixes `shards = {}`",
                configured.unwrap_or(0)
            );
        }
        return Ok(Some(shard));
    }
    let Some(task) = Task::from_env()? else {
        return Ok(None);
    };
    let results = layout::results_folder(&args.out);
    Ok(Some(layout::shard_of_task(
        task,
        configured,
        &results,
        config_hash,
    )?))
}

fn resume(args: TournamentResumeArgs) -> anyhow::Result<()> {
    let plan = Plan::read(&args.dir)?;
    let shard = plan.shard;
    play_and_report(
        plan,
        &args.dir,
        Concurrency {
            games: args.concurrency.unwrap_or_else(cores),
            oversubscribe: args.oversubscribe,
        },
        args.quiet,
        shard,
        false,
    )
}

/// Games at once as asked for, and whether beyond the usable CPUs.
struct Concurrency {
    games: usize,
    oversubscribe: bool,
}

fn play_and_report(
    mut plan: Plan,
    dir: &Path,
    concurrency: Concurrency,
    quiet: bool,
    shard: Option<Shard>,
    watch: bool,
) -> anyhow::Result<()> {
    let Concurrency {
        games: concurrency,
        oversubscribe,
    } = concurrency;
    if !(1..=MAX_CONCURRENCY).contains(&concurrency) {
        bail!(
            "--concurrency {concurrency}: expected 1 to {MAX_CONCURRENCY} games at once (each \
             game runs its bots in processes of their own; this machine has {} cores)",
            cores()
        );
    }
    let concurrency = agon_play::admission::admitted(concurrency, "concurrency", oversubscribe);
    let options = RunOptions {
        concurrency,
        quiet,
        watch,
    };
    let summary = execute_steps(&mut plan, dir, &options)?;
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
    write_report(&plan, dir, false, quiet)
}

/// Grades the journal and writes every report file; the viewer pages of games that have none
/// (of all games with `again`) first, so the report links them.
fn write_report(plan: &Plan, dir: &Path, again: bool, quiet: bool) -> anyhow::Result<()> {
    // Reports written at once (two graders, or a run finishing) take turns: each writes every
    // file from one reading of the journal.
    let _lock = FolderLock::acquire(dir, folder_lock::REPORT)?;
    let entries = journal::read(dir, &plan.entry_check())?;
    let version_of = |entry: &Entry, seat: usize| {
        let record = MatchRecord::read(&record_files::path(dir, &entry.id)).ok()?;
        Some(record.seats.get(seat)?.plugin_version.clone())
    };
    let (plan, entries) = agon_tournament::grading::versions::apply(plan, &entries, &version_of);
    let report = grade(&plan, &entries);
    let games = unique_entries(&plan, &entries);
    let title = plan
        .settings
        .name
        .clone()
        .unwrap_or_else(|| format!("{} tournament", plan.settings.game));
    let pages = game_pages::write(dir, &plan.settings.game, &games, &title, again, quiet);
    for (id, why) in pages.failed.iter().take(3) {
        log::warn!("game {id} has no viewer page: {why}");
    }
    write_all(dir, &plan, &report, &games, &pages)?;
    print_standings(&report);
    if let Some(state) = format::sprt_state(&plan, entries.iter()) {
        print_sprt(&plan, &state);
        let text = serde_json::to_string_pretty(&state)? + "\n";
        agon_engine::output_file::replace(&dir.join("sprt.json"), text.as_bytes())
            .with_context(|| format!("cannot write {}", dir.join("sprt.json").display()))?;
    }
    outln!("report: {}", dir.join("report.html").display());
    Ok(())
}

/// The SPRT's verdict, its ratio against the bounds and the Elo difference the pairs show.
fn print_sprt(plan: &Plan, state: &SprtState) {
    let [verdict, figures] = state.describe(&plan.entrants[0].name, &plan.entrants[1].name);
    outln!("{}", name(&verdict));
    outln!("  {figures}");
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
            r.tally.games,
            r.tally.wins,
            r.tally.draws,
            r.tally.losses,
            r.tally.points,
            r.rating_text()
                + &r.mean_rank
                    .map_or(String::new(), |m| format!("  mean rank {m:.2}"))
        );
    }
    for e in &t.excluded {
        outln!("excluded: {} ({})", name(&e.name), name(&e.error));
    }
}

fn report(args: TournamentReportArgs) -> anyhow::Result<()> {
    let plan = Plan::read(&args.dir)?;
    write_report(&plan, &args.dir, args.games, false)
}

fn plan(args: TournamentPlanArgs) -> anyhow::Result<()> {
    let (_, plan) = make_plan(&args.config)?;
    if args.json {
        outln!(
            "{}",
            agon_play::console::json_text(&serde_json::to_string_pretty(&plan)?)
        );
    } else {
        for g in &plan.games {
            outln!("{}", g.id);
        }
    }
    Ok(())
}

fn repair(args: TournamentDirArgs) -> anyhow::Result<()> {
    let plan = Plan::read(&args.dir)?;
    let repair = journal::repair(&args.dir, &plan.entry_check())?;
    if repair.rejected.is_empty() {
        outln!(
            "{}: the journal is sound ({} games); nothing to repair",
            args.dir.display(),
            repair.kept
        );
        return Ok(());
    }
    for d in &repair.rejected {
        outln!("{d}: {}", name(&d.problem.to_string()));
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
    let merged = merge::merge(&args.dirs, &args.out, args.allow_missing)?;
    outln!(
        "merged {} shard folders: {} games, {} duplicates, {} missing",
        args.dirs.len(),
        merged.counts.games,
        merged.counts.duplicates,
        merged.counts.missing
    );
    if args.no_report {
        outln!(
            "report: not written (--no-report); `agon tournament report {}` writes it",
            args.out.display()
        );
        return Ok(());
    }
    write_report(&merged.plan, &args.out, false, false)
}
