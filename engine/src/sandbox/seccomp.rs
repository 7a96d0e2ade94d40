//! The seccomp filter of the process host: a deny list, so the calls a bot legitimately makes
//! through the standard library (memory, time, futexes, its own pipes) keep working, while
//! everything a bot has no use for kills the host with `SIGSYS`.

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};
use std::collections::BTreeMap;

#[cfg(target_arch = "x86_64")]
const ARCH: TargetArch = TargetArch::x86_64;
#[cfg(target_arch = "aarch64")]
const ARCH: TargetArch = TargetArch::aarch64;

/// Calls refused outright: process creation and exec, sockets, tracing other processes, and
/// administration of the kernel, mounts, namespaces, keys, modules and clocks.
const DENIED: &[i64] = &[
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
];

/// Signals a bot may not send itself: a host that dies of one of them was killed from outside
/// the engine, which is not the bot's fault (`host::process::classify_death`). Were a bot able
/// to fake that, it could have every game it is losing played again.
const SELF_SIGNALS_REFUSED: [i32; 4] = [libc::SIGKILL, libc::SIGTERM, libc::SIGINT, libc::SIGHUP];

/// fcntl(2) commands that choose the signal or the process a file's I/O events signal:
/// F_SETOWN, F_SETSIG, F_SETOWN_EX (asm-generic/fcntl.h).
const FCNTL_SIGNAL_COMMANDS: [i32; 3] = [8, 10, 15];

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

/// The filter that kills on a refused call. `allow_threads` lets `clone` through when it creates
/// a thread (`CLONE_THREAD`); any other `clone` is a new process.
fn kill_filter(allow_threads: bool) -> Result<BpfProgram, String> {
    let own_pid = std::process::id() as u64;
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> =
        DENIED.iter().map(|&call| (call, Vec::new())).collect();
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
        FCNTL_SIGNAL_COMMANDS
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
        vec![rule(vec![condition(
            0,
            SeccompCmpOp::MaskedEq(thread),
            0,
        )?])?]
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

/// Installs both filters on every thread of the process (TSYNC; the host is single-threaded
/// when it does, before any plugin code runs).
pub fn install(allow_threads: bool) -> Result<(), String> {
    let clone3 = clone3_filter()?;
    let kill = kill_filter(allow_threads)?;
    seccompiler::apply_filter_all_threads(&clone3).map_err(|e| e.to_string())?;
    seccompiler::apply_filter_all_threads(&kill).map_err(|e| e.to_string())
}
