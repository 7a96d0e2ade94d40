//! The seccomp filters of the process host. Three filters are stacked (the kernel applies the
//! most severe verdict of all):
//!
//! - an allow-list: the calls a bot legitimately makes through the standard library (memory,
//!   time, futexes, its own threads, reading and writing its descriptors, loading its library);
//!   any other call fails with `EPERM`, so a library that probes for an optional call still
//!   works, and a new kernel's call is refused until it is reviewed;
//! - a kill list: calls no bot has a use for and that an attacker would make (process creation,
//!   sockets, tracing, file metadata, mounts, SysV IPC, namespaces, identity changes, signals
//!   to others, kernel administration), and forbidden variants of allowed calls; one of them
//!   kills the host with `SIGSYS`, recorded as `refused_syscall`;
//! - `clone3` answers "not implemented", so that the C library falls back to `clone`, whose
//!   flags a filter can read.

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};
use std::collections::BTreeMap;

#[cfg(target_arch = "x86_64")]
const ARCH: TargetArch = TargetArch::x86_64;
#[cfg(target_arch = "aarch64")]
const ARCH: TargetArch = TargetArch::aarch64;

/// Calls allowed with any arguments (the kill list narrows `kill`, `tgkill`, `fcntl`,
/// `prlimit64` and `clone`). Paths are confined by Landlock, not here.
const ALLOWED: &[i64] = &[
    libc::SYS_read,
    libc::SYS_write,
    libc::SYS_readv,
    libc::SYS_writev,
    libc::SYS_pread64,
    libc::SYS_pwrite64,
    libc::SYS_close,
    libc::SYS_lseek,
    libc::SYS_openat,
    libc::SYS_newfstatat,
    libc::SYS_fstat,
    libc::SYS_statx,
    libc::SYS_readlinkat,
    libc::SYS_faccessat,
    libc::SYS_faccessat2,
    libc::SYS_getcwd,
    libc::SYS_getdents64,
    libc::SYS_mmap,
    libc::SYS_mprotect,
    libc::SYS_munmap,
    libc::SYS_mremap,
    libc::SYS_madvise,
    libc::SYS_mincore,
    libc::SYS_brk,
    libc::SYS_rt_sigaction,
    libc::SYS_rt_sigprocmask,
    libc::SYS_rt_sigreturn,
    libc::SYS_sigaltstack,
    libc::SYS_futex,
    libc::SYS_futex_waitv,
    libc::SYS_set_robust_list,
    libc::SYS_rseq,
    libc::SYS_set_tid_address,
    libc::SYS_membarrier,
    libc::SYS_sched_yield,
    libc::SYS_sched_getaffinity,
    libc::SYS_sched_getparam,
    libc::SYS_sched_getscheduler,
    libc::SYS_nanosleep,
    libc::SYS_clock_nanosleep,
    libc::SYS_clock_gettime,
    libc::SYS_clock_getres,
    libc::SYS_gettimeofday,
    libc::SYS_getpid,
    libc::SYS_gettid,
    libc::SYS_getppid,
    libc::SYS_getuid,
    libc::SYS_geteuid,
    libc::SYS_getgid,
    libc::SYS_getegid,
    libc::SYS_getresuid,
    libc::SYS_getresgid,
    libc::SYS_exit,
    libc::SYS_exit_group,
    libc::SYS_getrandom,
    libc::SYS_uname,
    libc::SYS_getrusage,
    libc::SYS_times,
    libc::SYS_ppoll,
    libc::SYS_pselect6,
    libc::SYS_epoll_create1,
    libc::SYS_epoll_ctl,
    libc::SYS_epoll_pwait,
    libc::SYS_epoll_pwait2,
    libc::SYS_eventfd2,
    libc::SYS_pipe2,
    libc::SYS_dup,
    libc::SYS_dup3,
    libc::SYS_kill,
    libc::SYS_tgkill,
    libc::SYS_fcntl,
    libc::SYS_prlimit64,
    libc::SYS_clone,
    // Answered "not implemented" by its own filter: of two equal verdicts the kernel keeps the
    // data of the filter installed last, so the allow-list must not answer EPERM for it.
    libc::SYS_clone3,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_arch_prctl,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_access,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_readlink,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_stat,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_lstat,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_open,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_poll,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_select,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_dup2,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_pipe,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_epoll_create,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_epoll_wait,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_eventfd,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_time,
];

