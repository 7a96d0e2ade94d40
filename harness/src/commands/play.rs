//! `agon match`: one match between bots.

use crate::cli::{BudgetArgs, MatchArgs, SeatingArgs, SeedArgs};
use crate::console::{name, out, outln};
use crate::feedback::{faults, seat_stderr, trace::TracePrinter};
use agon_engine::bot_spec::BotSpec;
use agon_engine::host::{Clock, HostKind, ProcessHostConfig};
use agon_engine::record::{Budgets, MatchRecord};
use agon_engine::runner::{run_match, run_observed_match, MatchSettings};
use agon_engine::sandbox::SandboxConfig;
use agon_engine::seating;
use agon_engine::seating::{Hosting, Trial};
use agon_engine::seed::SeedSecret;
use agon_games::contract::{FaultPolicy, RawParams};
use agon_games::registry::Registry;
use anyhow::{anyhow, bail, Context};
use std::fmt::Write as _;
use std::path::Path;

pub fn run(args: MatchArgs) -> anyhow::Result<()> {
    let registry = Registry::builtin();
    let game = registry.get(&args.game)?;
    let params = parse_params(&args.params)?;
    let (budgets, fault_policy) = budgets(&args.budgets)?;
    if let Some(path) = &args.record {
        agon_engine::output_file::check_target(path)
            .with_context(|| format!("--record {}", path.display()))?;
    }
    if let Some(path) = &args.view {
        agon_engine::output_file::check_target(path)
            .with_context(|| format!("--view {}", path.display()))?;
    }
    let hosting = seating_hosting(&args.seating)?;
    let specs = args
        .bots
        .iter()
        .map(|s| s.parse::<BotSpec>())
        .collect::<Result<Vec<_>, _>>()?;
    let needed = game
        .seats_for(&params, &agon_engine::input_file::GameFiles)
        .map_err(|e| {
            anyhow!(
                "{}: {e} (parameters: {})",
                game.name(),
                game.parameter_help()
            )
        })?;
    if specs.len() != needed {
        bail!(
            "{} needs {needed} bots (one --bot per seat), got {}",
            game.name(),
            specs.len()
        );
    }
    // A bot that refuses its `?key=value` parameters is the spec writer's mistake, refused
    // before the match as a tournament configuration would be (not a forfeit at ply 0).
    for (i, spec) in specs
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.params.is_empty())
    {
        let trial = seating::trial_start(
            spec,
            game,
            &hosting,
            &params,
            args.budgets.start_ms,
            args.budgets.move_ms,
        );
        if let Trial::Refused(message) = trial {
            bail!(
                "--bot {} (seat {i}): the bot refused its parameters: {}",
                spec,
                name(&message)
            );
        }
    }
    let seats = specs
        .iter()
        .enumerate()
        .map(|(i, spec)| seating::seat(spec, i, game, &hosting))
        .collect::<Result<Vec<_>, _>>()?;
    let (seed, seed_secret) = seeds(&args.seeds)?;
    let settings = MatchSettings {
        params,
        seed,
        seed_secret,
        budgets,
        fault_policy,
    };
    let record = if args.trace {
        let bots = seats.iter().map(|seat| seat.record.bot.clone()).collect();
        run_observed_match(game, &settings, seats, &mut TracePrinter::new(bots))?
    } else {
        run_match(game, &settings, seats)?
    };
    let shown = if args.json {
        Shown::Json
    } else {
        Shown::Summary {
            whole_stderr: args.show_stderr,
        }
    };
    publish(&record, args.record.as_deref(), shown)?;
    if let Some(path) = &args.view {
        crate::view::write_page(&record, None, path)
            .with_context(|| format!("--view {}", path.display()))?;
        if !args.json {
            outln!("view: {}", path.display());
        }
    }
    Ok(())
}

/// How a match's result is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// The record, as JSON.
    Json,
    /// The human summary; `whole_stderr`: every seat's whole stderr after it.
    Summary { whole_stderr: bool },
}

/// Writes the record to `path` if given, and prints it as `shown`.
pub fn publish(record: &MatchRecord, path: Option<&Path>, shown: Shown) -> anyhow::Result<()> {
    if let Some(path) = path {
        record
            .write(path)
            .with_context(|| format!("cannot write the record to {}", path.display()))?;
    }
    match shown {
        Shown::Json => outln!("{}", crate::console::json_text(&record.to_json())),
        Shown::Summary { whole_stderr } => {
            out!("{}", summary(record, whole_stderr));
            if let Some(path) = path {
                outln!("record: {}", path.display());
            }
        }
    }
    Ok(())
}

