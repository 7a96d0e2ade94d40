//! What can go wrong with the carried sources and the house bots, as callers can tell apart:
//! a bot that does not exist is the user's to fix, a failed build or a full disk the machine's,
//! and a carried manifest that does not make sense a defect of this `agon` itself.

use agon_engine::LoadError;
use agon_play::journal::folder_lock::LockError;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum HouseError {
    #[error("no house bot `{bot}` for {game}; its house bots: {known}")]
    NoSuchBot {
        bot: String,
        game: String,
        /// The game's house bots, comma-separated (`none` without any).
        known: String,
    },
    #[error("house plugin {package}: {source}")]
    Plugin {
        package: String,
        #[source]
        source: LoadError,
    },
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        /// What was being done, as a verb phrase (`create`, `write`, `copy`).
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Lock(#[from] LockError),
    #[error("cannot run {cargo} (the house bots are built with the Rust toolchain): {source}")]
    NoCargo {
        cargo: String,
        #[source]
        source: std::io::Error,
    },
    #[error("building the house bots failed (cargo's messages are above)")]
    BuildFailed,
    /// The sources carried inside this binary do not make a workspace: a defect of the build
    /// of `agon`, not of anything a user did.
    #[error("the sources carried in agon: {0}")]
    Carried(String),
}

impl HouseError {
    /// An I/O failure while doing `action` on `path`.
    pub(crate) fn io(
        action: &'static str,
        path: impl Into<PathBuf>,
    ) -> impl FnOnce(std::io::Error) -> HouseError {
        let path = path.into();
        move |source| HouseError::Io {
            action,
            path,
            source,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::HouseError;

    #[test]
    fn an_io_error_says_what_was_done_to_which_file() {
        let denied = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        let error = HouseError::io("create", "/cache/house")(denied);
        assert_eq!(
            error.to_string(),
            "cannot create /cache/house: permission denied"
        );
        assert!(std::error::Error::source(&error).is_some());
    }
}
