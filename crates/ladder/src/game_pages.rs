//! What the ladder page's game links open: the same viewer layout as a tournament's
//! (`agon_play::view::game_files`: one viewer page `OUT/games/viewer.html`, which the ladder's
//! run writes), and here each game's data file, `OUT/games/game-N.js`, written by the worker
//! that played the game, or later from its record (`agon_play::record_files`).

use super::entry::LadderGame;
use agon_engine::MatchRecord;
use agon_play::view::game_files::{self, has_data};
use agon_play::view::ViewError;
use std::path::Path;

/// Writes the data file of `game`, played as `record`, into `out`; `ladder` titles the page.
pub fn write_data(
    out: &Path,
    ladder: &str,
    game: &LadderGame,
    record: &MatchRecord,
) -> Result<(), ViewError> {
    game_files::write_record(out, &game.id, record, &title(ladder, game), None)
}

/// Writes the data files the ladder page would link but that are missing (the latest games of
/// a ladder written before its games had viewers), from their records in `out/records`. A game
/// whose record is gone or does not replay keeps no link; the ladder goes on.
pub fn write_missing<'a>(out: &Path, ladder: &str, games: impl Iterator<Item = &'a LadderGame>) {
    for game in games.filter(|g| !has_data(out, &g.id)) {
        if let Err(e) = game_files::write_recorded(out, &game.id, &title(ladder, game), None) {
            log::warn!("no viewer for {}: {e}", game.id);
        }
    }
}

/// The heading of `game`'s page: the ladder, the game and its seats' teams and versions.
fn title(ladder: &str, game: &LadderGame) -> String {
    let seats: Vec<String> = game
        .seats
        .iter()
        .map(|s| format!("{} v{}", s.team_or_slot(), s.version))
        .collect();
    format!("{ladder}: {} ({})", game.id, seats.join(" vs "))
}
