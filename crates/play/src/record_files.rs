//! Where a game's record lives in a tournament's or a ladder's folder: `DIR/records/<id>.json`.
//! Every mode writes, merges, serves and reads records through here, so the layout is written once
//! (as [`crate::view::game_files`] writes the viewer's).

use std::path::{Path, PathBuf};

/// The folder of the records, in the tournament's or ladder's folder.
pub const FOLDER: &str = "records";

/// The folder of the records in `dir`.
pub fn folder(dir: &Path) -> PathBuf {
    dir.join(FOLDER)
}

/// The record of game `id` in the folder `dir`.
pub fn path(dir: &Path, id: &str) -> PathBuf {
    folder(dir).join(format!("{id}.json"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_is_named_by_its_game_in_the_records_folder() {
        let dir = Path::new("/runs/demo");
        assert_eq!(folder(dir), Path::new("/runs/demo/records"));
        assert_eq!(path(dir, "g-7"), Path::new("/runs/demo/records/g-7.json"));
    }
}
