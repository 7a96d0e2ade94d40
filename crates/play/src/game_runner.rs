//! The one game runner: every mode that plays a game between pinned builds (a tournament's
//! games, the ladder's) seats its bots and plays through [`play`], so seating (every seat at
//! once, retried), the check that each seat holds its pinned build, crash labels, timing and
//! the line between a game played and one not finished through nobody's fault are written
//! once.

use crate::journal::GameTime;
use agon_engine::cpu_pressure::PressureMark;
use agon_engine::seating::SeatError;
use agon_engine::BotSpec;
use agon_engine::MatchRecord;
use agon_engine::{crash_evidence, CrashLabel};
use agon_engine::{run_match, MatchError, MatchSettings, Seat};
use agon_engine::{seating, Hosting};
use agon_games::contract::{GameRules, ParamError, RawParams};
use std::path::PathBuf;
use std::time::Instant;

/// Parameters a game refused, with the game's name and what parameters it takes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{game}: {problem} (parameters: {help})")]
pub struct RefusedParams {
    pub game: &'static str,
    #[source]
    pub problem: ParamError,
    /// The game's parameters, as its help names them.
    pub help: &'static str,
}

/// How many bots a game of `rules` seats under `params`, once the game accepts them: a bad
/// parameter is refused, naming the game and its parameters, before any bot's host starts.
pub fn seat_count(rules: &dyn GameRules, params: &RawParams) -> Result<usize, RefusedParams> {
    let files = agon_engine::GameFiles;
    let refused = |problem| RefusedParams {
        game: rules.name(),
        problem,
        help: rules.parameter_help(),
    };
    let seats = rules.seats_for(params, &files).map_err(refused)?;
    rules.new_session(params, &files).map_err(refused)?;
    Ok(seats)
}

/// One seat's bot, pinned to a build.
pub struct PinnedBot {
    /// The spec, naming the build's copy in the plugin cache.
    pub spec: BotSpec,
    /// The build's sha256: a copy that holds anything else is refused, since the game's
    /// results would mix two builds.
    pub sha256: String,
    /// How messages name it (`entrant `a``, `b.so v2`).
    pub name: String,
    /// In-process hosts: the label a crash in its calls carries (`crash_evidence`).
    pub crash_label: Option<CrashLabel>,
}

/// How a game ended for the mode that asked for it.
pub enum Played {
    Game {
        record: Box<MatchRecord>,
        time: GameTime,
    },
    /// Not finished through nobody's fault among its bots (`MatchError::Interrupted`):
    /// nothing is recorded, and the mode plays it again.
    Unplayed(String),
    /// The engine could not play it (a seat could not be placed, a copy changed, ...).
    Failed(Box<GameFailure>),
}

/// Why the engine could not play a game between pinned builds, through no bot's fault;
/// `game` is how messages name the game.
#[derive(Debug, thiserror::Error)]
#[error("{game}: {why}")]
pub struct GameFailure {
    pub game: String,
    pub why: FailureCause,
}

#[derive(Debug, thiserror::Error)]
pub enum FailureCause {
    #[error("cannot seat {bot}: {source}")]
    Seat { bot: String, source: SeatError },
    #[error(
        "the cached copy of {bot}'s build ({}) holds sha256 {found}, not {pinned}: it changed \
         while the games ran, and results would mix two builds",
        file.display()
    )]
    CopyChanged {
        bot: String,
        file: PathBuf,
        found: String,
        pinned: String,
    },
    #[error(transparent)]
    Match(MatchError),
}

/// Plays `game` (how messages name it) with `bots` in seat order.
pub fn play(
    rules: &dyn GameRules,
    hosting: &Hosting,
    bots: &[PinnedBot],
    settings: &MatchSettings,
    game: &str,
) -> Played {
    let failed = |why| {
        Played::Failed(Box::new(GameFailure {
            game: game.to_string(),
            why,
        }))
    };
    let seats = match seat_all(rules, hosting, bots) {
        Ok(seats) => seats,
        Err(why) => return failed(why),
    };
    let t0 = Instant::now();
    let pressure = PressureMark::now();
    match run_match(rules, settings, seats) {
        Ok(record) => Played::Game {
            record: Box::new(record),
            time: GameTime {
                game_ms: t0.elapsed().as_secs_f64() * 1000.0,
                cpu_pressure: pressure.and_then(|mark| mark.share_since()),
            },
        },
        Err(MatchError::Interrupted(why)) => Played::Unplayed(why),
        Err(e) => failed(FailureCause::Match(e)),
    }
}

/// Seats every bot (process hosts start at once), each on its pinned build.
fn seat_all(
    rules: &dyn GameRules,
    hosting: &Hosting,
    bots: &[PinnedBot],
) -> Result<Vec<Seat>, FailureCause> {
    let seated = seating::for_each_seat(hosting, bots.len(), |seat| {
        let bot = &bots[seat];
        // In-process hosts create the bot on this thread: a crash in its constructor is its.
        crash_evidence::in_call(bot.crash_label.as_ref(), || {
            seating::seat_retrying(&bot.spec, seat, rules, hosting)
        })
    });
    let mut seats = Vec::new();
    for (placed, bot) in seated.into_iter().zip(bots) {
        let mut placed = placed.map_err(|source| FailureCause::Seat {
            bot: bot.name.clone(),
            source,
        })?;
        if placed.record.sha256 != bot.sha256 {
            return Err(FailureCause::CopyChanged {
                bot: bot.name.clone(),
                file: bot.spec.file.clone(),
                found: placed.record.sha256.clone(),
                pinned: bot.sha256.clone(),
            });
        }
        if let Some(label) = &bot.crash_label {
            placed.host.label_calls(label.clone());
        }
        seats.push(placed);
    }
    Ok(seats)
}

#[cfg(test)]
mod tests {
    use super::seat_count;
    use agon_games::contract::RawParams;
    use agon_games::registry::Registry;

    fn params(pairs: &[(&str, &str)]) -> RawParams {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn seat_count_is_the_games_once_it_accepts_the_parameters() {
        let registry = Registry::builtin();
        let breakthrough = registry.get("breakthrough").unwrap();
        assert_eq!(seat_count(breakthrough, &params(&[])), Ok(2));
        let reversixt = registry.get("reversixt").unwrap();
        assert!(seat_count(reversixt, &params(&[("map", "example")])).unwrap() >= 2);
        // Refused by the seat count (a map that does not exist) and by the session alike: the
        // message names the game and what it takes.
        for bad in [
            (reversixt, params(&[("map", "no-such-map")])),
            (breakthrough, params(&[("rows", "3")])),
        ] {
            let error = seat_count(bad.0, &bad.1).unwrap_err();
            let name = bad.0.name();
            assert_eq!(error.game, name);
            let error = error.to_string();
            assert!(error.starts_with(&format!("{name}: ")), "{error}");
            assert!(error.contains("(parameters: "), "{error}");
        }
    }
}
