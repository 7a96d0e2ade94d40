use rustix::time::{clock_gettime, ClockId};
use std::time::Duration;

/// CPU time consumed so far by the calling thread.
pub fn thread_cpu_time() -> Duration {
    let t = clock_gettime(ClockId::ThreadCPUTime);
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}
