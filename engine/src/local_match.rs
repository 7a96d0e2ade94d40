//! One match between plugin files on the inline host, with no tournament, journal or pinned
//! builds around it.

use crate::bot_spec::{BotSpec, BotSpecError};
use crate::host::HostKind;
use crate::record::{Budgets, MatchRecord};
use crate::runner::{run_match, MatchError, MatchSettings};
use crate::seating::{self, Hosting, SeatError};
use agon_games::contract::raw_params;
use agon_games::registry::{Registry, UnknownGame};

/// Why a local match was not played. The bots' own faults are not here: they are in the record.
#[derive(Debug, thiserror::Error)]
pub enum LocalMatchError {
    #[error(transparent)]
    Game(#[from] UnknownGame),
    /// A seat's bot spec does not parse; `seat` counts from 0.
    #[error("seat {seat}: {source}")]
    Spec { seat: usize, source: BotSpecError },
    #[error(transparent)]
    Seat(#[from] SeatError),
    /// The operating system gave no randomness for the match's seed secret.
    #[error(transparent)]
    Seed(std::io::Error),
    /// The game refused its parameters or seat count, or the engine failed mid-match.
    #[error(transparent)]
    Match(#[from] MatchError),
}

/// Plays `game` with `params` between `bots` (bot specs, `FILE:BOT?key=value`, one per seat)
/// from `seed`, each bot with `move_ms` per move.
pub fn play(
    game: &str,
    params: &[(&str, &str)],
    bots: &[String],
    seed: u64,
    move_ms: u64,
) -> Result<MatchRecord, LocalMatchError> {
    let registry = Registry::builtin();
    let game = registry.get(game)?;
    let params = raw_params(params);
    // The parameters and the seat count are checked by `run_match`, with the same words.
    let hosting = Hosting::in_process(HostKind::Inline);
    let seats = bots
        .iter()
        .enumerate()
        .map(|(seat, spec)| {
            let spec: BotSpec = spec
                .parse()
                .map_err(|source| LocalMatchError::Spec { seat, source })?;
            Ok(seating::seat(&spec, seat, game, &hosting)?)
        })
        .collect::<Result<Vec<_>, LocalMatchError>>()?;
    let settings = MatchSettings {
        params,
        seed,
        seed_secret: crate::seed::SeedSecret::draw().map_err(LocalMatchError::Seed)?,
        budgets: Budgets {
            move_ms: Some(move_ms),
            ..Budgets::default()
        },
        fault_policy: None,
    };
    Ok(run_match(game, &settings, seats)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_or_spec_that_is_wrong_is_named_before_any_bot_loads() {
        let e = play("no-such-game", &[], &[], 1, 100).unwrap_err();
        assert!(matches!(e, LocalMatchError::Game(_)), "{e:?}");
        let bots = ["".to_string(), "nowhere.so:".to_string()];
        let e = play("reversixt", &[], &bots, 1, 100).unwrap_err();
        assert!(matches!(e, LocalMatchError::Spec { seat: 0, .. }), "{e:?}");
        assert!(e.to_string().starts_with("seat 0: "), "{e}");
    }
}
