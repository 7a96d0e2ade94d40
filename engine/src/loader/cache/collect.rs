//! `agon cache gc`: removes the entries nobody used lately, then, while the cache is still over
//! a size, the least recently used ones; and the leftovers of writers and collectors that
//! died. An entry some running agon process uses is never removed (see [`super::entry_locks`]).
//!
//! Removing an entry renames its folder away first, under the entry's exclusive lock, and
//! deletes it afterwards: a loader finds the whole entry or none, never half of one, and
//! writes a missing entry afresh. Nothing outside the cache's `plugins` folder is touched: no
//! link is followed, and things agon did not put there are only reported.

use super::entries::{
    restore_last_use, scan, CacheEntry, Oddity, StrayFile, PLUGINS, REMOVAL_PREFIX,
};
use super::entry_locks::{CollectorLocks, LockError};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

/// What to remove.
#[derive(Debug, Clone)]
pub struct CollectionPolicy {
    /// Entries not used for this long go.
    pub unused_for: Duration,
    /// Then least recently used entries go while the entries hold more than this.
    pub max_bytes: Option<u64>,
    /// Only report what would go.
    pub dry_run: bool,
}

impl CollectionPolicy {
    /// Unused for 30 days: a course's builds of one assignment, then they go.
    pub const DEFAULT_UNUSED_DAYS: f64 = 30.0;
}

impl Default for CollectionPolicy {
    fn default() -> Self {
        CollectionPolicy {
            unused_for: days(CollectionPolicy::DEFAULT_UNUSED_DAYS),
            max_bytes: None,
            dry_run: false,
        }
    }
}

/// `n` days as a duration (negative and non-finite counts as none).
pub fn days(n: f64) -> Duration {
    Duration::try_from_secs_f64(n * 86_400.0).unwrap_or(Duration::ZERO)
}

/// Why an entry went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RemovalReason {
    /// Not used for the policy's time.
    Unused,
    /// Among the least recently used while the cache was over the policy's size.
    OverSize,
}

#[derive(Debug, Clone)]
pub struct Removal {
    pub entry: CacheEntry,
    pub reason: RemovalReason,
}

/// What a collection did (or, in a dry run, would do).
#[derive(Debug, Clone, Default)]
pub struct Collection {
    pub dry_run: bool,
    pub removed: Vec<Removal>,
    /// Entries the policy would remove but a running agon process uses.
    pub in_use: Vec<CacheEntry>,
    /// Entries the policy keeps (used lately, within the size).
    pub kept: Vec<CacheEntry>,
    /// Temporary files of crashed writers, and entry folders of crashed collectors, removed.
    pub stray: Vec<StrayFile>,
    /// Things in the cache agon did not put there, left alone.
    pub oddities: Vec<Oddity>,
    /// What could not be removed, and why.
    pub failures: Vec<String>,
}

impl Collection {
    pub fn bytes_freed(&self) -> u64 {
        let entries: u64 = self.removed.iter().map(|r| r.entry.bytes).sum();
        entries + self.stray.iter().map(|s| s.bytes).sum::<u64>()
    }

    /// What the entries left in the cache hold.
    pub fn bytes_kept(&self) -> u64 {
        let in_use: u64 = self.in_use.iter().map(|e| e.bytes).sum();
        let stray_in_kept: u64 = self
            .stray
            .iter()
            .filter(|s| self.kept.iter().any(|e| s.path.starts_with(&e.dir)))
            .map(|s| s.bytes)
            .sum();
        in_use + self.kept.iter().map(|e| e.bytes).sum::<u64>() - stray_in_kept
    }
}

