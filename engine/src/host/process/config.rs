//! Where the engine finds `agon-host`, and the sandbox it has every host confine itself to.

use crate::host::sandbox::SandboxConfig;
use std::path::PathBuf;

/// Where to find `agon-host` and how to confine it.
#[derive(Debug, Clone)]
pub struct ProcessHostConfig {
    pub executable: PathBuf,
    pub sandbox: SandboxConfig,
}

impl ProcessHostConfig {
    /// `agon-host` from `$AGON_HOST`, else next to the running executable, else one folder up
    /// (test executables live in `target/<profile>/deps`).
    pub fn locate(sandbox: SandboxConfig) -> Result<ProcessHostConfig, String> {
        let sandbox = crate::host::sandbox::with_resolved_user(sandbox)?;
        if let Some(path) = std::env::var_os("AGON_HOST") {
            return Ok(ProcessHostConfig {
                executable: PathBuf::from(path),
                sandbox,
            });
        }
        let exe = std::env::current_exe().map_err(|e| format!("cannot locate agon: {e}"))?;
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
            .ok_or_else(|| {
                format!(
                    "agon-host not found (looked at {}); build it with `cargo build -p agon` \
                     (`cargo install --path harness` installs both) or set AGON_HOST",
                    candidates
                        .iter()
                        .map(|p| p.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
    }
}
