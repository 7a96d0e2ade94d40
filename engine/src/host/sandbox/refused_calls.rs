//! What a refused system call was, in words a student can act on: its name (from the numbers
//! of the architecture the engine was built for) and the sandbox rule that refused it. The
//! number comes from the host's refusal line ([`super::refusal_line`]).

/// The rules of the allow-list ([`super::seccomp`]), as a bot's author meets them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rule {
    Threads,
    Programs,
    Network,
    Tracing,
    FileChanges,
    Mounts,
    FileWatching,
    Namespaces,
    Identity,
    Ipc,
    MemoryLocking,
    Signals,
    ProcessSettings,
    SharedState,
    Machine,
}

impl Rule {
    fn explanation(self) -> &'static str {
        match self {
            Rule::Threads => {
                "it starts a thread or a process: a bot may start threads only where the match \
                 allows them (`--threads N`; a tournament's `[sandbox] threads`), and never a \
                 process"
            }
            Rule::Programs => {
                "it runs or waits for another program, which the process host never allows"
            }
            Rule::Network => "networking, which the process host never allows",
            Rule::Tracing => {
                "it traces or reads another process, which the process host never allows"
            }
            Rule::FileChanges => {
                "it creates, changes or removes a file or its metadata: a bot may only read its \
                 own library and the system's shared libraries"
            }
            Rule::Mounts => "mounting file systems, which the process host never allows",
            Rule::FileWatching => "watching file activity, which the process host never allows",
            Rule::Namespaces => "namespaces, which the process host never allows",
            Rule::Identity => {
                "it changes the process's identity or capabilities, which the process host \
                 never allows"
            }
            Rule::Ipc => {
                "SysV IPC or message queues, which the process host never allows (threads \
                 under `--threads N` share memory instead)"
            }
            Rule::MemoryLocking => "locking memory, which the process host never allows",
            Rule::Signals => {
                "signals: a bot may signal only itself, never with SIGKILL, SIGTERM, SIGINT, \
                 SIGHUP or a stop signal (SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU), may not arm timers or other signal sources, and may not change how \
                 SIGSYS is handled"
            }
            Rule::ProcessSettings => {
                "it changes the process's group, limits, scheduling or other settings, or \
                 takes a record lock other processes would see (of `ioctl`, `fcntl`, `prctl` \
                 and `prlimit64` only the harmless requests the standard library makes are \
                 allowed)"
            }
            Rule::SharedState => {
                "it would share state with other processes (a lock, a shared mapping, the \
                 page cache every process uses), a channel between bots the process host never \
                 allows: map files privately, and leave the page cache alone"
            }
            Rule::Machine => "it administers the machine, which the process host never allows",
        }
    }
}

/// `libc::SYS_name` with its name and rule.
macro_rules! call {
    ($number:ident, $rule:ident) => {
        (libc::$number, stringify!($number), Rule::$rule)
    };
}

