//! Why the portal's database did not answer: its file could not be made the owner's alone or
//! opened as a database, SQLite refused a statement, or a team to add exists already.

use agon_engine::PathError;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(transparent)]
    File(#[from] PathError),
    #[error("{}: {source}", path.display())]
    Open {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },
    #[error("the portal's database: {0}")]
    Sql(#[source] rusqlite::Error),
    /// A team added again while its token is good: the staff revoke it first.
    #[error("team `{team}` exists; `agon portal team revoke {team}` first to give it a new token")]
    TeamExists { team: String },
}

impl From<rusqlite::Error> for StoreError {
    fn from(error: rusqlite::Error) -> StoreError {
        StoreError::Sql(error)
    }
}
