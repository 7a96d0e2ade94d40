//! Namespaces of the host's own: IPC (no SysV object or message queue outlives the host or is
//! shared with the opponent), UTS (a host name of its own), mount (a root file system of its
//! own, [`super::own_root`]), and a user namespace, in which the host holds no capability
//! and whose task count `RLIMIT_NPROC` bounds per host (the kernel counts tasks per user
//! namespace since Linux 5.14), so a bot cannot exhaust the machine's process ids with threads.
//!
//! No network namespace: creating and tearing one down cost about 1 ms of every host's start-up
//! here (start-up median 2.4-3.2 ms without, 3.0-4.3 ms with, `agon bench --suite hosts`),
//! against a 3 ms target, and the seccomp allow-list already kills the host on every socket
//! call, so a bot has no network to reach either way.
//!
//! A PID namespace: `unshare(CLONE_NEWPID)` moves only the children made afterwards, so the
//! host forks into it once confined ([`super::supervisor`]); the bot's process is pid 1 there
//! and sees no other. (The seccomp filter answers queries about other pids "no such process"
//! and `getppid` 0 as well, for hosts where the namespace cannot be made.)

use super::privileges::Identity;
use super::ConfineError;

/// The namespaces other than the user namespace, by flag and name. The PID namespace takes
/// the host's children only: the host forks into it once confined ([`super::supervisor`]).
const SYSTEM: [(libc::c_int, &str); 4] = [
    (libc::CLONE_NEWIPC, "ipc"),
    (libc::CLONE_NEWUTS, "uts"),
    (libc::CLONE_NEWNS, "mount"),
    (libc::CLONE_NEWPID, "pid"),
];

fn flags_of(names: &[(libc::c_int, &str)]) -> libc::c_int {
    names.iter().fold(0, |all, (flag, _)| all | flag)
}

fn unshare(flags: libc::c_int) -> Result<(), ConfineError> {
    // SAFETY: unshare with integer flags; the host is single-threaded when it calls it.
    if unsafe { libc::unshare(flags) } == 0 {
        Ok(())
    } else {
        Err(ConfineError::last_os("unshare"))
    }
}

/// The name every host has in its UTS namespace: the copy of the machine's own name it starts
/// with would tell a bot which machine it runs on.
pub const HOST_NAME: &str = "agon";

/// Names the host [`HOST_NAME`] in its UTS namespace (it must hold `CAP_SYS_ADMIN` there).
pub fn name_the_host() -> Result<(), ConfineError> {
    // SAFETY: sethostname reads the given bytes.
    if unsafe { libc::sethostname(HOST_NAME.as_ptr().cast(), HOST_NAME.len()) } == 0 {
        Ok(())
    } else {
        Err(ConfineError::last_os("host name"))
    }
}

/// The IPC, UTS, mount and PID namespaces, while the host still holds root's capabilities.
pub fn enter_system_namespaces() -> Result<Vec<&'static str>, ConfineError> {
    unshare(flags_of(&SYSTEM))?;
    Ok(SYSTEM.iter().map(|(_, name)| *name).collect())
}

/// A user namespace in which `identity` maps to itself, and (for a host that did not start as
/// root) the other namespaces with it, which an unprivileged process may create only together
/// with a user namespace. The maps are written through `proc_self` (`/proc/self`, opened
/// before a host started as root left the machine's root file system).
pub fn enter_user_namespace(
    identity: Identity,
    with_system: bool,
    proc_self: &std::fs::File,
) -> Result<Vec<&'static str>, ConfineError> {
    let mut flags = libc::CLONE_NEWUSER;
    if with_system {
        flags |= flags_of(&SYSTEM);
    }
    // The maps are written through /proc/self, which a process that changed its uid no longer
    // owns unless it is dumpable; the host is made undumpable again once confined.
    // SAFETY: prctl with integer arguments.
    unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 1, 0, 0, 0) };
    unshare(flags)?;
    let write = |file: &str, text: String| {
        let fd = rustix::fs::openat(
            proc_self,
            file,
            rustix::fs::OFlags::WRONLY | rustix::fs::OFlags::CLOEXEC,
            rustix::fs::Mode::empty(),
        )
        .map_err(|e| ConfineError::call(format!("opening /proc/self/{file}"))(e))?;
        rustix::io::write(&fd, text.as_bytes())
            .map(|_| ())
            .map_err(|e| ConfineError::call(format!("writing /proc/self/{file}"))(e))
    };
    write("setgroups", "deny".into())?;
    write("uid_map", format!("{0} {0} 1\n", identity.uid))?;
    write("gid_map", format!("{0} {0} 1\n", identity.gid))?;
    let mut entered = vec!["user"];
    if with_system {
        entered.extend(SYSTEM.iter().map(|(_, name)| *name));
    }
    Ok(entered)
}
