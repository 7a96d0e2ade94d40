//! One CPU crowded with busy processes, for tests of what a loaded machine does to grades: a
//! command pinned to the same CPU gets a share of it, as on a shared server or a packed batch
//! node.

use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};

/// Busy processes on one CPU, killed when dropped (and with the test's thread, should it die
/// first).
pub struct CrowdedCpu {
    pub cpu: usize,
    spinners: Vec<Child>,
}

impl CrowdedCpu {
    /// `count` shells spinning on the first CPU this process may use.
    pub fn new(count: usize) -> CrowdedCpu {
        let cpu = first_allowed_cpu();
        let spinners = (0..count)
            .map(|_| {
                let mut shell = Command::new("sh");
                shell
                    .args(["-c", "while :; do :; done"])
                    .stdin(Stdio::null())
                    .stdout(Stdio::null());
                pin(&mut shell, cpu);
                // SAFETY: prctl with integer arguments, between fork and exec.
                unsafe {
                    shell.pre_exec(|| {
                        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                        Ok(())
                    });
                }
                shell.spawn().expect("a shell runs")
            })
            .collect();
        CrowdedCpu { cpu, spinners }
    }

    /// Has `command` run on the crowded CPU, with its children.
    pub fn join(&self, command: &mut Command) {
        pin(command, self.cpu);
    }
}

impl Drop for CrowdedCpu {
    fn drop(&mut self) {
        for spinner in &mut self.spinners {
            let _ = spinner.kill();
            let _ = spinner.wait();
        }
    }
}

fn pin(command: &mut Command, cpu: usize) {
    // SAFETY: sched_setaffinity of the child itself (0), from a set on its own stack; no
    // allocation between fork and exec.
    unsafe {
        command.pre_exec(move || {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpu, &mut set);
            if libc::sched_setaffinity(0, std::mem::size_of_val(&set), &set) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

fn first_allowed_cpu() -> usize {
    // SAFETY: the set is a local the call writes.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        let read = libc::sched_getaffinity(0, std::mem::size_of_val(&set), &mut set);
        assert_eq!(read, 0, "cannot read this process's CPUs");
        (0..libc::CPU_SETSIZE as usize)
            .find(|&cpu| libc::CPU_ISSET(cpu, &set))
            .expect("a process may run on some CPU")
    }
}
