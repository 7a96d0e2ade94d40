//! The process host's sandbox (every layer, and what it closes: `docs/sandbox.md`): resource
//! limits set before the host program starts, then, applied by the host itself *before* it
//! loads the plugin library (so no team code, not even a library constructor or the bot's
//! `Default`, ever runs unconfined):
//!
//! - [`privileges`]: a host started as root becomes an unprivileged user; every capability set
//!   is emptied; `no_new_privs`.
//! - [`namespaces`]: IPC, UTS, mount, PID and user namespaces of its own, and a thread limit
//!   counted in its user namespace; [`own_root`]: a root file system that holds only the
//!   system's libraries and the plugin; [`supervisor`]: the bot's process is pid 1 of the PID
//!   namespace, its parent outside.
//! - [`cgroup`] (set up by the engine, before the host runs): a cgroup v2 of its own with
//!   `pids.max`, `memory.max` and `cpu.max`, killed whole on a deadline.
//! - [`limits`]: address space, CPU seconds (a backstop), open files, file size 0, no core,
//!   threads.
//! - [`landlock`]: no file readable or writable but the plugin's own copy and the system's
//!   shared libraries, no TCP, no signals or abstract sockets beyond the host's own domain.
//! - [`seccomp`]: an allow-list; anything else is suspended and reported by the kernel to the
//!   engine ([`notifier`]), which records `refused_syscall` with the call and the rule that
//!   refused it ([`refused_calls`]) and kills the host. (Before Linux 5.7 the call traps and the
//!   host names it on its stderr, [`sigsys_handler`] and [`refusal_line`], before it dies of
//!   `SIGSYS`.)
//!
//! Where a mechanism is unavailable, the [`SandboxReport`] says which (or what substitutes for
//! it); in strict mode the host refuses to serve instead.

pub mod cgroup;
mod confine_error;
pub mod landlock;
pub mod limits;
pub mod namespaces;
pub mod notifier;
pub mod own_root;
pub mod privileges;
pub mod refusal_line;
pub mod refused_calls;
pub mod seccomp;
mod sigsys_handler;
pub mod supervisor;

use crate::host::parent_death;
pub use confine_error::ConfineError;
pub use privileges::UserError;
use serde::{Deserialize, Serialize};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

/// What the sandbox enforces; part of a match's settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SandboxConfig {
    /// The memory limit in bytes (default 1 GiB): the host's cgroup `memory.max` where it has
    /// one (with `RLIMIT_AS` a backstop above it, `limits::address_space`), else `RLIMIT_AS`.
    pub memory_bytes: u64,
    /// `RLIMIT_CPU` in seconds for the whole host process: a backstop behind the watchdog.
    pub cpu_seconds: u64,
    /// `RLIMIT_NOFILE`.
    pub open_files: u64,
    /// Threads a bot may start besides the one it is called on (default 0: none).
    pub threads: u32,
    /// Refuse to run when a mechanism is unavailable, instead of reporting it.
    pub strict: bool,
    /// Whom a host started as root runs the bot as: `NAME`, `UID` or `UID:GID` (default: the
    /// `agon-bot` user where it exists, else nobody).
    #[serde(default)]
    pub user: Option<String>,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        SandboxConfig {
            memory_bytes: 1 << 30,
            cpu_seconds: 3600,
            open_files: 64,
            threads: 0,
            strict: false,
            user: None,
        }
    }
}

/// What the host could enforce, as it reports it once the bot is loaded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SandboxReport {
    /// `full`, `partial` or `none`.
    pub landlock: String,
    pub seccomp: bool,
    /// The user id the bot ran as.
    #[serde(default)]
    pub uid: Option<u32>,
    /// The namespaces the host has of its own.
    #[serde(default)]
    pub namespaces: Vec<String>,
    /// How many threads the bot could start at most, where the kernel enforces it.
    #[serde(default)]
    pub thread_limit: Option<u32>,
    /// The host's own cgroup v2, where the engine could create one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cgroup: Option<String>,
    /// Refused calls are reported by the kernel to the engine (not by the host, whose memory
    /// the bot can write).
    #[serde(default)]
    pub refusals_to_engine: bool,
    /// Mechanisms the kernel lacks whose protection another layer gives, and which: not
    /// missing, so strict mode runs without them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub substituted: Vec<String>,
    /// Mechanisms that could not be applied, and why.
    pub missing: Vec<String>,
}

impl SandboxReport {
    pub fn complete(&self) -> bool {
        self.missing.is_empty()
    }

