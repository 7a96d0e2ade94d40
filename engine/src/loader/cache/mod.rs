//! The content-addressed plugin cache, `<cache>/plugins/<sha256>/<file name>`:
//! - here, where the cache is and how a copy gets into it;
//! - [`entry_locks`]: which entries running agon processes use (never collected);
//! - [`entries`]: what the cache holds, each entry with its last use;
//! - [`collect`]: `agon cache gc`, removing entries nobody used lately.

mod collect;
mod entries;
mod entry_locks;

pub use collect::{collect, days, Collection, CollectionPolicy, Removal, RemovalReason};
pub use entries::{scan, CacheContents, CacheEntry, Oddity, StrayFile, PLUGINS};
pub use entry_locks::{entry_in_use, LockError};

use std::io::Write;
use std::path::{Path, PathBuf};

/// Where content-addressed plugin copies go: `$AGON_CACHE_DIR`, else `$XDG_CACHE_HOME/agon`,
/// else `~/.cache/agon`, else a folder in the system's temporary directory.
pub fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("AGON_CACHE_DIR") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME") {
        return PathBuf::from(dir).join("agon");
    }
    if let Some(home) = std::env::var_os("HOME") {
        return PathBuf::from(home).join(".cache").join("agon");
    }
    std::env::temp_dir().join("agon-cache")
}

/// Copies `bytes` (the content of `original`) to `<cache>/plugins/<sha256>/<file name>`,
/// unless the cache holds that copy already ([`holds`]). Written to a temporary name and
/// renamed, so a crash never leaves a half-written library under the final name.
///
/// The entry is this process's until it exits: `agon cache gc` leaves it alone (see
/// [`entry_locks`]), and staging counts as a use of it (its folder's time, see [`entries`]).
pub fn content_addressed_copy(
    original: &Path,
    bytes: &[u8],
    sha256: &str,
    cache: &Path,
) -> std::io::Result<PathBuf> {
    let name = original
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "plugin.so".into());
    let plugins = cache.join(PLUGINS);
    std::fs::create_dir_all(&plugins)?;
    // First: from here on no collector removes the entry, nor is one halfway through it.
    entry_locks::hold_for_this_process(&plugins, sha256);
    let dir = plugins.join(sha256);
    make_entry_folder(&dir)?;
    let target = dir.join(&name);
    // Staging a cached copy itself read `bytes` from the target: nothing to compare.
    if target != original && !holds(&target, bytes) {
        write_whole(&dir, &name, bytes, &target)?;
    }
    entries::mark_used(&dir);
    Ok(target)
}

/// The copy of `original`'s build with content hash `sha256`, if the cache still holds it
/// whole (its content is hashed again: a copy someone changed is not that build). The entry is
/// this process's from here on, as after [`content_addressed_copy`].
pub fn cached_copy(original: &Path, sha256: &str, cache: &Path) -> Option<PathBuf> {
    let hex = sha256.len() == 64 && sha256.bytes().all(|b| b.is_ascii_hexdigit());
    let name = original.file_name()?;
    if !hex {
        return None; // a damaged plan's hash must not name a path outside the cache
    }
    let plugins = cache.join(PLUGINS);
    entry_locks::hold_for_this_process(&plugins, sha256);
    let copy = plugins.join(sha256).join(name);
    let bytes = read_copy(&copy)?;
    if super::sha256_hex(&bytes) != sha256 {
        return None;
    }
    entries::mark_used(&plugins.join(sha256));
    Some(copy)
}

/// Whether the file at `copy` (not a link) holds `bytes`. Compared in full, not by length: a
/// copy changed in place (by hand, or by a disk) must be written again, or the processes that
/// stage the build after that would each hand out a library that is not it. A process
/// compares when it first stages a file version (the loader remembers what it staged); a copy
/// changed under a running process is caught where a pinned build is seated, by its hash.
fn holds(copy: &Path, bytes: &[u8]) -> bool {
    let same_length =
        std::fs::symlink_metadata(copy).is_ok_and(|m| m.is_file() && m.len() == bytes.len() as u64);
    same_length && read_copy(copy).is_some_and(|held| held == bytes)
}

/// The bytes of the copy at `copy`: not through a link, and no more than a plugin may have.
fn read_copy(copy: &Path) -> Option<Vec<u8>> {
    crate::input_file::Input::new("plugin copy", crate::input_file::limits::PLUGIN)
        .no_follow()
        .read(copy)
        .ok()
}

/// Records a use of the copy at `copy` (a path [`content_addressed_copy`] returned in this
/// process, whose entry this process therefore still holds).
pub(crate) fn mark_copy_used(copy: &Path) {
    if let Some(dir) = copy.parent() {
        entries::mark_used(dir);
    }
}

/// Makes `dir` a real folder: a link or file there (which agon never makes) is replaced, so
/// that no copy is ever written through a link to somewhere outside the cache.
fn make_entry_folder(dir: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(dir) {
        Ok(meta) if meta.is_dir() => return Ok(()),
        Ok(_) => match std::fs::remove_file(dir) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
            _ => {}
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    match std::fs::create_dir(dir) {
        // Another writer of the same content was first.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            if std::fs::symlink_metadata(dir)?.is_dir() {
                Ok(())
            } else {
                Err(std::io::Error::other(format!(
                    "{} is not a folder",
                    dir.display()
                )))
            }
        }
        other => other,
    }
}

fn write_whole(dir: &Path, name: &str, bytes: &[u8], target: &Path) -> std::io::Result<()> {
    // Unique per call: two threads may stage the same file at once.
    static COPIES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COPIES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let temp = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
    {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
    }
    std::fs::rename(&temp, target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_once_per_content() {
        let cache = std::env::temp_dir().join(format!("agon-cache-test-{}", std::process::id()));
        let original = Path::new("/somewhere/libteam.so");
        let a = content_addressed_copy(original, b"one", "aa", &cache).unwrap();
        let b = content_addressed_copy(original, b"two", "bb", &cache).unwrap();
        assert_ne!(a, b, "new content, new path");
        assert!(a.ends_with("plugins/aa/libteam.so"));
        assert_eq!(std::fs::read(&a).unwrap(), b"one");
        let again = content_addressed_copy(original, b"one", "aa", &cache).unwrap();
        assert_eq!(a, again);
        std::fs::remove_dir_all(&cache).unwrap();
    }

    #[test]
    fn a_copy_changed_in_place_is_written_again() {
        let cache = std::env::temp_dir().join(format!("agon-cache-tamper-{}", std::process::id()));
        let original = Path::new("/somewhere/libteam.so");
        let copy = content_addressed_copy(original, b"build", "cc", &cache).unwrap();
        std::fs::write(&copy, b"BUILD").unwrap();
        let again = content_addressed_copy(original, b"build", "cc", &cache).unwrap();
        assert_eq!(again, copy);
        assert_eq!(std::fs::read(&copy).unwrap(), b"build");
        std::fs::remove_dir_all(&cache).unwrap();
    }
}
