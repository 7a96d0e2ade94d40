//! The seccomp filters of the process host:
//!
//! - an allow-list: the calls a bot legitimately makes through the standard library (memory,
//!   time, futexes, its own threads when allowed, reading and writing its descriptors, loading
//!   its library), some only with harmless arguments. Anything else is refused: the call does
//!   not run, the kernel suspends the thread and tells the engine which call it was
//!   ([`super::notifier`]), and the engine records `refused_syscall` and kills the host.
//!   (On kernels without seccomp listeners the refusal traps instead, and the host's SIGSYS
//!   handler, [`super::sigsys_handler`], names the call on its stderr before it dies.) Refused:
//!   process creation, exec, sockets, tracing, file metadata and names, mounts (old and new
//!   API), file-system notification, SysV IPC and message queues, namespaces, identities,
//!   memory locking, signals to others (and to itself those that would pass for a kill or a
//!   stop from outside the engine), a new handler for SIGSYS, and the administration of the
//!   kernel; and any call added to a later kernel until it is reviewed.
//! - `clone3` answers "not implemented", so that the C library falls back to `clone`, whose
//!   flags a filter can read; so does `sysinfo` (the machine's load and memory).
//! - Queries about another process by pid answer "no such process", and `getppid` 0.
//! - `sched_yield` returns at once: yielding would let a bot wait for a CPU at will.
//! - Nothing two bots can both reach carries a message: no record locks or `flock`, no shared
//!   mappings (so no shared futex words), no `mincore`, `fadvise`, `readahead` or evicting
//!   `madvise` on the page cache every process shares.

use super::{sigsys_handler, ConfineError};
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};
use std::collections::BTreeMap;
use std::os::fd::{FromRawFd, OwnedFd};

#[cfg(target_arch = "x86_64")]
const ARCH: TargetArch = TargetArch::x86_64;
#[cfg(target_arch = "aarch64")]
const ARCH: TargetArch = TargetArch::aarch64;

/// Calls allowed with any arguments. Paths are confined by Landlock, not here; `kill`, `tgkill`,
/// `rt_sigaction`, `fcntl`, `prlimit64`, `prctl`, `ioctl`, `mmap`, `madvise` and `clone` are
/// allowed only with some arguments.
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
    libc::SYS_mprotect,
    libc::SYS_munmap,
    libc::SYS_mremap,
    libc::SYS_brk,
    libc::SYS_rt_sigprocmask,
    libc::SYS_rt_sigreturn,
    // How the kernel resumes a sleep or wait interrupted by a stop: every host is stopped
    // between calls, so a bot sleeping at that moment makes it when continued.
    libc::SYS_restart_syscall,
    libc::SYS_sigaltstack,
    libc::SYS_futex,
    libc::SYS_futex_waitv,
    libc::SYS_set_robust_list,
    libc::SYS_rseq,
    libc::SYS_set_tid_address,
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
    libc::SYS_close_range,
    libc::SYS_openat2,
    libc::SYS_msync,
    libc::SYS_getcpu,
    libc::SYS_sysinfo,
    libc::SYS_getpgid,
    libc::SYS_getsid,
    libc::SYS_getpriority,
    libc::SYS_getitimer,
    libc::SYS_get_mempolicy,
    libc::SYS_sched_get_priority_max,
    libc::SYS_sched_get_priority_min,
    libc::SYS_sched_rr_get_interval,
    libc::SYS_rt_sigpending,
    libc::SYS_rt_sigtimedwait,
    libc::SYS_rt_sigsuspend,
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
    #[cfg(target_arch = "x86_64")]
    libc::SYS_getpgrp,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_pause,
];

/// The only `ioctl` requests allowed, those the standard library makes on its own descriptors
/// (asm-generic/ioctls.h): TCGETS (isatty), TIOCGWINSZ, FIONREAD, FIONBIO, FIONCLEX, FIOCLEX.
/// File-system requests (freeze, shut down, set the immutable flag) kill the host.
const ALLOWED_IOCTLS: [u64; 6] = [0x5401, 0x5413, 0x541B, 0x5421, 0x5450, 0x5451];

