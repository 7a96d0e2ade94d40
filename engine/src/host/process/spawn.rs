//! Starting `agon-host`: the pipes and the socket it shares with the engine, and the spawn
//! itself. The host is started by `posix_spawn`, which shares the engine's memory until the
//! exec (`CLONE_VFORK`), rather than by `fork`, which copied the engine's page tables for every
//! host only for the exec to throw the copy away: a quarter of all CPU time in a tournament of
//! quick games on two cores (`perf record -a`, `agon bench --suite tournament`). What ran
//! between fork and exec is done by the spawn's file actions (descriptors), by the engine
//! through `prlimit` before the host reads its hello (resource limits, `launch.rs`), and by
//! `agon-host` itself before anything else (its parent-death signal, `child.rs`).

use crate::host::sandbox::notifier;
use rustix::pipe::{pipe_with, PipeFlags};
use std::ffi::{CStr, CString};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::ExitStatus;
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

/// Descriptors at or above this one are never a target of the spawn's moves, so the host's
/// ends are kept there: a move cannot overwrite an end not yet moved.
const ABOVE_TARGETS: i32 = 16;

/// The request and answer pipes and the hand-over socket, close-on-exec; the host's ends are
/// put in place by the spawn.
pub(super) fn open_channels() -> std::io::Result<(EngineEnds, HostEnds)> {
    let (request_read, request_write) = pipe_with(PipeFlags::CLOEXEC)?;
    let (response_read, response_write) = pipe_with(PipeFlags::CLOEXEC)?;
    let (handover, handover_child) = notifier::handover_pair()?;
    let high = |fd: OwnedFd| rustix::io::fcntl_dupfd_cloexec(&fd, ABOVE_TARGETS);
    let engine = EngineEnds {
        requests: request_write,
        responses: response_read,
        handover,
    };
    let host = HostEnds {
        requests: high(request_read)?,
        responses: high(response_write)?,
        handover: high(handover_child)?,
    };
    Ok((engine, host))
}

/// A running `agon-host`: the engine's child, until it is reaped.
pub(super) struct HostChild {
    pid: u32,
    /// Once reaped, its pid may name another process: it is never signalled again.
    reaped: bool,
}

impl HostChild {
    pub fn id(&self) -> u32 {
        self.pid
    }

    /// The exit status if the host has exited (and reaps it then), without waiting.
    pub fn try_wait(&mut self) -> std::io::Result<Option<ExitStatus>> {
        let mut status = 0;
        // SAFETY: waitpid on our own child, with a pointer to a local.
        match unsafe { libc::waitpid(self.pid as libc::pid_t, &mut status, libc::WNOHANG) } {
            0 => Ok(None),
            -1 => Err(std::io::Error::last_os_error()),
            _ => {
                self.reaped = true;
                Ok(Some(ExitStatus::from_raw(status)))
            }
        }
    }

    /// SIGKILL to the host, unless it has been reaped.
    pub fn kill(&mut self) -> std::io::Result<()> {
        if self.reaped {
            return Err(std::io::Error::other("the host has been reaped"));
        }
        // SAFETY: kill with integer arguments, to our own unreaped child.
        if unsafe { libc::kill(self.pid as libc::pid_t, libc::SIGKILL) } == 0 {
            Ok(())
        } else {
            Err(std::io::Error::last_os_error())
        }
    }
}

/// A spawned host and the engine's end of its stderr.
pub(super) struct Spawned {
    pub child: HostChild,
    pub stderr: OwnedFd,
}

/// What the spawner thread is asked: the executable, the host's ends, where the answer goes.
type SpawnRequest = (
    CString,
    HostEnds,
    crossbeam_channel::Sender<std::io::Result<Spawned>>,
);

/// Spawns `agon-host` at `executable` on `ends` (closed in the engine once it is spawned),
/// from a thread that lasts as long as the engine. A host's parent-death signal fires when the
/// thread that started it ends, not the engine: a host started on a thread that starts one
/// game's seats side by side and then ends would be killed with that thread.
pub(super) fn spawn_lasting(executable: &Path, ends: HostEnds) -> std::io::Result<Spawned> {
    static SPAWNER: OnceLock<std::io::Result<crossbeam_channel::Sender<SpawnRequest>>> =
        OnceLock::new();
    let spawner = SPAWNER.get_or_init(|| {
        let (requests, received) = crossbeam_channel::unbounded::<SpawnRequest>();
        std::thread::Builder::new()
            .name("host-spawner".into())
            .spawn(move || {
                for (executable, ends, reply) in received {
                    let _ = reply.send(spawn(&executable, &ends));
                }
            })
            .map(|_| requests)
    });
    let spawner = spawner
        .as_ref()
        .map_err(|e| std::io::Error::new(e.kind(), format!("no thread to start hosts: {e}")))?;
    let executable = CString::new(executable.as_os_str().as_bytes())
        .map_err(|_| std::io::Error::other("the agon-host path holds a NUL byte"))?;
    let (reply, spawned) = crossbeam_channel::bounded(1);
    let gone = || std::io::Error::other("the thread that starts hosts has ended");
    spawner
        .send((executable, ends, reply))
        .map_err(|_| gone())?;
    spawned.recv().map_err(|_| gone())?
}

