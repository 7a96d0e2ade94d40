//! What the report's game links open: one viewer page for the whole tournament
//! (`DIR/games/viewer.html`, written with every report) and a data file per game
//! (`DIR/games/<id>.js`, which that page loads when a link names the game: `viewer.html#game=<id>`).
//! A game's data file is written once, by the report of the run that played it (a merge links
//! the shards' files), for the games that have none yet; `agon tournament report DIR --games`
//! writes every one again. A page's heading words the game's result by entrant
//! ([`crate::view::named_result`]).

use crate::tournament::entry::Entry;
use agon_engine::record::MatchRecord;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};

/// The folder of the pages, in the tournament folder.
pub const FOLDER: &str = "games";

/// The one viewer page, in [`FOLDER`].
pub const VIEWER: &str = "viewer.html";

/// The viewer of game `id`, relative to the tournament folder (as the report links it).
pub fn link(id: &str) -> String {
    format!("{FOLDER}/{VIEWER}#game={id}")
}

/// The data file of game `id` in the tournament folder `dir`.
pub fn data_path(dir: &Path, id: &str) -> PathBuf {
    dir.join(FOLDER).join(format!("{id}.js"))
}

/// What writing the pages did.
#[derive(Debug, Default)]
pub struct Written {
    /// Games with a page (written now or before).
    pub pages: usize,
    /// Games whose page could not be written, with the reason.
    pub failed: Vec<(String, String)>,
}

impl Written {
    /// Whether game `id` has a page to link.
    pub fn has(&self, id: &str) -> bool {
        !self.failed.iter().any(|(g, _)| g == id)
    }
}

/// Writes the viewer page of a tournament of `game` and the data files of `games` (all of them
/// with `again`, else those missing), with progress on a terminal. A game whose record is
/// missing or does not replay gets no data file; the others still do.
pub fn write(
    dir: &Path,
    game: &str,
    games: &[&Entry],
    title: &str,
    again: bool,
    quiet: bool,
) -> Written {
    if let Err(e) = write_viewer(dir, game) {
        return Written {
            pages: 0,
            failed: games.iter().map(|g| (g.id.clone(), e.clone())).collect(),
        };
    }
    let todo: Vec<&&Entry> = games
        .iter()
        .filter(|g| again || !data_path(dir, &g.id).is_file())
        .collect();
    let bar = if quiet || todo.len() < 20 {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(todo.len() as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games for the viewer  ETA {eta}")
            .expect("a valid template"),
    );
    let mut written = Written::default();
    for game in todo {
        if let Err(reason) = write_one(dir, game, title) {
            written.failed.push((game.id.clone(), reason));
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    written.pages = games.len() - written.failed.len();
    written
}

/// Writes the one viewer page of a `game` into `dir` (a tournament's or a ladder's folder).
pub fn write_viewer(dir: &Path, game: &str) -> Result<(), String> {
    let folder = dir.join(FOLDER);
    std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let page = crate::view::shared_page(&agon_games::registry::Registry::builtin(), game)
        .map_err(|e| format!("{e:#}"))?;
    let path = folder.join(VIEWER);
    agon_engine::output_file::replace(&path, page.as_bytes())
        .map_err(|e| format!("{}: {e}", path.display()))
}

fn write_one(dir: &Path, game: &Entry, title: &str) -> Result<(), String> {
    let record_path = dir.join("records").join(format!("{}.json", game.id));
    let record = MatchRecord::read(&record_path).map_err(|e| e.to_string())?;
    let title = format!("{title}: game {} ({})", game.id, game.names.join(" vs "));
    let shown = crate::view::shown_named(
        &record,
        &agon_games::registry::Registry::builtin(),
        Some(&title),
        &game.names,
    )
    .map_err(|e| format!("{e:#}"))?;
    let path = data_path(dir, &game.id);
    agon_engine::output_file::replace(&path, crate::view::data_file(&shown).as_bytes())
        .map_err(|e| format!("{}: {e}", path.display()))
}
