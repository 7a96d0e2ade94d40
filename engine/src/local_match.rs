//! One match between plugin files on the inline host, from a team's own `cargo test`: the test
//! that `agon new` writes plays its bot through the real loader with this.

use crate::bot_spec::BotSpec;
use crate::host::HostKind;
use crate::record::{Budgets, MatchRecord};
use crate::runner::{run_match, MatchSettings};
use crate::seating::{self, Hosting};
use agon_games::contract::raw_params;
use agon_games::registry::Registry;

/// Plays `game` with `params` between `bots` (bot specs, `FILE:BOT?key=value`, one per seat)
/// from `seed`, each bot with `move_ms` per move. The error says what is wrong with the game,
/// its parameters or a bot; the bots' own faults are in the record.
pub fn play(
    game: &str,
    params: &[(&str, &str)],
    bots: &[String],
    seed: u64,
    move_ms: u64,
) -> Result<MatchRecord, String> {
    let registry = Registry::builtin();
    let game = registry.get(game).map_err(|e| e.to_string())?;
    let params = raw_params(params);
    // The parameters and the seat count are checked by `run_match`, with the same words.
    let hosting = Hosting::in_process(HostKind::Inline);
    let seats = bots
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            let spec: BotSpec = spec.parse().map_err(|e| format!("{e}"))?;
            seating::seat(&spec, i, game, &hosting).map_err(|e| e.to_string())
        })
        .collect::<Result<Vec<_>, String>>()?;
    let settings = MatchSettings {
        params,
        seed,
        seed_secret: crate::seed::SeedSecret::draw().map_err(|e| e.to_string())?,
        budgets: Budgets {
            move_ms: Some(move_ms),
            ..Budgets::default()
        },
        fault_policy: None,
    };
    run_match(game, &settings, seats).map_err(|e| e.to_string())
}
