//! Attempts on the way the process host reports a refused system call (it traps, names the
//! call on its stderr and dies of SIGSYS): a bot that installs its own SIGSYS handler or
//! ignores the signal, so as to carry on after a refused call; one that blocks SIGSYS; one that
//! prints a refusal line of its own; one that tampers with the host's SIGSYS handler, having
//! looked its address up: patches its first instruction to return (`patch`), maps a page of
//! zeros over it (`overmap`), or closes the stderr it writes to (`stderr`). A bot that carries
//! on after a refused call panics with `escaped:`.

use crate::illegal_move;
use crate::machine::{ByCall, CallAttack};
use crate::params::one_of;
use agon_sdk::protocol::breakthrough::Move;
use agon_sdk::protocol::Reply;

/// `call=handler|ignore|block|fake|patch|overmap|stderr`.
pub type Sigsys = ByCall<SigsysCalls>;

#[derive(Default)]
pub struct SigsysCalls;

extern "C" fn carry_on(_: libc::c_int) {}

/// A TCP socket: refused by the sandbox, harmless where it is not.
fn refused_call() -> libc::c_long {
    // SAFETY: a system call with integer arguments.
    unsafe { libc::syscall(libc::SYS_socket, libc::AF_INET, libc::SOCK_STREAM, 0) }
}

/// Sets SIGSYS's action; true if the kernel took it.
fn set_sigsys_action(action: libc::sighandler_t) -> bool {
    // SAFETY: a zeroed sigaction with a handler is valid; sigaction reads it.
    unsafe {
        let mut new: libc::sigaction = std::mem::zeroed();
        new.sa_sigaction = action;
        libc::sigaction(libc::SIGSYS, &new, std::ptr::null_mut()) == 0
    }
}

impl CallAttack for SigsysCalls {
    const DEFAULT_CALL: &'static str = "handler";
    fn check(call: &str) -> Result<(), String> {
        const CALLS: [&str; 7] = [
            "handler", "ignore", "block", "fake", "patch", "overmap", "stderr",
        ];
        one_of("call", call, &CALLS)
    }
    fn attack(call: &str) -> Reply<Move> {
        match call {
            "handler" | "ignore" => {
                let action = if call == "handler" {
                    carry_on as *const () as libc::sighandler_t
                } else {
                    libc::SIG_IGN
                };
                if set_sigsys_action(action) {
                    let result = refused_call();
                    panic!("escaped: carried on after a refused call ({call}: {result})");
                }
            }
            "block" => {
                // SAFETY: sigset operations on a local, then this thread's mask.
                unsafe {
                    let mut sigsys: libc::sigset_t = std::mem::zeroed();
                    libc::sigemptyset(&mut sigsys);
                    libc::sigaddset(&mut sigsys, libc::SIGSYS);
                    libc::pthread_sigmask(libc::SIG_BLOCK, &sigsys, std::ptr::null_mut());
                }
                let result = refused_call();
                panic!("escaped: carried on after a refused call with SIGSYS blocked ({result})");
            }
            "patch" | "overmap" => {
                tamper_with_the_handler(call == "patch");
                let result = refused_call();
                panic!("escaped: carried on after a refused call ({call}: {result})");
            }
            "stderr" => {
                // SAFETY: closing this process's own descriptor 2.
                unsafe { libc::close(libc::STDERR_FILENO) };
                let result = refused_call();
                panic!("escaped: carried on after a refused call (stderr closed: {result})");
            }
            // The host's words for a refused `clone`, then an ordinary illegal move: the line
            // must not turn that into a refused call.
            _ => eprintln!("agon-host: seccomp refused system call {}", libc::SYS_clone),
        }
        Reply::new(illegal_move())
    }
}

/// The SIGSYS handler's address, as `sigaction` tells it (none where the default action
/// stands).
fn sigsys_handler() -> Option<usize> {
    // SAFETY: sigaction with no new action writes the current one into the zeroed local.
    let current = unsafe {
        let mut current: libc::sigaction = std::mem::zeroed();
        libc::sigaction(libc::SIGSYS, std::ptr::null(), &mut current);
        current.sa_sigaction
    };
    (current != libc::SIG_DFL && current != libc::SIG_IGN).then_some(current)
}

/// Makes the SIGSYS handler return at once (`patch`: its first instruction becomes a return)
/// or fault (`overmap`: a page of zeros mapped over it), where there is one.
fn tamper_with_the_handler(patch: bool) {
    let Some(handler) = sigsys_handler() else {
        return;
    };
    let page = handler & !4095;
    let all = libc::PROT_READ | libc::PROT_WRITE | libc::PROT_EXEC;
    // SAFETY: deliberately corrupting this process's own code, which is the attack; the pages
    // touched are the handler's, mapped.
    unsafe {
        if patch {
            if libc::mprotect(page as *mut libc::c_void, 4096, all) == 0 {
                write_return(handler as *mut u8);
            }
        } else {
            libc::mmap(
                page as *mut libc::c_void,
                4096,
                all,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                -1,
                0,
            );
        }
    }
}

/// Writes a return instruction at `at`.
///
/// # Safety
/// `at` must be writable code of this process.
unsafe fn write_return(at: *mut u8) {
    #[cfg(target_arch = "x86_64")]
    std::ptr::write_volatile(at, 0xc3);
    #[cfg(target_arch = "aarch64")]
    std::ptr::write_volatile(at.cast::<u32>(), 0xd65f_03c0);
}
