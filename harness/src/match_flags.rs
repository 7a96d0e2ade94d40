//! What the flags that several commands share mean to the engine, beside the match profile
//! (`agon_play::match_profile`): the seeds, the course protocol's hosting, the game's parameters.

use crate::cli::SeedArgs;
use agon_engine::Hosting;
use agon_engine::SeedSecret;
use agon_games::contract::RawParams;
use agon_play::match_profile::{HostChoice, MatchProfile, SandboxMode};
use anyhow::{anyhow, bail};

/// The match seed and the seed secret: as given, or drawn.
pub fn seeds(args: &SeedArgs) -> anyhow::Result<(u64, SeedSecret)> {
    let secret = match &args.seed_secret {
        Some(text) => text.parse().map_err(|e| anyhow!("--seed-secret: {e}"))?,
        None => SeedSecret::draw()?,
    };
    Ok((args.seed.unwrap_or_else(rand::random), secret))
}

/// The hosting of the course protocol's commands (`agon reversixt serve | connect`), from
/// their `--host` and `--sandbox`; the rest of the match profile as its defaults.
pub fn hosting(host: HostChoice, sandbox: SandboxMode) -> anyhow::Result<Hosting> {
    let mut profile = MatchProfile {
        host: host.into(),
        ..MatchProfile::default()
    };
    profile.sandbox.strict = sandbox == SandboxMode::Strict;
    Ok(profile.hosting()?)
}

/// `--param KEY=VALUE` flags as a map; a key given twice is an error.
pub fn parse_params(flags: &[String]) -> anyhow::Result<RawParams> {
    let mut params = RawParams::new();
    for flag in flags {
        let (key, value) = flag
            .split_once('=')
            .ok_or_else(|| anyhow!("--param `{flag}`: expected KEY=VALUE"))?;
        if params
            .insert(key.trim().to_string(), value.trim().to_string())
            .is_some()
        {
            bail!("--param `{key}` is given twice");
        }
    }
    Ok(params)
}
