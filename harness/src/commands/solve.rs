//! `agon solve`: one puzzle, one solver, the engine's verdict.

use crate::cli::SolveArgs;
use crate::match_flags::seeds;
use agon_engine::run_match;
use agon_engine::seating;
use agon_engine::BotSpec;
use agon_engine::MatchRecord;
use agon_games::contract::{GameRules, RawParams, SolutionView};
use agon_games::registry::Registry;
use agon_play::console::{out, outln};
use anyhow::{anyhow, bail, Context};

pub fn run(args: SolveArgs) -> anyhow::Result<()> {
    let registry = Registry::builtin();
    let game = registry.get(&args.game)?;
    if game.seats() != 1 {
        bail!("{} is not a puzzle; use `agon match`", game.name());
    }
    let spec = agon_house::resolve(args.bot.parse::<BotSpec>()?, game.name())?;
    let profile = args.profile.profile()?;
    let hosting = profile.hosting()?;
    let value = args.puzzle.display().to_string();
    let built_in = agon_games::contract::built_in(game.game_type().instances, &value).is_some();
    if !built_in && !args.puzzle.is_file() {
        bail!(
            "{value}: no such puzzle file, nor a built-in puzzle of {} ({})",
            game.name(),
            agon_games::contract::instance_names(game.game_type().instances)
        );
    }
    let params = RawParams::from([("puzzle".to_string(), args.puzzle.display().to_string())]);
    // Refuse a bad instance before starting the solver, naming the file.
    game.new_session(&params, &agon_engine::GameFiles)
        .map_err(|e| anyhow!("{}: {e}", args.puzzle.display()))?;
    let seat = seating::seat(&spec, 0, game, &hosting)?;
    let (seed, seed_secret) = seeds(&args.seeds)?;
    let settings = profile.match_settings(params, seed, seed_secret);
    let record = run_match(game, &settings, vec![seat])?;
    if let Some(path) = &args.record {
        record
            .write(path)
            .with_context(|| format!("cannot write the record to {}", path.display()))?;
    }
    let verdict = Verdict::of(game, &record);
    if args.json {
        print_json(&args, game, &spec, &record, &verdict)
    } else {
        print_text(&args, game, &spec, &record, &verdict);
        Ok(())
    }
}

/// What the one-seat match says of the solver.
struct Verdict {
    solved: bool,
    time_ms: f64,
    /// The solver's own count of its work (`nodes_meaning` of the game says what it counts).
    attempts: Option<u64>,
    /// Shown only when solved.
    solution: Option<String>,
}

impl Verdict {
    fn of(game: &dyn GameRules, record: &MatchRecord) -> Verdict {
        let solved = record.outcome.winner == Some(0);
        // A solver that never answered still took the time of its fault.
        let time_ms = record.moves.first().map_or_else(
            || {
                record
                    .faults
                    .first()
                    .map_or(0.0, |f| f.wall_us as f64 / 1000.0)
            },
            |m| m.wall_us as f64 / 1000.0,
        );
        let attempts = record.moves.first().and_then(|m| m.nodes);
        let solution = match game.game_type().solution_shown_as {
            _ if !solved => None,
            SolutionView::FinalBoard => Some(record.final_board.clone()),
            SolutionView::Answer => record.moves.first().map(|m| m.action.clone()),
        };
        Verdict {
            solved,
            time_ms,
            attempts,
            solution,
        }
    }
}

fn print_json(
    args: &SolveArgs,
    game: &dyn GameRules,
    spec: &BotSpec,
    record: &MatchRecord,
    verdict: &Verdict,
) -> anyhow::Result<()> {
    let mut out = serde_json::json!({
        "game": game.name(),
        "puzzle": args.puzzle,
        "bot": spec.bot,
        "solved": verdict.solved,
        "time_ms": verdict.time_ms,
        "attempts": verdict.attempts,
        "clicks": record.game_scores.first(),
        "solution": verdict.solution,
        "faults": record.faults,
    });
    if !verdict.solved {
        out["reason"] = serde_json::Value::from(record.outcome.reason.clone());
    }
    outln!(
        "{}",
        agon_play::console::json_text(&serde_json::to_string_pretty(&out)?)
    );
    Ok(())
}

fn print_text(
    args: &SolveArgs,
    game: &dyn GameRules,
    spec: &BotSpec,
    record: &MatchRecord,
    verdict: &Verdict,
) {
    outln!(
        "{}: {} by {} in {:.1} ms{}",
        args.puzzle.display(),
        if verdict.solved {
            "solved"
        } else {
            "NOT solved"
        },
        spec.bot,
        verdict.time_ms,
        verdict.attempts.map_or(String::new(), |a| format!(
            ", {a} {}",
            game.game_type().nodes_meaning
        ))
    );
    outln!("{}", record.outcome.reason);
    if let Some(solution) = &verdict.solution {
        out!("{}", solution.replace("\r\n", "\n"));
        if !solution.ends_with('\n') {
            outln!();
        }
    }
}
