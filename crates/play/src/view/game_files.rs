//! Where the viewer's files live in a tournament's or a ladder's folder: one viewer page for all
//! the folder's games (`DIR/games/viewer.html`) and a data file per game (`DIR/games/<id>.js`),
//! which the page loads when a link names the game (`viewer.html#game=<id>`). Both modes write
//! and link them through here, so the layout is written once.

use super::{Shown, ViewError};
use crate::record_files;
use agon_engine::{output_file, MatchRecord, OnPath};
use agon_games::registry::Registry;
use std::path::{Path, PathBuf};

/// The folder of the pages, in the tournament's or ladder's folder.
pub const FOLDER: &str = "games";

/// The one viewer page, in [`FOLDER`].
pub const VIEWER: &str = "viewer.html";

/// The viewer of game `id`, relative to the folder (as the report and the ladder page link it).
pub fn link(id: &str) -> String {
    format!("{FOLDER}/{VIEWER}#game={id}")
}

/// The data file of game `id` in the folder `dir`.
pub fn data_path(dir: &Path, id: &str) -> PathBuf {
    dir.join(FOLDER).join(format!("{id}.js"))
}

/// Whether game `id` has its data file in the folder `dir`.
pub fn has_data(dir: &Path, id: &str) -> bool {
    data_path(dir, id).is_file()
}

/// Writes the one viewer page of a `game` into `dir` (a tournament's or a ladder's folder).
pub fn write_viewer(dir: &Path, game: &str) -> Result<(), ViewError> {
    let folder = dir.join(FOLDER);
    std::fs::create_dir_all(&folder)
        .on_path(&folder)
        .map_err(ViewError::Create)?;
    let page = super::shared_page(&Registry::builtin(), game)?;
    let path = folder.join(VIEWER);
    output_file::replace(&path, page.as_bytes())
        .on_path(&path)
        .map_err(ViewError::Write)
}

/// Writes game `id`'s data file, showing `shown`, into `dir`.
pub fn write_data(dir: &Path, id: &str, shown: &Shown) -> Result<(), ViewError> {
    let path = data_path(dir, id);
    output_file::replace(&path, super::data_file(shown).as_bytes())
        .on_path(&path)
        .map_err(ViewError::Write)
}

/// Writes game `id`'s data file into `dir` from `record`, under the heading `title`, its seats'
/// players named `names` (a tournament's entrants) or else by their teams.
pub fn write_record(
    dir: &Path,
    id: &str,
    record: &MatchRecord,
    title: &str,
    names: Option<&[String]>,
) -> Result<(), ViewError> {
    let registry = Registry::builtin();
    let shown = match names {
        Some(names) => super::shown_named(record, &registry, Some(title), names)?,
        None => super::shown(record, &registry, Some(title))?,
    };
    write_data(dir, id, &shown)
}

/// [`write_record`] from game `id`'s record in `dir` (the one [`record_files::path`] names).
pub fn write_recorded(
    dir: &Path,
    id: &str,
    title: &str,
    names: Option<&[String]>,
) -> Result<(), ViewError> {
    let record = MatchRecord::read(&record_files::path(dir, id))?;
    write_record(dir, id, &record, title, names)
}
