//! What a student can do about a fault of their bot: one line per cause, made specific where the
//! record tells more (the budget and clock of a timeout, where a panic happened, a file the
//! sandbox denied, a stack overflow).

use agon_engine::MatchRecord;
use agon_engine::{Clock, HostKind, CPU_WATCHDOG_FACTOR};
use agon_engine::{Fault, FaultCause, Phase};

/// The advice for `fault` of `record`, one or more lines (without the `what to do:` label).
pub fn what_to_do(fault: &Fault, record: &MatchRecord) -> Vec<String> {
    let stderr = record
        .seats
        .get(fault.seat)
        .and_then(|seat| seat.stderr.as_deref());
    match fault.cause {
        FaultCause::Timeout => vec![timeout(fault, record)],
        FaultCause::Panic => panic(fault, record.host, stderr),
        FaultCause::RefusedSyscall => vec![
            "take that call out of the bot, or the library feature that makes it (threads, \
             files, networking, child processes): tournaments run bots under the process \
             host's sandbox, so the call will be refused there too; the README's section on \
             the sandbox lists what it allows"
                .into(),
        ],
        FaultCause::Oom => vec![
            "use less memory: the process host limits a bot's address space to `--memory-mib` \
             MiB (1024 by default; a tournament's `[sandbox] memory_mb`); bound tables and \
             caches, and free what a search no longer needs"
                .into(),
        ],
        FaultCause::Malformed => vec![malformed(fault, record)],
        FaultCause::Illegal => vec![
            "the rules refused that action for the reason given; compare the bot's move \
             generation with the game's rules, and run with `--trace` to see each position \
             the bot was sent and its answers"
                .into(),
        ],
        FaultCause::Crash if fault.detail.contains("stack overflow") => vec![
            "the bot recursed too deep: bound the search's depth, make it iterative, or keep \
             large arrays off the stack"
                .into(),
        ],
        FaultCause::Crash => vec![
            "the bot's process died of a signal: look for unsafe code, raw pointers and \
             `abort()`; its stderr below may say more"
                .into(),
        ],
        FaultCause::Exited => vec![
            "a bot must return from every call: do not exit the process (`std::process::exit`, \
             or a library that exits)"
                .into(),
        ],
        FaultCause::Refused => vec![
            "the bot declined to play, for the reason given; check the parameters given to it \
             (`?key=value` after the bot's name in `--bot`)"
                .into(),
        ],
        FaultCause::Abandoned => vec![
            "an earlier fault of this seat left it without a working host: fix that one first"
                .into(),
        ],
        FaultCause::External => vec![
            "nothing: the bot's process was killed or stopped from outside the engine, or the \
             machine kept it from a CPU, which is not the bot's fault (a tournament plays such \
             a game again)"
                .into(),
        ],
    }
}

fn timeout(fault: &Fault, record: &MatchRecord) -> String {
    let (budget, flag, call) = match fault.phase {
        Phase::Start => (record.budgets.start_ms, "--start-ms", "start call"),
        Phase::Move => (record.budgets.move_ms, "--move-ms", "move"),
    };
    let budget = match (budget, record.budgets.clock) {
        (Some(ms), Clock::Cpu) => format!(
            "{ms} ms of CPU time per {call}, and as the CPU clock does not count waiting, \
             {} ms of wall time spent other than waiting for a CPU (sleeping, blocking)",
            ms.saturating_mul(CPU_WATCHDOG_FACTOR.into())
        ),
        (Some(ms), Clock::Wall) => format!("{ms} ms of wall-clock time per {call}"),
        (None, _) => format!("no budget per {call}, but a one-hour watchdog"),
    };
    format!(
        "answer within the budget: {budget} (`{flag}`, `--clock cpu|wall`; a tournament sets \
         its own); the bot is told its budgets in its start message (`move_budget_ms`): check \
         the time while searching and stop with a margin"
    )
}