/// Collects the cache at `cache` by `policy`, as of `now`. Fails only when it cannot tell which
/// entries are in use (or another collector runs); every other problem is in the result.
pub fn collect(
    cache: &Path,
    policy: &CollectionPolicy,
    now: SystemTime,
) -> Result<Collection, LockError> {
    let plugins = cache.join(PLUGINS);
    let mut collection = Collection {
        dry_run: policy.dry_run,
        ..Collection::default()
    };
    if !std::fs::symlink_metadata(&plugins).is_ok_and(|m| m.is_dir()) {
        // Missing (nothing to do), or not a folder: reported, never followed.
        collection.oddities = scan(cache).oddities;
        return Ok(collection);
    }
    let locks = CollectorLocks::become_collector(&plugins, policy.dry_run)?;
    // Read only once this is the one collector, so no other is renaming or removing.
    let contents = scan(cache);
    collection.oddities = contents.oddities.clone();
    for abandoned in contents.abandoned_removals.iter().cloned() {
        remove_stray(&mut collection, abandoned, |path| {
            std::fs::remove_dir_all(path)
        });
    }
    let mut remaining = contents.bytes();
    for entry in contents.entries {
        let unused_for = now.duration_since(entry.last_use).unwrap_or_default();
        let reason = if unused_for >= policy.unused_for {
            Some(RemovalReason::Unused)
        } else if policy.max_bytes.is_some_and(|max| remaining > max) {
            Some(RemovalReason::OverSize)
        } else {
            None
        };
        match reason {
            Some(reason) => {
                let bytes = entry.bytes;
                if remove_entry(&mut collection, &locks, entry, reason) {
                    remaining -= bytes;
                }
            }
            None => {
                remove_stray_temps(&mut collection, &locks, &entry);
                collection.kept.push(entry);
            }
        }
    }
    Ok(collection)
}

/// Removes `entry` unless some process uses it; whether it went.
fn remove_entry(
    collection: &mut Collection,
    locks: &CollectorLocks,
    entry: CacheEntry,
    reason: RemovalReason,
) -> bool {
    if collection.dry_run {
        return match locks.in_use(&entry.sha256) {
            Ok(false) => {
                collection.removed.push(Removal { entry, reason });
                true
            }
            Ok(true) => {
                collection.in_use.push(entry);
                false
            }
            Err(e) => {
                collection.failures.push(format!(
                    "{}: cannot tell whether it is in use: {e}",
                    entry.dir.display()
                ));
                collection.in_use.push(entry);
                false
            }
        };
    }
    let guard = match locks.try_lock_entry(&entry.sha256) {
        Ok(Some(guard)) => guard,
        Ok(None) => {
            collection.in_use.push(entry);
            return false;
        }
        Err(e) => {
            collection
                .failures
                .push(format!("{}: cannot lock it: {e}", entry.dir.display()));
            collection.in_use.push(entry);
            return false;
        }
    };
    // Used between the scan and the lock, by a process that has exited since: keep it.
    let unchanged = std::fs::symlink_metadata(&entry.dir)
        .is_ok_and(|m| m.is_dir() && m.modified().ok() == Some(entry.last_use));
    if !unchanged {
        collection.kept.push(entry);
        return false;
    }
    let doomed = removal_name(&entry);
    if let Err(e) = std::fs::rename(&entry.dir, &doomed) {
        collection
            .failures
            .push(format!("{}: cannot remove it: {e}", entry.dir.display()));
        collection.kept.push(entry);
        return false;
    }
    // The entry is gone from its name: a writer may have it again at once.
    drop(guard);
    if let Err(e) = std::fs::remove_dir_all(&doomed) {
        collection.failures.push(format!(
            "{}: renamed away but not removed ({e}); the next gc tries again",
            doomed.display()
        ));
    }
    collection.removed.push(Removal { entry, reason });
    true
}

/// Where an entry goes to be deleted: beside it, out of every loader's sight, unique.
fn removal_name(entry: &CacheEntry) -> PathBuf {
    static REMOVALS: AtomicU64 = AtomicU64::new(0);
    let n = REMOVALS.fetch_add(1, Ordering::Relaxed);
    entry.dir.with_file_name(format!(
        "{REMOVAL_PREFIX}{}.{}.{n}",
        entry.sha256,
        std::process::id()
    ))
}

