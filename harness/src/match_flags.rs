//! What the match flags that several commands share (`agon match`, `agon ladder`, `agon
//! reversixt serve`) mean to the engine: the seeds, the budgets and fault policy, how seats are
//! hosted, and the game's parameters.

use crate::cli::{BudgetArgs, SeatingArgs, SeedArgs};
use agon_engine::host::sandbox::SandboxConfig;
use agon_engine::host::{Clock, HostKind, ProcessHostConfig};
use agon_engine::record::Budgets;
use agon_engine::seating::Hosting;
use agon_engine::seed::SeedSecret;
use agon_games::contract::{FaultPolicy, RawParams};
use anyhow::{anyhow, bail};

/// The match seed and the seed secret: as given, or drawn.
pub fn seeds(args: &SeedArgs) -> anyhow::Result<(u64, SeedSecret)> {
    let secret = match &args.seed_secret {
        Some(text) => text.parse().map_err(|e| anyhow!("--seed-secret: {e}"))?,
        None => SeedSecret::draw()?,
    };
    Ok((args.seed.unwrap_or_else(rand::random), secret))
}

/// The budgets and fault policy of `--move-ms`, `--start-ms`, `--clock` and `--on-fault`.
pub fn budgets(args: &BudgetArgs) -> anyhow::Result<(Budgets, Option<FaultPolicy>)> {
    let clock: Clock = args.clock.parse().map_err(|e: String| anyhow!(e))?;
    let fault_policy = args
        .on_fault
        .as_deref()
        .map(str::parse::<FaultPolicy>)
        .transpose()
        .map_err(|e| anyhow!("--on-fault: {e}"))?;
    let nonzero = |ms: u64| (ms > 0).then_some(ms);
    let budgets = Budgets {
        start_ms: nonzero(args.start_ms),
        move_ms: nonzero(args.move_ms),
        clock,
    };
    Ok((budgets, fault_policy))
}

/// How seats are hosted, from `--host`, `--sandbox`, `--memory-mb`, `--threads` and
/// `--sandbox-user`.
pub fn seating_hosting(args: &SeatingArgs) -> anyhow::Result<Hosting> {
    let host: HostKind = args.host.parse().map_err(|e: String| anyhow!(e))?;
    hosting(
        host,
        &args.sandbox,
        args.memory_mb,
        args.threads,
        args.sandbox_user.as_deref(),
    )
}

/// How seats are hosted, from the command line's `--host`, `--sandbox`, `--memory-mb`,
/// `--threads` and `--sandbox-user`.
pub fn hosting(
    host: HostKind,
    sandbox: &str,
    memory_mb: u64,
    threads: u32,
    user: Option<&str>,
) -> anyhow::Result<Hosting> {
    let strict = match sandbox {
        "strict" => true,
        "report" => false,
        other => bail!("--sandbox `{other}`: expected `report` or `strict`"),
    };
    agon_engine::host::sandbox::check_user(user).map_err(|e| anyhow!("--sandbox-user: {e}"))?;
    Ok(Hosting {
        kind: host,
        process: match host {
            HostKind::Process => Some(
                ProcessHostConfig::locate(SandboxConfig {
                    memory_bytes: memory_mb.saturating_mul(1 << 20),
                    threads,
                    strict,
                    user: user.map(str::to_string),
                    ..SandboxConfig::default()
                })
                .map_err(|e| anyhow!(e))?,
            ),
            _ => None,
        },
        cache: agon_engine::loader::cache_dir(),
    })
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
