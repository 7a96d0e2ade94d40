//! Resource limits for the host process, applied between `fork` and `exec` (so they hold before
//! any plugin code runs). Only async-signal-safe calls: this runs in the forked child.

use super::SandboxConfig;
use rustix::process::{setrlimit, Resource, Rlimit};

fn set(resource: Resource, value: u64) -> std::io::Result<()> {
    setrlimit(
        resource,
        Rlimit {
            current: Some(value),
            maximum: Some(value),
        },
    )
    .map_err(std::io::Error::from)
}

/// Address space, CPU seconds, open files, file size 0 (no file can grow), no core dumps.
/// `RLIMIT_NPROC` is set by the host itself once it is in a user namespace of its own
/// ([`limit_tasks`]); process creation is refused by the seccomp filter.
pub fn apply(config: &SandboxConfig) -> std::io::Result<()> {
    set(Resource::As, config.memory_bytes)?;
    // The soft limit sends SIGXCPU; the hard limit one second later, SIGKILL.
    setrlimit(
        Resource::Cpu,
        Rlimit {
            current: Some(config.cpu_seconds),
            maximum: Some(config.cpu_seconds + 1),
        },
    )
    .map_err(std::io::Error::from)?;
    set(Resource::Nofile, config.open_files)?;
    set(Resource::Fsize, 0)?;
    set(Resource::Core, 0)?;
    Ok(())
}

/// At most `threads` threads besides the host's own. Set inside the host's user namespace, where
/// the kernel counts only that host's tasks (see [`super::namespaces`]).
pub fn limit_tasks(threads: u32) -> std::io::Result<()> {
    set(Resource::Nproc, u64::from(threads) + 1)
}
