//! Locks on a tournament folder. Each lock is a file of its own that is never replaced or
//! removed, so holding it is not undone by a rewrite of the file it protects (a journal repair
//! writes a new journal file; a lock on the old one would no longer exclude anyone).

use std::fs::{File, OpenOptions};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// Who may append to the journal and repair it: one `run`, `resume`, `repair` or `merge`.
pub const WRITER: &str = "journal.lock";
/// Who may write the report files: one at a time, the others wait.
pub const REPORT: &str = "report.lock";

/// Why a lock was not taken: it is held (only when not waiting), or its file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error("{}: held by another process", path.display())]
    Held { path: PathBuf },
    #[error("{}: {source}", path.display())]
    Open {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: not a regular file", path.display())]
    NotAFile { path: PathBuf },
    #[error("{}: cannot lock: {source}", path.display())]
    Lock {
        path: PathBuf,
        #[source]
        source: rustix::io::Errno,
    },
}

/// Held until dropped.
pub struct FolderLock {
    _file: File,
}

impl FolderLock {
    /// Takes lock `name` in `dir` without waiting: [`LockError::Held`] when another process
    /// holds it.
    pub fn try_acquire(dir: &Path, name: &str) -> Result<FolderLock, LockError> {
        let file = open(dir, name)?;
        match rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => Ok(FolderLock { _file: file }),
            Err(rustix::io::Errno::WOULDBLOCK) => Err(LockError::Held {
                path: dir.join(name),
            }),
            // No lock at all (a file system without locks): not another process's doing.
            Err(source) => Err(LockError::Lock {
                path: dir.join(name),
                source,
            }),
        }
    }

    /// Takes lock `name` in `dir`, waiting for the holder to finish.
    pub fn acquire(dir: &Path, name: &str) -> Result<FolderLock, LockError> {
        let file = open(dir, name)?;
        rustix::fs::flock(&file, rustix::fs::FlockOperation::LockExclusive).map_err(|source| {
            LockError::Lock {
                path: dir.join(name),
                source,
            }
        })?;
        Ok(FolderLock { _file: file })
    }
}

fn open(dir: &Path, name: &str) -> Result<File, LockError> {
    let path = dir.join(name);
    let opened = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(&path)
        .and_then(|file| file.metadata().map(|meta| (file, meta)));
    match opened {
        Ok((file, meta)) if meta.is_file() => Ok(file),
        Ok(_) => Err(LockError::NotAFile { path }),
        Err(source) => Err(LockError::Open { path, source }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_is_refused_without_waiting_and_freed_when_dropped() {
        let dir = std::env::temp_dir().join(format!("agon-folder-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let held = FolderLock::try_acquire(&dir, WRITER).unwrap();
        let refused = FolderLock::try_acquire(&dir, WRITER).err().unwrap();
        assert!(matches!(refused, LockError::Held { ref path } if path == &dir.join(WRITER)));
        drop(held);
        FolderLock::try_acquire(&dir, WRITER).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_lock_that_is_a_folder_says_so() {
        let dir = std::env::temp_dir().join(format!("agon-folder-lock-dir-{}", std::process::id()));
        std::fs::create_dir_all(dir.join(REPORT)).unwrap();
        let error = FolderLock::acquire(&dir, REPORT).err().unwrap();
        assert!(matches!(
            error,
            LockError::Open { .. } | LockError::NotAFile { .. }
        ));
        assert!(error
            .to_string()
            .starts_with(&dir.join(REPORT).display().to_string()));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
