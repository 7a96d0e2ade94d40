//! Replacing an output file so that a reader sees the old or the new contents, never half, and
//! two writers never share a temporary file: the new contents go to a uniquely named temporary
//! file in the same folder, are flushed to disk, and are renamed over the target.
//!
//! Only a regular file (or nothing) is replaced: renaming over a device or a FIFO would swap the
//! special file for a regular one (`--record /dev/full` did), and over a folder it fails after
//! the temporary file was written.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Marks the temporary files of this module: `.NAME.tmp.PID.N`. A folder's leftovers (a full
/// disk, a kill between write and rename) are recognised by it and removed by [`remove_leftovers`].
const TEMP_MARK: &str = ".tmp.";

/// Writes `bytes` to `path` durably (fsync of the file, and of the folder after the rename).
pub fn replace(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    check_target(path)?;
    let temp = temp_path(path);
    let written = (|| {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(e);
    }
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::File::open(parent)?.sync_all()?;
    }
    Ok(())
}

/// Refuses a target that exists and is not a regular file (a symbolic link is replaced itself,
/// never followed, by the rename).
pub fn check_target(path: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_file() || meta.file_type().is_symlink() => Ok(()),
        Ok(meta) => Err(std::io::Error::other(format!(
            "{} is {}, not a regular file; Agon only replaces regular files",
            path.display(),
            crate::input_file::describe(&meta.file_type())
        ))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

fn temp_path(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".into());
    let unique = COUNTER.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(".{name}{TEMP_MARK}{}.{unique}", std::process::id()))
}

/// Whether `name` is one of this module's temporary files, or a record's temporary file of an
/// older Agon (`ID.tmp.PID`).
pub fn is_leftover(name: &str) -> bool {
    name.contains(TEMP_MARK)
        && name
            .rsplit('.')
            .next()
            .is_some_and(|last| !last.is_empty() && last.bytes().all(|b| b.is_ascii_digit()))
}

/// Removes temporary files left in `dir` by writers that died. Call it only while holding the
/// lock that keeps every other writer of `dir` out. Returns how many were removed.
pub fn remove_leftovers(dir: &Path) -> std::io::Result<usize> {
    let mut removed = 0;
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name();
        if is_leftover(&name.to_string_lossy()) && entry.file_type()?.is_file() {
            std::fs::remove_file(entry.path())?;
            removed += 1;
        }
    }
    Ok(removed)
}

/// A fresh, empty folder `agon-NAME-PID` in the system's temporary folder (what an earlier
/// process of the same id left there is removed first): for tests and benchmarks.
pub fn fresh_scratch(name: &str) -> std::io::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("agon-{name}-{}", std::process::id()));
    match std::fs::remove_dir_all(&dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        fresh_scratch(&format!("out-{name}")).unwrap()
    }

    #[test]
    fn replaces_regular_files_and_refuses_special_ones() {
        let dir = scratch("replace");
        let target = dir.join("a.json");
        replace(&target, b"one").unwrap();
        replace(&target, b"two").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"two");
        let err = replace(Path::new("/dev/full"), b"x")
            .unwrap_err()
            .to_string();
        assert!(err.contains("character device"), "{err}");
        use std::os::unix::fs::FileTypeExt;
        assert!(Path::new("/dev/full")
            .metadata()
            .unwrap()
            .file_type()
            .is_char_device());
        let sub = dir.join("sub");
        std::fs::create_dir(&sub).unwrap();
        assert!(replace(&sub, b"x").is_err());
        // Nothing is left behind by the refused writes.
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn writers_in_parallel_never_collide() {
        let dir = scratch("parallel");
        let target = dir.join("report.html");
        std::thread::scope(|s| {
            for t in 0..8 {
                let target = &target;
                s.spawn(move || {
                    for i in 0..50 {
                        replace(target, format!("{t}-{i}").as_bytes()).unwrap();
                    }
                });
            }
        });
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn leftovers_are_recognised_and_removed() {
        let dir = scratch("leftovers");
        for name in [
            ".g1.json.tmp.123.0",
            "g2.tmp.4567",
            "g3.json",
            "notes.tmp.txt",
        ] {
            std::fs::write(dir.join(name), b"x").unwrap();
        }
        assert_eq!(remove_leftovers(&dir).unwrap(), 2);
        let mut left: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["g3.json", "notes.tmp.txt"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