/// The only `prctl` options allowed (linux/prctl.h): PR_GET_DUMPABLE, PR_SET_NAME, PR_GET_NAME,
/// PR_GET_SECCOMP, PR_CAPBSET_READ, PR_SET_NO_NEW_PRIVS (only ever more restrictive),
/// PR_GET_NO_NEW_PRIVS, PR_SET_VMA (the C library names thread stacks with it).
const ALLOWED_PRCTLS: [u64; 8] = [3, 15, 16, 21, 23, 38, 39, 0x5356_4d41];

/// Signals a bot may not send itself: a host that dies of one of them was killed from outside
/// the engine, which is not the bot's fault (`host::process::classify_death`). Were a bot able
/// to fake that, it could have every game it is losing played again.
const SELF_SIGNALS_REFUSED: [i32; 4] = [libc::SIGKILL, libc::SIGTERM, libc::SIGINT, libc::SIGHUP];

/// Stop signals a bot may not send itself (`raise(SIGTSTP)` is a `tgkill`): a host found
/// stopped during its call was stopped from outside the engine, which is not the bot's fault
/// either (`host::process`).
const SELF_STOPS_REFUSED: [i32; 4] = [libc::SIGSTOP, libc::SIGTSTP, libc::SIGTTIN, libc::SIGTTOU];

/// fcntl(2) commands that choose the signal or the process a file's events signal (F_SETOWN,
/// F_SETSIG, F_SETOWN_EX; asm-generic/fcntl.h), and leases and directory notification
/// (F_SETLEASE, F_NOTIFY; linux/fcntl.h), which signal too.
/// Record locks too (F_GETLK, F_SETLK, F_SETLKW and their open-file-description variants
/// F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW): locks on a file every bot may read (a system
/// library) are visible to every other process, with the holder's pid and range, so two bots
/// could talk through them. (`flock` is not on the allow-list at all.)
const FCNTL_FORBIDDEN_COMMANDS: [i32; 11] = [8, 10, 15, 1024, 1026, 5, 6, 7, 36, 37, 38];

/// `mmap` flag MAP_SHARED (also set in MAP_SHARED_VALIDATE; asm-generic/mman-common.h): a shared
/// mapping of a file another bot can map too would share its futex words and its pages, a
/// channel between bots. Every mapping a bot makes is private.
const MAP_SHARED: u64 = 0x01;

/// The only `madvise` advice allowed (asm-generic/mman-common.h): NORMAL, RANDOM, SEQUENTIAL,
/// WILLNEED, DONTNEED, FREE, HUGEPAGE, NOHUGEPAGE, DONTDUMP, DODUMP, the advice allocators give
/// about their own memory. Not COLD or PAGEOUT, which evict pages of files every bot shares (a
/// timing channel, and a way to slow every other process down), nor REMOVE or the rest.
const ALLOWED_MADVICE: [u64; 10] = [0, 1, 2, 3, 4, 8, 14, 15, 16, 17];

/// The only `membarrier` commands allowed (linux/membarrier.h): QUERY and the private ones,
/// which act on this process's own threads. Not the GLOBAL commands: they wait for every CPU
/// of the machine (an RCU grace period, or interrupts to other processes' CPUs), a load on
/// everyone and a clock that other processes' activity moves.
const ALLOWED_MEMBARRIERS: [u64; 7] = [0, 8, 16, 32, 64, 128, 256];

/// Calls that ask about another process by pid (argument 0; `getpriority`'s `who` is argument
/// 1): answered "no such process" for any pid but 0 and the host's own, so a bot cannot find
/// the engine, its opponent or anything else running by trying every pid. So are the clock
/// calls given another process's CPU-time clock ([`other_process_clock`]).
const PID_QUERIES: [(i64, u8); 7] = [
    (libc::SYS_getpgid, 0),
    (libc::SYS_getsid, 0),
    (libc::SYS_getpriority, 1),
    (libc::SYS_sched_getscheduler, 0),
    (libc::SYS_sched_getparam, 0),
    (libc::SYS_sched_getaffinity, 0),
    (libc::SYS_sched_rr_get_interval, 0),
];

fn condition(arg: u8, op: SeccompCmpOp, value: u64) -> Result<SeccompCondition, ConfineError> {
    Ok(SeccompCondition::new(
        arg,
        SeccompCmpArgLen::Qword,
        op,
        value,
    )?)
}

/// Compares the low 32 bits: `pid_t` arguments are `int`s, whatever the register's upper half.
fn condition32(arg: u8, op: SeccompCmpOp, value: u64) -> Result<SeccompCondition, ConfineError> {
    Ok(SeccompCondition::new(
        arg,
        SeccompCmpArgLen::Dword,
        op,
        value,
    )?)
}

