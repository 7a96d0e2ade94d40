//! The process host's sandbox (DESIGN.md, "Hosts"): resource limits set before the host
//! program starts, then Landlock and a seccomp filter applied by the host itself *before* it
//! loads the plugin library, so that no team code (not even a library constructor or the bot's
//! `Default`) ever runs unconfined. Loading still works: Landlock grants reading the plugin's
//! own file and the system's shared libraries, and the seccomp filter refuses nothing the
//! dynamic linker needs. (DESIGN.md says "after the library has loaded"; confining first is
//! stricter and closes the gap a constructor could use.)
//!
//! - [`limits`]: address space, CPU seconds (a backstop), open files, file size 0, no core.
//! - [`landlock`]: no file readable or writable, no TCP, no signals or abstract sockets beyond
//!   the host's own domain.
//! - [`seccomp`]: refuses process creation, exec, sockets, ptrace, signals to other processes,
//!   and kernel-administration calls; a refused call kills the host with `SIGSYS`, recorded as
//!   `refused_syscall`.
//!
//! Where a mechanism is unavailable, the [`SandboxReport`] says which; in strict mode the host
//! refuses to serve instead.

pub mod landlock;
pub mod limits;
pub mod seccomp;

use serde::{Deserialize, Serialize};

/// What the sandbox enforces; part of a match's settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SandboxConfig {
    /// `RLIMIT_AS` in bytes (default 1 GiB).
    pub memory_bytes: u64,
    /// `RLIMIT_CPU` in seconds for the whole host process: a backstop behind the watchdog.
    pub cpu_seconds: u64,
    /// `RLIMIT_NOFILE`.
    pub open_files: u64,
    /// Threads a bot may start besides the one it is called on (default 0: none).
    pub threads: u32,
    /// Refuse to run when a mechanism is unavailable, instead of reporting it.
    pub strict: bool,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        SandboxConfig {
            memory_bytes: 1 << 30,
            cpu_seconds: 3600,
            open_files: 64,
            threads: 0,
            strict: false,
        }
    }
}

/// What the host could enforce, as it reports it once the bot is loaded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SandboxReport {
    /// `full`, `partial` or `none`.
    pub landlock: String,
    pub seccomp: bool,
    /// Mechanisms that could not be applied, and why.
    pub missing: Vec<String>,
}

impl SandboxReport {
    pub fn complete(&self) -> bool {
        self.missing.is_empty()
    }

    /// Why a host under `config` must refuse to serve: strict mode and something missing.
    pub fn strict_refusal(&self, config: &SandboxConfig) -> Option<String> {
        (config.strict && !self.complete()).then(|| {
            format!(
                "sandbox strict: refusing to run: {}",
                self.missing.join("; ")
            )
        })
    }
}

/// Applies Landlock and seccomp to the calling process (the host, before loading `plugin`).
pub fn confine(config: &SandboxConfig, plugin: &std::path::Path) -> SandboxReport {
    let mut missing = Vec::new();
    let landlock = match landlock::restrict(plugin) {
        Ok(landlock::Enforcement::Full) => "full",
        Ok(landlock::Enforcement::Partial(what)) => {
            missing.push(format!("landlock only partially enforced: {what}"));
            "partial"
        }
        Err(e) => {
            missing.push(format!("landlock: {e}"));
            "none"
        }
    };
    let seccomp = match seccomp::install(config.threads > 0) {
        Ok(()) => true,
        Err(e) => {
            missing.push(format!("seccomp: {e}"));
            false
        }
    };
    SandboxReport {
        landlock: landlock.to_string(),
        seccomp,
        missing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_mode_refuses_an_incomplete_sandbox() {
        let partial = SandboxReport {
            landlock: "none".into(),
            seccomp: true,
            missing: vec!["landlock: not supported by this kernel".into()],
        };
        let strict = SandboxConfig {
            strict: true,
            ..SandboxConfig::default()
        };
        let refusal = partial.strict_refusal(&strict).unwrap();
        assert!(refusal.contains("landlock: not supported"), "{refusal}");
        assert_eq!(partial.strict_refusal(&SandboxConfig::default()), None);
        let full = SandboxReport {
            landlock: "full".into(),
            seccomp: true,
            missing: vec![],
        };
        assert_eq!(full.strict_refusal(&strict), None);
    }
}
