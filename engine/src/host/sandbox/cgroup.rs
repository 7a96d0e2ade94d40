//! A cgroup v2 per host, where the engine may create one: `pids.max` (threads), `memory.max`
//! and `memory.swap.max` (all the memory the host uses, not only its address space) and
//! `cpu.max` (a bot allowed N threads gets N CPUs' worth of time, one at least: its main
//! thread hands work to its threads and waits, so all N + 1 cannot spin at once and starve the
//! other hosts); on a deadline the whole cgroup is killed (`cgroup.kill`). A host the
//! cgroup's OOM killer ends is recorded as `oom` (its `memory.events` counts the kill).
//!
//! The engine needs a cgroup it may create children in, with the `pids`, `memory` and `cpu`
//! controllers enabled for them: `$AGON_CGROUP` names one, else the engine's own cgroup is used
//! if it already delegates them. Where neither exists (no cgroup v2, or its controllers bound
//! to a cgroup v1 hierarchy, as on machines that mount both) the record's `sandbox.missing`
//! says why, the engine warns once per run what that costs ([`warn_unavailable`]), and
//! `--sandbox strict` refuses to run a bot allowed threads (one without is held by its other
//! limits: `SandboxReport::note_missing_cgroup`).
//!
//! Delegating to a normal user: cgroup v2 lets only a cgroup without processes of its own
//! enable controllers for its children (the "no internal processes" rule), and moving a
//! process needs write access to the `cgroup.procs` of the lowest common ancestor of its old
//! and new cgroup (Documentation/admin-guide/cgroup-v2.rst, "Delegation Containment"). So the
//! engine runs in a leaf *inside* the delegated cgroup, beside its hosts: for example, in a
//! `systemd-run --user --scope -p Delegate=yes` shell, whose cgroup `/proc/self/cgroup` shows
//! as `0::/PATH`, `mkdir /sys/fs/cgroup/PATH/engine; echo $$ >
//! /sys/fs/cgroup/PATH/engine/cgroup.procs; echo "+pids +memory +cpu" >
//! /sys/fs/cgroup/PATH/cgroup.subtree_control`, then `AGON_CGROUP=/sys/fs/cgroup/PATH agon ...`.

use super::SandboxConfig;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The controllers a host's cgroup needs.
const CONTROLLERS: [&str; 3] = ["pids", "memory", "cpu"];

/// The period of `cpu.max`, in microseconds.
const CPU_PERIOD_US: u64 = 100_000;

/// Why hosts can get no cgroup under the engine's: there is no cgroup v2 to use, or the one
/// there is does not delegate what they need.
#[derive(Debug, thiserror::Error)]
pub enum DelegationError {
    #[error("no cgroup v2 file system is mounted")]
    NoCgroup2,
    #[error("cannot read /proc/self/cgroup: {0}")]
    OwnCgroupUnreadable(#[source] std::io::Error),
    #[error("the engine is in no cgroup v2")]
    EngineInNone,
    #[error(
        "cgroup v2 at {} offers no `{absent}` controller (offered: {}; on a machine that also \
         mounts cgroup v1 the controllers may be bound there)",
        dir.display(),
        words_or_none(offered)
    )]
    NotOffered {
        dir: PathBuf,
        absent: &'static str,
        offered: Vec<String>,
    },
    #[error("{}: not a path", dir.display())]
    NotAPath { dir: PathBuf },
    #[error("{}: {source}", dir.display())]
    Unreachable {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not a cgroup v2 file system", dir.display())]
    NotCgroup2 { dir: PathBuf },
    #[error(
        "cgroup {} does not enable `{absent}` for its children (cgroup.subtree_control: {})",
        dir.display(),
        enabled.join(" ")
    )]
    NotEnabled {
        dir: PathBuf,
        absent: &'static str,
        enabled: Vec<String>,
    },
    #[error("cannot create cgroups in {}: {source}", dir.display())]
    NoChildren {
        dir: PathBuf,
        source: std::io::Error,
    },
}