/// The only `ioctl` requests allowed, those the standard library makes on its own descriptors
/// (asm-generic/ioctls.h): TCGETS (isatty), TIOCGWINSZ, FIONREAD, FIONBIO, FIONCLEX, FIOCLEX.
/// File-system requests (freeze, shut down, set the immutable flag) are refused.
const ALLOWED_IOCTLS: [u64; 6] = [0x5401, 0x5413, 0x541B, 0x5421, 0x5450, 0x5451];

/// The only `prctl` options allowed (linux/prctl.h): PR_GET_DUMPABLE, PR_SET_NAME, PR_GET_NAME,
/// PR_GET_SECCOMP, PR_CAPBSET_READ, PR_SET_NO_NEW_PRIVS (only ever more restrictive),
/// PR_GET_NO_NEW_PRIVS, PR_SET_VMA (the C library names thread stacks with it).
const ALLOWED_PRCTLS: [u64; 8] = [3, 15, 16, 21, 23, 38, 39, 0x5356_4d41];

/// Calls that kill the host: process creation and exec, sockets, tracing other processes, file
/// metadata and names, mounts (old and new API), file-system notification, SysV IPC and message
/// queues, namespaces, identities, memory locking, and administration of the kernel, keys,
/// modules and clocks.
const KILLED: &[i64] = &[
    libc::SYS_execve,
    libc::SYS_execveat,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_fork,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_vfork,
    libc::SYS_socket,
    libc::SYS_socketpair,
    libc::SYS_connect,
    libc::SYS_bind,
    libc::SYS_listen,
    libc::SYS_accept,
    libc::SYS_accept4,
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_pidfd_open,
    libc::SYS_pidfd_getfd,
    libc::SYS_pidfd_send_signal,
    libc::SYS_tkill,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_chroot,
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_userfaultfd,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_kexec_load,
    libc::SYS_reboot,
    libc::SYS_swapon,
    libc::SYS_swapoff,
    libc::SYS_acct,
    libc::SYS_settimeofday,
    libc::SYS_clock_settime,
    libc::SYS_clock_adjtime,
    libc::SYS_adjtimex,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_mknodat,
    libc::SYS_setuid,
    libc::SYS_setgid,
    libc::SYS_setreuid,
    libc::SYS_setregid,
    libc::SYS_setresuid,
    libc::SYS_setresgid,
    // Leaving the process group or session would escape the watchdog's group kill.
    libc::SYS_setpgid,
    libc::SYS_setsid,
    // Limits and scheduling: a bot must not change the engine's, nor raise its own.
    libc::SYS_setrlimit,
    libc::SYS_setpriority,
    libc::SYS_sched_setaffinity,
    libc::SYS_sched_setscheduler,
    libc::SYS_sched_setparam,
    libc::SYS_sched_setattr,
    libc::SYS_ioprio_set,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_iopl,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_ioperm,
    libc::SYS_kexec_file_load,
    libc::SYS_syslog,
    // Ways to have a signal of one's choosing delivered later or to oneself with its sender
    // hidden; see `SELF_SIGNALS_REFUSED`.
    libc::SYS_rt_sigqueueinfo,
    libc::SYS_rt_tgsigqueueinfo,
    libc::SYS_timer_create,
    libc::SYS_mq_notify,
    // File metadata: Landlock does not cover it, and a bot could chmod, chown or tag any file
    // it can name.
    libc::SYS_fchmod,
    libc::SYS_fchmodat,
    libc::SYS_fchmodat2,
    libc::SYS_fchown,
    libc::SYS_fchownat,
    libc::SYS_utimensat,
    libc::SYS_setxattr,
    libc::SYS_lsetxattr,
    libc::SYS_fsetxattr,
    libc::SYS_removexattr,
    libc::SYS_lremovexattr,
    libc::SYS_fremovexattr,
    libc::SYS_linkat,
    libc::SYS_symlinkat,
    libc::SYS_unlinkat,
    libc::SYS_renameat,
    libc::SYS_renameat2,
    libc::SYS_mkdirat,
    libc::SYS_truncate,
    libc::SYS_ftruncate,
    libc::SYS_fallocate,
    libc::SYS_name_to_handle_at,
    libc::SYS_open_by_handle_at,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_chmod,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_chown,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_lchown,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_utime,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_utimes,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_futimesat,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_link,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_symlink,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_unlink,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_rename,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_mkdir,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_rmdir,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_creat,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_mknod,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_inotify_init,
    // The new mount API, file-system notification, and watching other processes' files.
    libc::SYS_mount_setattr,
    libc::SYS_fsopen,
    libc::SYS_fsconfig,
    libc::SYS_fsmount,
    libc::SYS_fspick,
    libc::SYS_open_tree,
    libc::SYS_move_mount,
    libc::SYS_fanotify_init,
    libc::SYS_fanotify_mark,
    libc::SYS_inotify_init1,
    libc::SYS_inotify_add_watch,
    libc::SYS_quotactl,
    libc::SYS_quotactl_fd,
    // Identities: setfsuid clears the parent-death signal (the host would outlive the engine).
    libc::SYS_setfsuid,
    libc::SYS_setfsgid,
    libc::SYS_setgroups,
    libc::SYS_capset,
    libc::SYS_personality,
    // SysV IPC and POSIX message queues: channels to the opponent and leftovers after the host.
    libc::SYS_shmget,
    libc::SYS_shmat,
    libc::SYS_shmctl,
    libc::SYS_shmdt,
    libc::SYS_msgget,
    libc::SYS_msgsnd,
    libc::SYS_msgrcv,
    libc::SYS_msgctl,
    libc::SYS_semget,
    libc::SYS_semop,
    libc::SYS_semctl,
    libc::SYS_semtimedop,
    libc::SYS_mq_open,
    libc::SYS_mq_unlink,
    libc::SYS_mq_timedsend,
    libc::SYS_mq_timedreceive,
    libc::SYS_mq_getsetattr,
    // The machine's name, its disks' caches, its memory.
    libc::SYS_sethostname,
    libc::SYS_setdomainname,
    libc::SYS_sync,
    libc::SYS_syncfs,
    libc::SYS_mlock,
    libc::SYS_mlock2,
    libc::SYS_mlockall,
    libc::SYS_vhangup,
    libc::SYS_kcmp,
    libc::SYS_process_madvise,
    libc::SYS_process_mrelease,
];