    /// Why a host under `config` must refuse to serve: strict mode and something missing.
    pub fn strict_refusal(&self, config: &SandboxConfig) -> Option<String> {
        (config.strict && !self.complete()).then(|| {
            format!(
                "sandbox strict: refusing to run: {}",
                self.missing.join("; ")
            )
        })
    }

    /// Records a host that got no cgroup. For a bot without threads that is substituted, not
    /// missing: one thread uses one CPU at most, the kernel counts its tasks in its user
    /// namespace, SIGKILL ends it whole, and its memory outside the address space (pipe
    /// buffers) is bounded through its 64 open files.
    pub fn note_missing_cgroup(&mut self, reason: String, threads: u32) {
        if threads == 0 && self.thread_limit.is_some() {
            self.substituted.push(format!(
                "{reason}: a bot without threads is held to one CPU, its task count and its \
                 address space without one"
            ));
        } else {
            self.missing.push(reason);
        }
    }
}

/// Whether `user` names a user bots may run as (checked before any match, so that a typing
/// error is refused up front rather than by every host).
pub fn check_user(user: Option<&str>) -> Result<(), UserError> {
    match user {
        None => Ok(()),
        Some(name) => match privileges::resolve(Some(name))? {
            identity if identity.uid == 0 => Err(UserError::Root(name.to_string())),
            _ => Ok(()),
        },
    }
}

/// `config` with its user resolved to `UID:GID` once, in the engine: a name lookup goes through
/// the C library's name services (files, systemd's user database), which costs milliseconds
/// that every host start would otherwise pay.
pub fn with_resolved_user(mut config: SandboxConfig) -> Result<SandboxConfig, UserError> {
    let identity = privileges::resolve(config.user.as_deref())?;
    config.user = Some(format!("{}:{}", identity.uid, identity.gid));
    Ok(config)
}

/// A confined host and the plugin it may load.
pub struct Confined {
    pub report: SandboxReport,
    /// Where to load the plugin from: its place in the host's own root, else the descriptor
    /// opened before the host gave up its rights (an unprivileged user may not reach the
    /// engine's cache), else its path.
    pub plugin: PathBuf,
    /// Keeps that descriptor open.
    _plugin_file: Option<std::fs::File>,
    /// In a PID namespace of its own, the bot's process as the engine sees it (the engine
    /// started its supervisor).
    pub bot_pid: Option<u32>,
}

/// Confines the calling process (the host, before it loads `plugin`). Fails only where going
/// on would run team code with root's rights, or leave a refused call unrecorded.
pub fn confine(config: &SandboxConfig, plugin: &Path) -> Result<Confined, ConfineError> {
    let engine = rustix::process::getppid();
    let ruleset = landlock::prepare(plugin);
    let plugin_file = std::fs::File::open(plugin).ok();
    // Opened while the host still sees the machine's /proc, used once it has its own root.
    let proc_file = |name: &str| {
        std::fs::File::open(format!("/proc/self/{name}"))
            .map_err(|e| ConfineError::call(format!("cannot open /proc/self/{name}"))(e))
    };
    let status = proc_file("status")?;
    let proc_self = proc_file("")?;
    let mut progress = Progress {
        namespaces: Vec::new(),
        missing: Vec::new(),
        plugin: plugin_file
            .as_ref()
            .map(|file| PathBuf::from(format!("/proc/self/fd/{}", file.as_raw_fd())))
            .filter(|path| path.exists())
            .unwrap_or_else(|| plugin.to_path_buf()),
    };
    let root = rustix::process::geteuid().is_root();
    let identity = if root {
        give_up_root(config, plugin, &mut progress)?
    } else {
        privileges::Identity {
            uid: rustix::process::getuid().as_raw(),
            gid: rustix::process::getgid().as_raw(),
        }
    };
    let thread_limit = isolate(config, identity, root, &proc_self, &mut progress);
    if !root && progress.has("mount") {
        enter_own_root(plugin, &mut progress);
    }
    let uid = drop_what_is_left(engine, &status, &mut progress.missing)?;
    // From here on, in a PID namespace, this is the bot's process, its supervisor outside.
    let bot_pid = match progress.has("pid") {
        true => Some(supervisor::split()?),
        false => None,
    };
    let enforced = enforce(ruleset, config, bot_pid.is_some(), &mut progress.missing)?;
    let Progress {
        namespaces,
        missing,
        plugin: plugin_path,
    } = progress;
    Ok(Confined {
        report: SandboxReport {
            landlock: enforced.landlock.to_string(),
            seccomp: enforced.seccomp,
            uid,
            namespaces,
            thread_limit,
            cgroup: None,
            refusals_to_engine: enforced.refusals_to_engine,
            substituted: enforced.substituted,
            missing,
        },
        // Loaded from its place in the own root, the plugin needs no descriptor kept open.
        _plugin_file: plugin_file.filter(|_| !plugin_path.starts_with(own_root::PLUGIN_DIR)),
        plugin: plugin_path,
        bot_pid,
    })
}

