//! What can go wrong with a journal, as callers can tell apart: another writer holds the
//! folder, a file is not what a journal may be, a line is damaged (with what the mode offers to
//! set it aside), or the disk failed.

use super::file::Damaged;
use super::folder_lock::LockError;
use crate::json_lines::{LinesError, MAX_LINE};
use agon_engine::PathError;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error("{}: another agon is running this tournament (its journal is locked)", dir.display())]
    Busy { dir: PathBuf },
    /// The writer lock could not be taken for a reason other than another writer.
    #[error(transparent)]
    Lock(LockError),
    #[error(transparent)]
    Lines(#[from] LinesError),
    #[error(
        "{}: a symbolic link; a journal must be a regular file in the tournament folder",
        path.display()
    )]
    Link { path: PathBuf },
    #[error("{}: {kind}, not a regular file", path.display())]
    NotAFile { path: PathBuf, kind: &'static str },
    #[error(transparent)]
    Io(#[from] PathError),
    /// It would read back as damaged: better to stop when it is written, saying why.
    #[error(
        "{}: an entry of {size} bytes is longer than a journal line may be ({MAX_LINE} bytes)",
        path.display()
    )]
    EntryTooLong { path: PathBuf, size: usize },
    /// The writer lock keeps the journal as it was scanned; a file that changed anyway is not
    /// repaired from a stale scan.
    #[error(
        "{}: ended {copied} bytes into a stretch of {len} bytes it held when scanned",
        path.display()
    )]
    Changed {
        path: PathBuf,
        copied: u64,
        len: u64,
    },
    #[error("{}: {first} is not a journal entry of this folder ({}){}; {hint}",
        path.display(),
        first.problem,
        more_damaged(*count))]
    Damaged {
        path: PathBuf,
        first: Box<Damaged>,
        /// How many lines are damaged, `first` included.
        count: usize,
        /// What the mode offers to set the damaged lines aside.
        hint: String,
    },
}

impl From<LockError> for JournalError {
    /// A held writer lock is another agon running the folder; any other lock failure is the
    /// lock's own.
    fn from(error: LockError) -> JournalError {
        match error {
            LockError::Held { path } => JournalError::Busy {
                dir: path.parent().map(PathBuf::from).unwrap_or_default(),
            },
            other => JournalError::Lock(other),
        }
    }
}

fn more_damaged(count: usize) -> String {
    if count > 1 {
        format!(", and {} more lines are damaged", count - 1)
    } else {
        String::new()
    }
}
