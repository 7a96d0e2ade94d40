//! What stops a ladder, as callers can tell apart: the game or its parameters (the operator's
//! to fix), a `--bot` slot its file does not serve, a journal another agon holds or that is
//! damaged, a file that cannot be written, or a ladder whose games cannot be set up.

use agon_engine::PathError;
use agon_games::registry::UnknownGame;
use agon_play::game_runner::{GameFailure, RefusedParams};
use agon_play::journal::JournalError;
use agon_play::json_lines::LinesError;
use agon_play::swap::intake::WatchError;
use agon_play::view::ViewError;

#[derive(Debug, thiserror::Error)]
pub enum LadderError {
    #[error(transparent)]
    UnknownGame(#[from] UnknownGame),
    #[error(transparent)]
    Params(#[from] RefusedParams),
    /// A configured slot whose file in the folder has no such bot for the game.
    #[error("--bot {spec}: {slot} offers no bot `{bot}` for {game} ({offers})")]
    NotOffered {
        spec: String,
        slot: String,
        bot: String,
        game: String,
        /// What the file offers instead.
        offers: String,
    },
    /// A configured slot's bot refused the parameters it was given.
    #[error("--bot {spec}: the bot refused its parameters: {reason}")]
    BotRefused { spec: String, reason: String },
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// The events file could not be read back.
    #[error(transparent)]
    Events(#[from] LinesError),
    #[error(transparent)]
    View(#[from] ViewError),
    #[error(transparent)]
    Io(#[from] PathError),
    #[error(transparent)]
    Watch(#[from] WatchError),
    /// `what` names the thread with its article: `the validator`, `a worker`.
    #[error("cannot start {what}: {source}")]
    Thread {
        what: &'static str,
        #[source]
        source: std::io::Error,
    },
    /// One of the ladder's own threads ended before the ladder did.
    #[error("the {0} stopped")]
    Stopped(&'static str),
    #[error("the folder watcher panicked")]
    WatcherPanicked,
    #[error("{count} games in a row could not be set up; the last: {last}")]
    SetUpFailed { count: usize, last: GameNotPlayed },
}

/// Why the ladder could not play a game, through no bot's fault.
#[derive(Debug, thiserror::Error)]
pub enum GameNotPlayed {
    #[error(transparent)]
    UnknownGame(#[from] UnknownGame),
    #[error(transparent)]
    Runner(Box<GameFailure>),
    /// The game's record could not be written.
    #[error(transparent)]
    Record(#[from] PathError),
}

impl LadderError {
    /// A failure to start the thread named by `what`.
    pub(crate) fn thread(what: &'static str) -> impl FnOnce(std::io::Error) -> LadderError {
        move |source| LadderError::Thread { what, source }
    }
}

#[cfg(test)]
mod tests {
    use super::{GameNotPlayed, LadderError, PathError};

    #[test]
    fn the_ladder_s_own_failures_read_as_sentences() {
        assert_eq!(
            LadderError::Stopped("workers").to_string(),
            "the workers stopped"
        );
        let unwritable = PathError::new(
            std::path::Path::new("/l/records/game-9.json"),
            std::io::Error::from(std::io::ErrorKind::PermissionDenied),
        );
        let failed = LadderError::SetUpFailed {
            count: 5,
            last: GameNotPlayed::Record(unwritable),
        };
        assert_eq!(
            failed.to_string(),
            "5 games in a row could not be set up; the last: /l/records/game-9.json: permission \
             denied"
        );
        let denied = std::io::Error::from(std::io::ErrorKind::WouldBlock);
        let thread = LadderError::thread("the validator")(denied);
        assert!(thread
            .to_string()
            .starts_with("cannot start the validator: "));
        assert!(std::error::Error::source(&thread).is_some());
    }
}
