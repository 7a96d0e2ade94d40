//! Resource limits for the host process, set by the engine through `prlimit` once the host is
//! spawned and before it reads its hello, so they hold before any plugin code runs.

use super::SandboxConfig;
use rustix::process::{prlimit, Pid, Resource, Rlimit};

fn set(pid: Pid, resource: Resource, current: u64, maximum: u64) -> std::io::Result<()> {
    prlimit(
        Some(pid),
        resource,
        Rlimit {
            current: Some(current),
            maximum: Some(maximum),
        },
    )
    .map(drop)
    .map_err(std::io::Error::from)
}

fn pid_of(pid: u32) -> std::io::Result<Pid> {
    Pid::from_raw(pid as i32).ok_or_else(|| std::io::Error::other("no such process"))
}

/// How much larger than `memory.max` the address-space limit of a host in a cgroup of its own
/// is.
///
/// `RLIMIT_AS` counts reserved address space, not memory: `mmap` of a region never touched, a
/// thread's stack, the C library's 64 MiB malloc arena per thread. Equal to `memory.max` it
/// would always refuse an allocation first, so the cgroup's limit, which counts the memory the
/// host really uses (touched pages, and kernel memory charged to it: page tables, pipe buffers,
/// socket buffers), would never act. Twice `memory.max` leaves it to the cgroup and still stops
/// a bot that reserves address space without bound before the kernel spends time on it.
pub const CGROUP_ADDRESS_SPACE_FACTOR: u64 = 2;

/// The `RLIMIT_AS` of a host under `config`: `memory_bytes` where it is the only memory limit,
/// a backstop above it ([`CGROUP_ADDRESS_SPACE_FACTOR`]) where the host gets a cgroup whose
/// `memory.max` is `memory_bytes` (`in_cgroup`, decided by the engine before the fork).
pub fn address_space(config: &SandboxConfig, in_cgroup: bool) -> u64 {
    if in_cgroup {
        config
            .memory_bytes
            .saturating_mul(CGROUP_ADDRESS_SPACE_FACTOR)
    } else {
        config.memory_bytes
    }
}

/// Sets on the running host `pid` (which has the engine's credentials until it reads its
/// hello): address space (`address_space` bytes, see [`address_space`]), CPU seconds, open
/// files, file size 0 (no file can grow), no core dumps. `RLIMIT_NPROC` is set by the host
/// itself once it is in a user namespace of its own ([`limit_tasks`]); process creation is
/// refused by the seccomp filter.
pub fn apply(pid: u32, config: &SandboxConfig, address_space: u64) -> std::io::Result<()> {
    let pid = pid_of(pid)?;
    set(pid, Resource::As, address_space, address_space)?;
    // The soft limit sends SIGXCPU; the hard limit one second later, SIGKILL.
    set(
        pid,
        Resource::Cpu,
        config.cpu_seconds,
        config.cpu_seconds + 1,
    )?;
    set(pid, Resource::Nofile, config.open_files, config.open_files)?;
    set(pid, Resource::Fsize, 0, 0)?;
    set(pid, Resource::Core, 0, 0)
}

/// Lowers the address-space limit of the running host `pid` to `bytes`: for a host the engine
/// meant to place in a cgroup but could not, whose backstop would otherwise be its only limit.
/// Allowed while the host still has the engine's credentials (before it reads its hello).
pub fn lower_address_space(pid: u32, bytes: u64) -> std::io::Result<()> {
    set(pid_of(pid)?, Resource::As, bytes, bytes)
}

/// At most `threads` threads besides the host's own. Set inside the host's user namespace, where
/// the kernel counts only that host's tasks (see [`super::namespaces`]).
/// `supervised`: the host has a supervisor in the same user namespace (see
/// [`super::supervisor`]), one task more.
pub fn limit_tasks(threads: u32, supervised: bool) -> std::io::Result<()> {
    let tasks = u64::from(threads) + 1 + u64::from(supervised);
    rustix::process::setrlimit(
        Resource::Nproc,
        Rlimit {
            current: Some(tasks),
            maximum: Some(tasks),
        },
    )
    .map_err(std::io::Error::from)
}
