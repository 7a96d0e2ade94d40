//! What a process of the machine uses, read from /proc: its resident memory and its CPU time,
//! for the figures of processes a benchmark starts (a portal, a ladder) and of its own.

use std::time::Duration;

/// The resident set of process `pid` (`self` for this one), in MiB; NaN where unknown.
pub fn resident_mib_of(pid: &str) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        })
        .map_or(f64::NAN, |kib| kib / 1024.0)
}

/// The CPU time (user and system) process `pid` has used, in seconds; NaN where unknown.
pub fn cpu_seconds_of(pid: u32) -> f64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return f64::NAN;
    };
    // After the command name (which may hold spaces and parentheses): state is field 3, utime
    // and stime fields 14 and 15 (proc(5)).
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
    // SAFETY: sysconf has no preconditions.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    match (ticks(11), ticks(12)) {
        (Some(user), Some(system)) => (user + system) / per_second,
        _ => f64::NAN,
    }
}

/// The CPU milliseconds per minute process `pid` uses while nothing happens, over `window`
/// (1% of a core is 600).
pub fn idle_cpu_per_minute(pid: u32, window: Duration) -> f64 {
    let before = cpu_seconds_of(pid);
    std::thread::sleep(window);
    (cpu_seconds_of(pid) - before) * 60_000.0 / window.as_secs_f64()
}
