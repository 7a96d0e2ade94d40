//! Which cache entries running agon processes use, so that `agon cache gc` never removes one.
//!
//! A process that stages a plugin takes a shared lock on the entry and keeps it until it exits:
//! a tournament or a ladder hands the copy's path to every `agon-host` it starts, hours later,
//! and the copy holds exactly the bytes that were checked (the original file may have changed
//! since). A collector removes an entry only while it holds the exclusive lock on it, which it
//! cannot get while any process holds the shared one; a writer that arrives meanwhile waits
//! the few system calls until the entry is renamed away, and then writes it afresh.
//!
//! The locks are open-file-description byte-range locks (`F_OFD_SETLK`) on one file,
//! `plugins/.entries.lock`: each entry owns one byte, at an offset derived from its name. A
//! process holds one descriptor however many entries it stages (a ladder stages a build per
//! swap, for days), the kernel drops the locks when the process dies however it dies, and
//! unlike classic POSIX locks they are not lost when some other descriptor of the file closes.
//! Byte 0 belongs to the collector itself: one `agon cache gc` runs at a time.

use sha2::{Digest, Sha256};
use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// The lock file, in the cache's `plugins` folder.
pub(super) const LOCK_FILE: &str = ".entries.lock";

/// The byte the running collector holds.
const COLLECTOR_SLOT: i64 = 0;

/// The byte that stands for the entry `name`: stable across builds of agon (every version must
/// agree), spread over 2^60 offsets so that two entries practically never share one (if they
/// did, one would only be kept longer than it needs to be).
fn slot(name: &str) -> i64 {
    let digest = Sha256::digest(name.as_bytes());
    let first = u64::from_be_bytes(digest[..8].try_into().expect("8 bytes"));
    (first >> 4) as i64 + 1
}

#[derive(Clone, Copy)]
enum Mode {
    Shared,
    Exclusive,
}

/// What this process has locked, per lock file: its descriptor (kept open for the process's
/// life; `None` where it cannot be opened) and the entries it holds.
#[derive(Default)]
struct Holdings {
    file: Option<File>,
    /// Whether the warning that the file cannot be opened was given (once is enough).
    warned: bool,
    held: HashSet<String>,
}

fn holdings() -> &'static Mutex<HashMap<PathBuf, Holdings>> {
    static HOLDINGS: OnceLock<Mutex<HashMap<PathBuf, Holdings>>> = OnceLock::new();
    HOLDINGS.get_or_init(Default::default)
}

/// Marks the entry `name` of the `plugins` folder as used by this process until it exits,
/// waiting while a collector is removing it. Call it before looking at the entry.
///
/// Best effort: where the locks cannot be had (a read-only cache, a file system without them),
/// staging still works, with a warning once per cache that a collector may remove the copy.
pub(super) fn hold_for_this_process(plugins: &Path, name: &str) {
    let mut holdings = holdings().lock().unwrap_or_else(|p| p.into_inner());
    let holding = holdings.entry(plugins.to_path_buf()).or_default();
    // Locks on a lock file someone deleted (with the whole cache, say) protect nothing: a
    // collector creates and locks a new one.
    if !holding.file.as_ref().is_some_and(|f| is_at(f, plugins)) {
        holding.held.clear();
        holding.file = match open_lock_file(plugins, Access::Hold) {
            Ok(file) => file,
            Err(e) => {
                if !holding.warned {
                    log::warn!(
                        "cannot lock entries of the plugin cache {} ({e}); `agon cache gc` \
                         may remove a copy this process still uses",
                        plugins.display()
                    );
                }
                holding.warned = true;
                None
            }
        };
    }
    let Some(file) = &holding.file else {
        return;
    };
    if holding.held.contains(name) {
        return;
    }
    // Waiting here (holding the map) is brief: a collector holds an entry only to check it and
    // rename it away.
    match lock(file, Mode::Shared, slot(name), Wait::Yes) {
        Ok(_) => {
            holding.held.insert(name.to_string());
        }
        Err(e) => log::warn!(
            "cannot lock the plugin cache entry {name} in {} ({e}); `agon cache gc` may \
             remove it while this process uses it",
            plugins.display()
        ),
    }
}

