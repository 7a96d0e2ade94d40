//! Attempts on the machine rather than on the game: file-system ioctls, file metadata, mounts,
//! notification, identities, SysV IPC, thread floods, inherited descriptors, namespaces, the
//! host name, disk caches and locked memory. Each is made so that it would do no harm even
//! where the sandbox failed (an invalid size, a mode a file already has, its own cached
//! library): the tests must never damage the machine they run on. A bot whose call reaches the
//! kernel panics with `escaped:`; one the sandbox kills is recorded as `refused_syscall`.

use crate::illegal_move;
use crate::params::{one_of, param};
use agon_sdk::export::WireBot;
use agon_sdk::protocol::breakthrough::{Breakthrough, Move, Observation, Setup};
use agon_sdk::protocol::{Reply, Start};

fn errno() -> i32 {
    std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

/// A descriptor of this plugin's own (cached) library file: the one the host loaded it through
/// when that is a `/proc/self/fd/N` path, else the file opened again.
fn own_library() -> Option<i32> {
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    // SAFETY: dladdr fills `info` for an address inside this library.
    if unsafe { libc::dladdr(own_library as *const libc::c_void, &mut info) } == 0
        || info.dli_fname.is_null()
    {
        return None;
    }
    // SAFETY: dladdr returned a NUL-terminated path.
    let path = unsafe { std::ffi::CStr::from_ptr(info.dli_fname) };
    let text = path.to_string_lossy();
    if let Some(fd) = text.strip_prefix("/proc/self/fd/") {
        return fd.parse().ok();
    }
    // SAFETY: open with a valid C string.
    let fd = unsafe { libc::open(path.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC) };
    (fd >= 0).then_some(fd)
}

/// An attack chosen by the bot's `call` parameter: the bots built on it differ only in what
/// they try.
pub trait CallAttack: Default + Send + 'static {
    /// The call made when the parameter is absent.
    const DEFAULT_CALL: &'static str;
    /// Refuses a call this attack does not know (default: any call is taken).
    fn check(_call: &str) -> Result<(), String> {
        Ok(())
    }
    /// Makes the call: panics with `escaped:` if it reached the kernel.
    fn attack(call: &str) -> Reply<Move>;
}

/// A bot that makes its [`CallAttack`] on every move.
#[derive(Default)]
pub struct ByCall<A> {
    call: String,
    _attack: std::marker::PhantomData<A>,
}

impl<A: CallAttack> WireBot for ByCall<A> {
    type Game = Breakthrough;
    const PARAMS: &'static [&'static str] = &["call"];
    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        self.call = param(start, "call", A::DEFAULT_CALL);
        A::check(&self.call)
    }
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        A::attack(&self.call)
    }
}

/// File-system ioctls on its descriptors: a harmless one (FS_IOC_GETFLAGS, answered ENOTTY by
/// the kernel for /dev/null) must be refused by the sandbox before it reaches the kernel, and
/// FIFREEZE on /dev/null must fail.
#[derive(Default)]
pub struct Ioctl;

impl WireBot for Ioctl {
    type Game = Breakthrough;
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        const FS_IOC_GETFLAGS: libc::c_ulong = 0x8008_6601;
        const FIFREEZE: libc::c_ulong = 0xc004_5877;
        let mut flags: libc::c_long = 0;
        // SAFETY: ioctl on standard input (/dev/null) writing at most a long to `flags`.
        let got = unsafe { libc::ioctl(0, FS_IOC_GETFLAGS, &mut flags) };
        if got == 0 || errno() == libc::ENOTTY {
            panic!(
                "escaped: FS_IOC_GETFLAGS reached the kernel (errno {})",
                errno()
            );
        }
        // SAFETY: as above, with no argument.
        if unsafe { libc::ioctl(0, FIFREEZE, 0) } == 0 {
            panic!("escaped: froze a file system");
        }
        Reply::new(illegal_move())
    }
}

/// Changes its own cached library's metadata (`call=chmod|chown|utime|xattr`): the mode to
/// 000, the owner to its own user, the times to 1970, or a `user.agon-state` attribute that
/// would keep state across matches. A test checks the file afterwards.
pub type Metadata = ByCall<MetadataCalls>;

#[derive(Default)]
pub struct MetadataCalls;

