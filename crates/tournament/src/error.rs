//! What stops a tournament's run, as callers can tell apart: a plan that cannot be played on,
//! a journal another agon holds or that is damaged, a file that cannot be written, a game that
//! cannot be set up, and a run that stopped short (a signal, games killed from outside), each
//! saying how to go on.

use crate::builds::BuildError;
use crate::plan::PlanError;
use agon_engine::{LocateError, PathError};
use agon_games::registry::UnknownGame;
use agon_play::game_runner::GameFailure;
use agon_play::journal::JournalError;
use agon_play::json_lines::{LineProblem, LinesError};
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    #[error(
        "{}: the plan has no seed secret (it was made by an Agon before 0.3, whose seat seeds a \
         bot could compute): plan the tournament again in a new folder",
        plan.display()
    )]
    NoSeedSecret { plan: PathBuf },
    /// The plan's next step could not be laid out.
    #[error(transparent)]
    NextStep(#[from] PlanError),
    #[error(transparent)]
    UnknownGame(#[from] UnknownGame),
    #[error(transparent)]
    Builds(#[from] BuildError),
    /// No process host could be found for the games.
    #[error(transparent)]
    Host(#[from] LocateError),
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// The crash log could not be read back.
    #[error(transparent)]
    Lines(#[from] LinesError),
    #[error("{} line {line}: not a crash entry: {problem}", path.display())]
    NotACrash {
        path: PathBuf,
        line: usize,
        problem: LineProblem,
    },
    #[error(transparent)]
    Io(#[from] PathError),
    /// A game could not be set up or played through no fault of a bot.
    #[error(transparent)]
    GameFailed(Box<GameFailure>),
    #[error(
        "stopped by {signal}: {recorded} of {planned} games are recorded ({played} in this run); \
         {abandoned} games in flight were abandoned, not recorded; `agon tournament resume {}` \
         plays the rest",
        dir.display()
    )]
    Stopped {
        signal: &'static str,
        recorded: usize,
        planned: usize,
        played: usize,
        abandoned: usize,
        dir: PathBuf,
    },
    #[error(
        "{} games were not finished because a bot's process was killed from outside the engine \
         {attempts} times (not the bots' fault, so nothing was recorded): {}; `agon tournament \
         resume {}` plays them",
        games.len(),
        games.join(", "),
        dir.display()
    )]
    KilledFromOutside {
        games: Vec<String>,
        attempts: usize,
        dir: PathBuf,
    },
    /// The run stopped at its first failure; the games before it are recorded.
    #[error(
        "{cause}\n{played} games were recorded in this run; `agon tournament resume {}` plays the \
         rest",
        dir.display()
    )]
    StoppedShort {
        #[source]
        cause: Box<TournamentError>,
        played: usize,
        dir: PathBuf,
    },
}

#[cfg(test)]
mod tests {
    use super::TournamentError;
    use agon_play::game_runner::{FailureCause, GameFailure};
    use std::path::PathBuf;

    #[test]
    fn a_run_stopped_short_says_its_cause_and_how_to_go_on() {
        let failure = GameFailure {
            game: "game r1-g1".into(),
            why: FailureCause::CopyChanged {
                bot: "entrant `a`".into(),
                file: PathBuf::from("/cache/a.so"),
                found: "f0".into(),
                pinned: "e1".into(),
            },
        };
        let error = TournamentError::StoppedShort {
            cause: Box::new(TournamentError::GameFailed(Box::new(failure))),
            played: 4,
            dir: PathBuf::from("/srv/t"),
        };
        let failed = "game r1-g1: the cached copy of entrant `a`'s build (/cache/a.so) holds \
                      sha256 f0, not e1: it changed while the games ran, and results would mix \
                      two builds";
        assert_eq!(
            error.to_string(),
            format!(
                "{failed}\n4 games were recorded in this run; `agon tournament resume /srv/t` \
                 plays the rest"
            )
        );
        let cause = std::error::Error::source(&error).expect("the failure is the source");
        assert_eq!(cause.to_string(), failed);
    }

    #[test]
    fn games_killed_from_outside_are_listed() {
        let error = TournamentError::KilledFromOutside {
            games: vec!["r1-g1".into(), "r1-g2".into()],
            attempts: 3,
            dir: PathBuf::from("t"),
        };
        let text = error.to_string();
        assert!(text.starts_with("2 games were not finished"), "{text}");
        assert!(text.contains("3 times"), "{text}");
        assert!(
            text.ends_with("r1-g1, r1-g2; `agon tournament resume t` plays them"),
            "{text}"
        );
    }
}
