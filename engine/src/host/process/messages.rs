//! What the frames carry besides the game's protocol messages: the JSON of a host's start-up
//! (the engine's hello, the host's confinement notice, then ready or its load failure) and the
//! body of a `FAILED` frame. Both sides use these: the engine and `child`.

use crate::host::sandbox::{SandboxConfig, SandboxReport};
use crate::loader::{Manifest, StagedPlugin};
use agon_abi::{BotFailure, FailureKind};
use serde::{Deserialize, Serialize};

/// The first message to a host: what to load and how to confine it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Hello {
    pub plugin: StagedPlugin,
    pub bot: String,
    pub game: String,
    pub sandbox: SandboxConfig,
    /// Only report the plugin's manifest, then exit (listing a folder of team plugins without
    /// opening any of them in the engine).
    #[serde(default)]
    pub inspect: bool,
}

/// What a confined host tells the engine before it loads the plugin.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Confinement {
    /// The process that runs the bot, where it is not the one the engine started (a PID
    /// namespace of its own, `sandbox::supervisor`).
    pub bot_pid: Option<u32>,
}

/// The host's answer to [`Hello`] once the bot is loaded and the sandbox applied.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Ready {
    pub manifest: Manifest,
    pub sandbox: SandboxReport,
}

/// Why a host could not serve, as it reports it in a `LOAD_FAILED` frame.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LoadFailure {
    pub kind: LoadFailureKind,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoadFailureKind {
    /// The plugin file, its ABI, the bot or the game (the loader's errors).
    Load,
    /// The bot could not be created (it panicked or refused in its constructor).
    Bot,
    /// Strict mode and an incomplete sandbox.
    Sandbox,
    /// The engine and the host disagree (a bug, or mismatched builds).
    Engine,
}

impl LoadFailure {
    fn new(kind: LoadFailureKind, message: impl Into<String>) -> LoadFailure {
        LoadFailure {
            kind,
            message: message.into(),
        }
    }
    pub fn load(message: impl Into<String>) -> LoadFailure {
        LoadFailure::new(LoadFailureKind::Load, message)
    }
    pub fn bot(message: impl Into<String>) -> LoadFailure {
        LoadFailure::new(LoadFailureKind::Bot, message)
    }
    pub fn sandbox(message: impl Into<String>) -> LoadFailure {
        LoadFailure::new(LoadFailureKind::Sandbox, message)
    }
    pub fn engine(message: impl Into<String>) -> LoadFailure {
        LoadFailure::new(LoadFailureKind::Engine, message)
    }
}

/// The failure kind as the host encodes it in a `FAILED` frame.
pub fn failure_code(kind: FailureKind) -> u8 {
    match kind {
        FailureKind::Panic => 0,
        FailureKind::Refused => 1,
        FailureKind::Protocol => 2,
    }
}

/// The failure a `FAILED` frame's body reports: its kind's code, then the message.
pub(super) fn bot_failure(body: &[u8]) -> BotFailure {
    let kind = match body.first() {
        Some(0) => FailureKind::Panic,
        Some(1) => FailureKind::Refused,
        _ => FailureKind::Protocol,
    };
    BotFailure {
        kind,
        message: String::from_utf8_lossy(body.get(1..).unwrap_or_default())
            .into_owned()
            .into(),
    }
}