impl CallAttack for MetadataCalls {
    const DEFAULT_CALL: &'static str = "chmod";
    fn check(call: &str) -> Result<(), String> {
        one_of("call", call, &["chmod", "chown", "utime", "xattr"])
    }
    fn attack(call: &str) -> Reply<Move> {
        let Some(fd) = own_library() else {
            return Reply::new(illegal_move());
        };
        let epoch = [libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        }; 2];
        // SAFETY: metadata calls on a descriptor this process holds.
        let done = unsafe {
            match call {
                "chmod" => libc::fchmod(fd, 0),
                "chown" => libc::fchown(fd, libc::getuid(), libc::getgid()),
                "utime" => libc::futimens(fd, epoch.as_ptr()),
                _ => libc::fsetxattr(fd, c"user.agon-state".as_ptr(), b"1".as_ptr().cast(), 1, 0),
            }
        };
        if done == 0 {
            panic!("escaped: {call} on its own library");
        }
        Reply::new(illegal_move())
    }
}

/// The new mount API (`call=setattr|fsopen|open-tree`). `mount_setattr` gets a size of 0, which
/// the kernel refuses with EINVAL, so even a call that got through changes nothing.
pub type Mounts = ByCall<MountCalls>;

#[derive(Default)]
pub struct MountCalls;

impl CallAttack for MountCalls {
    const DEFAULT_CALL: &'static str = "setattr";
    fn attack(call: &str) -> Reply<Move> {
        // SAFETY: raw system calls with valid strings and a null attribute of size 0.
        let result = unsafe {
            match call {
                "fsopen" => libc::syscall(libc::SYS_fsopen, c"tmpfs".as_ptr(), 0),
                "open-tree" => libc::syscall(
                    libc::SYS_open_tree,
                    libc::AT_FDCWD,
                    c"/".as_ptr(),
                    1, // OPEN_TREE_CLONE
                ),
                _ => libc::syscall(
                    libc::SYS_mount_setattr,
                    libc::AT_FDCWD,
                    c"/".as_ptr(),
                    0,
                    std::ptr::null::<u8>(),
                    0,
                ),
            }
        };
        panic!(
            "escaped: {call} reached the kernel (returned {result}, errno {})",
            errno()
        );
    }
}

/// Watches file activity (`call=fanotify|inotify`).
pub type Notify = ByCall<NotifyCalls>;

#[derive(Default)]
pub struct NotifyCalls;

impl CallAttack for NotifyCalls {
    const DEFAULT_CALL: &'static str = "fanotify";
    fn attack(call: &str) -> Reply<Move> {
        // SAFETY: plain system calls; a descriptor they return is closed.
        let fd = unsafe {
            if call == "inotify" {
                libc::inotify_init1(libc::IN_CLOEXEC)
            } else {
                libc::fanotify_init(libc::FAN_CLASS_NOTIF, libc::O_RDONLY as u32)
            }
        };
        if fd >= 0 {
            unsafe { libc::close(fd) };
            panic!("escaped: {call} gave a descriptor");
        }
        Reply::new(illegal_move())
    }
}

/// `setfsuid` to its own uid: any credential change clears the parent-death signal, after which
/// the host would outlive a killed engine.
#[derive(Default)]
pub struct FsUid;

impl WireBot for FsUid {
    type Game = Breakthrough;
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        // SAFETY: plain system calls on this process.
        unsafe {
            libc::setfsuid(libc::getuid());
            libc::setfsuid(libc::getuid());
        }
        panic!("escaped: setfsuid reached the kernel");
    }
}

/// SysV IPC (`call=shm|msg`): 480 MiB of shared memory left behind, or a message queue to the
/// opponent and the next match.
pub type SysV = ByCall<SysVCalls>;

#[derive(Default)]
pub struct SysVCalls;

impl CallAttack for SysVCalls {
    const DEFAULT_CALL: &'static str = "shm";
    fn attack(call: &str) -> Reply<Move> {
        // SAFETY: plain system calls.
        let id = unsafe {
            if call == "msg" {
                libc::msgget(0x0a90, libc::IPC_CREAT | 0o600)
            } else {
                libc::shmget(libc::IPC_PRIVATE, 480 << 20, libc::IPC_CREAT | 0o600)
            }
        };
        if id >= 0 {
            panic!("escaped: created SysV {call} object {id}");
        }
        Reply::new(illegal_move())
    }
}

/// Raw threads on small stacks of its own, as many as it can (at most 5,000), each waiting
/// forever; escapes if it gets more than its `allowed` parameter (the `--threads` it runs under).
#[derive(Default)]
pub struct ThreadFlood {
    allowed: usize,
}

static NEVER: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

extern "C" fn wait_forever(_: *mut libc::c_void) -> libc::c_int {
    loop {
        // SAFETY: a futex wait on a word that never changes.
        unsafe {
            libc::syscall(
                libc::SYS_futex,
                NEVER.as_ptr(),
                libc::FUTEX_WAIT,
                0,
                std::ptr::null::<libc::timespec>(),
            );
        }
    }
}

