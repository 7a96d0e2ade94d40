//! An I/O failure on a named file or folder: the one shape every crate gives "this path, this
//! error", so none builds its own and none copies a path before anything has failed.

use std::io;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct PathError {
    pub path: PathBuf,
    #[source]
    pub source: io::Error,
}

impl PathError {
    pub fn new(path: &Path, source: io::Error) -> PathError {
        PathError {
            path: path.to_path_buf(),
            source,
        }
    }

    pub fn kind(&self) -> io::ErrorKind {
        self.source.kind()
    }
}

/// Names the path an I/O result was about, copying it only when the result is an error.
pub trait OnPath<T> {
    fn on_path(self, path: &Path) -> Result<T, PathError>;
}

impl<T> OnPath<T> for io::Result<T> {
    fn on_path(self, path: &Path) -> Result<T, PathError> {
        self.map_err(|source| PathError::new(path, source))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_path_and_keeps_the_cause() {
        let failed: io::Result<()> = Err(io::Error::from(io::ErrorKind::PermissionDenied));
        let error = failed.on_path(Path::new("/srv/out")).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::PermissionDenied);
        assert!(error.to_string().starts_with("/srv/out: "), "{error}");
        let source = std::error::Error::source(&error).expect("the I/O error is the source");
        assert_eq!(source.to_string(), error.source.to_string());
    }

    #[test]
    fn a_success_is_left_alone() {
        assert_eq!(Ok::<u8, io::Error>(7).on_path(Path::new("/x")).unwrap(), 7);
    }
}