/// The calls a bot is likely to make and be refused, by rule. Calls of the allow-list are not
/// here: a call refused for its arguments (`clone`, `ioctl`, ...) is, under its rule.
const KNOWN: &[(i64, &str, Rule)] = &[
    call!(SYS_clone, Threads),
    call!(SYS_clone3, Threads),
    call!(SYS_execve, Programs),
    call!(SYS_execveat, Programs),
    call!(SYS_wait4, Programs),
    call!(SYS_waitid, Programs),
    call!(SYS_socket, Network),
    call!(SYS_socketpair, Network),
    call!(SYS_connect, Network),
    call!(SYS_bind, Network),
    call!(SYS_listen, Network),
    call!(SYS_accept, Network),
    call!(SYS_accept4, Network),
    call!(SYS_sendto, Network),
    call!(SYS_recvfrom, Network),
    call!(SYS_sendmsg, Network),
    call!(SYS_recvmsg, Network),
    call!(SYS_shutdown, Network),
    call!(SYS_getsockopt, Network),
    call!(SYS_setsockopt, Network),
    call!(SYS_getsockname, Network),
    call!(SYS_getpeername, Network),
    call!(SYS_ptrace, Tracing),
    call!(SYS_process_vm_readv, Tracing),
    call!(SYS_process_vm_writev, Tracing),
    call!(SYS_perf_event_open, Tracing),
    call!(SYS_kcmp, Tracing),
    call!(SYS_pidfd_open, Tracing),
    call!(SYS_pidfd_getfd, Tracing),
    call!(SYS_fchmod, FileChanges),
    call!(SYS_fchmodat, FileChanges),
    call!(SYS_fchown, FileChanges),
    call!(SYS_fchownat, FileChanges),
    call!(SYS_utimensat, FileChanges),
    call!(SYS_setxattr, FileChanges),
    call!(SYS_lsetxattr, FileChanges),
    call!(SYS_fsetxattr, FileChanges),
    call!(SYS_removexattr, FileChanges),
    call!(SYS_fremovexattr, FileChanges),
    call!(SYS_renameat, FileChanges),
    call!(SYS_renameat2, FileChanges),
    call!(SYS_unlinkat, FileChanges),
    call!(SYS_mkdirat, FileChanges),
    call!(SYS_mknodat, FileChanges),
    call!(SYS_linkat, FileChanges),
    call!(SYS_symlinkat, FileChanges),
    call!(SYS_truncate, FileChanges),
    call!(SYS_ftruncate, FileChanges),
    call!(SYS_fallocate, FileChanges),
    call!(SYS_memfd_create, FileChanges),
    call!(SYS_flock, SharedState),
    call!(SYS_mmap, SharedState),
    call!(SYS_madvise, SharedState),
    call!(SYS_mincore, SharedState),
    call!(SYS_fadvise64, SharedState),
    call!(SYS_readahead, SharedState),
    call!(SYS_membarrier, SharedState),
    call!(SYS_capget, Tracing),
    call!(SYS_fsync, FileChanges),
    call!(SYS_fdatasync, FileChanges),
    call!(SYS_mount, Mounts),
    call!(SYS_umount2, Mounts),
    call!(SYS_pivot_root, Mounts),
    call!(SYS_chroot, Mounts),
    call!(SYS_mount_setattr, Mounts),
    call!(SYS_fsopen, Mounts),
    call!(SYS_fsmount, Mounts),
    call!(SYS_fsconfig, Mounts),
    call!(SYS_fspick, Mounts),
    call!(SYS_open_tree, Mounts),
    call!(SYS_move_mount, Mounts),
    call!(SYS_inotify_init1, FileWatching),
    call!(SYS_inotify_add_watch, FileWatching),
    call!(SYS_fanotify_init, FileWatching),
    call!(SYS_fanotify_mark, FileWatching),
    call!(SYS_unshare, Namespaces),
    call!(SYS_setns, Namespaces),
    call!(SYS_setuid, Identity),
    call!(SYS_setgid, Identity),
    call!(SYS_setreuid, Identity),
    call!(SYS_setregid, Identity),
    call!(SYS_setresuid, Identity),
    call!(SYS_setresgid, Identity),
    call!(SYS_setfsuid, Identity),
    call!(SYS_setfsgid, Identity),
    call!(SYS_setgroups, Identity),
    call!(SYS_capset, Identity),
    call!(SYS_shmget, Ipc),
    call!(SYS_shmat, Ipc),
    call!(SYS_shmctl, Ipc),
    call!(SYS_shmdt, Ipc),
    call!(SYS_msgget, Ipc),
    call!(SYS_msgsnd, Ipc),
    call!(SYS_msgrcv, Ipc),
    call!(SYS_msgctl, Ipc),
    call!(SYS_semget, Ipc),
    call!(SYS_semop, Ipc),
    call!(SYS_semctl, Ipc),
    call!(SYS_mq_open, Ipc),
    call!(SYS_mq_notify, Ipc),
    call!(SYS_mlock, MemoryLocking),
    call!(SYS_mlock2, MemoryLocking),
    call!(SYS_mlockall, MemoryLocking),
    call!(SYS_munlock, MemoryLocking),
    call!(SYS_munlockall, MemoryLocking),
    call!(SYS_kill, Signals),
    call!(SYS_tgkill, Signals),
    call!(SYS_tkill, Signals),
    call!(SYS_rt_sigqueueinfo, Signals),
    call!(SYS_rt_tgsigqueueinfo, Signals),
    call!(SYS_pidfd_send_signal, Signals),
    call!(SYS_rt_sigaction, Signals),
    call!(SYS_signalfd4, Signals),
    call!(SYS_timer_create, Signals),
    call!(SYS_timerfd_create, Signals),
    call!(SYS_setitimer, Signals),
    call!(SYS_setpgid, ProcessSettings),
    call!(SYS_setsid, ProcessSettings),
    call!(SYS_prctl, ProcessSettings),
    call!(SYS_prlimit64, ProcessSettings),
    call!(SYS_setrlimit, ProcessSettings),
    call!(SYS_setpriority, ProcessSettings),
    call!(SYS_sched_setaffinity, ProcessSettings),
    call!(SYS_sched_setscheduler, ProcessSettings),
    call!(SYS_sched_setparam, ProcessSettings),
    call!(SYS_sched_setattr, ProcessSettings),
    call!(SYS_ioctl, ProcessSettings),
    call!(SYS_fcntl, ProcessSettings),
    call!(SYS_personality, ProcessSettings),
    call!(SYS_seccomp, ProcessSettings),
    call!(SYS_umask, ProcessSettings),
    call!(SYS_sethostname, Machine),
    call!(SYS_setdomainname, Machine),
    call!(SYS_sync, Machine),
    call!(SYS_syncfs, Machine),
    call!(SYS_reboot, Machine),
    call!(SYS_swapon, Machine),
    call!(SYS_swapoff, Machine),
    call!(SYS_init_module, Machine),
    call!(SYS_finit_module, Machine),
    call!(SYS_delete_module, Machine),
    call!(SYS_kexec_load, Machine),
    call!(SYS_acct, Machine),
    call!(SYS_settimeofday, Machine),
    call!(SYS_clock_settime, Machine),
    call!(SYS_adjtimex, Machine),
    call!(SYS_clock_adjtime, Machine),
    call!(SYS_bpf, Machine),
    call!(SYS_keyctl, Machine),
    call!(SYS_add_key, Machine),
    call!(SYS_request_key, Machine),
    call!(SYS_userfaultfd, Machine),
    call!(SYS_io_uring_setup, Machine),
    call!(SYS_syslog, Machine),
    call!(SYS_quotactl, Machine),
];