/// Why a host got no cgroup of its own.
#[derive(Debug, thiserror::Error)]
pub enum PlaceError {
    /// Found once per engine process, so every host after the first shares the first's reason.
    #[error(transparent)]
    Delegation(&'static DelegationError),
    #[error("creating {}: {source}", dir.display())]
    Create {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error("writing {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

fn words_or_none(words: &[String]) -> String {
    if words.is_empty() {
        "none".to_string()
    } else {
        words.join(" ")
    }
}

/// The cgroup under which hosts get theirs, found once per engine process.
pub fn delegation() -> Result<&'static Path, &'static DelegationError> {
    static FOUND: OnceLock<Result<PathBuf, DelegationError>> = OnceLock::new();
    FOUND.get_or_init(find_delegation).as_deref()
}

fn find_delegation() -> Result<PathBuf, DelegationError> {
    if let Some(dir) = std::env::var_os("AGON_CGROUP") {
        let dir = PathBuf::from(dir);
        return check_delegation(&dir).map(|()| dir);
    }
    let mount = cgroup2_mount().ok_or(DelegationError::NoCgroup2)?;
    let own = std::fs::read_to_string("/proc/self/cgroup")
        .map_err(DelegationError::OwnCgroupUnreadable)?;
    let relative = own
        .lines()
        .find_map(|line| line.strip_prefix("0::"))
        .ok_or(DelegationError::EngineInNone)?;
    let dir = mount.join(relative.trim_start_matches('/'));
    let offered = read_words(&dir.join("cgroup.controllers"));
    if let Some(absent) = first_absent(&offered) {
        return Err(DelegationError::NotOffered {
            dir,
            absent,
            offered,
        });
    }
    // How to delegate one instead is said with every mention of the missing cgroup
    // ([`unavailable_message`]).
    check_delegation(&dir).map(|()| dir)
}

/// The first needed controller not in `listed`.
fn first_absent(listed: &[String]) -> Option<&'static str> {
    CONTROLLERS
        .into_iter()
        .find(|c| !listed.iter().any(|l| l == c))
}

/// `CGROUP2_SUPER_MAGIC` (linux/magic.h).
const CGROUP2_MAGIC: i64 = 0x6367_7270;

/// `dir` is a cgroup v2 directory that lets its children use every needed controller, and the
/// engine may create them.
fn check_delegation(dir: &Path) -> Result<(), DelegationError> {
    let path = std::ffi::CString::new(dir.as_os_str().as_encoded_bytes())
        .map_err(|_| DelegationError::NotAPath { dir: dir.into() })?;
    // SAFETY: statfs writes the zeroed local.
    let mut fs: libc::statfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statfs(path.as_ptr(), &mut fs) } != 0 {
        return Err(DelegationError::Unreachable {
            dir: dir.into(),
            source: std::io::Error::last_os_error(),
        });
    }
    if fs.f_type as i64 != CGROUP2_MAGIC {
        return Err(DelegationError::NotCgroup2 { dir: dir.into() });
    }
    let enabled = read_words(&dir.join("cgroup.subtree_control"));
    if let Some(absent) = first_absent(&enabled) {
        return Err(DelegationError::NotEnabled {
            dir: dir.into(),
            absent,
            enabled,
        });
    }
    let probe = dir.join(format!("agon-probe-{}", std::process::id()));
    std::fs::create_dir(&probe)
        .and_then(|()| std::fs::remove_dir(&probe))
        .map_err(|source| DelegationError::NoChildren {
            dir: dir.into(),
            source,
        })
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
    memory_max: u64,
}

impl HostCgroup {
    /// Creates the cgroup for a host started for `config`, with its limits, and moves `pid`
    /// into it (before the host has run any team code).
    pub fn place(pid: u32, config: &SandboxConfig) -> Result<HostCgroup, PlaceError> {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let parent = delegation().map_err(PlaceError::Delegation)?;
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = parent.join(format!("agon-host-{}-{n}", std::process::id()));
        if let Err(source) = std::fs::create_dir(&dir) {
            return Err(PlaceError::Create { dir, source });
        }
        let cgroup = HostCgroup {
            dir,
            memory_max: config.memory_bytes,
        };
        let cpus = u64::from(config.threads.max(1));
        for (file, value) in [
            // The bot's threads, its own, and its supervisor's (`supervisor`).
            ("pids.max", (u64::from(config.threads) + 2).to_string()),
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

    fn write(&self, file: &str, value: &str) -> Result<(), PlaceError> {
        let path = self.dir.join(file);
        std::fs::write(&path, value).map_err(|source| PlaceError::Write { path, source })
    }

    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Its `memory.max`, in bytes.
    pub fn memory_max(&self) -> u64 {
        self.memory_max
    }

    /// Kills every process in the cgroup (Linux 5.14's `cgroup.kill`). A failure is logged:
    /// the engine still kills the host's process group and the host itself.
    pub fn kill(&self) {
        if let Err(e) = self.write("cgroup.kill", "1") {
            log::warn!("cgroup.kill failed: {e}");
        }
    }

    /// How many of the cgroup's processes an OOM killer ended: the `oom_kill` count of
    /// `memory.events` (cgroup-v2.rst: "The number of processes belonging to this cgroup killed
    /// by any kind of OOM killer"). The kernel counts the kill when it sends the SIGKILL, so it
    /// is there once the host is reaped; read before the cgroup is removed.
    pub fn oom_kills(&self) -> u64 {
        let events = std::fs::read_to_string(self.dir.join("memory.events")).unwrap_or_default();
        events
            .lines()
            .find_map(|line| line.strip_prefix("oom_kill "))
            .and_then(|count| count.trim().parse().ok())
            .unwrap_or(0)
    }
}

impl Drop for HostCgroup {
    fn drop(&mut self) {
        if let Err(e) = remove_once_empty(&self.dir, EMPTYING_LIMIT, |dir| std::fs::remove_dir(dir))
        {
            log::warn!(
                "cannot remove the host's cgroup {}: {e}",
                self.dir.display()
            );
        }
    }
}

/// How long removing a host's cgroup waits for its last process to finish exiting.
const EMPTYING_LIMIT: Duration = Duration::from_secs(2);

/// Removes a cgroup directory (`rmdir` alone does it) once no process is left in it, waiting at
/// most `limit`. The engine reaps the host, its bot's supervisor; but the bot's own process,
/// pid 1 of its PID namespace, is not the engine's child: killed with its supervisor, it may
/// still be exiting (freeing its memory, ending its namespace) when the supervisor is reaped,
/// longer on a loaded machine, and until it has left the kernel refuses the rmdir with `EBUSY`
/// (cgroup-v2.rst: a cgroup "which doesn't have any children and is associated only with
/// zombie processes is considered empty and can be removed").
fn remove_once_empty(
    dir: &Path,
    limit: Duration,
    mut rmdir: impl FnMut(&Path) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let until = Instant::now() + limit;
    loop {
        match rmdir(dir) {
            Err(e) if e.raw_os_error() == Some(libc::EBUSY) && Instant::now() < until => {
                std::thread::sleep(Duration::from_millis(1))
            }
            done => return done,
        }
    }
}

/// Says once per engine process, in one line, that hosts get no cgroup and why (`reason`);
/// `agon doctor` explains what that costs and how to give them one, and every record lists it
/// (`SandboxReport::note_missing_cgroup`).
pub fn warn_unavailable(reason: &dyn std::fmt::Display) {
    static WARNED: std::sync::Once = std::sync::Once::new();
    WARNED.call_once(|| log::warn!("{}", unavailable_line(reason)));
}

/// The run's one-line warning that hosts get no cgroup.
pub fn unavailable_line(reason: &dyn std::fmt::Display) -> String {
    format!(
        "sandbox: no cgroup v2 for the bots ({reason}); memory, threads and CPU are limited \
         less strictly; `agon doctor` explains"
    )
}

/// How a host's record lists the cgroup it did not get (`sandbox.missing` or
/// `sandbox.substituted`): `cgroup: REASON`.
pub fn missing_note(reason: &dyn std::fmt::Display) -> String {
    format!("{MISSING_NOTE}{reason}")
}

/// Whether a record's item is the note of a missing cgroup ([`missing_note`]).
pub fn is_missing_note(item: &str) -> bool {
    item.starts_with(MISSING_NOTE)
}

const MISSING_NOTE: &str = "cgroup: ";

/// That hosts get no cgroup (`reason`), what it costs and how to give them one: the one wording
/// of the run's warning and of `--sandbox strict`'s refusal.
pub fn unavailable_message(reason: &dyn std::fmt::Display) -> String {
    format!(
        "the bots' hosts get no cgroup v2 of their own ({reason}). Without it: memory is limited \
         only as address space (RLIMIT_AS), so memory the kernel holds for a bot (page tables, \
         pipe and socket buffers) is not counted (memory.max); threads are capped (pids.max) \
         only by RLIMIT_NPROC in the host's user namespace (not at all where that namespace is \
         missing); the CPU time of a bot's threads is not capped (cpu.max), so they may take \
         CPUs from the other hosts; and a deadline kills the host's process group, not a cgroup \
         (cgroup.kill). To give them one, run agon in a leaf of a cgroup v2 that delegates the \
         pids, memory and cpu controllers (for example in a `systemd-run --user --scope -p \
         Delegate=yes` shell) and name that cgroup in $AGON_CGROUP (docs/process-host.md)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Error, ErrorKind};

    #[test]
    fn a_cgroup_whose_last_process_is_still_exiting_is_removed_once_it_has() {
        let mut calls = 0;
        let removed = remove_once_empty(Path::new("/x"), Duration::from_secs(5), |_| {
            calls += 1;
            match calls {
                1..=3 => Err(Error::from_raw_os_error(libc::EBUSY)),
                _ => Ok(()),
            }
        });
        assert!(removed.is_ok());
        assert_eq!(calls, 4);
    }

    #[test]
    fn a_cgroup_that_stays_busy_is_given_up_after_the_limit() {
        let started = Instant::now();
        let removed = remove_once_empty(Path::new("/x"), Duration::from_millis(20), |_| {
            Err(Error::from_raw_os_error(libc::EBUSY))
        });
        assert_eq!(removed.unwrap_err().raw_os_error(), Some(libc::EBUSY));
        assert!(started.elapsed() >= Duration::from_millis(20));
    }

    #[test]
    fn any_other_error_is_not_waited_for() {
        let mut calls = 0;
        let removed = remove_once_empty(Path::new("/x"), Duration::from_secs(5), |_| {
            calls += 1;
            Err(Error::from(ErrorKind::NotFound))
        });
        assert_eq!(removed.unwrap_err().kind(), ErrorKind::NotFound);
        assert_eq!(calls, 1);
    }

    #[test]
    fn a_folder_that_cannot_hold_host_cgroups_says_why() {
        let missing = Path::new("/nonexistent/agon-cgroup");
        let e = check_delegation(missing).unwrap_err();
        assert!(
            matches!(&e, DelegationError::Unreachable { source, .. }
                if source.kind() == ErrorKind::NotFound),
            "{e:?}"
        );
        assert!(
            e.to_string().starts_with("/nonexistent/agon-cgroup: "),
            "{e}"
        );
        let e = check_delegation(&std::env::temp_dir()).unwrap_err();
        assert!(matches!(e, DelegationError::NotCgroup2 { .. }), "{e:?}");
    }

    #[test]
    fn the_first_controller_missing_is_named_and_none_offered_says_none() {
        let words = |w: &[&str]| w.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        assert_eq!(first_absent(&words(&["cpu", "pids", "memory"])), None);
        assert_eq!(first_absent(&words(&["memory", "io"])), Some("pids"));
        let e = DelegationError::NotOffered {
            dir: "/sys/fs/cgroup/x".into(),
            absent: "pids",
            offered: Vec::new(),
        };
        assert!(
            e.to_string().starts_with(
                "cgroup v2 at /sys/fs/cgroup/x offers no `pids` controller (offered: none;"
            ),
            "{e}"
        );
    }
}
