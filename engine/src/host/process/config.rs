//! Where the engine finds `agon-host`, and the sandbox it has every host confine itself to.

use crate::host::sandbox::{SandboxConfig, UserError};
use std::path::PathBuf;

/// Why no process host can be started: the sandbox user, or no `agon-host` to start.
#[derive(Debug, thiserror::Error)]
pub enum LocateError {
    #[error(transparent)]
    User(#[from] UserError),
    #[error("cannot locate agon: {0}")]
    OwnPath(#[source] std::io::Error),
    #[error(
        "agon-host not found (looked at {}); build it with `cargo build -p agon` (`cargo install \
         --path harness` installs both) or set AGON_HOST",
        looked.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
    )]
    NotFound { looked: Vec<PathBuf> },
}

/// Where to find `agon-host` and how to confine it.
#[derive(Debug, Clone)]
pub struct ProcessHostConfig {
    pub executable: PathBuf,
    pub sandbox: SandboxConfig,
}

impl ProcessHostConfig {
    /// `agon-host` from `$AGON_HOST`, else next to the running executable, else one folder up
    /// (test executables live in `target/<profile>/deps`).
    pub fn locate(sandbox: SandboxConfig) -> Result<ProcessHostConfig, LocateError> {
        let sandbox = crate::host::sandbox::with_resolved_user(sandbox)?;
        if let Some(path) = std::env::var_os("AGON_HOST") {
            return Ok(ProcessHostConfig {
                executable: PathBuf::from(path),
                sandbox,
            });
        }
        let exe = std::env::current_exe().map_err(LocateError::OwnPath)?;
        let candidates: Vec<PathBuf> = exe
            .ancestors()
            .skip(1)
            .take(2)
            .map(|dir| dir.join("agon-host"))
            .collect();
        candidates
            .iter()
            .find(|p| p.is_file())
            .map(|p| ProcessHostConfig {
                executable: p.clone(),
                sandbox,
            })
            .ok_or(LocateError::NotFound { looked: candidates })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_host_names_where_it_was_looked_for_and_how_to_build_it() {
        let error = LocateError::NotFound {
            looked: vec![
                PathBuf::from("/opt/agon/agon-host"),
                PathBuf::from("/opt/agon-host"),
            ],
        };
        let text = error.to_string();
        assert!(
            text.starts_with("agon-host not found (looked at /opt/agon/agon-host, /opt/agon-host)"),
            "{text}"
        );
        assert!(text.contains("cargo build -p agon"), "{text}");
    }

    #[test]
    fn a_sandbox_user_that_names_nobody_is_the_user_s_error() {
        let sandbox = SandboxConfig {
            user: Some("no-such-user-agon".into()),
            ..SandboxConfig::default()
        };
        match ProcessHostConfig::locate(sandbox) {
            Err(LocateError::User(UserError::Unknown(user))) => {
                assert_eq!(user, "no-such-user-agon")
            }
            other => panic!("not refused for its user: {other:?}"),
        }
    }
}
