//! Namespaces of the host's own: IPC (no SysV object or message queue outlives the host or is
//! shared with the opponent), UTS (a host name of its own), mount (mount attributes changed
//! inside change nothing outside), and a user namespace, in which the host holds no capability
//! and whose task count `RLIMIT_NPROC` bounds per host (the kernel counts tasks per user
//! namespace since Linux 5.14), so a bot cannot exhaust the machine's process ids with threads.
//!
//! No network namespace: creating and tearing one down cost about 1 ms of every host's start-up
//! here (start-up median 2.4-3.2 ms without, 3.0-4.3 ms with, `agon bench --suite hosts`),
//! against a 3 ms target, and the seccomp allow-list already kills the host on every socket
//! call, so a bot has no network to reach either way.
//!
//! No PID namespace: `unshare(CLONE_NEWPID)` would make every later thread creation fail, and
//! the seccomp filter refuses process creation, so every task of a host is one of its threads,
//! killed with it.

use super::privileges::Identity;

/// The namespaces other than the user namespace, by flag and name.
const SYSTEM: [(libc::c_int, &str); 3] = [
    (libc::CLONE_NEWIPC, "ipc"),
    (libc::CLONE_NEWUTS, "uts"),
    (libc::CLONE_NEWNS, "mount"),
];

fn flags_of(names: &[(libc::c_int, &str)]) -> libc::c_int {
    names.iter().fold(0, |all, (flag, _)| all | flag)
}

fn unshare(flags: libc::c_int) -> Result<(), String> {
    // SAFETY: unshare with integer flags; the host is single-threaded when it calls it.
    if unsafe { libc::unshare(flags) } == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error().to_string())
    }
}

/// The name every host has in its UTS namespace: the copy of the machine's own name it starts
/// with would tell a bot which machine it runs on.
pub const HOST_NAME: &str = "agon";

/// Names the host [`HOST_NAME`] in its UTS namespace (it must hold `CAP_SYS_ADMIN` there).
pub fn name_the_host() -> Result<(), String> {
    // SAFETY: sethostname reads the given bytes.
    if unsafe { libc::sethostname(HOST_NAME.as_ptr().cast(), HOST_NAME.len()) } == 0 {
        Ok(())
    } else {
        Err(format!("host name: {}", std::io::Error::last_os_error()))
    }
}

/// The IPC, UTS and mount namespaces, while the host still holds root's capabilities.
pub fn enter_system_namespaces() -> Result<Vec<&'static str>, String> {
    unshare(flags_of(&SYSTEM))?;
    Ok(SYSTEM.iter().map(|(_, name)| *name).collect())
}

/// A user namespace in which `identity` maps to itself, and (for a host that did not start as
/// root) the other namespaces with it, which an unprivileged process may create only together
/// with a user namespace.
pub fn enter_user_namespace(
    identity: Identity,
    with_system: bool,
) -> Result<Vec<&'static str>, String> {
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
        std::fs::write(file, text).map_err(|e| format!("writing {file}: {e}"))
    };
    write("/proc/self/setgroups", "deny".into())?;
    write("/proc/self/uid_map", format!("{0} {0} 1\n", identity.uid))?;
    write("/proc/self/gid_map", format!("{0} {0} 1\n", identity.gid))?;
    let mut entered = vec!["user"];
    if with_system {
        entered.extend(SYSTEM.iter().map(|(_, name)| *name));
    }
    Ok(entered)
}