fn rule(conditions: Vec<SeccompCondition>) -> Result<SeccompRule, ConfineError> {
    Ok(SeccompRule::new(conditions)?)
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

/// Conditions all of which a rule requires.
fn all_of(conditions: Vec<SeccompCondition>) -> Result<Vec<SeccompRule>, ConfineError> {
    Ok(vec![rule(conditions)?])
}

/// The allow-list filter: anything it does not allow traps (`SIGSYS`), which the host reports
/// and dies of. `allow_threads` lets `clone` through when it creates a plain thread.
fn allow_filter(allow_threads: bool) -> Result<BpfProgram, ConfineError> {
    let own_pid = std::process::id() as u64;
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> =
        ALLOWED.iter().map(|&call| (call, Vec::new())).collect();
    let any_of = |arg: u8, values: &[u64]| -> Result<Vec<SeccompRule>, ConfineError> {
        values
            .iter()
            .map(|&value| rule(vec![condition32(arg, SeccompCmpOp::Eq, value)?]))
            .collect()
    };
    let none_of = |arg: u8, values: &[u64]| -> Result<Vec<SeccompCondition>, ConfineError> {
        values
            .iter()
            .map(|&value| condition32(arg, SeccompCmpOp::Ne, value))
            .collect()
    };
    rules.insert(libc::SYS_ioctl, any_of(1, &ALLOWED_IOCTLS)?);
    rules.insert(libc::SYS_prctl, any_of(0, &ALLOWED_PRCTLS)?);
    // Signals only to this process (`abort` raises SIGABRT with tgkill(own pid, ..)), and none
    // that would pass for a kill or a stop from outside.
    let refused_signals: Vec<u64> = SELF_SIGNALS_REFUSED
        .iter()
        .chain(&SELF_STOPS_REFUSED)
        .map(|&signal| signal as u64)
        .collect();
    let signal_rule = |signal_arg: u8| -> Result<Vec<SeccompRule>, ConfineError> {
        let mut conditions = vec![condition32(0, SeccompCmpOp::Eq, own_pid)?];
        conditions.extend(none_of(signal_arg, &refused_signals)?);
        all_of(conditions)
    };
    rules.insert(libc::SYS_kill, signal_rule(1)?);
    rules.insert(libc::SYS_tgkill, signal_rule(2)?);
    // Any handler but for SIGSYS, and reading SIGSYS's (no new action): the host's own handler
    // reports a refused call and then dies; a bot's could carry on instead.
    rules.insert(
        libc::SYS_rt_sigaction,
        vec![
            rule(vec![condition32(0, SeccompCmpOp::Ne, libc::SIGSYS as u64)?])?,
            rule(vec![condition(1, SeccompCmpOp::Eq, 0)?])?,
        ],
    );
    rules.insert(
        libc::SYS_mmap,
        all_of(vec![condition(3, SeccompCmpOp::MaskedEq(MAP_SHARED), 0)?])?,
    );
    rules.insert(libc::SYS_madvise, any_of(2, &ALLOWED_MADVICE)?);
    rules.insert(libc::SYS_membarrier, any_of(0, &ALLOWED_MEMBARRIERS)?);
    rules.insert(
        libc::SYS_fcntl,
        all_of(none_of(1, &FCNTL_FORBIDDEN_COMMANDS.map(|c| c as u64))?)?,
    );
    // prlimit64 only to read this process's own limits (pid 0, no new limit).
    rules.insert(
        libc::SYS_prlimit64,
        all_of(vec![
            condition32(0, SeccompCmpOp::Eq, 0)?,
            condition(2, SeccompCmpOp::Eq, 0)?,
        ])?,
    );
    // The one message the host sends: the refusal listener, to the engine (`notifier`). No
    // socket can be created, so no other descriptor by that number can carry anything.
    rules.insert(
        libc::SYS_sendmsg,
        all_of(vec![condition32(
            0,
            SeccompCmpOp::Eq,
            super::notifier::HANDOVER_FD as u64,
        )?])?,
    );
    if allow_threads {
        let thread = libc::CLONE_THREAD as u64;
        let forbidden = CLONE_FORBIDDEN_FLAGS.iter().fold(0, |all, flag| all | flag);
        rules.insert(
            libc::SYS_clone,
            all_of(vec![
                condition(0, SeccompCmpOp::MaskedEq(thread), thread)?,
                condition(0, SeccompCmpOp::MaskedEq(forbidden), 0)?,
            ])?,
        );
    }
    let filter = SeccompFilter::new(rules, SeccompAction::Trap, SeccompAction::Allow, ARCH)?;
    Ok(filter.try_into()?)
}

/// A filter that answers `errno` to the calls `rules` match and lets everything else through
/// (to the allow-list, which decides).
fn errno_filter(
    rules: BTreeMap<i64, Vec<SeccompRule>>,
    errno: i32,
) -> Result<BpfProgram, ConfineError> {
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(errno as u32),
        ARCH,
    )?;
    Ok(filter.try_into()?)
}

