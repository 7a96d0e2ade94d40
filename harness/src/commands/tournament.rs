//! `agon tournament run | resume | report | plan | merge`

use crate::cli::{
    TournamentCommand, TournamentDirArgs, TournamentMergeArgs, TournamentPlanArgs,
    TournamentResumeArgs, TournamentRunArgs,
};
use crate::grading::report::{rating_text, write_all};
use crate::grading::standings::{grade, unique_entries, Report};
use crate::tournament::config::Config;
use crate::tournament::journal::{self, Journal};
use crate::tournament::plan::Plan;
use crate::tournament::run::{execute, RunOptions};
use crate::tournament::shard::Shard;
use agon_engine::game::Registry;
use agon_engine::loader::cache_dir;
use anyhow::{anyhow, bail, Context};
use std::collections::HashMap;
use std::path::Path;

pub fn run(command: TournamentCommand) -> anyhow::Result<()> {
    match command {
        TournamentCommand::Run(args) => start(args),
        TournamentCommand::Resume(args) => resume(args),
        TournamentCommand::Report(args) => report(args),
        TournamentCommand::Plan(args) => plan(args),
        TournamentCommand::Merge(args) => merge(args),
    }
}

fn make_plan(config: &Path) -> anyhow::Result<(Config, Plan)> {
    let registry = Registry::builtin();
    let config = Config::load(config, &registry)?;
    let plan = Plan::make(&config, &registry, &cache_dir())?;
    for e in &plan.excluded {
        eprintln!("agon: warning: entrant `{}` excluded: {}", e.name, e.error);
    }
    Ok((config, plan))
}

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
    play_and_report(&plan, &args.out, concurrency, args.quiet, shard)
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
    )
}

fn play_and_report(
    plan: &Plan,
    dir: &Path,
    concurrency: usize,
    quiet: bool,
    shard: Option<Shard>,
) -> anyhow::Result<()> {
    if concurrency == 0 {
        bail!("--concurrency must be at least 1");
    }
    let options = RunOptions {
        concurrency,
        quiet,
        shard,
    };
    let summary = execute(plan, dir, &options).map_err(|e| anyhow!(e))?;
    println!(
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
    write_report(plan, dir)
}

fn write_report(plan: &Plan, dir: &Path) -> anyhow::Result<()> {
    let entries = journal::read(&dir.join("journal.jsonl"), false).map_err(|e| anyhow!(e))?;
    let report = grade(plan, &entries);
    write_all(dir, plan, &report).map_err(|e| anyhow!(e))?;
    print_standings(&report);
    println!("report: {}", dir.join("report.html").display());
    Ok(())
}

fn print_standings(report: &Report) {
    let t = &report.tournament;
    println!(
        "{} of {} games played{}",
        t.games_played,
        t.games_planned,
        if t.games_missing > 0 {
            format!(" ({} missing)", t.games_missing)
        } else {
            String::new()
        }
    );
    println!("  #  entrant                      games     W     D     L   points  rating (95% CI)");
    for r in &report.standings {
        println!(
            "{:>3}  {:<26} {:>7} {:>5} {:>5} {:>5} {:>8}  {}",
            r.rank,
            r.name,
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
        println!("excluded: {} ({})", e.name, e.error);
    }
}

fn report(args: TournamentDirArgs) -> anyhow::Result<()> {
    let plan = Plan::read(&args.dir).map_err(|e| anyhow!(e))?;
    write_report(&plan, &args.dir)
}

fn plan(args: TournamentPlanArgs) -> anyhow::Result<()> {
    let (_, plan) = make_plan(&args.config)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&plan)?);
    } else {
        for g in &plan.games {
            println!("{}", g.id);
        }
    }
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
    if Plan::read(&args.out).is_ok() {
        bail!(
            "{} already holds a tournament; choose an empty --out folder",
            args.out.display()
        );
    }
    let mut all = Vec::new();
    let mut sources: HashMap<String, Vec<&Path>> = HashMap::new();
    for dir in &args.dirs {
        let entries = journal::read(&dir.join("journal.jsonl"), false).map_err(|e| anyhow!(e))?;
        for e in &entries {
            sources.entry(e.id.clone()).or_default().push(dir);
        }
        all.extend(entries);
    }
    let mut merged_plan = first.clone();
    merged_plan.shard = None;
    let unique: Vec<_> = unique_entries(&merged_plan, &all)
        .into_iter()
        .cloned()
        .collect();
    let mut duplicates: Vec<(&String, &Vec<&Path>)> =
        sources.iter().filter(|(_, dirs)| dirs.len() > 1).collect();
    duplicates.sort();
    for (id, dirs) in &duplicates {
        let versions: Vec<_> = all.iter().filter(|e| &&e.id == id).collect();
        let same = versions
            .windows(2)
            .all(|w| w[0].scores == w[1].scores && w[0].winner == w[1].winner);
        eprintln!(
            "agon: warning: game {id} appears in {} ({}); the first is kept",
            dirs.iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            if same {
                "same result"
            } else {
                "DIFFERENT results"
            }
        );
    }
    let missing: Vec<&str> = merged_plan
        .games
        .iter()
        .filter(|g| !sources.contains_key(&g.id))
        .map(|g| g.id.as_str())
        .collect();
    if !missing.is_empty() {
        eprintln!(
            "agon: warning: {} planned games are in no shard (first: {}); run the missing shards and merge again",
            missing.len(),
            missing[0]
        );
    }
    std::fs::create_dir_all(args.out.join("records"))
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    merged_plan.write(&args.out)?;
    let (mut journal, _) = Journal::open(&args.out).map_err(|e| anyhow!(e))?;
    for e in &unique {
        journal.append(e).map_err(|e| anyhow!(e))?;
        let from = sources[&e.id][0]
            .join("records")
            .join(format!("{}.json", e.id));
        let _ = std::fs::copy(
            &from,
            args.out.join("records").join(format!("{}.json", e.id)),
        );
    }
    println!(
        "merged {} shard folders: {} games, {} duplicates, {} missing",
        args.dirs.len(),
        unique.len(),
        duplicates.len(),
        missing.len()
    );
    write_report(&merged_plan, &args.out)
}
