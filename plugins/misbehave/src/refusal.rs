//! Attempts on the way the process host reports a refused system call (it traps, names the
//! call on its stderr and dies of SIGSYS): a bot that installs its own SIGSYS handler or
//! ignores the signal, so as to carry on after a refused call; one that blocks SIGSYS; one that
//! prints a refusal line of its own. A bot that carries on after a refused call panics with
//! `escaped:`.

use crate::illegal_move;
use crate::machine::{ByCall, CallAttack};
use agon_plugin_api::protocol::breakthrough::Move;
use agon_plugin_api::protocol::Reply;

/// `call=handler|ignore|block|fake`.
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
        match call {
            "handler" | "ignore" | "block" | "fake" => Ok(()),
            other => Err(format!(
                "call `{other}`: expected handler, ignore, block or fake"
            )),
        }
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
            // The host's words for a refused `clone`, then an ordinary illegal move: the line
            // must not turn that into a refused call.
            _ => eprintln!("agon-host: seccomp refused system call {}", libc::SYS_clone),
        }
        Reply::new(illegal_move())
    }
}
