//! What the plugin cache holds, as `agon cache list` and `agon cache gc` see it: entries
//! (`plugins/<sha256>/`, each holding that content under the file names it was staged from),
//! leftovers of crashed writers and collectors, and anything else, which is only reported.
//!
//! An entry's last use is its folder's modification time: staging touches it (see
//! [`mark_used`]), and writing a copy into the folder changes it anyway. Nothing here follows a
//! symbolic link: a link is measured, listed and removed as the link itself.

use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The folder of the cache that holds the entries.
pub const PLUGINS: &str = "plugins";

/// The prefix of an entry folder that a collector has renamed away and is removing (or died
/// removing): no loader looks at it, so it is removed whole.
pub(super) const REMOVAL_PREFIX: &str = ".removing.";

/// One content-addressed entry, `plugins/<sha256>/`.
#[derive(Debug, Clone)]
pub struct CacheEntry {
    pub sha256: String,
    pub dir: PathBuf,
    /// The copies' file names (one content may have been staged under several names).
    pub files: Vec<String>,
    /// Everything under the folder, stray temporary files included, links counted as links.
    pub bytes: u64,
    pub last_use: SystemTime,
    /// Temporary files of writers that died before renaming them (`.NAME.PID.N.tmp`).
    pub stray_temps: Vec<StrayFile>,
    /// What could not be read or does not belong in an entry; it goes with the entry.
    pub problems: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct StrayFile {
    pub path: PathBuf,
    pub bytes: u64,
}

/// Something in the cache that agon did not put there, or cannot read: left alone.
#[derive(Debug, Clone)]
pub struct Oddity {
    pub path: PathBuf,
    pub what: String,
}

/// Everything in a cache's `plugins` folder.
#[derive(Debug, Clone, Default)]
pub struct CacheContents {
    pub plugins: PathBuf,
    /// Least recently used first.
    pub entries: Vec<CacheEntry>,
    /// Entry folders a collector renamed away but did not finish removing.
    pub abandoned_removals: Vec<StrayFile>,
    pub oddities: Vec<Oddity>,
}

impl CacheContents {
    pub fn bytes(&self) -> u64 {
        self.entries.iter().map(|e| e.bytes).sum()
    }
}

/// Reads the cache at `cache`. Never fails: what cannot be read is reported as an oddity.
pub fn scan(cache: &Path) -> CacheContents {
    let plugins = cache.join(PLUGINS);
    let mut contents = CacheContents {
        plugins: plugins.clone(),
        ..CacheContents::default()
    };
    match std::fs::symlink_metadata(&plugins) {
        Ok(meta) if meta.is_dir() => {}
        Ok(meta) => {
            contents.oddities.push(Oddity {
                path: plugins,
                what: format!("{}, not a folder: not followed", kind(&meta)),
            });
            return contents;
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => return contents,
        Err(e) => {
            contents.oddities.push(unreadable(&plugins, &e));
            return contents;
        }
    }
    let listing = match std::fs::read_dir(&plugins) {
        Ok(listing) => listing,
        Err(e) => {
            contents.oddities.push(unreadable(&plugins, &e));
            return contents;
        }
    };
    for item in listing {
        let item = match item {
            Ok(item) => item,
            Err(e) => {
                contents.oddities.push(unreadable(&plugins, &e));
                continue;
            }
        };
        let path = item.path();
        let name = item.file_name().to_string_lossy().into_owned();
        if name == super::entry_locks::LOCK_FILE {
            continue;
        }
        let meta = match std::fs::symlink_metadata(&path) {
            Ok(meta) => meta,
            // Removed meanwhile (by a concurrent writer replacing a link, say): nothing to do.
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => {
                contents.oddities.push(unreadable(&path, &e));
                continue;
            }
        };
        if meta.is_dir() && is_sha256_hex(&name) {
            contents.entries.push(read_entry(name, path, &meta));
        } else if meta.is_dir() && name.starts_with(REMOVAL_PREFIX) {
            let bytes = tree_bytes(&path, &mut Vec::new());
            contents.abandoned_removals.push(StrayFile { path, bytes });
        } else {
            let what = if meta.is_dir() {
                "a folder that is not an entry (its name is no sha256)".to_string()
            } else {
                format!("{}, not an entry: not followed", kind(&meta))
            };
            contents.oddities.push(Oddity { path, what });
        }
    }
    contents
        .entries
        .sort_by(|a, b| (a.last_use, &a.sha256).cmp(&(b.last_use, &b.sha256)));
    contents
}

fn read_entry(sha256: String, dir: PathBuf, meta: &std::fs::Metadata) -> CacheEntry {
    let mut entry = CacheEntry {
        sha256,
        dir,
        files: Vec::new(),
        bytes: 0,
        last_use: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
        stray_temps: Vec::new(),
        problems: Vec::new(),
    };
    let listing = match std::fs::read_dir(&entry.dir) {
        Ok(listing) => listing,
        Err(e) => {
            entry.problems.push(format!("cannot read the folder: {e}"));
            return entry;
        }
    };
    for item in listing {
        let Ok(item) = item else {
            entry
                .problems
                .push("cannot read the folder to its end".into());
            continue;
        };
        let path = item.path();
        let name = item.file_name().to_string_lossy().into_owned();
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.is_file() && is_temporary_name(&name) {
            entry.bytes += meta.len();
            entry.stray_temps.push(StrayFile {
                path,
                bytes: meta.len(),
            });
        } else if meta.is_file() {
            entry.bytes += meta.len();
            entry.files.push(name);
        } else {
            entry.bytes += tree_bytes(&path, &mut entry.problems);
            entry
                .problems
                .push(format!("{name}: {}, not a plugin copy", kind(&meta)));
        }
    }
    entry.files.sort();
    entry
}

/// The bytes under `path`, without following links (a link counts as itself).
fn tree_bytes(path: &Path, problems: &mut Vec<String>) -> u64 {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return 0;
    };
    if !meta.is_dir() {
        return meta.len();
    }
    let listing = match std::fs::read_dir(path) {
        Ok(listing) => listing,
        Err(e) => {
            problems.push(format!("{}: {e}", path.display()));
            return 0;
        }
    };
    listing
        .filter_map(Result::ok)
        .map(|item| tree_bytes(&item.path(), problems))
        .sum()
}

/// A writer's temporary name, `.NAME.PID.N.tmp` (see `content_addressed_copy`).
pub(super) fn is_temporary_name(name: &str) -> bool {
    name.starts_with('.') && name.ends_with(".tmp")
}

fn is_sha256_hex(name: &str) -> bool {
    name.len() == 64
        && name
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

fn kind(meta: &std::fs::Metadata) -> &'static str {
    let kind = meta.file_type();
    if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_file() {
        "a file"
    } else if kind.is_dir() {
        "a folder"
    } else {
        "a special file"
    }
}

fn unreadable(path: &Path, error: &io::Error) -> Oddity {
    Oddity {
        path: path.to_path_buf(),
        what: format!("cannot be read: {error}"),
    }
}

/// Records a use of the entry folder `dir` now (its modification time; never through a link).
/// Best effort: a cache in someone else's folder still works, it only ages.
pub(super) fn mark_used(dir: &Path) {
    let now = rustix::fs::Timespec {
        tv_sec: 0,
        tv_nsec: rustix::fs::UTIME_NOW,
    };
    set_times(dir, now);
}

/// Sets the entry folder's last use back to `when` (after removing stray files from it, which
/// changed it but was no use).
pub(super) fn restore_last_use(dir: &Path, when: SystemTime) {
    let since_epoch = when
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default();
    let when = rustix::fs::Timespec {
        tv_sec: since_epoch.as_secs() as i64,
        tv_nsec: since_epoch.subsec_nanos().into(),
    };
    set_times(dir, when);
}

fn set_times(dir: &Path, when: rustix::fs::Timespec) {
    let times = rustix::fs::Timestamps {
        last_access: when,
        last_modification: when,
    };
    if let Err(e) = rustix::fs::utimensat(
        rustix::fs::CWD,
        dir,
        &times,
        rustix::fs::AtFlags::SYMLINK_NOFOLLOW,
    ) {
        log::debug!("cannot record the use of {}: {e}", dir.display());
    }
}
