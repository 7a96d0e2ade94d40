//! How a host that stopped answering died, and whose fault that is: from its wait status, its
//! cgroup's count of OOM kills and its stderr.

use crate::fault::FaultCause;
use crate::host::sandbox::cgroup::HostCgroup;
use crate::host::sandbox::{refusal_line, refused_calls};
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;

/// A SIGKILL the host's cgroup counted as an OOM kill is `oom`: the cgroup's OOM killer at
/// `memory.max` kills like a batch system would.
pub(super) fn cgroup_oom_kill(
    status: Option<ExitStatus>,
    cgroup: Option<&HostCgroup>,
) -> Option<(FaultCause, String)> {
    let killed = status.and_then(|s| s.signal()) == Some(libc::SIGKILL);
    let cgroup = cgroup.filter(|c| killed && c.oom_kills() > 0)?;
    Some((
        FaultCause::Oom,
        format!(
            "out of memory: killed by the kernel's OOM killer at the memory limit of the bot's \
             cgroup (memory.max, {} MiB)",
            cgroup.memory_max() >> 20
        ),
    ))
}

/// How a host that stopped answering died, from its wait status and its stderr (whose text
/// only ever words the detail: a bot writes there too).
///
/// `confined`: the host's seccomp filter was on, so the bot could not send itself SIGKILL,
/// SIGTERM, SIGINT or SIGHUP (see `sandbox::seccomp`); a death by one of those then came from
/// outside the engine (the engine reaps the hosts it kills itself without asking here) and is
/// `external`. Without the filter a bot could fake that to have its lost games played again, so
/// it is then the bot's crash.
pub fn classify_death(
    status: Option<ExitStatus>,
    stderr: Option<&str>,
    confined: bool,
) -> (FaultCause, String) {
    let stderr = stderr.unwrap_or("");
    let Some(status) = status else {
        return (
            FaultCause::Exited,
            "the host closed its pipe without exiting, and was killed".into(),
        );
    };
    if let Some(code) = status.code() {
        return (
            FaultCause::Exited,
            format!("the bot's process exited with code {code}"),
        );
    }
    let signal = status.signal().unwrap_or(0);
    let name = signal_name(signal);
    match signal {
        // The cause is the death's; the refusal line only names the call in the detail, so a
        // bot that prints a line of its own changes nothing but that text.
        libc::SIGSYS => (
            FaultCause::RefusedSyscall,
            refused_calls::describe(refusal_line::last_refused_call(stderr)),
        ),
        // A bot that is pid 1 of its PID namespace cannot die of its own SIGABRT: its abort
        // ends in SIGSEGV (`sandbox::supervisor`).
        libc::SIGABRT | libc::SIGSEGV if stderr.contains("memory allocation of") => (
            FaultCause::Oom,
            "out of memory: an allocation failed under the address-space limit".into(),
        ),
        libc::SIGKILL | libc::SIGTERM | libc::SIGINT | libc::SIGHUP if confined => (
            FaultCause::External,
            format!(
                "the bot's process was killed by {name} from outside the engine (a batch \
                 system, a user, or the kernel's out-of-memory killer; memory over the \
                 address-space limit fails an allocation instead)"
            ),
        ),
        libc::SIGXCPU => (
            FaultCause::Timeout,
            "the CPU-seconds limit of the host was reached (SIGXCPU)".into(),
        ),
        _ if stderr.contains("has overflowed its stack") => {
            (FaultCause::Crash, format!("stack overflow ({name})"))
        }
        _ => (
            FaultCause::Crash,
            format!("the bot's process died of {name}"),
        ),
    }
}

fn signal_name(signal: i32) -> String {
    let name = match signal {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSYS => "SIGSYS",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGTERM => "SIGTERM",
        libc::SIGINT => "SIGINT",
        libc::SIGHUP => "SIGHUP",
        _ => return format!("signal {signal}"),
    };
    format!("{name} (signal {signal})")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn killed_by(signal: i32) -> Option<ExitStatus> {
        Some(ExitStatus::from_raw(signal))
    }

    #[test]
    fn a_stop_signal_or_sigkill_from_outside_is_not_the_bots_fault() {
        for signal in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP, libc::SIGKILL] {
            let (cause, detail) = classify_death(killed_by(signal), None, true);
            assert_eq!(cause, FaultCause::External, "{detail}");
            assert!(detail.contains("from outside the engine"), "{detail}");
        }
    }

    #[test]
    fn without_the_seccomp_filter_a_bot_could_fake_it_so_it_is_a_crash() {
        for signal in [libc::SIGTERM, libc::SIGKILL] {
            let (cause, _) = classify_death(killed_by(signal), None, false);
            assert_eq!(cause, FaultCause::Crash);
        }
    }

    #[test]
    fn deaths_the_bot_causes_keep_their_causes() {
        let cases = [
            (libc::SIGSEGV, "", FaultCause::Crash),
            (libc::SIGSYS, "", FaultCause::RefusedSyscall),
            (
                libc::SIGABRT,
                "memory allocation of 4096 bytes failed",
                FaultCause::Oom,
            ),
            (libc::SIGXCPU, "", FaultCause::Timeout),
        ];
        for (signal, stderr, expected) in cases {
            let (cause, detail) = classify_death(killed_by(signal), Some(stderr), true);
            assert_eq!(cause, expected, "{detail}");
        }
    }

    #[test]
    fn a_refused_call_is_named_from_the_hosts_line() {
        let stderr = format!("{}{}\n", refusal_line::MARKER, libc::SYS_socket);
        let (cause, detail) = classify_death(killed_by(libc::SIGSYS), Some(&stderr), true);
        assert_eq!(cause, FaultCause::RefusedSyscall);
        assert!(detail.contains("`socket`"), "{detail}");
    }

    #[test]
    fn a_refusal_line_never_changes_the_cause() {
        let fake = format!("{}{}\n", refusal_line::MARKER, libc::SYS_clone);
        for (signal, expected) in [
            (libc::SIGSEGV, FaultCause::Crash),
            (libc::SIGKILL, FaultCause::External),
            (libc::SIGXCPU, FaultCause::Timeout),
        ] {
            let (cause, detail) = classify_death(killed_by(signal), Some(&fake), true);
            assert_eq!(cause, expected, "{detail}");
            assert!(!detail.contains("clone"), "{detail}");
        }
        let exited = classify_death(Some(ExitStatus::from_raw(3 << 8)), Some(&fake), true);
        assert_eq!(exited.0, FaultCause::Exited);
    }
}
