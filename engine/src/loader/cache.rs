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

/// Copies `bytes` (the content of `original`) to `<cache>/plugins/<sha256>/<file name>`, unless
/// that copy already exists. Written to a temporary name and renamed, so a crash never leaves a
/// half-written library under the final name.
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
    let dir = cache.join("plugins").join(sha256);
    let target = dir.join(&name);
    if std::fs::metadata(&target).is_ok_and(|m| m.len() == bytes.len() as u64) {
        return Ok(target);
    }
    std::fs::create_dir_all(&dir)?;
    // Unique per call: two threads may stage the same file at once.
    static COPIES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COPIES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let temp = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
    {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
    }
    std::fs::rename(&temp, &target)?;
    Ok(target)
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
}
