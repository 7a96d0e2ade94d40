//! `agon sprt OLD NEW`: a tournament of `format = "sprt"` between two bots, its configuration
//! written into its folder so that `agon tournament resume` continues it.

use crate::cli::{SprtArgs, TournamentRunArgs};
use crate::commands::tournament;
use agon_engine::BotSpec;
use anyhow::{anyhow, bail, Context};
use toml::{Table, Value};

pub fn run(args: SprtArgs) -> anyhow::Result<()> {
    let config = args.out.join("sprt.toml");
    if args.out.join("tournament.json").exists() {
        bail!(
            "{} already holds a test; continue it with `agon tournament resume {}`",
            args.out.display(),
            args.out.display()
        );
    }
    let text = toml::to_string(&configuration(&args)?)?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    std::fs::write(&config, text).with_context(|| format!("cannot write {}", config.display()))?;
    tournament::start(TournamentRunArgs {
        config,
        out: args.out,
        concurrency: args.concurrency,
        oversubscribe: false,
        shard: None,
        seed_secret: None,
        watch: false,
        quiet: args.quiet,
    })
}

/// The tournament configuration the command line describes.
fn configuration(args: &SprtArgs) -> anyhow::Result<Table> {
    let mut table = Table::new();
    let mut set = |key: &str, value: Value| table.insert(key.to_string(), value);
    set("game", args.game.clone().into());
    set("format", "sprt".into());
    set(
        "name",
        format!("SPRT: {} against {}", args.new, args.old).into(),
    );
    // A TOML integer is an i64: a drawn seed keeps to its range.
    let seed = args.seed.unwrap_or_else(|| rand::random::<u64>() >> 1);
    set(
        "seed",
        Value::Integer(i64::try_from(seed).context("--seed")?),
    );
    // The profile's keys, as the configuration names them.
    let profile = Value::try_from(args.profile.profile()?)?;
    for (key, value) in profile.as_table().into_iter().flatten() {
        set(key, value.clone());
    }
    let mut params = Table::new();
    for pair in &args.params {
        let (key, value) = pair
            .split_once('=')
            .ok_or_else(|| anyhow!("--param {pair}: expected KEY=VALUE"))?;
        params.insert(key.to_string(), value.into());
    }
    set("params", params.into());
    let mut sprt = Table::new();
    sprt.insert("elo0".into(), args.elo0.into());
    sprt.insert("elo1".into(), args.elo1.into());
    sprt.insert("alpha".into(), args.alpha.into());
    sprt.insert("beta".into(), args.beta.into());
    sprt.insert("max_pairs".into(), Value::Integer(args.max_pairs.into()));
    set("sprt", sprt.into());
    let entrants = [("old", &args.old), ("new", &args.new)]
        .into_iter()
        .map(|(name, spec)| {
            let mut entrant = Table::new();
            entrant.insert("name".into(), name.into());
            entrant.insert("bot".into(), absolute(spec)?.into());
            Ok(Value::Table(entrant))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    set("entrant", entrants.into());
    Ok(table)
}

/// The spec with its file made absolute (the configuration lives in the output folder); a
/// house bot's as given.
fn absolute(spec: &str) -> anyhow::Result<String> {
    let mut parsed: BotSpec = spec.parse()?;
    if agon_house::is_house(&parsed) {
        return Ok(spec.to_string());
    }
    parsed.file =
        std::path::absolute(&parsed.file).with_context(|| format!("{}", parsed.file.display()))?;
    Ok(parsed.to_string())
}
