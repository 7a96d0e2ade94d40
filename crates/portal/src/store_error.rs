//! Why the portal's database did not answer: its file could not be made the owner's alone or
//! opened as a database, SQLite refused a statement, or a team to add exists already.

use agon_engine::PathError;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(transparent)]
    File(#[from] PathError),
    // rusqlite's error is not the source: it says its message and hands on SQLite's code as
    // its own source, which would print a second time as `Error code N: ...`.
    #[error("{}: {cause}", path.display())]
    Open {
        path: PathBuf,
        cause: rusqlite::Error,
    },
    #[error("the portal's database: {0}")]
    Sql(rusqlite::Error),
    /// A team added again while its token is good: the staff revoke it first.
    #[error("team `{team}` exists; `agon portal team revoke {team}` first to give it a new token")]
    TeamExists { team: String },
}

/// Not `#[from]`, which would make rusqlite's error the source (see `Open`).
impl From<rusqlite::Error> for StoreError {
    fn from(cause: rusqlite::Error) -> Self {
        StoreError::Sql(cause)
    }
}
