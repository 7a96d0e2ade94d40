//! Why confining a host failed. A step that only weakens the sandbox is recorded in its report
//! as missing, in this error's words; one that ends confinement ends the host, and its words
//! reach the engine as the host's load failure.

use crate::PathError;
use std::io;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ConfineError {
    /// A system call failed; `call` names it and what it acted on.
    #[error("{call}: {source}")]
    Call {
        call: String,
        #[source]
        source: io::Error,
    },
    #[error(transparent)]
    Path(#[from] PathError),
    #[error("{}: not a file", .0.display())]
    NotAFile(PathBuf),
    #[error("{0}: a path with a NUL byte")]
    NulInPath(String),
    #[error("no folder to assemble the root in (/tmp, /mnt, /run, /var/tmp)")]
    NoWorkbench,
    /// A seccomp rule or filter that could not be compiled.
    #[error(transparent)]
    Filter(#[from] seccompiler::BackendError),
    /// A filter seccompiler could not install (compiling it, or the kernel refusing it).
    #[error(transparent)]
    FilterRefused(#[from] seccompiler::Error),
    #[error("filter too long")]
    FilterTooLong,
    #[error(transparent)]
    Landlock(#[from] ::landlock::RulesetError),
    #[error("not supported by this kernel")]
    NoLandlock,
    #[error(transparent)]
    User(#[from] super::UserError),
    #[error("the sandbox user may not be root")]
    RootUser,
    #[error("still root after giving up root")]
    StillRoot,
    /// `/proc/self/status` lacks the line named.
    #[error("/proc/self/status has no {0}")]
    StatusLacks(&'static str),
    /// `/proc/self/status` has a line that does not parse.
    #[error("/proc/self/status: unreadable {0}")]
    StatusUnreadable(&'static str),
    #[error(transparent)]
    EngineGone(#[from] crate::host::parent_death::EngineGone),
    #[error("the supervisor ended before it said the bot's pid")]
    NoPidFromSupervisor,
    #[error("the supervisor ended")]
    SupervisorEnded,
}

impl ConfineError {
    /// Names the failed `call` (and what it acted on) of an error from the standard library or
    /// from rustix.
    pub(crate) fn call<E: Into<io::Error>>(call: impl Into<String>) -> impl FnOnce(E) -> Self {
        move |source| ConfineError::Call {
            call: call.into(),
            source: source.into(),
        }
    }

    /// The failure of the C library call just made, from `errno` (read before `call` allocates
    /// anything, as an allocation may change it).
    pub(crate) fn last_os(call: &'static str) -> Self {
        Self::call(call)(io::Error::last_os_error())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_call_names_itself_and_keeps_its_cause() {
        let denied = io::Error::from_raw_os_error(libc::EPERM);
        let error = ConfineError::call("setresuid")(denied);
        assert_eq!(
            error.to_string(),
            format!("setresuid: {}", io::Error::from_raw_os_error(libc::EPERM))
        );
        let source = std::error::Error::source(&error).expect("the OS error is the source");
        assert_eq!(
            source.to_string(),
            io::Error::from_raw_os_error(libc::EPERM).to_string()
        );
        let rustix_error = ConfineError::call("supervisor pipe")(rustix::io::Errno::MFILE);
        assert!(rustix_error.to_string().starts_with("supervisor pipe: "));
    }
}
