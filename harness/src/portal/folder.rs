//! The portal's folder, `--dir D`: everything a portal keeps, where a restart finds it again.
//!
//! | path | what |
//! |---|---|
//! | `builds/` | the ladder's watched folder: one slot per team, `TEAM.so` |
//! | `ladder/` | the ladder's own folder: journal, events, records, standings, game pages |
//! | `incoming/` | uploads being received; a complete one is renamed into `builds/` |
//! | `portal.sqlite` | teams, token hashes, builds and upload events |
//! | `portal.key` | the key token hashes are made with (kept apart from the database) |

use std::path::{Path, PathBuf};

pub struct PortalFolder {
    root: PathBuf,
}

impl PortalFolder {
    /// The folder `root`, its parts created where missing.
    pub fn open(root: &Path) -> Result<PortalFolder, String> {
        let folder = PortalFolder {
            root: root.to_path_buf(),
        };
        for dir in [folder.builds(), folder.ladder(), folder.incoming()] {
            std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        Ok(folder)
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn builds(&self) -> PathBuf {
        self.root.join("builds")
    }

    pub fn ladder(&self) -> PathBuf {
        self.root.join("ladder")
    }

    /// On the same file system as `builds/`, so that publishing an upload is one rename.
    pub fn incoming(&self) -> PathBuf {
        self.root.join("incoming")
    }

    pub fn database(&self) -> PathBuf {
        self.root.join("portal.sqlite")
    }

    pub fn key(&self) -> PathBuf {
        self.root.join("portal.key")
    }
}