/// Removes the temporary files of crashed writers from a kept entry. Only while no process
/// uses the entry: a writer at work holds it, and its temporary file is not stray.
fn remove_stray_temps(collection: &mut Collection, locks: &CollectorLocks, entry: &CacheEntry) {
    if entry.stray_temps.is_empty() {
        return;
    }
    if collection.dry_run {
        if locks.in_use(&entry.sha256).is_ok_and(|used| !used) {
            collection.stray.extend(entry.stray_temps.iter().cloned());
        }
        return;
    }
    let Ok(Some(_guard)) = locks.try_lock_entry(&entry.sha256) else {
        return;
    };
    for temp in entry.stray_temps.iter().cloned() {
        remove_stray(collection, temp, |path| std::fs::remove_file(path));
    }
    // Removing them changed the folder's time, which stands for its last use.
    restore_last_use(&entry.dir, entry.last_use);
}

fn remove_stray(
    collection: &mut Collection,
    stray: StrayFile,
    remove: impl Fn(&Path) -> std::io::Result<()>,
) {
    if collection.dry_run {
        collection.stray.push(stray);
        return;
    }
    match remove(&stray.path) {
        Ok(()) => collection.stray.push(stray),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => collection
            .failures
            .push(format!("{}: cannot remove it: {e}", stray.path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::super::entries::mark_used;
    use super::*;
    use crate::loader::cache::content_addressed_copy;

    fn cache(name: &str) -> PathBuf {
        crate::output_file::fresh_scratch(&format!("gc-{name}")).unwrap()
    }

    fn sha(c: char) -> String {
        c.to_string().repeat(64)
    }

    /// An entry written by hand, as another (finished) process leaves it.
    fn entry(cache: &Path, sha256: &str, bytes: usize) -> PathBuf {
        let dir = cache.join(PLUGINS).join(sha256);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("libteam.so"), vec![0u8; bytes]).unwrap();
        mark_used(&dir);
        dir
    }

    fn age(dir: &Path, days_ago: f64) {
        restore_last_use(dir, SystemTime::now() - days(days_ago));
    }

    #[test]
    fn an_entry_this_process_staged_is_kept_however_old() {
        let cache = cache("held");
        let copy = content_addressed_copy(Path::new("libx.so"), b"x", &sha('a'), &cache).unwrap();
        let free = entry(&cache, &sha('b'), 10);
        age(copy.parent().unwrap(), 100.0);
        age(&free, 100.0);
        let policy = CollectionPolicy::default();
        let done = collect(&cache, &policy, SystemTime::now()).unwrap();
        assert_eq!(done.in_use.len(), 1);
        assert_eq!(done.removed.len(), 1);
        assert!(copy.is_file(), "the held copy stays");
        assert!(!free.exists(), "the free entry goes");
        std::fs::remove_dir_all(&cache).unwrap();
    }

    #[test]
    fn over_size_goes_least_recently_used_first_and_dry_runs_only_tell() {
        let cache = cache("size");
        let (old, mid, new) = (
            entry(&cache, &sha('1'), 100),
            entry(&cache, &sha('2'), 100),
            entry(&cache, &sha('3'), 100),
        );
        age(&old, 3.0);
        age(&mid, 2.0);
        age(&new, 1.0);
        let mut policy = CollectionPolicy {
            max_bytes: Some(150),
            dry_run: true,
            ..CollectionPolicy::default()
        };
        let told = collect(&cache, &policy, SystemTime::now()).unwrap();
        assert_eq!(told.removed.len(), 2);
        assert!(old.exists() && mid.exists() && new.exists());
        policy.dry_run = false;
        let done = collect(&cache, &policy, SystemTime::now()).unwrap();
        assert_eq!(done.bytes_freed(), 200);
        assert!(!old.exists() && !mid.exists() && new.exists());
        assert!(done
            .removed
            .iter()
            .all(|r| r.reason == RemovalReason::OverSize));
        std::fs::remove_dir_all(&cache).unwrap();
    }
}