/// Signals a bot may not send itself: a host that dies of one of them was killed from outside
/// the engine, which is not the bot's fault (`host::process::classify_death`). Were a bot able
/// to fake that, it could have every game it is losing played again.
const SELF_SIGNALS_REFUSED: [i32; 4] = [libc::SIGKILL, libc::SIGTERM, libc::SIGINT, libc::SIGHUP];

/// fcntl(2) commands that choose the signal or the process a file's events signal (F_SETOWN,
/// F_SETSIG, F_SETOWN_EX; asm-generic/fcntl.h), and leases and directory notification
/// (F_SETLEASE, F_NOTIFY; linux/fcntl.h), which signal too.
const FCNTL_FORBIDDEN_COMMANDS: [i32; 5] = [8, 10, 15, 1024, 1026];

/// prctl(2) options (linux/prctl.h).
const PR_SET_PDEATHSIG: u64 = 1;
const PR_SET_CHILD_SUBREAPER: u64 = 36;
const PR_SET_PTRACER: u64 = 0x5961_6d61;

fn condition(arg: u8, op: SeccompCmpOp, value: u64) -> Result<SeccompCondition, String> {
    SeccompCondition::new(arg, SeccompCmpArgLen::Qword, op, value).map_err(|e| e.to_string())
}

/// Compares the low 32 bits: `pid_t` arguments are `int`s, whatever the register's upper half.
fn condition32(arg: u8, op: SeccompCmpOp, value: u64) -> Result<SeccompCondition, String> {
    SeccompCondition::new(arg, SeccompCmpArgLen::Dword, op, value).map_err(|e| e.to_string())
}

fn rule(conditions: Vec<SeccompCondition>) -> Result<SeccompRule, String> {
    SeccompRule::new(conditions).map_err(|e| e.to_string())
}

/// `clone` flags that make something other than a plain thread of this process: a new process
/// (no CLONE_THREAD, checked separately), new namespaces, another parent, tracing
/// (linux/sched.h).
const CLONE_FORBIDDEN_FLAGS: [u64; 11] = [
    libc::CLONE_NEWNS as u64,
    libc::CLONE_NEWCGROUP as u64,
    libc::CLONE_NEWUTS as u64,
    libc::CLONE_NEWIPC as u64,
    libc::CLONE_NEWUSER as u64,
    libc::CLONE_NEWPID as u64,
    libc::CLONE_NEWNET as u64,
    libc::CLONE_PARENT as u64,
    libc::CLONE_PTRACE as u64,
    libc::CLONE_UNTRACED as u64,
    libc::CLONE_VFORK as u64,
];

