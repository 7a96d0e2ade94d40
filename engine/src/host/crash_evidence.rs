//! Evidence of which bot took the engine down. On the in-process hosts (thread, inline) a bot
//! that crashes (a segfault, an abort, a stack overflow) kills the whole engine. A death alone
//! names nobody: SIGKILL from a user, the kernel's out-of-memory killer or a batch system, or a
//! power loss, look the same from the next run. So the engine's own handler for the fatal
//! signals a crash raises (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT) writes, before the signal
//! takes its course, which seat's call was running on the thread that faulted. That line is the
//! only ground on which a bot is blamed for the engine's death.
//!
//! A signal counts only when the kernel raised it for a fault of the thread itself, or, for
//! SIGABRT, when the process aborted itself: a `kill -SEGV` from outside is not a crash.
//! The handler is async-signal-safe: it reads fixed slots, formats into a stack buffer and
//! makes one `write`.

use std::ffi::c_void;
use std::path::Path;
use std::sync::atomic::{AtomicI32, AtomicPtr, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// The signals a crash raises, whose handling is chained to what was there before.
const FATAL: [libc::c_int; 5] = [
    libc::SIGSEGV,
    libc::SIGBUS,
    libc::SIGILL,
    libc::SIGFPE,
    libc::SIGABRT,
];

/// Calls that can be in progress at once (seats of all games a run plays at once); a call
/// beyond them runs unwatched, with a warning.
const SLOTS: usize = 256;

/// A label is cut to this length, so the handler's line fits its stack buffer.
const LABEL_CAPACITY: usize = 1024;
const LINE_CAPACITY: usize = LABEL_CAPACITY + crate::decimal::I32_WIDTH + 2;

/// Who is in a call, for the evidence line: the start of a JSON object whose `signal` the
/// handler completes (`{"game":"g1","seat":0,"entrant":"team","signal":` + `11}` + newline).
#[derive(Debug, Clone)]
pub struct CrashLabel(Arc<[u8]>);

impl CrashLabel {
    pub fn new(game: &str, seat: usize, entrant: &str) -> CrashLabel {
        let short: String = entrant.chars().take(100).collect();
        let object = |entrant: &str| {
            let mut text =
                serde_json::json!({ "game": game, "seat": seat, "entrant": entrant }).to_string();
            text.pop(); // the closing brace: the handler adds the signal and closes it
            text.push_str(",\"signal\":");
            text
        };
        let mut text = object(&short);
        if text.len() > LABEL_CAPACITY {
            text = object(""); // the seat still names the entrant, through the plan
        }
        if text.len() > LABEL_CAPACITY {
            text = "{\"signal\":".into();
        }
        CrashLabel(text.into_bytes().into())
    }
}

/// One call in progress: the thread running it and its label.
struct Slot {
    tid: AtomicI32,
    label: AtomicPtr<u8>,
    len: AtomicUsize,
}

static CALLS: [Slot; SLOTS] = [const {
    Slot {
        tid: AtomicI32::new(0),
        label: AtomicPtr::new(std::ptr::null_mut()),
        len: AtomicUsize::new(0),
    }
}; SLOTS];

/// Where evidence goes (a descriptor opened for appending), or -1 before [`install`].
static EVIDENCE_FD: AtomicI32 = AtomicI32::new(-1);

/// The handling each fatal signal had before ours, restored before the signal takes its course.
static PREVIOUS: [AtomicPtr<libc::sigaction>; FATAL.len()] =
    [const { AtomicPtr::new(std::ptr::null_mut()) }; FATAL.len()];

/// Writes evidence to `file` (appended) from now on, and installs the handler once per process.
pub fn install(file: &Path) -> std::io::Result<()> {
    use std::os::fd::IntoRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    let opened = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .custom_flags(libc::O_CLOEXEC)
        .open(file)?;
    let old = EVIDENCE_FD.swap(opened.into_raw_fd(), Ordering::SeqCst);
    if old >= 0 {
        // SAFETY: the descriptor was ours (from `into_raw_fd`) and nothing else uses it.
        unsafe { libc::close(old) };
    }
    static HANDLERS: OnceLock<Result<(), HandlerRefused>> = OnceLock::new();
    (*HANDLERS.get_or_init(install_handlers)).map_err(std::io::Error::other)
}

/// The kernel would not take the handler for a fatal signal; kept for every later install.
#[derive(Debug, Clone, Copy, thiserror::Error)]
#[error("cannot watch for crashes (signal {signal}): {}", std::io::Error::from_raw_os_error(*errno))]
pub struct HandlerRefused {
    pub signal: i32,
    pub errno: i32,
}

fn install_handlers() -> Result<(), HandlerRefused> {
    for (index, &signal) in FATAL.iter().enumerate() {
        // SAFETY: zeroed sigactions are valid to fill in; sigaction reads and writes them.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_fatal_signal as *const () as libc::sighandler_t;
            // The alternate stack: a stack overflow must still be reported.
            action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            libc::sigfillset(&mut action.sa_mask);
            let previous: &'static mut libc::sigaction = Box::leak(Box::new(std::mem::zeroed()));
            if libc::sigaction(signal, &action, previous) != 0 {
                let errno = std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
                return Err(HandlerRefused { signal, errno });
            }
            PREVIOUS[index].store(previous, Ordering::SeqCst);
        }
    }
    Ok(())
}

/// Runs `call` (a bot's call) as `label`'s, on this thread: a crash in it is written down.
pub fn in_call<T>(label: Option<&CrashLabel>, call: impl FnOnce() -> T) -> T {
    let registration = label.and_then(Registration::new);
    let result = call();
    drop(registration);
    result
}

