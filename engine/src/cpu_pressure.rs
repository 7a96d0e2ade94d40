//! The CPU pressure a game met: the share of its wall time during which some runnable task
//! waited for a CPU, from the kernel's pressure stall information (the `some` line's `total`,
//! in microseconds). Read from the engine's own cgroup where it keeps one (cgroup v2: the
//! pressure the run's processes met, other tenants' load and quota throttling included), else
//! from the whole machine's. Recorded for staff, never used in grading: a starved bot is
//! handled call by call (`host::starvation`).

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Instant;

/// The pressure counter at one moment.
#[derive(Debug, Clone, Copy)]
pub struct PressureMark {
    stalled_us: u64,
    at: Instant,
}

impl PressureMark {
    /// Now; `None` where the kernel keeps no pressure information (built without PSI, or
    /// booted with `psi=0`).
    pub fn now() -> Option<PressureMark> {
        let path = source().as_ref()?;
        let text = std::fs::read_to_string(path).ok()?;
        Some(PressureMark {
            stalled_us: some_total(&text)?,
            at: Instant::now(),
        })
    }

    /// The share (0 to 1) of the time since this mark during which some task waited for a CPU.
    pub fn share_since(&self) -> Option<f64> {
        let now = PressureMark::now()?;
        let wall_us = now.at.saturating_duration_since(self.at).as_micros() as f64;
        let stalled_us = now.stalled_us.saturating_sub(self.stalled_us) as f64;
        Some(if wall_us > 0.0 {
            (stalled_us / wall_us).clamp(0.0, 1.0)
        } else {
            0.0
        })
    }
}

/// Where the pressure is read, found once.
fn source() -> &'static Option<PathBuf> {
    static SOURCE: OnceLock<Option<PathBuf>> = OnceLock::new();
    SOURCE.get_or_init(|| {
        let own_cgroup = std::fs::read_to_string("/proc/self/cgroup")
            .ok()
            .and_then(|text| {
                let path = cgroup_v2_path(&text)?;
                Some(PathBuf::from(format!("/sys/fs/cgroup{path}/cpu.pressure")))
            });
        [own_cgroup, Some(PathBuf::from("/proc/pressure/cpu"))]
            .into_iter()
            .flatten()
            .find(|path| {
                std::fs::read_to_string(path)
                    .ok()
                    .and_then(|text| some_total(&text))
                    .is_some()
            })
    })
}

/// The cgroup v2 path in `/proc/self/cgroup` (the `0::` line).
fn cgroup_v2_path(text: &str) -> Option<&str> {
    text.lines()
        .find_map(|line| line.strip_prefix("0::"))
        .map(|path| path.trim_end_matches('/'))
}

/// The `total=` of the `some` line.
fn some_total(text: &str) -> Option<u64> {
    text.lines()
        .find_map(|line| line.strip_prefix("some "))?
        .split_ascii_whitespace()
        .find_map(|field| field.strip_prefix("total="))?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_some_lines_total_is_the_stalled_time() {
        let text = "some avg10=98.12 avg60=95.57 avg300=64.45 total=18328775216\n\
                    full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n";
        assert_eq!(some_total(text), Some(18_328_775_216));
        assert_eq!(some_total("full avg10=0.00 total=5\n"), None);
        assert_eq!(some_total("some avg10=1.00 total=x\n"), None);
        assert_eq!(some_total(""), None);
    }

    #[test]
    fn the_cgroup_v2_path_is_the_unnamed_hierarchys() {
        let hybrid = "4:memory:/a/b\n1:cpu:/\n0::/user.slice/job-7/\n";
        assert_eq!(cgroup_v2_path(hybrid), Some("/user.slice/job-7"));
        assert_eq!(cgroup_v2_path("0::/\n"), Some(""));
        assert_eq!(cgroup_v2_path("4:memory:/a\n"), None);
    }

    /// Three threads spinning on one CPU wait for it in turn: the pressure shows it.
    #[test]
    fn threads_crowding_a_cpu_are_seen_as_pressure() {
        if source().is_none() {
            return; // a kernel without pressure information, where none is recorded
        }
        let mark = PressureMark::now().expect("readable");
        let crowd = crate::host::crowded_cpu::CrowdedCpu::new(3);
        std::thread::sleep(std::time::Duration::from_millis(300));
        drop(crowd);
        let share = mark.share_since().expect("read again");
        // Alone, about half the machine's time or more; other tests crowding the machine at
        // the same time spread what the kernel averages over its CPUs.
        assert!((0.05..=1.0).contains(&share), "{share}");
    }
}
