//! Why a viewer page or data file was not made: the record's game is not one this `agon`
//! knows, the record does not replay with the rules, the page's template failed, or the file
//! could not be written.

use agon_engine::replay::ReplayMismatch;
use agon_games::registry::UnknownGame;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ViewError {
    #[error(transparent)]
    UnknownGame(#[from] UnknownGame),
    #[error("the record does not replay with the rules, so it cannot be shown: {0}")]
    NotReplayable(#[source] ReplayMismatch),
    #[error("the viewer page: {0}")]
    Template(#[from] minijinja::Error),
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl ViewError {
    /// A failure to write `path`.
    pub(crate) fn write(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> ViewError {
        let path = path.into();
        move |source| ViewError::Write { path, source }
    }
}
