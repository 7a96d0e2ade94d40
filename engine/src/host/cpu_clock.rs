//! The bot thread's CPU clock, read by the in-process hosts at both ends of every call.
//!
//! Each read is a system call: the vDSO serves the monotonic and real-time clocks, not
//! `CLOCK_THREAD_CPUTIME_ID` (`agon bench --suite hosts` prints both costs). Both reads stay on
//! every call, because what a call's CPU time is used for cannot do with less:
//! - A CPU budget. CPU time never exceeds the wall time of a bot alone on its thread, so a call
//!   that ends within its budget by the monotonic clock cannot have overrun it. But a call that
//!   did run long needs its CPU time exactly, as the difference from a reading taken when it
//!   started, and at its start nobody knows whether it will run long. No later reading stands
//!   in for it: on the inline host the engine's own work runs on the same thread between calls,
//!   on the thread host the worker's waiting and channel work would be charged to the bot.
//! - The record: every move keeps its CPU time (`cpu_us`, the traces, cpu ms per move), and a
//!   ReversiXT time account under the CPU clock is charged each move's.

use rustix::time::{clock_gettime, ClockId};
use std::time::Duration;

/// CPU time consumed so far by the calling thread.
pub fn thread_cpu_time() -> Duration {
    let t = clock_gettime(ClockId::ThreadCPUTime);
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}