/// `posix_spawn` of `executable`, with the engine's pid as its one argument (for its check that
/// it still has the engine for a parent): no environment, standard input and output on
/// `/dev/null`, standard error on a new pipe, the host's ends on descriptors 3, 4 and
/// [`notifier::HANDOVER_FD`] and every other descriptor closed (an operator's `7<secret`, a
/// pipe of the calling shell), a process group of its own, no blocked signals and SIGPIPE at
/// its default.
fn spawn(executable: &CStr, ends: &HostEnds) -> std::io::Result<Spawned> {
    let (stderr_read, stderr_write) = pipe_with(PipeFlags::CLOEXEC)?;
    let stderr_write = rustix::io::fcntl_dupfd_cloexec(&stderr_write, ABOVE_TARGETS)?;
    let parent = CString::new(rustix::process::getpid().as_raw_nonzero().to_string())
        .expect("digits hold no NUL");
    let argv = [
        executable.as_ptr() as *mut libc::c_char,
        parent.as_ptr() as *mut libc::c_char,
        std::ptr::null_mut(),
    ];
    let envp = [std::ptr::null_mut::<libc::c_char>()];
    let moves = [
        (stderr_write.as_raw_fd(), 2),
        (ends.requests.as_raw_fd(), 3),
        (ends.responses.as_raw_fd(), 4),
        (ends.handover.as_raw_fd(), notifier::HANDOVER_FD),
    ];
    let mut pid: libc::pid_t = 0;
    // SAFETY: the file actions and attributes are initialised before use and destroyed once;
    // every pointer handed to posix_spawn (paths, argv, envp) outlives the call.
    let spawned = unsafe {
        let mut actions: libc::posix_spawn_file_actions_t = std::mem::zeroed();
        let mut attributes: libc::posix_spawnattr_t = std::mem::zeroed();
        check(libc::posix_spawn_file_actions_init(&mut actions))?;
        if let Err(e) = check(libc::posix_spawnattr_init(&mut attributes)) {
            libc::posix_spawn_file_actions_destroy(&mut actions);
            return Err(e);
        }
        let prepared = prepare(&mut actions, &mut attributes, &moves);
        let result = prepared.and_then(|()| {
            check(libc::posix_spawn(
                &mut pid,
                executable.as_ptr(),
                &actions,
                &attributes,
                argv.as_ptr(),
                envp.as_ptr(),
            ))
        });
        libc::posix_spawn_file_actions_destroy(&mut actions);
        libc::posix_spawnattr_destroy(&mut attributes);
        result
    };
    spawned?;
    Ok(Spawned {
        child: HostChild {
            pid: pid as u32,
            reaped: false,
        },
        stderr: stderr_read,
    })
}

/// The spawn's file actions (`moves` as `(from, to)`, sources above every target) and its
/// attributes.
///
/// # Safety
/// `actions` and `attributes` must be initialised.
unsafe fn prepare(
    actions: &mut libc::posix_spawn_file_actions_t,
    attributes: &mut libc::posix_spawnattr_t,
    moves: &[(i32, i32)],
) -> std::io::Result<()> {
    let null = c"/dev/null".as_ptr();
    check(libc::posix_spawn_file_actions_addopen(
        actions,
        0,
        null,
        libc::O_RDONLY,
        0,
    ))?;
    check(libc::posix_spawn_file_actions_addopen(
        actions,
        1,
        null,
        libc::O_WRONLY,
        0,
    ))?;
    for &(from, to) in moves {
        check(libc::posix_spawn_file_actions_adddup2(actions, from, to))?;
    }
    check(libc::posix_spawn_file_actions_addclosefrom_np(
        actions,
        notifier::HANDOVER_FD + 1,
    ))?;
    let mut none: libc::sigset_t = std::mem::zeroed();
    libc::sigemptyset(&mut none);
    let mut pipe: libc::sigset_t = std::mem::zeroed();
    libc::sigemptyset(&mut pipe);
    libc::sigaddset(&mut pipe, libc::SIGPIPE);
    check(libc::posix_spawnattr_setsigmask(attributes, &none))?;
    check(libc::posix_spawnattr_setsigdefault(attributes, &pipe))?;
    check(libc::posix_spawnattr_setpgroup(attributes, 0))?;
    let flags =
        libc::POSIX_SPAWN_SETPGROUP | libc::POSIX_SPAWN_SETSIGMASK | libc::POSIX_SPAWN_SETSIGDEF;
    check(libc::posix_spawnattr_setflags(
        attributes,
        flags as libc::c_short,
    ))
}

/// A posix_spawn family result: 0, or the error number itself.
fn check(result: libc::c_int) -> std::io::Result<()> {
    match result {
        0 => Ok(()),
        errno => Err(std::io::Error::from_raw_os_error(errno)),
    }
}

/// Raises the engine's soft limit on open files to its hard limit. Every process host holds
/// four descriptors in the engine (its request and answer pipes, its stderr and its refusal
/// listener), so 200 games at once need more than the soft limit of 1,024 most systems start
/// a shell with, while the hard limit is usually far higher. The hosts do not keep it: the
/// engine sets theirs before they read their hello.
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A spawned process is waited for without blocking, reaped once, and its pid, which may
    /// name another process from then on, is never signalled again.
    #[test]
    fn a_reaped_host_is_never_signalled() {
        let (_engine, host) = open_channels().expect("pipes");
        let mut spawned = spawn(c"/bin/true", &host).expect("true runs");
        let status = loop {
            if let Some(status) = spawned.child.try_wait().expect("a wait") {
                break status;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        assert!(status.success(), "{status:?}");
        assert!(spawned.child.kill().is_err());
    }
}
