//! A build that passed validation: which plugin and bot it is, and the content-addressed copy
//! every game of it loads.

use agon_engine::BotSpec;
use agon_games::contract::RawParams;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// A build that passed validation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Build {
    pub slot: String,
    /// 0 until the ladder's slot table numbers it.
    pub version: u32,
    pub sha256: String,
    pub plugin: String,
    pub plugin_version: String,
    pub team: String,
    pub bot: String,
    #[serde(default)]
    pub bot_params: RawParams,
    /// The content-addressed copy that every game of this build loads (never the file in the
    /// watched folder, which may already hold a newer build).
    pub copy: PathBuf,
}

impl Build {
    pub fn spec(&self) -> BotSpec {
        BotSpec {
            file: self.copy.clone(),
            bot: self.bot.clone(),
            params: self.bot_params.clone(),
        }
    }

    /// The bot with its parameters, as after the `:` of a bot spec (`alphabeta?depth=3`).
    pub fn bot_text(&self) -> String {
        let mut text = self.bot.clone();
        for (i, (k, v)) in self.bot_params.iter().enumerate() {
            text.push(if i == 0 { '?' } else { '&' });
            text.push_str(&format!("{k}={v}"));
        }
        text
    }

    /// `slot v2`, for messages.
    pub fn label(&self) -> String {
        format!("{} v{}", self.slot, self.version)
    }
}