fn panic(fault: &Fault, host: HostKind, stderr: Option<&str>) -> Vec<String> {
    let mut hints = Vec::new();
    if host == HostKind::Process && denied_access(&fault.detail) {
        hints.push(
            "the bot could not open a file: under the process host the sandbox gives a bot a \
             root of its own that holds only its own library and the system's shared \
             libraries (other files do not exist there, and Landlock denies the rest), the \
             likely cause here; build the data into the library (`include_bytes!`, \
             `include_str!`) instead of reading it at run time"
                .to_string(),
        );
    }
    if fault.detail.contains("failed to spawn thread") {
        hints.push(
            "the bot started more threads than the match allows: `--threads N` (0 by \
             default; a tournament's `[sandbox] threads`)"
                .to_string(),
        );
    }
    hints.push(match (panic_location(stderr.unwrap_or_default()), host) {
        (Some(location), _) => format!(
            "the bot panicked at {location}: fix that line, or return an error there instead \
             of panicking"
        ),
        (None, HostKind::Process) => {
            "fix the panic its message names; the bot's stderr below holds what it printed"
                .to_string()
        }
        (None, _) => format!(
            "fix the panic its message names; the {host} host leaves a bot's stderr on this \
             terminal, where the panic's location was printed (`--host process` captures it in \
             the record)"
        ),
    });
    hints
}

/// How std words an I/O error of EACCES, which is what Landlock answers (`Permission denied (os
/// error 13)` when displayed, `Os { code: 13, kind: PermissionDenied, .. }` when unwrapped), or
/// of ENOENT, what a path outside the host's own root gives.
fn denied_access(detail: &str) -> bool {
    [
        "Permission denied",
        "PermissionDenied",
        "os error 13",
        "No such file or directory",
        "NotFound",
        "os error 2)",
    ]
    .iter()
    .any(|words| detail.contains(words))
}

/// Where the last panic happened, as std's panic hook printed it on stderr
/// (`thread 'main' panicked at src/lib.rs:12:5:`).
fn panic_location(stderr: &str) -> Option<&str> {
    stderr.lines().rev().find_map(|line| {
        let (_, place) = line.split_once(" panicked at ")?;
        let place = place.trim_end().trim_end_matches(':');
        (!place.is_empty()).then_some(place)
    })
}

fn malformed(fault: &Fault, record: &MatchRecord) -> String {
    let detail = &fault.detail;
    if detail.contains("before it was asked") {
        "answer only when asked, and only by returning from `act`: write nothing to the \
         engine's pipes yourself"
            .into()
    } else if detail.contains("exceeds the limit") {
        format!(
            "answer with a smaller message: the engine refuses answers over {} MiB",
            agon_sdk::protocol::MAX_MESSAGE_BYTES >> 20
        )
    } else {
        format!(
            "the bot's messages must be the game's protocol types, encoded as this engine's \
             SDK encodes them ({} speaks protocol v{}): rebuild the bot with this engine's \
             agon-sdk (`agon plugins FILE` shows what a plugin speaks)",
            record.game, record.protocol_version
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_panic_location_is_found_in_stderr() {
        let stderr = "noise\nthread '<unnamed>' (12) panicked at src/a.rs:1:2:\nfirst\n\
                      thread 'main' panicked at src/lib.rs:12:5:\nsecond\nnote: run with ...\n";
        assert_eq!(panic_location(stderr), Some("src/lib.rs:12:5"));
        assert_eq!(panic_location("no panic here\n"), None);
        assert_eq!(panic_location(" panicked at :"), None);
    }

    #[test]
    fn a_denied_or_hidden_file_is_recognised_however_std_words_it() {
        assert!(denied_access("Permission denied (os error 13)"));
        assert!(denied_access("No such file or directory (os error 2)"));
        assert!(!denied_access("invalid digit (os error 22)"));
        assert!(denied_access(
            "book: Os { code: 13, kind: PermissionDenied, message: \"Permission denied\" }"
        ));
        assert!(denied_access(
            "book: Os { code: 2, kind: NotFound, message: \"No such file or directory\" }"
        ));
        assert!(!denied_access("index out of bounds: the len is 2"));
    }
}
