//! `agon ladder DIR --game G --out OUT`

use crate::cli::{LadderArgs, LadderPlayArgs};
use crate::commands::tournament::MAX_CONCURRENCY;
use crate::match_flags::parse_params;
use agon_engine::BotSpec;
use agon_engine::HostKind;
use agon_engine::Hosting;
use agon_games::registry::Registry;
use agon_ladder::configured::check_configured;
use agon_ladder::run::{run as run_ladder, LadderOptions, Summary as LadderSummary};
use agon_play::match_profile::MatchProfile;
use anyhow::{anyhow, bail, Context};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub fn run(args: LadderArgs) -> anyhow::Result<()> {
    let options = options(args.dir, args.out, args.play)?;
    agon_engine::interrupt::finish_games_in_flight();
    let summary = run_ladder(&options)?;
    report(&options.out, &summary);
    Ok(())
}

/// The ladder over the folder `dir`, writing to `out`, as `args` say; refuses what cannot run
/// (a configured bot the file does not offer, a host a ladder cannot use).
pub fn options(dir: PathBuf, out: PathBuf, args: LadderPlayArgs) -> anyhow::Result<LadderOptions> {
    if !dir.is_dir() {
        bail!("{}: not a folder of plugin files", dir.display());
    }
    let game = args
        .game
        .clone()
        .ok_or_else(|| anyhow!("--game: name the game to play (see agon games)"))?;
    if !(1..=MAX_CONCURRENCY).contains(&args.concurrency) {
        bail!(
            "--concurrency {}: expected 1 to {MAX_CONCURRENCY} games at once",
            args.concurrency
        );
    }
    let params = parse_params(&args.params)?;
    let profile = args.profile.profile()?;
    let hosting = profile.hosting()?;
    let validation = validation_hosting(&profile, &hosting)?;
    let configured = configured_slots(&dir, &args)?;
    let registry = Registry::builtin();
    check_configured(
        &dir,
        &configured,
        registry.get(&game)?,
        &params,
        &validation,
        &profile,
    )?;
    let seed = args.seed.unwrap_or_else(rand::random);
    if args.seed.is_none() && !args.quiet {
        eprintln!("agon: ladder seed {seed}");
    }
    Ok(LadderOptions {
        dir,
        out,
        game,
        params,
        concurrency: agon_play::admission::admitted(
            args.concurrency,
            "--concurrency",
            args.oversubscribe,
        ),
        games: args.games,
        seed,
        seed_secret: agon_engine::SeedSecret::draw()?,
        settle: Duration::from_millis(args.settle_ms),
        max_builds_in_process: args.max_builds_in_process,
        profile,
        hosting,
        validation,
        configured,
        quiet: args.quiet,
        stop: Default::default(),
        written: None,
    })
}

/// Where a new build is tried before it plays: a sandboxed process host, whatever host the
/// games use (`agon ladder --help`).
fn validation_hosting(profile: &MatchProfile, hosting: &Hosting) -> anyhow::Result<Hosting> {
    if hosting.kind == HostKind::Process {
        return Ok(hosting.clone());
    }
    profile
        .process_hosting(&hosting.cache)
        .context("builds are validated in process hosts")
}

/// The `--bot` options, by the slot (file name in the folder) they configure.
fn configured_slots(
    dir: &Path,
    args: &LadderPlayArgs,
) -> anyhow::Result<BTreeMap<String, BotSpec>> {
    let mut configured = BTreeMap::new();
    for text in &args.bots {
        let spec: BotSpec = text.parse()?;
        let slot = spec
            .file
            .to_str()
            .filter(|s| !s.contains('/'))
            .ok_or_else(|| {
                anyhow!(
                    "--bot {text}: name the slot by its file name in {} (no folder)",
                    dir.display()
                )
            })?
            .to_string();
        if configured.insert(slot.clone(), spec).is_some() {
            bail!("--bot: slot `{slot}` is configured twice");
        }
    }
    Ok(configured)
}

pub fn report(out: &std::path::Path, summary: &LadderSummary) {
    let how = match summary.stopped_by {
        Some(signal) => format!(
            "stopped by {} after finishing the games in flight",
            agon_engine::interrupt::name(signal)
        ),
        None => "done".into(),
    };
    agon_play::console::outln!(
        "ladder {}: {how}: {} games in the journal, {} played in {:.1} s; standings in {}",
        out.display(),
        summary.games,
        summary.played,
        summary.seconds,
        out.join(agon_ladder::board::JSON).display()
    );
}
