//! Why a seat's bot could not be started again in a new host.

use super::process::ProcessHostError;
use super::HostKind;

/// Why a seat's bot could not be started again; the runner then charges the seat's move as
/// abandoned, and the course client answers with a stand-in.
#[derive(Debug, thiserror::Error)]
pub enum RestartError {
    /// Only a process host can start its bot afresh: the others share the engine's process.
    #[error("a {0} host cannot be restarted")]
    NotRestartable(HostKind),
    /// The host was made to inspect a plugin, not to play, so it has nothing to start again.
    #[error("this host was not started to play")]
    NotStartedToPlay,
    /// The new host did not start.
    #[error(transparent)]
    Spawn(#[from] ProcessHostError),
}