/// A slot held for the current thread while its call runs (the label stays alive with it).
struct Registration {
    slot: &'static Slot,
    _label: CrashLabel,
}

impl Registration {
    fn new(label: &CrashLabel) -> Option<Registration> {
        if EVIDENCE_FD.load(Ordering::SeqCst) < 0 {
            return None; // nothing installed: no run is watching
        }
        let tid = this_thread();
        let Some(slot) = CALLS.iter().find(|slot| {
            slot.tid
                .compare_exchange(0, tid, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        }) else {
            log::warn!("more than {SLOTS} bot calls at once: a crash in this one names nobody");
            return None;
        };
        slot.label
            .store(label.0.as_ptr().cast_mut(), Ordering::SeqCst);
        slot.len.store(label.0.len(), Ordering::SeqCst);
        Some(Registration {
            slot,
            _label: label.clone(),
        })
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        self.slot.len.store(0, Ordering::SeqCst);
        self.slot
            .label
            .store(std::ptr::null_mut(), Ordering::SeqCst);
        self.slot.tid.store(0, Ordering::SeqCst);
    }
}

/// This thread's id, asked of the kernel once per thread (a call is registered per bot call).
fn this_thread() -> libc::pid_t {
    thread_local! {
        static TID: std::cell::Cell<libc::pid_t> = const { std::cell::Cell::new(0) };
    }
    TID.with(|tid| {
        if tid.get() == 0 {
            // SAFETY: gettid has no preconditions.
            tid.set(unsafe { libc::gettid() });
        }
        tid.get()
    })
}

/// The label of the call registered for this thread, if one is (for tests of the hosts).
#[cfg(test)]
pub(super) fn label_of_this_thread() -> Option<Vec<u8>> {
    let tid = this_thread();
    let slot = CALLS.iter().find(|s| s.tid.load(Ordering::SeqCst) == tid)?;
    let (label, len) = (
        slot.label.load(Ordering::SeqCst),
        slot.len.load(Ordering::SeqCst),
    );
    // SAFETY: a slot of this thread is held by the registration of the call running on it,
    // which keeps its label alive.
    (!label.is_null()).then(|| unsafe { std::slice::from_raw_parts(label, len) }.to_vec())
}

/// `si_code` of a signal the kernel raised for a fault (positive) or a thread sent with
/// `tgkill` (`SI_TKILL`, as `abort` does).
const SI_TKILL: i32 = -6;

/// Whether `info` tells of a crash: a fault the kernel raised, or the process aborting itself.
///
/// # Safety
/// `info` is the `siginfo_t` the kernel passed to the handler.
unsafe fn is_crash(signal: libc::c_int, info: *const libc::siginfo_t) -> bool {
    let code = (*info).si_code;
    match signal {
        libc::SIGABRT => code == SI_TKILL && (*info).si_pid() == libc::getpid(),
        _ => code > 0,
    }
}

extern "C" fn on_fatal_signal(signal: libc::c_int, info: *mut libc::siginfo_t, _: *mut c_void) {
    // SAFETY: only async-signal-safe calls; `info` comes from the kernel; the slot's label is
    // kept alive by its registration, which belongs to this very thread.
    unsafe {
        if !info.is_null() && is_crash(signal, info) {
            write_evidence(signal);
        }
        let index = FATAL.iter().position(|&s| s == signal).unwrap_or(0);
        let previous = PREVIOUS[index].load(Ordering::SeqCst);
        if !previous.is_null() {
            libc::sigaction(signal, previous, std::ptr::null_mut());
        }
        // A fault repeats when the instruction runs again after this returns, now under the
        // previous handling; a sent signal does not, so it is sent again (delivered on return).
        if info.is_null() || (*info).si_code <= 0 {
            libc::raise(signal);
        }
    }
}

/// Appends the evidence line of the call running on this thread, if one is.
///
/// # Safety
/// Called from the signal handler only.
unsafe fn write_evidence(signal: libc::c_int) {
    let fd = EVIDENCE_FD.load(Ordering::SeqCst);
    let tid = libc::gettid();
    let Some(slot) = CALLS.iter().find(|s| s.tid.load(Ordering::SeqCst) == tid) else {
        return;
    };
    let (label, len) = (
        slot.label.load(Ordering::SeqCst),
        slot.len.load(Ordering::SeqCst),
    );
    if fd < 0 || label.is_null() || len > LABEL_CAPACITY {
        return;
    }
    let mut line = [0u8; LINE_CAPACITY];
    std::ptr::copy_nonoverlapping(label, line.as_mut_ptr(), len);
    let mut end = crate::decimal::write_i32(signal, &mut line, len);
    line[end] = b'}';
    line[end + 1] = b'\n';
    end += 2;
    libc::write(fd, line.as_ptr().cast(), end);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_is_a_json_object_once_the_handler_completes_it() {
        let label = CrashLabel::new("g1", 2, "team \"x\"\n");
        let mut line = label.0.to_vec();
        line.extend_from_slice(b"11}");
        let value: serde_json::Value = serde_json::from_slice(&line).unwrap();
        assert_eq!(value["game"], "g1");
        assert_eq!(value["seat"], 2);
        assert_eq!(value["entrant"], "team \"x\"\n");
        assert_eq!(value["signal"], 11);
        let long = CrashLabel::new("g1", 0, &"é".repeat(5000));
        assert!(long.0.len() <= LABEL_CAPACITY);
    }
}
