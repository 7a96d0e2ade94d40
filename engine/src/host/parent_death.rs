//! The host process's tie to the engine: it is killed when the engine's spawning thread ends.
//! Set at the host's start and set again by the sandbox, as every change of credentials clears it.

use rustix::process::{getppid, set_parent_process_death_signal, Pid, Signal};

/// Asks the kernel to SIGKILL this process when its parent ends, then checks that its parent
/// is still `engine`: the engine may have died before the signal was set, and the orphan would
/// then belong to another process and never be signalled.
pub fn die_with(engine: Option<Pid>) -> Result<(), EngineGone> {
    set_parent_process_death_signal(Some(Signal::KILL))
        .map_err(|e| EngineGone::Signal(e.into()))?;
    if getppid() != engine {
        return Err(EngineGone::Exited);
    }
    Ok(())
}

/// Why the host cannot be sure it ends with the engine.
#[derive(Debug, thiserror::Error)]
pub enum EngineGone {
    #[error("cannot set the parent-death signal: {0}")]
    Signal(#[source] std::io::Error),
    #[error("the engine exited")]
    Exited,
}
