//! What can go wrong with the carried sources and the house bots, as callers can tell apart:
//! a bot that does not exist is the user's to fix, a failed build or a full disk the machine's,
//! and a carried manifest that does not make sense a defect of this `agon` itself.

use agon_engine::{LoadError, PathError};
use agon_play::journal::folder_lock::LockError;

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
    #[error("cannot {action} {source}")]
    Io {
        /// What was being done, as a verb phrase (`create`, `write`, `copy`).
        action: &'static str,
        #[source]
        source: PathError,
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
    /// An I/O failure while doing `action` on a path.
    pub(crate) fn io(action: &'static str) -> impl FnOnce(PathError) -> HouseError {
        move |source| HouseError::Io { action, source }
    }
}

#[cfg(test)]
mod tests {
    use super::HouseError;
    use agon_engine::OnPath;
    use std::path::Path;

    #[test]
    fn an_io_error_says_what_was_done_to_which_file() {
        let denied = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        let failed: std::io::Result<()> = Err(denied);
        let error = failed
            .on_path(Path::new("/cache/house"))
            .map_err(HouseError::io("create"))
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "cannot create /cache/house: permission denied"
        );
        assert!(std::error::Error::source(&error).is_some());
    }
}