/// Whether `file` is still the lock file of `plugins` (not replaced, not deleted).
fn is_at(file: &File, plugins: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (
        file.metadata(),
        std::fs::symlink_metadata(plugins.join(LOCK_FILE)),
    ) {
        (Ok(open), Ok(named)) => (open.dev(), open.ino()) == (named.dev(), named.ino()),
        _ => false,
    }
}

/// The collector's view of the locks: its own descriptor of the lock file, so that its
/// exclusive locks conflict with this process's own shared ones too (locks of one open file
/// description never conflict with each other).
pub(super) struct CollectorLocks {
    /// `None` when the lock file does not exist and a dry run did not create it: then no
    /// process holds any entry.
    file: Option<File>,
}

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error("another `agon cache gc` is running on this cache")]
    AnotherCollector,
    #[error("cannot use the lock file {}: {source}", path.display())]
    LockFile { path: PathBuf, source: io::Error },
}

/// An entry locked exclusively by the collector: no process uses it, none can start to until
/// the guard is dropped.
pub(super) struct ExclusiveEntry<'a> {
    file: &'a File,
    slot: i64,
}

impl Drop for ExclusiveEntry<'_> {
    fn drop(&mut self) {
        let _ = unlock(self.file, self.slot);
    }
}

impl CollectorLocks {
    /// Becomes the cache's one collector. A dry run only looks: it creates nothing and makes no
    /// writer wait.
    pub(super) fn become_collector(
        plugins: &Path,
        dry_run: bool,
    ) -> Result<CollectorLocks, LockError> {
        let path = plugins.join(LOCK_FILE);
        let failed = |source| LockError::LockFile {
            path: path.clone(),
            source,
        };
        let access = if dry_run {
            Access::Look
        } else {
            Access::Collect
        };
        let file = open_lock_file(plugins, access).map_err(failed)?;
        if let (Some(file), false) = (&file, dry_run) {
            if !lock(file, Mode::Exclusive, COLLECTOR_SLOT, Wait::No).map_err(failed)? {
                return Err(LockError::AnotherCollector);
            }
        }
        Ok(CollectorLocks { file })
    }

    /// The entry `name` locked exclusively, or `None` while some process uses it.
    pub(super) fn try_lock_entry(&self, name: &str) -> io::Result<Option<ExclusiveEntry<'_>>> {
        let Some(file) = &self.file else {
            return Err(io::Error::other(
                "the lock file was not opened for collecting",
            ));
        };
        let slot = slot(name);
        Ok(lock(file, Mode::Exclusive, slot, Wait::No)?.then_some(ExclusiveEntry { file, slot }))
    }

    /// Whether some process uses the entry `name` now (without locking anything).
    pub(super) fn in_use(&self, name: &str) -> io::Result<bool> {
        let Some(file) = &self.file else {
            return Ok(false);
        };
        let mut query = flock_for(libc::F_WRLCK, slot(name));
        // SAFETY: `query` is a valid `struct flock` for the duration of the call.
        if unsafe { libc::fcntl(file.as_raw_fd(), libc::F_OFD_GETLK, &mut query) } < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(query.l_type != libc::F_UNLCK as libc::c_short)
    }
}

