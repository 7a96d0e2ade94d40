//! How starting a process host fails, and whose failure that is.

use crate::fault::FaultCause;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ProcessHostError {
    #[error("cannot start {}: {source}", executable.display())]
    Spawn {
        executable: PathBuf,
        source: std::io::Error,
    },
    /// The host could not load the plugin or the bot (the message is the loader's, naming the
    /// file), or could not confine itself in strict mode.
    #[error("{0}")]
    Refused(String),
    /// The bot itself failed while being created (panicked in its constructor).
    #[error("{0}")]
    BotFailed(String),
    /// The host died while starting: team code (a library constructor, the bot's
    /// constructor) crashed it or broke the sandbox.
    #[error("agon-host for {plugin} died during start-up: {cause}: {detail}")]
    DiedStarting {
        plugin: String,
        cause: FaultCause,
        detail: String,
    },
    /// The host misbehaved while starting: the engine's build of agon-host does not match.
    #[error("agon-host for {plugin} failed during start-up: {detail}")]
    Startup { plugin: String, detail: String },
}

impl ProcessHostError {
    /// Whether the engine failed, not the plugin: the host process could not be started. A
    /// host that fails later in its start-up is not counted, however its message words it:
    /// team code (a library constructor) runs by then and could write that message.
    pub fn is_engines(&self) -> bool {
        matches!(self, ProcessHostError::Spawn { .. })
    }
}
