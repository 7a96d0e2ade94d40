//! Forking `agon-host`: the pipes and the socket it shares with the engine, and what runs in
//! the child between fork and exec (where only async-signal-safe calls may be made).

use crate::host::sandbox::{limits, notifier, SandboxConfig};
use rustix::pipe::{pipe_with, PipeFlags};
use rustix::process::Signal;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;

/// The engine's ends of a host's channels.
pub(super) struct EngineEnds {
    pub requests: OwnedFd,
    pub responses: OwnedFd,
    /// The socket the host hands its refusal listener over.
    pub handover: OwnedFd,
}

/// The host's ends, which the engine holds only until the host is spawned.
pub(super) struct HostEnds {
    requests: OwnedFd,
    responses: OwnedFd,
    handover: OwnedFd,
}

/// The request and answer pipes and the hand-over socket, close-on-exec until the child puts
/// its ends in place.
pub(super) fn open_channels() -> std::io::Result<(EngineEnds, HostEnds)> {
    let (request_read, request_write) = pipe_with(PipeFlags::CLOEXEC)?;
    let (response_read, response_write) = pipe_with(PipeFlags::CLOEXEC)?;
    let (handover, handover_child) = notifier::handover_pair()?;
    let engine = EngineEnds {
        requests: request_write,
        responses: response_read,
        handover,
    };
    let host = HostEnds {
        requests: request_read,
        responses: response_write,
        handover: handover_child,
    };
    Ok((engine, host))
}

/// The command that starts `agon-host` on `ends` (kept open until it is spawned), confined to
/// `sandbox`'s resource limits; `in_cgroup` says whether a cgroup will hold its memory.
pub(super) fn host_command(
    executable: &Path,
    sandbox: &SandboxConfig,
    ends: &HostEnds,
    in_cgroup: bool,
) -> Command {
    let child_in = ends.requests.as_raw_fd();
    let child_out = ends.responses.as_raw_fd();
    let child_handover = ends.handover.as_raw_fd();
    let parent = rustix::process::getpid();
    let sandbox = sandbox.clone();
    let address_space = limits::address_space(&sandbox, in_cgroup);
    let mut command = Command::new(executable);
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .env_clear()
        .process_group(0);
    // SAFETY: between fork and exec only async-signal-safe calls are made: prctl, getppid,
    // dup2, fcntl, close_range and setrlimit, through raw system calls; no allocation.
    unsafe {
        command.pre_exec(move || {
            rustix::process::set_parent_process_death_signal(Some(Signal::KILL))?;
            // The parent may have died before the line above took effect.
            if rustix::process::getppid() != Some(parent) {
                return Err(std::io::Error::other("the engine exited"));
            }
            move_fd(child_in, 3)?;
            move_fd(child_out, 4)?;
            move_fd(child_handover, notifier::HANDOVER_FD)?;
            // Nothing the engine inherited (an operator's `7<secret`, a pipe of the calling
            // shell) reaches the host: only its standard streams, its two pipes and the
            // hand-over socket.
            close_inherited_descriptors()?;
            limits::apply(&sandbox, address_space)
        });
    }
    command
}

/// A command to spawn, and where its child goes.
type SpawnRequest = (Command, crossbeam_channel::Sender<std::io::Result<Child>>);

/// Spawns `command` from a thread that lasts as long as the engine. A host's parent-death
/// signal (set between fork and exec) fires when the thread that forked it ends, not the
/// engine: a host forked on a thread that starts one game's seats side by side and then ends
/// would be killed with that thread.
pub(super) fn spawn_lasting(command: Command) -> std::io::Result<Child> {
    static SPAWNER: OnceLock<std::io::Result<crossbeam_channel::Sender<SpawnRequest>>> =
        OnceLock::new();
    let spawner = SPAWNER.get_or_init(|| {
        let (requests, received) = crossbeam_channel::unbounded::<SpawnRequest>();
        std::thread::Builder::new()
            .name("host-spawner".into())
            .spawn(move || {
                for (mut command, reply) in received {
                    let _ = reply.send(command.spawn());
                }
            })
            .map(|_| requests)
    });
    let spawner = spawner
        .as_ref()
        .map_err(|e| std::io::Error::new(e.kind(), format!("no thread to start hosts: {e}")))?;
    let (reply, child) = crossbeam_channel::bounded(1);
    let gone = || std::io::Error::other("the thread that starts hosts has ended");
    spawner.send((command, reply)).map_err(|_| gone())?;
    child.recv().map_err(|_| gone())?
}

/// Closes every descriptor above the hand-over socket's (in the forked child).
fn close_inherited_descriptors() -> std::io::Result<()> {
    let first = notifier::HANDOVER_FD as u32 + 1;
    // SAFETY: close_range with integer arguments, in the forked child.
    if unsafe { libc::syscall(libc::SYS_close_range, first, u32::MAX, 0u32) } == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Puts `fd` at `target` without close-on-exec (in the forked child).
fn move_fd(fd: i32, target: i32) -> std::io::Result<()> {
    // SAFETY: plain file-descriptor system calls on descriptors this process owns.
    unsafe {
        if fd == target {
            let flags = libc::fcntl(fd, libc::F_GETFD);
            if flags < 0 || libc::fcntl(fd, libc::F_SETFD, flags & !libc::FD_CLOEXEC) < 0 {
                return Err(std::io::Error::last_os_error());
            }
        } else if libc::dup2(fd, target) < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Raises the engine's soft limit on open files to its hard limit. Every process host holds
/// four descriptors in the engine (its request and answer pipes, its stderr and its refusal
/// listener), so 200 games at once need more than the soft limit of 1,024 most systems start
/// a shell with, while the hard limit is usually far higher. The hosts do not inherit it:
/// theirs is set between fork and exec.
pub fn allow_many_hosts() -> std::io::Result<()> {
    use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
    let limit = getrlimit(Resource::Nofile);
    if limit.current == limit.maximum {
        return Ok(());
    }
    setrlimit(
        Resource::Nofile,
        Rlimit {
            current: limit.maximum,
            maximum: limit.maximum,
        },
    )
    .map_err(Into::into)
}
