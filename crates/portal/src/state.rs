//! What every request of the portal shares.

use super::folder::PortalFolder;
use super::follow::LadderNews;
use super::limits::UploadLimits;
use super::store::Store;
use super::token::TokenKey;
use std::sync::Mutex;

pub struct Portal {
    pub folder: PortalFolder,
    pub store: Store,
    pub key: TokenKey,
    pub news: Mutex<LadderNews>,
    pub limits: UploadLimits,
    /// The game the ladder plays.
    pub game: String,
    /// Served over TLS: session cookies are marked `Secure`.
    pub secure_cookies: bool,
}

impl Portal {
    pub fn news(&self) -> std::sync::MutexGuard<'_, LadderNews> {
        self.news.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// `standings.json` as the ladder last wrote it (none before its first write).
    pub fn standings(&self) -> Option<serde_json::Value> {
        let path = self.folder.ladder().join(agon_ladder::board::JSON);
        let text = std::fs::read_to_string(path).ok()?;
        serde_json::from_str(&text).ok()
    }
}
