//! Reading a file that came from outside (a map, a puzzle, a config, a record, a journal, a
//! plan): only a regular file, only up to a stated size, never blocking on a FIFO. A device such
//! as `/dev/zero` would otherwise grow a buffer without end, and a FIFO would block forever.

use std::fs::File;
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// Size limits of the inputs Agon reads, chosen far above any real file of its kind.
pub mod limits {
    /// Maps, puzzles, configurations: the largest shared map is 1.2 MB.
    pub const INSTANCE: u64 = 64 << 20;
    /// One match record (a long Flip game is a few MB).
    pub const RECORD: u64 = 256 << 20;
    /// A tournament plan (`tournament.json`).
    pub const PLAN: u64 = 256 << 20;
    /// A plugin file.
    pub const PLUGIN: u64 = 1 << 30;
}

#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("{path}: cannot read: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: not a regular file ({kind}); give the path of a file")]
    NotRegular { path: String, kind: &'static str },
    #[error("{path}: {size} bytes, more than the {limit} bytes a {what} may have")]
    TooLarge {
        path: String,
        size: u64,
        limit: u64,
        what: &'static str,
    },
    #[error("{path}: not a text file (invalid UTF-8 at byte {offset})")]
    NotText { path: String, offset: usize },
    #[error("{path}: a symbolic link; Agon does not follow links here")]
    Link { path: String },
}

/// The files that game parameters name (`puzzle=FILE`, `map=FILE`), read with the instance size
/// limit: what the engine hands every game's session (the rules themselves do no IO).
pub struct GameFiles;

impl agon_games::contract::ParamFiles for GameFiles {
    fn read_text(&self, key: &'static str, path: &str) -> Result<String, String> {
        Input::new(key, limits::INSTANCE)
            .read_text(Path::new(path))
            .map_err(|e| e.to_string())
    }
}

/// How to open an input.
#[derive(Debug, Clone, Copy)]
pub struct Input {
    /// What the file is, for messages ("map", "journal").
    pub what: &'static str,
    pub limit: u64,
    /// Refuse a symbolic link as the last path component (files Agon also writes to).
    pub no_follow: bool,
}

impl Input {
    pub const fn new(what: &'static str, limit: u64) -> Input {
        Input {
            what,
            limit,
            no_follow: false,
        }
    }

    pub const fn no_follow(self) -> Input {
        Input {
            no_follow: true,
            ..self
        }
    }

    /// Opens `path` for reading after checking it is a regular file within the limit.
    pub fn open(&self, path: &Path) -> Result<(File, u64), InputError> {
        let name = || path.display().to_string();
        let mut flags = libc::O_NONBLOCK | libc::O_CLOEXEC;
        if self.no_follow {
            flags |= libc::O_NOFOLLOW;
        }
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(flags)
            .open(path)
            .map_err(|source| {
                if self.no_follow && source.raw_os_error() == Some(libc::ELOOP) {
                    InputError::Link { path: name() }
                } else {
                    InputError::Io {
                        path: name(),
                        source,
                    }
                }
            })?;
        let meta = file.metadata().map_err(|source| InputError::Io {
            path: name(),
            source,
        })?;
        let kind = meta.file_type();
        if !kind.is_file() {
            return Err(InputError::NotRegular {
                path: name(),
                kind: describe(&kind),
            });
        }
        if meta.len() > self.limit {
            return Err(self.too_large(path, meta.len()));
        }
        Ok((file, meta.len()))
    }

    /// The bytes of `path`.
    pub fn read(&self, path: &Path) -> Result<Vec<u8>, InputError> {
        let (file, len) = self.open(path)?;
        self.read_from(file, len, path)
    }

    /// Reads an opened file to its end, refusing one that grows past the limit meanwhile.
    pub fn read_from(&self, file: File, len: u64, path: &Path) -> Result<Vec<u8>, InputError> {
        let mut bytes = Vec::with_capacity(len as usize);
        file.take(self.limit + 1)
            .read_to_end(&mut bytes)
            .map_err(|source| InputError::Io {
                path: path.display().to_string(),
                source,
            })?;
        if bytes.len() as u64 > self.limit {
            return Err(self.too_large(path, bytes.len() as u64));
        }
        Ok(bytes)
    }

    /// The text of `path`.
    pub fn read_text(&self, path: &Path) -> Result<String, InputError> {
        let bytes = self.read(path)?;
        String::from_utf8(bytes).map_err(|e| InputError::NotText {
            path: path.display().to_string(),
            offset: e.utf8_error().valid_up_to(),
        })
    }

    fn too_large(&self, path: &Path, size: u64) -> InputError {
        InputError::TooLarge {
            path: path.display().to_string(),
            size,
            limit: self.limit,
            what: self.what,
        }
    }
}

pub fn describe(kind: &std::fs::FileType) -> &'static str {
    if kind.is_dir() {
        "a directory"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else {
        "a regular file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_fifos_folders_and_oversized_files_are_refused() {
        let map = Input::new("map", 8);
        let err = map.read(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(err.contains("character device"), "{err}");
        let dir = std::env::temp_dir().join(format!("agon-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let err = map.read(&dir).unwrap_err().to_string();
        assert!(err.contains("a directory"), "{err}");
        let fifo = dir.join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo on a path this test owns.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // Opening must not block waiting for a writer.
        let err = map.read(&fifo).unwrap_err().to_string();
        assert!(err.contains("FIFO"), "{err}");
        let big = dir.join("big");
        std::fs::write(&big, b"123456789").unwrap();
        let err = map.read(&big).unwrap_err().to_string();
        assert!(
            err.contains("9 bytes, more than the 8 bytes a map"),
            "{err}"
        );
        let small = dir.join("small");
        std::fs::write(&small, b"1234").unwrap();
        assert_eq!(map.read_text(&small).unwrap(), "1234");
        let link = dir.join("link");
        std::os::unix::fs::symlink(&small, &link).unwrap();
        assert_eq!(map.read_text(&link).unwrap(), "1234");
        let err = map.no_follow().read(&link).unwrap_err().to_string();
        assert!(err.contains("symbolic link"), "{err}");
        std::fs::write(&small, b"\xff\xfe").unwrap();
        assert!(map
            .read_text(&small)
            .unwrap_err()
            .to_string()
            .contains("byte 0"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The files game parameters name go through the same checks, named by their parameter.
    #[test]
    fn game_files_are_read_with_the_input_checks() {
        use agon_games::contract::ParamFiles;
        let err = GameFiles.read_text("puzzle", "/dev/zero").unwrap_err();
        assert!(err.contains("character device"), "{err}");
        let dir = std::env::temp_dir().join(format!("agon-game-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let puzzle = dir.join("p.txt");
        std::fs::write(&puzzle, "#.\n.#\n").unwrap();
        let path = puzzle.to_str().unwrap();
        assert_eq!(GameFiles.read_text("puzzle", path).unwrap(), "#.\n.#\n");
        // A sparse file one byte over the limit: refused by its size, before any read.
        std::fs::File::create(&puzzle)
            .unwrap()
            .set_len(limits::INSTANCE + 1)
            .unwrap();
        let err = GameFiles.read_text("map", path).unwrap_err();
        assert!(err.contains("a map"), "names the parameter: {err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