/// More calls like [`KNOWN`]'s that only x86_64 has: older forms that other architectures
/// leave to `clone`, the `*at` calls and the like.
#[cfg(target_arch = "x86_64")]
const KNOWN_X86_64: &[(i64, &str, Rule)] = &[
    call!(SYS_fork, Threads),
    call!(SYS_vfork, Threads),
    call!(SYS_chmod, FileChanges),
    call!(SYS_chown, FileChanges),
    call!(SYS_lchown, FileChanges),
    call!(SYS_rename, FileChanges),
    call!(SYS_unlink, FileChanges),
    call!(SYS_mkdir, FileChanges),
    call!(SYS_rmdir, FileChanges),
    call!(SYS_creat, FileChanges),
    call!(SYS_link, FileChanges),
    call!(SYS_symlink, FileChanges),
    call!(SYS_utime, FileChanges),
    call!(SYS_utimes, FileChanges),
    call!(SYS_inotify_init, FileWatching),
    call!(SYS_alarm, Signals),
    call!(SYS_signalfd, Signals),
];
#[cfg(not(target_arch = "x86_64"))]
const KNOWN_X86_64: &[(i64, &str, Rule)] = &[];

/// Every call of [`KNOWN`] and [`KNOWN_X86_64`] on the architecture the engine was built for.
fn all_known() -> impl Iterator<Item = &'static (i64, &'static str, Rule)> {
    KNOWN.iter().chain(KNOWN_X86_64)
}

/// The name of call `number` (without the `SYS_` prefix) and its rule, where it is one of
/// [`KNOWN`] or [`KNOWN_X86_64`].
fn known(number: i64) -> Option<(&'static str, Rule)> {
    all_known()
        .find(|(known, _, _)| *known == number)
        .map(|&(_, name, rule)| (name.strip_prefix("SYS_").unwrap_or(name), rule))
}

/// A fault's detail for a host that died of SIGSYS, from the number its refusal line gave
/// (`None`: there was no line).
pub fn describe(number: Option<i32>) -> String {
    let arch = std::env::consts::ARCH;
    match number.map(|n| (n, known(n.into()))) {
        Some((number, Some((name, rule)))) => format!(
            "the sandbox refused the system call `{name}` (number {number} on {arch}): {}",
            rule.explanation()
        ),
        Some((number, None)) => format!(
            "the sandbox refused system call number {number} on {arch}: it is not on the \
             process host's allow-list (the calls the standard library makes for memory, time, \
             its own threads and reading files)"
        ),
        // The C library blocks every signal while it starts a thread or a process, which keeps
        // the host's handler from writing its line (see `sigsys_handler`).
        None => format!(
            "the sandbox refused a system call that the host could not name (the bot's thread \
             had signals blocked, as the C library has them while it starts a thread or a \
             process, so most likely `clone` or `clone3`): {}",
            Rule::Threads.explanation()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_calls_are_named_with_their_rule() {
        let clone = describe(Some(libc::SYS_clone as i32));
        assert!(
            clone.contains("`clone`") && clone.contains("--threads N"),
            "{clone}"
        );
        let socket = describe(Some(libc::SYS_socket as i32));
        assert!(
            socket.contains("`socket`") && socket.contains("never"),
            "{socket}"
        );
        assert_eq!(known(libc::SYS_execve), Some(("execve", Rule::Programs)));
        assert_eq!(known(libc::SYS_ptrace), Some(("ptrace", Rule::Tracing)));
        let shared = describe(Some(libc::SYS_mmap as i32));
        assert!(
            shared.contains("`mmap`") && shared.contains("privately"),
            "{shared}"
        );
    }

    #[test]
    fn unknown_numbers_are_given_as_numbers() {
        for number in [i32::MAX, -1, i32::MIN, 100_000] {
            let detail = describe(Some(number));
            assert!(detail.contains(&format!("number {number}")), "{detail}");
        }
    }

    #[test]
    fn without_a_line_the_likely_call_is_said_to_be_likely() {
        let detail = describe(None);
        assert!(
            detail.contains("could not name") && detail.contains("`clone`"),
            "{detail}"
        );
        assert!(detail.contains("--threads N"), "{detail}");
    }

    #[test]
    fn no_number_is_listed_twice() {
        let all: Vec<_> = all_known().collect();
        for (i, (number, name, _)) in all.iter().enumerate() {
            assert!(
                all[i + 1..].iter().all(|(other, _, _)| other != number),
                "{name}"
            );
        }
    }
}