/// Whether some process uses the entry `name` of the `plugins` folder now, for `agon cache
/// list` (which locks nothing and creates nothing).
pub fn entry_in_use(plugins: &Path, name: &str) -> io::Result<bool> {
    match open_lock_file(plugins, Access::Look)? {
        Some(file) => CollectorLocks { file: Some(file) }.in_use(name),
        None => Ok(false),
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Access {
    /// Shared locks: read access, the file created if missing.
    Hold,
    /// Exclusive locks: read and write access, the file created if missing.
    Collect,
    /// Queries only: read access; `None` if the file does not exist.
    Look,
}

/// Opens the lock file, never through a link, never blocking on a special file put there.
fn open_lock_file(plugins: &Path, access: Access) -> io::Result<Option<File>> {
    use rustix::fs::{Mode as Permissions, OFlags};
    let path = plugins.join(LOCK_FILE);
    let mut flags = OFlags::CLOEXEC | OFlags::NOFOLLOW | OFlags::NONBLOCK;
    flags |= match access {
        Access::Hold => OFlags::RDONLY | OFlags::CREATE,
        Access::Collect => OFlags::RDWR | OFlags::CREATE,
        Access::Look => OFlags::RDONLY,
    };
    let fd = match rustix::fs::open(&path, flags, Permissions::from_raw_mode(0o666)) {
        Ok(fd) => fd,
        Err(rustix::io::Errno::NOENT) if access == Access::Look => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let file = File::from(fd);
    if !file.metadata()?.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    Ok(Some(file))
}

#[derive(PartialEq)]
enum Wait {
    Yes,
    No,
}

/// Takes the lock on byte `slot`; `false` if someone else holds a conflicting one and `wait`
/// is no.
fn lock(file: &File, mode: Mode, slot: i64, wait: Wait) -> io::Result<bool> {
    let kind = match mode {
        Mode::Shared => libc::F_RDLCK,
        Mode::Exclusive => libc::F_WRLCK,
    };
    let command = match wait {
        Wait::Yes => libc::F_OFD_SETLKW,
        Wait::No => libc::F_OFD_SETLK,
    };
    loop {
        let mut request = flock_for(kind, slot);
        // SAFETY: `request` is a valid `struct flock` for the duration of the call.
        if unsafe { libc::fcntl(file.as_raw_fd(), command, &mut request) } == 0 {
            return Ok(true);
        }
        let error = io::Error::last_os_error();
        match error.raw_os_error() {
            Some(libc::EINTR) => continue,
            Some(libc::EAGAIN | libc::EACCES) if wait == Wait::No => return Ok(false),
            _ => return Err(error),
        }
    }
}

fn unlock(file: &File, slot: i64) -> io::Result<()> {
    let mut request = flock_for(libc::F_UNLCK, slot);
    // SAFETY: `request` is a valid `struct flock` for the duration of the call.
    if unsafe { libc::fcntl(file.as_raw_fd(), libc::F_OFD_SETLK, &mut request) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

fn flock_for(kind: libc::c_int, slot: i64) -> libc::flock {
    // SAFETY: `struct flock` is plain data; all zeroes is a valid value (and `l_pid` must be 0
    // for open-file-description locks).
    let mut request: libc::flock = unsafe { std::mem::zeroed() };
    request.l_type = kind as libc::c_short;
    request.l_whence = libc::SEEK_SET as libc::c_short;
    request.l_start = slot;
    request.l_len = 1;
    request
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_stable_and_never_the_collectors() {
        // Every agon build must map a name to the same byte, or their locks would not meet.
        assert_eq!(slot("aa"), slot("aa"));
        assert_ne!(slot("aa"), slot("bb"));
        for name in ["", "aa", &"f".repeat(64), &"0".repeat(64)] {
            assert!(slot(name) > COLLECTOR_SLOT);
        }
    }

    #[test]
    fn a_held_entry_cannot_be_locked_by_a_collector_even_in_the_same_process() {
        let plugins = std::env::temp_dir().join(format!("agon-locks-test-{}", std::process::id()));
        std::fs::create_dir_all(&plugins).unwrap();
        let collector = CollectorLocks::become_collector(&plugins, false).unwrap();
        assert!(collector.try_lock_entry("free").unwrap().is_some());
        hold_for_this_process(&plugins, "held");
        assert!(collector.try_lock_entry("held").unwrap().is_none());
        assert!(collector.in_use("held").unwrap());
        assert!(!collector.in_use("free").unwrap());
        assert!(entry_in_use(&plugins, "held").unwrap());
        assert!(matches!(
            CollectorLocks::become_collector(&plugins, false),
            Err(LockError::AnotherCollector)
        ));
        drop(collector);
        std::fs::remove_dir_all(&plugins).unwrap();
    }

    #[test]
    fn holding_again_after_the_lock_file_was_deleted_locks_the_new_one() {
        let plugins =
            std::env::temp_dir().join(format!("agon-locks-renewed-{}", std::process::id()));
        std::fs::create_dir_all(&plugins).unwrap();
        hold_for_this_process(&plugins, "held");
        // The whole cache deleted by hand while this process runs, say.
        std::fs::remove_file(plugins.join(LOCK_FILE)).unwrap();
        let collector = CollectorLocks::become_collector(&plugins, false).unwrap();
        assert!(
            !collector.in_use("held").unwrap(),
            "the old lock is on a deleted file"
        );
        hold_for_this_process(&plugins, "held");
        assert!(collector.in_use("held").unwrap());
        drop(collector);
        std::fs::remove_dir_all(&plugins).unwrap();
    }
}
