//! The portal's folder, `--dir D`: everything a portal keeps, where a restart finds it again.
//!
//! | path | what |
//! |---|---|
//! | `builds/` | the ladder's watched folder: one slot per team, `TEAM.so` |
//! | `ladder/` | the ladder's own folder: journal, events, records, standings, game pages |
//! | `incoming/` | uploads being received; a complete one is renamed into `builds/` |
//! | `portal.sqlite` | teams, token hashes, builds and upload events |
//! | `portal.key` | the key token hashes are made with (kept apart from the database) |
//! | `cache/` | the content-addressed copies of the builds the ladder loads (kept with the portal, not in the user's cache, so that no clean-up removes a build that plays) |
//!
//! The folder is its owner's alone (0700; the database, the key and the uploads 0600): another
//! user of the machine must not copy a team's bot, its database or its key. The copies in
//! `cache/` stay readable to the bot's own user of the sandbox, which reaches each through its
//! own root (a bind of that one file), never through this folder.

use agon_engine::{OnPath, PathError};
use std::path::{Path, PathBuf};

pub struct PortalFolder {
    root: PathBuf,
}

impl PortalFolder {
    /// The folder `root`, its parts created where missing, readable by its owner only.
    pub fn open(root: &Path) -> Result<PortalFolder, PathError> {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        let folder = PortalFolder {
            root: root.to_path_buf(),
        };
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true).mode(0o700);
        builder.create(root).on_path(root)?;
        // A folder made by an older portal, or by hand, is closed too, if it is ours to close.
        if let Err(e) = std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o700)) {
            log::warn!(
                "{}: cannot make it its owner's alone ({e}): other users may read it",
                root.display()
            );
        }
        for dir in [
            folder.builds(),
            folder.ladder(),
            folder.incoming(),
            folder.cache(),
        ] {
            builder.create(&dir).on_path(&dir)?;
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

    pub fn cache(&self) -> PathBuf {
        self.root.join("cache")
    }
}
