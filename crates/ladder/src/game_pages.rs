//! What the ladder page's game links open: the same viewer layout as a tournament's
//! (`agon_play::view::game_files`: one viewer page `OUT/games/viewer.html`, which the ladder's
//! run writes), and here each game's data file, `OUT/games/game-N.js`, written by the worker
//! that played the game from its record (`agon_play::record_files`).

use super::entry::LadderGame;
use agon_engine::MatchRecord;
use agon_games::registry::Registry;
use agon_play::record_files;
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
    let seats: Vec<String> = game
        .seats
        .iter()
        .map(|s| format!("{} v{}", s.team_or_slot(), s.version))
        .collect();
    let title = format!("{ladder}: {} ({})", game.id, seats.join(" vs "));
    let shown = agon_play::view::shown(record, &Registry::builtin(), Some(&title))?;
    game_files::write_data(out, &game.id, &shown)
}

/// Writes the data files the ladder page would link but that are missing (the latest games of
/// a ladder written before its games had viewers), from their records in `out/records`. A game
/// whose record is gone or does not replay keeps no link; the ladder goes on.
pub fn write_missing<'a>(out: &Path, ladder: &str, games: impl Iterator<Item = &'a LadderGame>) {
    for game in games.filter(|g| !has_data(out, &g.id)) {
        let path = record_files::path(out, &game.id);
        match MatchRecord::read(&path) {
            Ok(record) => {
                if let Err(e) = write_data(out, ladder, game, &record) {
                    log::warn!("no viewer for {}: {e}", game.id);
                }
            }
            Err(e) => log::warn!("no viewer for {}: {e}", game.id),
        }
    }
}
