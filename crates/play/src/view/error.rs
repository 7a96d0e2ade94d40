//! Why a viewer page or data file was not made: the record could not be read, its game is not
//! one this `agon` knows, the record does not replay with the rules, the page's template
//! failed, or its folder or file could not be made.

use agon_engine::replay::ReplayMismatch;
use agon_engine::{PathError, RecordError};
use agon_games::registry::UnknownGame;

#[derive(Debug, thiserror::Error)]
pub enum ViewError {
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error(transparent)]
    UnknownGame(#[from] UnknownGame),
    #[error("the record does not replay with the rules, so it cannot be shown: {0}")]
    NotReplayable(#[source] ReplayMismatch),
    #[error(transparent)]
    Template(#[from] minijinja::Error),
    #[error("cannot create {0}")]
    Create(#[source] PathError),
    #[error("cannot write {0}")]
    Write(#[source] PathError),
}
