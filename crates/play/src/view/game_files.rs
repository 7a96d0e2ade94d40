//! Where the viewer's files live in a tournament's or a ladder's folder: one viewer page for all
//! the folder's games (`DIR/games/viewer.html`) and a data file per game (`DIR/games/<id>.js`),
//! which the page loads when a link names the game (`viewer.html#game=<id>`). Both modes write
//! and link them through here, so the layout is written once.

use super::{Shown, ViewError};
use agon_engine::{output_file, OnPath};
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
