//! Why a viewer page or data file was not made: the record's game is not one this `agon`
//! knows, the record does not replay with the rules, the page's template failed, or its folder
//! or file could not be made.

use agon_engine::replay::ReplayMismatch;
use agon_games::registry::UnknownGame;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ViewError {
    #[error(transparent)]
    UnknownGame(#[from] UnknownGame),
    #[error("the record does not replay with the rules, so it cannot be shown: {0}")]
    NotReplayable(#[source] ReplayMismatch),
    #[error(transparent)]
    Template(#[from] minijinja::Error),
    #[error("cannot create {}: {source}", path.display())]
    Create {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl ViewError {
    /// A failure to create the folder `path`.
    pub(crate) fn create(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> ViewError {
        let path = path.into();
        move |source| ViewError::Create { path, source }
    }

    /// A failure to write `path`.
    pub(crate) fn write(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> ViewError {
        let path = path.into();
        move |source| ViewError::Write { path, source }
    }
}