/// What confinement has done so far, and what it could not.
struct Progress {
    namespaces: Vec<String>,
    missing: Vec<String>,
    /// Where the host will load the plugin from.
    plugin: PathBuf,
}

impl Progress {
    /// Whether the host entered namespace `name`.
    fn has(&self, name: &str) -> bool {
        self.namespaces.iter().any(|n| n == name)
    }
}

/// A host started as root: namespaces and its own root while it is root, then an empty
/// bounding set and the bots' user. Returns that user.
fn give_up_root(
    config: &SandboxConfig,
    plugin: &Path,
    progress: &mut Progress,
) -> Result<privileges::Identity, ConfineError> {
    // Looked up while the machine's user database is still there (not in the own root).
    let identity = privileges::resolve(config.user.as_deref())?;
    if identity.uid == 0 {
        return Err(ConfineError::RootUser);
    }
    match namespaces::enter_system_namespaces() {
        Ok(entered) => {
            progress
                .namespaces
                .extend(entered.iter().map(|n| n.to_string()));
            if let Err(e) = namespaces::name_the_host() {
                progress.missing.push(e.to_string());
            }
            enter_own_root(plugin, progress);
        }
        Err(e) => progress.missing.push(format!(
            "namespaces (ipc, uts, mount; and with them the own root): {e}"
        )),
    }
    if let Err(e) = privileges::drop_bounding_set() {
        progress
            .missing
            .push(format!("capability bounding set: {e}"));
    }
    privileges::become_user(identity)?;
    Ok(identity)
}

/// Empties every capability set, makes the host undumpable, sets its death signal again and
/// reads back from the kernel what it holds; returns its uid.
fn drop_what_is_left(
    engine: Option<rustix::process::Pid>,
    status: &std::fs::File,
    missing: &mut Vec<String>,
) -> Result<Option<u32>, ConfineError> {
    if let Err(e) = privileges::clear_capabilities() {
        missing.push(format!("capabilities: {e}"));
    }
    // SAFETY: prctl with integer arguments; no other process of the bot's user may trace or
    // read this one.
    unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0) };
    // Every change of credentials above cleared the parent-death signal the engine set.
    parent_death::die_with(engine)?;
    // What is enforced, as the kernel tells it, not what was asked for.
    match privileges::held(status) {
        Ok(held) => {
            if held.uid == 0 || held.euid == 0 {
                return Err(ConfineError::StillRoot);
            }
            if !held.capability_sets.is_empty() {
                missing.push(format!(
                    "capabilities still held: {}",
                    held.capability_sets.join(", ")
                ));
            }
            Ok(Some(held.uid))
        }
        Err(e) => {
            missing.push(format!("cannot check privileges: {e}"));
            Ok(None)
        }
    }
}

/// What [`enforce`] put in force.
struct Enforced {
    landlock: &'static str,
    seccomp: bool,
    refusals_to_engine: bool,
    substituted: Vec<String>,
}

