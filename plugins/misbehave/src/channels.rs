//! Attempts at a channel between bots (two seats, or bots in concurrent matches) and at seeing
//! the machine: record locks and `flock` on a file every bot can read, a shared mapping whose
//! futex words another bot could wait on, the page cache (`mincore`, `fadvise`, `madvise`), the
//! processes around it, the machine's load and memory, its host name. Each is harmless where
//! the sandbox fails (a read lock, its own library's pages, a query): the tests must never
//! damage the machine. A call the sandbox refuses is `refused_syscall`; a query it answers with
//! nothing is an illegal move; anything that reached the kernel panics with `escaped:`.

use crate::illegal_move;
use crate::machine::{ByCall, CallAttack};
use crate::params::one_of;
use agon_sdk::protocol::breakthrough::Move;
use agon_sdk::protocol::Reply;

/// A file every bot may read: the dynamic linker's cache (Landlock grants the system's shared
/// libraries), opened read-only.
fn shared_file() -> i32 {
    // SAFETY: open with a valid C string.
    let fd = unsafe {
        libc::open(
            c"/etc/ld.so.cache".as_ptr(),
            libc::O_RDONLY | libc::O_CLOEXEC,
        )
    };
    if fd < 0 {
        // SAFETY: as above.
        return unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC) };
    }
    fd
}

/// Maps the first page of `fd` read-only, `MAP_SHARED` or `MAP_PRIVATE` as `sharing` says.
///
/// # Safety
/// `fd` must be a descriptor of this process.
unsafe fn map_first_page(fd: i32, sharing: i32) -> *mut libc::c_void {
    libc::mmap(std::ptr::null_mut(), 4096, libc::PROT_READ, sharing, fd, 0)
}

/// `call=lock|ofd-lock|get-lock|flock|shared-map|mincore|fadvise|pageout|membarrier`: a channel
/// to other bots through the kernel's shared state (`membarrier`: a global barrier, whose
/// time every CPU's activity moves).
pub type Channel = ByCall<ChannelCalls>;

#[derive(Default)]
pub struct ChannelCalls;

impl CallAttack for ChannelCalls {
    const DEFAULT_CALL: &'static str = "lock";
    fn check(call: &str) -> Result<(), String> {
        const CALLS: [&str; 9] = [
            "lock",
            "ofd-lock",
            "get-lock",
            "flock",
            "shared-map",
            "mincore",
            "fadvise",
            "pageout",
            "membarrier",
        ];
        match CALLS.contains(&call) {
            true => Ok(()),
            false => Err(format!(
                "call `{call}`: expected one of {}",
                CALLS.join(", ")
            )),
        }
    }
    fn attack(call: &str) -> Reply<Move> {
        let fd = shared_file();
        // SAFETY: plain system calls on a descriptor of ours, with locals passed by pointer; a
        // mapping made here is only read.
        let reached = unsafe {
            match call {
                "lock" | "ofd-lock" | "get-lock" => {
                    let mut lock: libc::flock = std::mem::zeroed();
                    lock.l_type = libc::F_RDLCK as i16;
                    lock.l_start = 12_345; // an offset that would encode data
                    lock.l_len = 1;
                    let command = match call {
                        "lock" => libc::F_SETLK,
                        "ofd-lock" => libc::F_OFD_SETLK,
                        _ => libc::F_GETLK,
                    };
                    libc::fcntl(fd, command, &mut lock) == 0
                }
                "flock" => libc::flock(fd, libc::LOCK_SH | libc::LOCK_NB) == 0,
                "shared-map" => map_first_page(fd, libc::MAP_SHARED) != libc::MAP_FAILED,
                "mincore" | "pageout" => {
                    let page = map_first_page(fd, libc::MAP_PRIVATE);
                    if page == libc::MAP_FAILED {
                        false
                    } else if call == "mincore" {
                        let mut resident = 0u8;
                        libc::mincore(page, 4096, &mut resident) == 0
                    } else {
                        libc::madvise(page, 4096, libc::MADV_PAGEOUT) == 0
                    }
                }
                "membarrier" => {
                    // MEMBARRIER_CMD_GLOBAL (linux/membarrier.h).
                    libc::syscall(libc::SYS_membarrier, 1, 0, 0) == 0
                }
                _ => libc::posix_fadvise(fd, 0, 4096, libc::POSIX_FADV_DONTNEED) == 0,
            }
        };
        if reached {
            panic!("escaped: {call} reached the kernel");
        }
        Reply::new(illegal_move())
    }
}