impl WireBot for ThreadFlood {
    type Game = Breakthrough;
    const PARAMS: &'static [&'static str] = &["allowed"];
    fn start(&mut self, start: &Start<Setup>) -> Result<(), String> {
        self.allowed = param(start, "allowed", "0")
            .parse()
            .map_err(|_| "allowed: expected a number".to_string())?;
        Ok(())
    }
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        // Small enough that 5,000 of them fit a 64 MiB address space beside the library.
        const STACK: usize = 4 << 10;
        let flags = libc::CLONE_VM
            | libc::CLONE_FS
            | libc::CLONE_FILES
            | libc::CLONE_SIGHAND
            | libc::CLONE_THREAD
            | libc::CLONE_SYSVSEM;
        let mut started = 0;
        for _ in 0..5000 {
            let stack = Box::leak(vec![0u8; STACK].into_boxed_slice());
            // SAFETY: the child runs `wait_forever` on its own leaked stack and touches nothing
            // else.
            let tid = unsafe {
                libc::clone(
                    wait_forever,
                    stack.as_mut_ptr().add(STACK).cast(),
                    flags,
                    std::ptr::null_mut(),
                )
            };
            if tid <= 0 {
                break;
            }
            started += 1;
        }
        if started > self.allowed {
            panic!(
                "escaped: started {started} threads where {} are allowed",
                self.allowed
            );
        }
        Reply::new(illegal_move())
    }
}

/// Reads every descriptor it did not open itself (an operator's `7<secret`, a pipe of the
/// calling shell): all but its standard streams, its two pipes and its library.
#[derive(Default)]
pub struct InheritedFd;

impl WireBot for InheritedFd {
    type Game = Breakthrough;
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        let library = own_library();
        for fd in 5..1024 {
            if Some(fd) == library {
                continue;
            }
            let mut buffer = [0u8; 64];
            // SAFETY: reads into the local buffer.
            let got = unsafe { libc::read(fd, buffer.as_mut_ptr().cast(), buffer.len()) };
            if got > 0 {
                panic!(
                    "escaped: read {:?} from inherited descriptor {fd}",
                    String::from_utf8_lossy(&buffer[..got as usize])
                );
            }
        }
        Reply::new(illegal_move())
    }
}

/// A thread in new namespaces: `clone(CLONE_THREAD | CLONE_NEWUTS | CLONE_NEWNET | ..)`.
#[derive(Default)]
pub struct NamespaceThread;

impl WireBot for NamespaceThread {
    type Game = Breakthrough;
    fn act(&mut self, _: &Observation) -> Reply<Move> {
        const STACK: usize = 16 << 10;
        let stack = Box::leak(vec![0u8; STACK].into_boxed_slice());
        let flags = libc::CLONE_VM
            | libc::CLONE_SIGHAND
            | libc::CLONE_THREAD
            | libc::CLONE_NEWUTS
            | libc::CLONE_NEWNET;
        // SAFETY: as in ThreadFlood.
        let tid = unsafe {
            libc::clone(
                wait_forever,
                stack.as_mut_ptr().add(STACK).cast(),
                flags,
                std::ptr::null_mut(),
            )
        };
        if tid > 0 {
            panic!("escaped: a thread in new namespaces ({tid})");
        }
        Reply::new(illegal_move())
    }
}

/// The machine: `call=hostname` (a name longer than the kernel allows, so nothing changes even
/// if the call got through), `sync`, `mlockall`, `nice`, `sched-idle`.
pub type Machine = ByCall<MachineCalls>;

#[derive(Default)]
pub struct MachineCalls;

impl CallAttack for MachineCalls {
    const DEFAULT_CALL: &'static str = "hostname";
    fn attack(call: &str) -> Reply<Move> {
        let name = [b'x'; 100];
        // SAFETY: plain system calls; the name is read, never written.
        unsafe {
            match call {
                "sync" => libc::sync(),
                "mlockall" => {
                    libc::mlockall(libc::MCL_CURRENT);
                }
                // Lowering its own priority would have the machine starve it for longer.
                "nice" => {
                    libc::setpriority(libc::PRIO_PROCESS, 0, 19);
                }
                "sched-idle" => {
                    let param = libc::sched_param { sched_priority: 0 };
                    libc::sched_setscheduler(0, libc::SCHED_IDLE, &param);
                }
                _ => {
                    libc::sethostname(name.as_ptr().cast(), name.len());
                }
            }
        }
        panic!("escaped: {call} reached the kernel");
    }
}
