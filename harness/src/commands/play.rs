//! `agon match`: one match between bots.

use crate::cli::MatchArgs;
use crate::feedback::summary::{publish, Shown};
use crate::feedback::trace::TracePrinter;
use crate::match_flags::{parse_params, seeds};
use agon_engine::BotSpec;
use agon_engine::{run_match, run_observed_match};
use agon_engine::{seating, Trial};
use agon_games::registry::Registry;
use agon_play::console::{name, outln};
use agon_play::game_runner::seat_count;
use anyhow::{bail, Context};

pub fn run(args: MatchArgs) -> anyhow::Result<()> {
    let registry = Registry::builtin();
    let game = registry.get(&args.game)?;
    let params = parse_params(&args.params)?;
    let profile = args.profile.profile()?;
    if let Some(path) = &args.record {
        agon_engine::output_file::check_target(path)
            .with_context(|| format!("--record {}", path.display()))?;
    }
    if let Some(path) = &args.view {
        agon_engine::output_file::check_target(path)
            .with_context(|| format!("--view {}", path.display()))?;
    }
    let hosting = profile.hosting()?;
    let specs = args
        .bots
        .iter()
        .map(|s| Ok(agon_house::resolve(s.parse::<BotSpec>()?, game.name())?))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let needed = seat_count(game, &params)?;
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
            profile.start_ms,
            profile.move_ms,
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
    let settings = profile.match_settings(params, seed, seed_secret);
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
        agon_play::view::write_page(&record, None, path)
            .with_context(|| format!("--view {}", path.display()))?;
        if !args.json {
            outln!("view: {}", path.display());
        }
    }
    Ok(())
}