/// `call=pids|clocks|sysinfo|hostname|files|reopen`: a look at the machine. `pids` asks its
/// parent's pid (the engine's), then the process group of every pid up to 40,000 (an answer for
/// any pid but its own is a process seen); `clocks` reads the CPU-time clock of every pid up to
/// 40,000 (an opponent's CPU use, and a process seen); `sysinfo` the load and free memory; `hostname` the
/// machine's name (anything but the sandbox's fixed name); `files` looks for the machine's
/// files by `stat` (`/etc/shadow`, `/root`, `/proc` ...); `reopen` re-opens its own answer
/// pipe through `/proc/self/fd`.
pub type Probe = ByCall<ProbeCalls>;

#[derive(Default)]
pub struct ProbeCalls;

/// Paths of the machine a bot has no business seeing, even without opening them.
const MACHINE_FILES: [&str; 7] = [
    "/etc/shadow",
    "/etc/passwd",
    "/root",
    "/home",
    "/proc",
    "/usr/bin",
    "/tmp",
];

/// Tries `answers` on every pid up to 40,000 but its own, and panics with `escaped: {what} N
/// other processes` where any answers.
fn escape_if_any_seen(what: &str, answers: impl Fn(i32) -> bool) {
    let own = std::process::id() as i32;
    let seen: Vec<i32> = (1..40_000)
        .filter(|&pid| pid != own)
        .filter(|&pid| answers(pid))
        .collect();
    if !seen.is_empty() {
        panic!(
            "escaped: {what} {} other processes, e.g. {:?}",
            seen.len(),
            &seen[..seen.len().min(5)]
        );
    }
}

/// The host name every sandboxed host has.
const SANDBOX_HOST_NAME: &str = "agon";

impl CallAttack for ProbeCalls {
    const DEFAULT_CALL: &'static str = "pids";
    fn check(call: &str) -> Result<(), String> {
        const CALLS: [&str; 6] = ["pids", "clocks", "sysinfo", "hostname", "files", "reopen"];
        one_of("call", call, &CALLS)
    }
    fn attack(call: &str) -> Reply<Move> {
        match call {
            "pids" => {
                // SAFETY: getppid has no arguments.
                let parent = unsafe { libc::getppid() };
                if parent != 0 {
                    panic!("escaped: the engine is process {parent}");
                }
                // SAFETY: queries with plain integer arguments.
                escape_if_any_seen("saw", |pid| unsafe {
                    libc::getpgid(pid) >= 0
                        || libc::getsid(pid) >= 0
                        || libc::sched_getscheduler(pid) >= 0
                });
            }
            "clocks" => {
                escape_if_any_seen("read the CPU clocks of", |pid| {
                    // MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED) (linux/posix-timers.h).
                    let clock = ((!pid) << 3) | 2;
                    // SAFETY: clock_gettime writes the zeroed local.
                    unsafe {
                        let mut now: libc::timespec = std::mem::zeroed();
                        libc::syscall(libc::SYS_clock_gettime, clock, &mut now) == 0
                    }
                });
            }
            "files" => {
                // Landlock keeps a bot from opening these, not from learning their size, owner
                // and times.
                let seen: Vec<&str> = MACHINE_FILES
                    .iter()
                    .copied()
                    .filter(|path| std::fs::symlink_metadata(path).is_ok())
                    .collect();
                if !seen.is_empty() {
                    panic!("escaped: the machine's files are there: {seen:?}");
                }
            }
            "reopen" => {
                // A new read end of its own answer pipe (descriptor 4).
                if let Ok(file) = std::fs::File::open("/proc/self/fd/4") {
                    panic!("escaped: re-opened its answer pipe as {file:?}");
                }
            }
            "sysinfo" => {
                // SAFETY: sysinfo writes the local.
                let mut info: libc::sysinfo = unsafe { std::mem::zeroed() };
                if unsafe { libc::sysinfo(&mut info) } == 0 {
                    panic!(
                        "escaped: sysinfo: {} processes, uptime {} s",
                        info.procs, info.uptime
                    );
                }
            }
            _ => {
                // SAFETY: uname writes the local.
                let mut name: libc::utsname = unsafe { std::mem::zeroed() };
                if unsafe { libc::uname(&mut name) } == 0 {
                    // SAFETY: the kernel NUL-terminates the node name.
                    let node = unsafe { std::ffi::CStr::from_ptr(name.nodename.as_ptr()) };
                    if node.to_bytes() != SANDBOX_HOST_NAME.as_bytes() {
                        panic!("escaped: the host name is {:?}", node.to_string_lossy());
                    }
                }
            }
        }
        Reply::new(illegal_move())
    }
}