/// "Not implemented": `clone3`, which passes its flags in memory a filter cannot read (the C
/// library then falls back to `clone`, whose flags the allow-list checks), and `sysinfo`, which
/// tells the machine's load, uptime, process count and free memory (a bot asking the machine's
/// memory through `sysconf` gets an error, not a death).
fn not_implemented_filter() -> Result<BpfProgram, ConfineError> {
    let rules = BTreeMap::from([
        (libc::SYS_clone3, Vec::new()),
        (libc::SYS_sysinfo, Vec::new()),
    ]);
    errno_filter(rules, libc::ENOSYS)
}

/// "No such process" for [`PID_QUERIES`] about any process but this one.
fn other_processes_filter() -> Result<BpfProgram, ConfineError> {
    let own_pid = std::process::id() as u64;
    let mut rules = BTreeMap::new();
    for (call, arg) in PID_QUERIES {
        rules.insert(
            call,
            all_of(vec![
                condition32(arg, SeccompCmpOp::Ne, 0)?,
                condition32(arg, SeccompCmpOp::Ne, own_pid)?,
            ])?,
        );
    }
    let other_clock = other_process_clock(own_pid)?;
    for call in CLOCK_CALLS {
        rules.insert(call, other_clock.clone());
    }
    errno_filter(rules, libc::ESRCH)
}

/// Calls whose first argument is a clock, which may be another process's CPU-time clock.
const CLOCK_CALLS: [i64; 3] = [
    libc::SYS_clock_gettime,
    libc::SYS_clock_getres,
    libc::SYS_clock_nanosleep,
];

/// A clock id that is the CPU-time clock of a process other than `own_pid`: the kernel lets any
/// process read any other's (posix-cpu-timers.c, `pid_for_clock`), which would tell a bot which
/// pids are alive and how much CPU its opponent uses. A CPU clock id is negative, its bit 2
/// set for a thread's clock (which the kernel limits to the caller's own threads), its low two
/// bits the kind (0-2), and the rest `~pid << 3`, pid 0 meaning the caller
/// (linux/posix-timers.h, `MAKE_PROCESS_CPUCLOCK`). Standard clocks are non-negative.
fn other_process_clock(own_pid: u64) -> Result<Vec<SeccompRule>, ConfineError> {
    let mut conditions = vec![
        condition32(0, SeccompCmpOp::MaskedEq(0x8000_0000), 0x8000_0000)?,
        condition32(0, SeccompCmpOp::MaskedEq(0x4), 0)?,
    ];
    for pid in [0, own_pid] {
        for kind in 0..3 {
            conditions.push(condition32(0, SeccompCmpOp::Ne, process_clock(pid, kind))?);
        }
    }
    all_of(conditions)
}

/// The id of process `pid`'s CPU-time clock of `kind` (0 PROF, 1 VIRT, 2 SCHED) as an
/// unsigned 32-bit argument (linux/posix-timers.h, `MAKE_PROCESS_CPUCLOCK`).
fn process_clock(pid: u64, kind: u64) -> u64 {
    u64::from((!(pid as u32)) << 3) | kind
}

/// How the host's refused calls are recorded.
pub enum Refusals {
    /// By the kernel, to whoever holds this listener: the engine ([`super::notifier`]).
    Notified(OwnedFd),
    /// By the host's own SIGSYS handler, where the kernel offers no listener (before Linux
    /// 5.7); a bot can tamper with that record. Says why.
    Trapped(ConfineError),
}

