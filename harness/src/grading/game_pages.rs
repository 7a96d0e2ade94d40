//! The viewer page of every game of a tournament (`DIR/games/<id>.html`), which the report
//! links: written for the games that have none yet whenever the report is, and all of them
//! again with `agon tournament report DIR --games`.

use crate::tournament::entry::Entry;
use agon_engine::record::MatchRecord;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};

/// The folder of the pages, in the tournament folder.
pub const FOLDER: &str = "games";

/// The page of game `id`, relative to the tournament folder (as the report links it).
pub fn link(id: &str) -> String {
    format!("{FOLDER}/{id}.html")
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

/// Writes the pages of `games` (all of them with `again`, else those missing), with progress
/// on a terminal. A game whose record is missing or does not replay gets no page; the others
/// still do.
pub fn write(dir: &Path, games: &[&Entry], title: &str, again: bool, quiet: bool) -> Written {
    let folder = dir.join(FOLDER);
    if let Err(e) = std::fs::create_dir_all(&folder) {
        return Written {
            pages: 0,
            failed: games
                .iter()
                .map(|g| (g.id.clone(), format!("{}: {e}", folder.display())))
                .collect(),
        };
    }
    let todo: Vec<&&Entry> = games
        .iter()
        .filter(|g| again || !page_path(dir, &g.id).is_file())
        .collect();
    let bar = if quiet || todo.len() < 20 {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(todo.len() as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} game pages  ETA {eta}")
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

fn page_path(dir: &Path, id: &str) -> PathBuf {
    dir.join(link(id))
}

fn write_one(dir: &Path, game: &Entry, title: &str) -> Result<(), String> {
    let record_path = dir.join("records").join(format!("{}.json", game.id));
    let record = MatchRecord::read(&record_path).map_err(|e| e.to_string())?;
    let title = format!("{title}: game {} ({})", game.id, game.names.join(" vs "));
    crate::view::write_page(&record, Some(&title), &page_path(dir, &game.id))
        .map_err(|e| format!("{e:#}"))
}
