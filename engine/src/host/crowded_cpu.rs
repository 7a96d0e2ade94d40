//! One CPU crowded with spinning threads, for tests of what a busy machine does to a bot: a
//! thread pinned to the crowded CPU gets a share of it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Threads spinning on one CPU until dropped.
pub struct CrowdedCpu {
    pub cpu: usize,
    stop: Arc<AtomicBool>,
    spinners: Vec<JoinHandle<()>>,
}

impl CrowdedCpu {
    /// `spinners` threads on the first CPU this thread may use.
    pub fn new(spinners: usize) -> CrowdedCpu {
        let cpu = first_allowed_cpu();
        let stop = Arc::new(AtomicBool::new(false));
        let spinners = (0..spinners)
            .map(|_| {
                let stop = Arc::clone(&stop);
                std::thread::spawn(move || {
                    pin_this_thread(cpu);
                    while !stop.load(Ordering::Relaxed) {
                        std::hint::spin_loop();
                    }
                })
            })
            .collect();
        CrowdedCpu {
            cpu,
            stop,
            spinners,
        }
    }
}

impl Drop for CrowdedCpu {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for spinner in self.spinners.drain(..) {
            let _ = spinner.join();
        }
    }
}

/// Pins the calling thread to `cpu`.
pub fn pin_this_thread(cpu: usize) {
    // SAFETY: the set is a local the calls only read and write.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        let pinned = libc::sched_setaffinity(0, std::mem::size_of_val(&set), &set);
        assert_eq!(pinned, 0, "cannot pin a thread to CPU {cpu}");
    }
}

fn first_allowed_cpu() -> usize {
    // SAFETY: as above.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        let read = libc::sched_getaffinity(0, std::mem::size_of_val(&set), &mut set);
        assert_eq!(read, 0, "cannot read this thread's CPUs");
        (0..libc::CPU_SETSIZE as usize)
            .find(|&cpu| libc::CPU_ISSET(cpu, &set))
            .expect("a thread may run on some CPU")
    }
}