/// Calls that answer 0 without running (a seccomp error of 0 is a return value of 0):
/// - `sched_yield`, always: on a busy machine a bot yielding in a loop would stay runnable
///   without a CPU and pass for one the machine starved (docs/busy-machines.md); answered at
///   once, the loop spins on its own CPU budget instead.
/// - `getppid` where the host is not `alone`, as it answers in a PID namespace of the host's
///   own: the engine's pid is nothing a bot needs, and every pid query about another process
///   answers "no such process" anyway.
fn answered_zero_filter(alone: bool) -> Result<BpfProgram, ConfineError> {
    let mut rules = BTreeMap::from([(libc::SYS_sched_yield, Vec::new())]);
    if !alone {
        rules.insert(libc::SYS_getppid, Vec::new());
    }
    errno_filter(rules, 0)
}

/// Installs the filters on every thread of the process (TSYNC; the host is single-threaded
/// when it does, before any plugin code runs). The allow-list goes last: it refuses the call
/// that installs a filter. Its refusals go to a listener; where the kernel has none, they trap
/// to the SIGSYS handler instead, installed first since the allow-list then refuses any change
/// to it.
///
/// `alone`: the host is pid 1 of a PID namespace of its own, where no other process exists to
/// be asked about and its parent is 0 anyway: the filters that make it look so are left out
/// (each filter costs start-up time, and runs on every call).
pub fn install(allow_threads: bool, alone: bool) -> Result<Refusals, ConfineError> {
    let mut filters = vec![not_implemented_filter()?, answered_zero_filter(alone)?];
    if !alone {
        filters.push(other_processes_filter()?);
    }
    let allow = allow_filter(allow_threads)?;
    for filter in &filters {
        seccompiler::apply_filter_all_threads(filter)?;
    }
    let why_trapped = match apply_with_listener(&notifying(&allow)) {
        Ok(listener) => return Ok(Refusals::Notified(listener)),
        Err(e) => e,
    };
    sigsys_handler::install()?;
    if let Err(e) = seccompiler::apply_filter_all_threads(&allow) {
        // Without the allow-list nothing traps: SIGSYS keeps its default action.
        sigsys_handler::uninstall();
        return Err(e.into());
    }
    Ok(Refusals::Trapped(why_trapped))
}

/// `program` with every refusal turned from a trap into a notice to a listener. seccompiler
/// has no user-notification action, so the `ret` instructions it compiled for its trap action
/// are rewritten: only a `ret` (BPF_RET | BPF_K) carries an action as its constant, so no
/// comparison with an argument that happens to equal it is touched.
fn notifying(program: &BpfProgram) -> BpfProgram {
    const BPF_RET_K: u16 = 0x06;
    program
        .iter()
        .map(|instruction| {
            let mut instruction = instruction.clone();
            if instruction.code == BPF_RET_K && instruction.k == libc::SECCOMP_RET_TRAP {
                instruction.k = libc::SECCOMP_RET_USER_NOTIF;
            }
            instruction
        })
        .collect()
}

/// Installs `program` on every thread and returns its listener (Linux 5.7 for the flags
/// together).
fn apply_with_listener(program: &BpfProgram) -> Result<OwnedFd, ConfineError> {
    let len = u16::try_from(program.len()).map_err(|_| ConfineError::FilterTooLong)?;
    let fprog = libc::sock_fprog {
        len,
        // seccompiler's sock_filter is the kernel's struct, field for field.
        filter: program.as_ptr() as *mut libc::sock_filter,
    };
    let flags = libc::SECCOMP_FILTER_FLAG_TSYNC
        | libc::SECCOMP_FILTER_FLAG_TSYNC_ESRCH
        | libc::SECCOMP_FILTER_FLAG_NEW_LISTENER;
    // SAFETY: seccomp reads the program through `fprog`, which outlives the call.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_seccomp,
            libc::SECCOMP_SET_MODE_FILTER,
            flags,
            &fprog as *const libc::sock_fprog,
        )
    };
    if fd < 0 {
        return Err(ConfineError::last_os("no seccomp listener"));
    }
    // SAFETY: with NEW_LISTENER, seccomp returns a new descriptor this process owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd as i32) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_clock_id_is_encoded_as_the_c_library_does() {
        let pid = std::process::id();
        let mut clock: libc::clockid_t = 0;
        // SAFETY: writes the local.
        assert_eq!(
            unsafe { libc::clock_getcpuclockid(pid as i32, &mut clock) },
            0
        );
        assert_eq!(process_clock(pid.into(), 2), u64::from(clock as u32));
    }
}
