//! The games two entrants play when they meet: `games_per_pairing` games, seats swapped every
//! game, each two games on one seed (mirrored seeds), and the Flip course's board per game.

use super::super::config::Settings;
use super::super::plan::GameSpec;
use super::mix;
use agon_games::flip::course_board_seed;

/// The games of one meeting: `first` takes seat 0 of the even games, `second` of the odd ones.
/// Ids are `{prefix}-g{index}`; `seed_key` tells the meeting's seeds from every other's.
pub fn meeting(
    settings: &Settings,
    prefix: &str,
    param_set: usize,
    (first, second): (usize, usize),
    seed_key: u64,
) -> Vec<GameSpec> {
    (0..settings.games_per_pairing)
        .map(|i| {
            let pair = (i / 2) as u64;
            let seats = if i % 2 == 0 {
                vec![first, second]
            } else {
                vec![second, first]
            };
            let params = settings
                .game_seed
                .iter()
                .map(|(name, base)| (name.clone(), course_board_seed(*base, i).to_string()))
                .collect();
            GameSpec {
                id: format!("{prefix}-g{i:03}"),
                param_set,
                seats,
                seed: mix(settings.seed ^ mix(seed_key ^ pair)),
                params,
            }
        })
        .collect()
}

/// The seed key of a meeting of entrants `a` and `b` under parameter set `set`.
pub fn seed_key(set: usize, a: usize, b: usize) -> u64 {
    (set as u64) << 48 ^ (a as u64) << 32 ^ (b as u64) << 16
}
