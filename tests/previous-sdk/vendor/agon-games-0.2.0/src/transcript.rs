//! Test support for the golden playthroughs (after OpenSpiel) in every game's `playthrough.rs`:
//! a seeded game through the game's session, every observation a bot receives printed, diffed
//! against the game's `golden/` transcripts. Any change to the rules, the protocol or the
//! notation shows up as a diff.
//!
//! To accept an intended change: `AGON_BLESS=1 cargo test -p agon-games playthrough`.

use crate::contract::{Applied, ParamFiles, Rejection, Session};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Files that parameters name, read as they are (tests only; the engine reads them with its
/// limits).
pub struct PlainFiles;

impl ParamFiles for PlainFiles {
    fn read_text(&self, _key: &'static str, path: &str) -> Result<String, String> {
        std::fs::read_to_string(path).map_err(|e| e.to_string())
    }
}

/// The course data folder of this release (the project now keeps its data under `plugin-api/games/src/<game>/instances`).
pub fn shared_data(folder: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../../plugin-api/games/src")
        .join(folder)
}

/// Compares `actual` with `src/<game>/golden/<name>`; with `AGON_BLESS` set, writes it there.
pub fn check(game: &str, name: &str, actual: String) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("src")
        .join(game)
        .join("golden")
        .join(name);
    if std::env::var_os("AGON_BLESS").is_some() {
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with AGON_BLESS=1 to create it)",
            path.display()
        )
    });
    if expected != actual {
        let line = expected
            .lines()
            .zip(actual.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(expected.lines().count().min(actual.lines().count()));
        panic!(
            "{} differs from the golden playthrough from line {}:\n expected: {:?}\n actual:   {:?}\n\
             If the rules or protocol changed on purpose, bless it: AGON_BLESS=1 cargo test -p agon-games playthrough",
            path.display(),
            line + 1,
            expected.lines().nth(line),
            actual.lines().nth(line)
        );
    }
}

/// Prints the verdict on one answer: the notation it was recorded as, or the rules' reason for
/// refusing it (a refused answer changes nothing, so the next one is judged afresh).
pub fn judged(out: &mut String, label: &str, verdict: Result<Applied, Rejection>) {
    match verdict {
        Ok(applied) => {
            let _ = writeln!(out, "{label}: recorded as {}", applied.notation);
        }
        Err(rejection) => {
            let _ = writeln!(out, "{label}: refused: {rejection:?}");
        }
    }
}

/// What a transcript's outcome line names besides the points.
pub enum Shows {
    /// The winning seat (two-seat games).
    Winner,
    /// The winning seat and the game's own scores (puzzles).
    WinnerAndGameScores,
    /// Every seat's rank (games of more seats).
    Ranks,
}

/// Ends a transcript: the outcome line and, with `final_board`, the position as rendered.
pub fn finish(out: &mut String, session: &dyn Session, shows: Shows, final_board: bool) {
    let outcome = session.outcome().expect("a playthrough plays to the end");
    let _ = match shows {
        Shows::Winner => writeln!(
            out,
            "\noutcome: winner {:?}, scores {:?}: {}",
            outcome.winner, outcome.scores, outcome.reason
        ),
        Shows::WinnerAndGameScores => writeln!(
            out,
            "\noutcome: winner {:?}, scores {:?}, game scores {:?}: {}",
            outcome.winner,
            outcome.scores,
            session.game_scores(),
            outcome.reason
        ),
        Shows::Ranks => writeln!(
            out,
            "\noutcome: ranks {:?}, scores {:?}: {}",
            outcome.ranks, outcome.scores, outcome.reason
        ),
    };
    if final_board {
        out.push_str(&session.render());
    }
}