/// The budgets and fault policy of `--move-ms`, `--start-ms`, `--clock` and `--on-fault`.
/// The match seed and the seed secret: as given, or drawn.
pub fn seeds(args: &SeedArgs) -> anyhow::Result<(u64, SeedSecret)> {
    let secret = match &args.seed_secret {
        Some(text) => text.parse().map_err(|e| anyhow!("--seed-secret: {e}"))?,
        None => SeedSecret::draw()?,
    };
    Ok((args.seed.unwrap_or_else(rand::random), secret))
}

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
    agon_engine::sandbox::check_user(user).map_err(|e| anyhow!("--sandbox-user: {e}"))?;
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

/// The human-readable report of a match: each fault explained, then the end of each faulty
/// seat's stderr, or every seat's whole stderr (`whole_stderr`) after the metrics.
pub fn summary(record: &MatchRecord, whole_stderr: bool) -> String {
    let mut out = String::new();
    // Multi-line values (a whole map or puzzle) are summarised.
    let params: Vec<String> = record
        .params
        .iter()
        .map(|(k, v)| match v.lines().count() {
            0 | 1 => format!("{k}={v}"),
            n => format!("{k}=({n} lines)"),
        })
        .collect();
    let _ = writeln!(
        out,
        "{} ({}), seed {}, {} host, {} per move ({}), on fault: {}",
        record.game,
        params.join(" "),
        record.seed,
        record.host,
        record
            .budgets
            .move_ms
            .map_or("no limit".to_string(), |ms| format!("{ms} ms")),
        record.budgets.clock,
        record.fault_policy
    );
    if let Some(secret) = &record.seed_secret {
        let _ = writeln!(
            out,
            "seed secret {secret} (the same game's seeds again: --seed {} --seed-secret {secret})",
            record.seed
        );
    }
    for s in &record.seats {
        let params: Vec<String> = s
            .bot_params
            .iter()
            .map(|(k, v)| format!("{}={}", name(k), name(v)))
            .collect();
        let _ = writeln!(
            out,
            "seat {}: {}{} [{} {}, {}, sha256 {}]",
            s.seat,
            name(&s.bot),
            if params.is_empty() {
                String::new()
            } else {
                format!(" ({})", params.join(" "))
            },
            name(&s.plugin),
            name(&s.plugin_version),
            name(&s.file),
            &s.sha256[..12.min(s.sha256.len())]
        );
    }
    out.push('\n');
    out.push_str(&record.final_board);
    out.push('\n');
    let result = match (record.outcome.winner, record.outcome.ranks.is_empty()) {
        (_, false) => {
            let ranks: Vec<String> = record.outcome.ranks.iter().map(|r| r.to_string()).collect();
            format!("ranks by seat {}", ranks.join(","))
        }
        (Some(w), true) => format!("seat {w} ({}) wins", name(&record.seats[w].bot)),
        (None, true) => "draw".to_string(),
    };
    let scores: Vec<String> = record
        .outcome
        .scores
        .iter()
        .map(|s| s.to_string())
        .collect();
    let _ = writeln!(
        out,
        "result: {result} [{}] after {} moves: {}",
        scores.join("-"),
        record.moves.len(),
        name(&record.outcome.reason)
    );
    out.push_str(&faults::explained(record));
    for r in &record.restarts {
        let _ = writeln!(
            out,
            "restart: seat {} started again before ply {} ({})",
            r.seat,
            r.ply,
            name(&r.reason)
        );
    }
    for s in &record.seats {
        if let Some(sandbox) = s.sandbox.as_ref().filter(|r| !r.complete()) {
            let _ = writeln!(
                out,
                "sandbox of seat {} incomplete: {}",
                s.seat,
                sandbox.missing.join("; ")
            );
        }
    }
    if !whole_stderr {
        out.push_str(&seat_stderr::faulty_tails(record));
    }
    let _ = writeln!(
        out,
        "\nseat  bot              moves  ms/move  cpu ms/move  max ms  nodes      nodes/move  captures"
    );
    for m in &record.metrics {
        let _ = writeln!(
            out,
            "{:<5} {:<16} {:>5}  {:>7.3}  {:>11}  {:>6.1}  {:>9}  {:>10}  {:>8}",
            m.seat,
            name(&record.seats[m.seat].bot),
            m.moves,
            m.time_per_move_ms,
            m.cpu_per_move_ms
                .map_or("-".to_string(), |c| format!("{c:.3}")),
            m.max_time_ms,
            m.nodes.map_or("-".to_string(), |n| n.to_string()),
            m.nodes_per_move
                .map_or("-".to_string(), |n| format!("{n:.0}")),
            m.captures
        );
    }
    if whole_stderr {
        out.push_str(&seat_stderr::every_seat(record));
    }
    out
}