/// The allow-list: everything not listed fails with `EPERM`.
fn allow_filter() -> Result<BpfProgram, String> {
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> =
        ALLOWED.iter().map(|&call| (call, Vec::new())).collect();
    let any_of = |arg: u8, values: &[u64]| -> Result<Vec<SeccompRule>, String> {
        values
            .iter()
            .map(|&value| rule(vec![condition32(arg, SeccompCmpOp::Eq, value)?]))
            .collect()
    };
    rules.insert(libc::SYS_ioctl, any_of(1, &ALLOWED_IOCTLS)?);
    rules.insert(libc::SYS_prctl, any_of(0, &ALLOWED_PRCTLS)?);
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Errno(libc::EPERM as u32),
        SeccompAction::Allow,
        ARCH,
    )
    .map_err(|e| e.to_string())?;
    filter
        .try_into()
        .map_err(|e: seccompiler::BackendError| e.to_string())
}

/// The filter that kills on a hostile call. `allow_threads` lets `clone` through when it
/// creates a plain thread (`CLONE_THREAD` and none of [`CLONE_FORBIDDEN_FLAGS`]).
fn kill_filter(allow_threads: bool) -> Result<BpfProgram, String> {
    let own_pid = std::process::id() as u64;
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> =
        KILLED.iter().map(|&call| (call, Vec::new())).collect();
    // Signals only to this process (`abort` raises SIGABRT with tgkill(own pid, ..)), and none
    // that would pass for a kill from outside.
    let signal_rules = |signal_arg: u8| -> Result<Vec<SeccompRule>, String> {
        let mut refused = vec![rule(vec![condition32(0, SeccompCmpOp::Ne, own_pid)?])?];
        for signal in SELF_SIGNALS_REFUSED {
            refused.push(rule(vec![condition32(
                signal_arg,
                SeccompCmpOp::Eq,
                signal as u64,
            )?])?);
        }
        Ok(refused)
    };
    rules.insert(libc::SYS_kill, signal_rules(1)?);
    rules.insert(libc::SYS_tgkill, signal_rules(2)?);
    rules.insert(
        libc::SYS_fcntl,
        FCNTL_FORBIDDEN_COMMANDS
            .iter()
            .map(|&command| rule(vec![condition32(1, SeccompCmpOp::Eq, command as u64)?]))
            .collect::<Result<_, _>>()?,
    );
    // prlimit64 only to read this process's own limits (pid 0, no new limit).
    rules.insert(
        libc::SYS_prlimit64,
        vec![
            rule(vec![condition32(0, SeccompCmpOp::Ne, 0)?])?,
            rule(vec![condition(2, SeccompCmpOp::Ne, 0)?])?,
        ],
    );
    // prctl, except what would let the host outlive the engine or adopt processes.
    rules.insert(
        libc::SYS_prctl,
        vec![
            rule(vec![condition32(0, SeccompCmpOp::Eq, PR_SET_PDEATHSIG)?])?,
            rule(vec![condition32(
                0,
                SeccompCmpOp::Eq,
                PR_SET_CHILD_SUBREAPER,
            )?])?,
            rule(vec![condition32(0, SeccompCmpOp::Eq, PR_SET_PTRACER)?])?,
        ],
    );
    let clone_rule = if allow_threads {
        let thread = libc::CLONE_THREAD as u64;
        let mut refused = vec![rule(vec![condition(
            0,
            SeccompCmpOp::MaskedEq(thread),
            0,
        )?])?];
        for flag in CLONE_FORBIDDEN_FLAGS {
            refused.push(rule(vec![condition(
                0,
                SeccompCmpOp::MaskedEq(flag),
                flag,
            )?])?);
        }
        refused
    } else {
        Vec::new()
    };
    rules.insert(libc::SYS_clone, clone_rule);
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::KillProcess,
        ARCH,
    )
    .map_err(|e| e.to_string())?;
    filter
        .try_into()
        .map_err(|e: seccompiler::BackendError| e.to_string())
}

/// `clone3` passes its flags in memory a filter cannot read; answering "not implemented" makes
/// the C library fall back to `clone`, whose flags the kill filter checks.
fn clone3_filter() -> Result<BpfProgram, String> {
    let rules = BTreeMap::from([(libc::SYS_clone3, Vec::new())]);
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::ENOSYS as u32),
        ARCH,
    )
    .map_err(|e| e.to_string())?;
    filter
        .try_into()
        .map_err(|e: seccompiler::BackendError| e.to_string())
}

/// Installs the three filters on every thread of the process (TSYNC; the host is
/// single-threaded when it does, before any plugin code runs). The allow-list goes last: it
/// refuses the call that installs a filter.
pub fn install(allow_threads: bool) -> Result<(), String> {
    let clone3 = clone3_filter()?;
    let kill = kill_filter(allow_threads)?;
    let allow = allow_filter()?;
    for filter in [&clone3, &kill, &allow] {
        seccompiler::apply_filter_all_threads(filter).map_err(|e| e.to_string())?;
    }
    Ok(())
}
