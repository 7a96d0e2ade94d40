//! Locks on a tournament folder. Each lock is a file of its own that is never replaced or
//! removed, so holding it is not undone by a rewrite of the file it protects (a journal repair
//! writes a new journal file; a lock on the old one would no longer exclude anyone).

use std::fs::{File, OpenOptions};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// Who may append to the journal and repair it: one `run`, `resume`, `repair` or `merge`.
pub const WRITER: &str = "journal.lock";
/// Who may write the report files: one at a time, the others wait.
pub const REPORT: &str = "report.lock";

/// Held until dropped.
pub struct FolderLock {
    _file: File,
}

impl FolderLock {
    /// Takes lock `name` in `dir` without waiting: `Err(None)` when another process holds it.
    pub fn try_acquire(dir: &Path, name: &str) -> Result<FolderLock, Option<String>> {
        let file = open(dir, name).map_err(Some)?;
        match rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => Ok(FolderLock { _file: file }),
            Err(_) => Err(None),
        }
    }

    /// Takes lock `name` in `dir`, waiting for the holder to finish.
    pub fn acquire(dir: &Path, name: &str) -> Result<FolderLock, String> {
        let file = open(dir, name)?;
        rustix::fs::flock(&file, rustix::fs::FlockOperation::LockExclusive)
            .map_err(|e| format!("{}: cannot lock: {e}", dir.join(name).display()))?;
        Ok(FolderLock { _file: file })
    }
}

fn open(dir: &Path, name: &str) -> Result<File, String> {
    let path = dir.join(name);
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let meta = file
        .metadata()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(format!("{}: not a regular file", path.display()));
    }
    Ok(file)
}
