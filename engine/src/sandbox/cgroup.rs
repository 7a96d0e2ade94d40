//! A cgroup v2 per host, where the engine may create one: `pids.max` (threads), `memory.max`
//! and `memory.swap.max` (all the memory the host uses, not only its address space) and
//! `cpu.max` (a bot with N threads gets N+1 CPUs' worth of time, so its threads cannot starve
//! the other hosts); on a deadline the whole cgroup is killed (`cgroup.kill`).
//!
//! The engine needs a cgroup it may create children in, with the `pids`, `memory` and `cpu`
//! controllers enabled for them: `$AGON_CGROUP` names one (for example a scope started with
//! `systemd-run --user --scope -p Delegate=yes`, whose path `/proc/self/cgroup` shows), else
//! the engine's own cgroup is used if it already delegates them. Where neither exists (no
//! cgroup v2, or its controllers bound to a cgroup v1 hierarchy, as on machines that mount
//! both) the record's `sandbox.missing` says why and `--sandbox strict` refuses to run.

use super::SandboxConfig;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The controllers a host's cgroup needs.
const CONTROLLERS: [&str; 3] = ["pids", "memory", "cpu"];

/// The period of `cpu.max`, in microseconds.
const CPU_PERIOD_US: u64 = 100_000;

/// The cgroup under which hosts get theirs, found once per engine process.
pub fn delegation() -> Result<&'static Path, String> {
    static FOUND: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    FOUND
        .get_or_init(find_delegation)
        .as_deref()
        .map_err(Clone::clone)
}

fn find_delegation() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os("AGON_CGROUP") {
        let dir = PathBuf::from(dir);
        return check_delegation(&dir).map(|()| dir);
    }
    let mount = cgroup2_mount().ok_or("no cgroup v2 file system is mounted")?;
    let own = std::fs::read_to_string("/proc/self/cgroup")
        .map_err(|e| format!("cannot read /proc/self/cgroup: {e}"))?;
    let relative = own
        .lines()
        .find_map(|line| line.strip_prefix("0::"))
        .ok_or("the engine is in no cgroup v2")?;
    let dir = mount.join(relative.trim_start_matches('/'));
    let offered = read_words(&dir.join("cgroup.controllers"));
    if let Some(absent) = CONTROLLERS
        .iter()
        .find(|c| !offered.contains(&c.to_string()))
    {
        return Err(format!(
            "cgroup v2 at {} offers no `{absent}` controller (offered: {}; on a machine that \
             also mounts cgroup v1 the controllers may be bound there)",
            dir.display(),
            if offered.is_empty() {
                "none".to_string()
            } else {
                offered.join(" ")
            }
        ));
    }
    check_delegation(&dir).map(|()| dir).map_err(|e| {
        format!(
            "{e}; set AGON_CGROUP to a cgroup that delegates them (for example under `systemd-run \
             --user --scope -p Delegate=yes`)"
        )
    })
}

/// `CGROUP2_SUPER_MAGIC` (linux/magic.h).
const CGROUP2_MAGIC: i64 = 0x6367_7270;

/// `dir` is a cgroup v2 directory that lets its children use every needed controller, and the
/// engine may create them.
fn check_delegation(dir: &Path) -> Result<(), String> {
    let path = std::ffi::CString::new(dir.as_os_str().as_encoded_bytes())
        .map_err(|_| format!("{}: not a path", dir.display()))?;
    // SAFETY: statfs writes the zeroed local.
    let mut fs: libc::statfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statfs(path.as_ptr(), &mut fs) } != 0 {
        return Err(format!(
            "{}: {}",
            dir.display(),
            std::io::Error::last_os_error()
        ));
    }
    if fs.f_type as i64 != CGROUP2_MAGIC {
        return Err(format!("{} is not a cgroup v2 file system", dir.display()));
    }
    let enabled = read_words(&dir.join("cgroup.subtree_control"));
    if let Some(absent) = CONTROLLERS
        .iter()
        .find(|c| !enabled.contains(&c.to_string()))
    {
        return Err(format!(
            "cgroup {} does not enable `{absent}` for its children (cgroup.subtree_control: {})",
            dir.display(),
            enabled.join(" ")
        ));
    }
    let probe = dir.join(format!("agon-probe-{}", std::process::id()));
    std::fs::create_dir(&probe)
        .and_then(|()| std::fs::remove_dir(&probe))
        .map_err(|e| format!("cannot create cgroups in {}: {e}", dir.display()))
}

fn read_words(file: &Path) -> Vec<String> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// Where cgroup v2 is mounted, from the mount table.
fn cgroup2_mount() -> Option<PathBuf> {
    let table = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    table.lines().find_map(|line| {
        // `ID PARENT MAJ:MIN ROOT MOUNT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER`
        let (before, after) = line.split_once(" - ")?;
        (after.split_whitespace().next()? == "cgroup2")
            .then(|| before.split_whitespace().nth(4).map(PathBuf::from))?
    })
}

/// One host's cgroup; removed when dropped (once the host is gone).
#[derive(Debug)]
pub struct HostCgroup {
    dir: PathBuf,
}

impl HostCgroup {
    /// Creates the cgroup for a host started for `config`, with its limits, and moves `pid`
    /// into it (before the host has run any team code).
    pub fn place(pid: u32, config: &SandboxConfig) -> Result<HostCgroup, String> {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let parent = delegation()?;
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = parent.join(format!("agon-host-{}-{n}", std::process::id()));
        std::fs::create_dir(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
        let cgroup = HostCgroup { dir };
        let cpus = u64::from(config.threads) + 1;
        for (file, value) in [
            ("pids.max", (u64::from(config.threads) + 1).to_string()),
            ("memory.max", config.memory_bytes.to_string()),
            ("memory.swap.max", "0".to_string()),
            (
                "cpu.max",
                format!("{} {CPU_PERIOD_US}", cpus * CPU_PERIOD_US),
            ),
            ("cgroup.procs", pid.to_string()),
        ] {
            cgroup.write(file, &value)?;
        }
        Ok(cgroup)
    }

    fn write(&self, file: &str, value: &str) -> Result<(), String> {
        let path = self.dir.join(file);
        std::fs::write(&path, value).map_err(|e| format!("writing {}: {e}", path.display()))
    }

    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Kills every process in the cgroup (Linux 5.14's `cgroup.kill`).
    pub fn kill(&self) {
        let _ = self.write("cgroup.kill", "1");
    }
}

impl Drop for HostCgroup {
    fn drop(&mut self) {
        // Empty once the host is reaped; a cgroup directory is removed with rmdir alone.
        if let Err(e) = std::fs::remove_dir(&self.dir) {
            log::debug!("cannot remove {}: {e}", self.dir.display());
        }
    }
}
