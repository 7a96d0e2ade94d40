//! What the report's game links open: one viewer page for the whole tournament
//! (`DIR/games/viewer.html`, written with every report) and a data file per game
//! (`DIR/games/<id>.js`, which that page loads when a link names the game: `viewer.html#game=<id>`).
//! A game's data file is written once, by the report of the run that played it (a merge links
//! the shards' files), for the games that have none yet; `agon tournament report DIR --games`
//! writes every one again. A page's heading words the game's result by entrant
//! ([`agon_play::view::named_result`]).

use crate::entry::Entry;
use agon_play::view::game_files::{data_path, write_recorded, write_viewer};
use agon_play::view::ViewError;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::Path;
use std::time::{Duration, Instant};

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
        let why = e.to_string();
        return Written {
            pages: 0,
            failed: games.iter().map(|g| (g.id.clone(), why.clone())).collect(),
        };
    }
    let todo: Vec<&&Entry> = games
        .iter()
        .filter(|g| again || !data_path(dir, &g.id).is_file())
        .collect();
    let mut progress = Progress::new(todo.len(), quiet);
    let mut written = Written::default();
    for (done, game) in todo.iter().enumerate() {
        if let Some(signal) = agon_engine::interrupt::stop_asked() {
            // What is written stays; `agon tournament report DIR` writes the rest later.
            let why = format!(
                "not written: stopped by {} (`agon tournament report` writes it)",
                agon_engine::interrupt::name(signal)
            );
            log::warn!(
                "stopped by {}: {} of {} games' viewer data written, the rest left for \
                 `agon tournament report`",
                agon_engine::interrupt::name(signal),
                done,
                todo.len()
            );
            for rest in &todo[done..] {
                written.failed.push((rest.id.clone(), why.clone()));
            }
            break;
        }
        if let Err(reason) = write_one(dir, game, title) {
            written.failed.push((game.id.clone(), reason.to_string()));
        }
        progress.step(done + 1);
    }
    progress.finish();
    written.pages = games.len() - written.failed.len();
    written
}

/// How writing many games' data shows its progress: a bar on a terminal; otherwise (output
/// redirected, as under a batch system) a line when it starts and one a minute, so that a long
/// report phase is never silent.
struct Progress {
    bar: ProgressBar,
    total: usize,
    lines: bool,
    started: Instant,
    last_line: Instant,
}

/// Fewer games than this are written without showing progress.
const SHOWN_FROM: usize = 20;

/// How often a line is printed when there is no terminal.
const LINE_EVERY: Duration = Duration::from_secs(60);

impl Progress {
    fn new(total: usize, quiet: bool) -> Progress {
        let shown = !quiet && total >= SHOWN_FROM;
        let terminal = std::io::stderr().is_terminal();
        let bar = if shown && terminal {
            ProgressBar::new(total as u64)
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} games for the viewer  ETA {eta}")
                .expect("a valid template"),
        );
        let lines = shown && !terminal;
        if lines {
            eprintln!("writing the viewer's data of {total} games");
        }
        let now = Instant::now();
        Progress {
            bar,
            total,
            lines,
            started: now,
            last_line: now,
        }
    }

    fn step(&mut self, done: usize) {
        self.bar.set_position(done as u64);
        if self.lines && self.last_line.elapsed() >= LINE_EVERY {
            self.last_line = Instant::now();
            let elapsed = self.started.elapsed().as_secs_f64();
            let left = elapsed / done as f64 * (self.total - done) as f64;
            eprintln!(
                "viewer data: {done} of {} games written in {elapsed:.0} s, about {left:.0} s left",
                self.total
            );
        }
    }

    fn finish(self) {
        self.bar.finish_and_clear();
    }
}

fn write_one(dir: &Path, game: &Entry, title: &str) -> Result<(), ViewError> {
    let title = format!("{title}: game {} ({})", game.id, game.names.join(" vs "));
    write_recorded(dir, &game.id, &title, Some(&game.names))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_without_its_record_gets_no_page_and_says_which_file() {
        let dir = agon_engine::output_file::fresh_scratch("game-pages").unwrap();
        let lost = Entry::drawn("r1-g1", Vec::new());
        let written = write(&dir, "flip", &[&lost], "t", false, true);
        assert_eq!(written.pages, 0);
        assert!(!written.has("r1-g1"));
        let (id, why) = &written.failed[0];
        assert_eq!(id, "r1-g1");
        let record = agon_play::record_files::path(&dir, "r1-g1");
        assert!(why.contains(&record.display().to_string()), "{why}");
        assert!(dir.join("games").join("viewer.html").is_file());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