/// `no_new_privs`, Landlock, then the seccomp filters, whose refusal listener goes to the
/// engine.
/// `alone`: the host is pid 1 of a PID namespace of its own.
fn enforce(
    ruleset: Result<::landlock::RulesetCreated, ConfineError>,
    config: &SandboxConfig,
    alone: bool,
    missing: &mut Vec<String>,
) -> Result<Enforced, ConfineError> {
    if let Err(e) = rustix::thread::set_no_new_privs(true) {
        missing.push(format!("no_new_privs: {e}"));
    }
    let mut partial_landlock = None;
    let landlock = match ruleset.and_then(landlock::enforce) {
        Ok(landlock::Enforcement::Full) => "full",
        Ok(landlock::Enforcement::Partial(what)) => {
            partial_landlock = Some(what);
            "partial"
        }
        Err(e) => {
            missing.push(format!("landlock: {e}"));
            "none"
        }
    };
    let mut refusals_to_engine = false;
    let seccomp = match seccomp::install(config.threads > 0, alone) {
        Ok(seccomp::Refusals::Notified(listener)) => {
            // Without its listener a refused call would fail with ENOSYS and the bot carry on:
            // no serving then.
            notifier::hand_over(listener)?;
            refusals_to_engine = true;
            true
        }
        Ok(seccomp::Refusals::Trapped(why)) => {
            missing.push(format!(
                "refused calls reported by the kernel to the engine ({why}): the host reports \
                 them itself, through memory a bot could tamper with"
            ));
            true
        }
        Err(e) => {
            missing.push(format!("seccomp: {e}"));
            false
        }
    };
    let mut substituted = Vec::new();
    if let Some(what) = partial_landlock {
        // Every right that Landlock's later ABIs add (refer, truncate, device ioctls, TCP,
        // signal and abstract-socket scoping) the filter and the own root give already.
        if seccomp {
            substituted.push(format!(
                "landlock only partially enforced ({what}): the seccomp filter refuses every \
                 socket, signals to any other process, truncation, renames and links, and \
                 device ioctls, and the own root has no writable file"
            ));
        } else {
            missing.push(format!("landlock only partially enforced: {what}"));
        }
    }
    Ok(Enforced {
        landlock,
        seccomp,
        refusals_to_engine,
        substituted,
    })
}

/// How a machine that refuses unprivileged user namespaces allows them.
const USER_NAMESPACE_HINT: &str = " (where unprivileged user namespaces are off: on Debian \
    `sysctl kernel.unprivileged_userns_clone=1`; on Ubuntu 24.04 an AppArmor profile that \
    allows `userns` for agon-host, or `sysctl kernel.apparmor_restrict_unprivileged_userns=0`)";

/// A user namespace (with, for a host not started as root, the other namespaces) and the
/// thread limit counted in it; the thread limit if set.
fn isolate(
    config: &SandboxConfig,
    identity: privileges::Identity,
    root: bool,
    proc_self: &std::fs::File,
    progress: &mut Progress,
) -> Option<u32> {
    let entered = match namespaces::enter_user_namespace(identity, !root, proc_self) {
        Ok(entered) => entered,
        Err(e) => {
            let which = if root {
                "user namespace (and with it the thread limit)"
            } else {
                "namespaces (user, ipc, uts, mount, pid; and with them the thread limit and the \
                 own root)"
            };
            progress
                .missing
                .push(format!("{which}: {e}{USER_NAMESPACE_HINT}"));
            return None;
        }
    };
    progress
        .namespaces
        .extend(entered.iter().map(|n| n.to_string()));
    if !root {
        // The UTS namespace came with the user namespace, which owns it.
        if let Err(e) = namespaces::name_the_host() {
            progress.missing.push(e.to_string());
        }
    }
    match limits::limit_tasks(config.threads, progress.has("pid")) {
        Ok(()) => Some(config.threads),
        Err(e) => {
            progress.missing.push(format!("thread limit: {e}"));
            None
        }
    }
}

/// Enters a root file system of the host's own ([`own_root`]) and points the plugin's path at
/// its place in it.
fn enter_own_root(plugin: &Path, progress: &mut Progress) {
    match own_root::enter(plugin) {
        Ok(inside) => progress.plugin = inside,
        Err(e) => progress.missing.push(format!("own root file system: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_mode_refuses_an_incomplete_sandbox() {
        let partial = SandboxReport {
            landlock: "none".into(),
            seccomp: true,
            uid: Some(65534),
            namespaces: Vec::new(),
            thread_limit: None,
            cgroup: None,
            refusals_to_engine: true,
            substituted: Vec::new(),
            missing: vec!["landlock: not supported by this kernel".into()],
        };
        let strict = SandboxConfig {
            strict: true,
            ..SandboxConfig::default()
        };
        let refusal = partial.strict_refusal(&strict).unwrap();
        assert!(refusal.contains("landlock: not supported"), "{refusal}");
        assert_eq!(partial.strict_refusal(&SandboxConfig::default()), None);
        let full = SandboxReport {
            landlock: "full".into(),
            seccomp: true,
            uid: Some(65534),
            namespaces: vec!["user".into()],
            thread_limit: Some(0),
            cgroup: Some("/sys/fs/cgroup/agon/agon-host-1-0".into()),
            refusals_to_engine: true,
            substituted: vec!["landlock only partially enforced".into()],
            missing: vec![],
        };
        assert_eq!(full.strict_refusal(&strict), None);
    }
}
