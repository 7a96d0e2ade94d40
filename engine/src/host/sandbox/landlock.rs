//! Landlock, applied before the plugin is loaded: the ruleset handles every file-system right
//! and grants only reading the plugin's own (content-addressed) file and the system's shared
//! libraries, which loading it needs, reading `/dev/urandom` and writing `/dev/null`; it also
//! handles TCP bind/connect and scopes signals and abstract Unix sockets to the host's own
//! domain (the bot cannot signal the engine).

use super::own_root::{DEVICES, SYSTEM_LIBRARIES};
use super::ConfineError;
use ::landlock::{
    path_beneath_rules, Access, AccessFs, AccessNet, CompatLevel, Compatible, Ruleset, RulesetAttr,
    RulesetCreated, RulesetCreatedAttr, RulesetStatus, Scope, ABI,
};
use std::path::Path;

/// How much of the requested confinement the kernel enforces.
pub enum Enforcement {
    Full,
    Partial(String),
}

/// The newest ABI whose rights are requested; older kernels enforce what they can.
const REQUESTED: ABI = ABI::V6;

/// The ruleset, built while the host may still open the plugin's path (an unprivileged user may
/// not reach the engine's cache folder; the rules hold the paths open).
pub fn prepare(plugin: &Path) -> Result<RulesetCreated, ConfineError> {
    let read = AccessFs::ReadFile | AccessFs::ReadDir;
    Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(AccessFs::from_all(REQUESTED))
        .and_then(|r| r.handle_access(AccessNet::from_all(REQUESTED)))
        .and_then(|r| r.scope(Scope::from_all(REQUESTED)))
        .and_then(|r| r.create())
        .and_then(|r| r.add_rules(path_beneath_rules(SYSTEM_LIBRARIES, read)))
        .and_then(|r| {
            r.add_rules(path_beneath_rules(
                DEVICES,
                AccessFs::ReadFile | AccessFs::WriteFile,
            ))
        })
        .and_then(|r| r.add_rules(path_beneath_rules([plugin], AccessFs::ReadFile)))
        .map_err(ConfineError::from)
}

/// The Landlock ABI the kernel offers (0 where it has none), as `landlock_create_ruleset`
/// tells with `LANDLOCK_CREATE_RULESET_VERSION` (linux/landlock.h).
pub fn kernel_abi() -> i64 {
    const LANDLOCK_CREATE_RULESET_VERSION: u32 = 1;
    // SAFETY: with this flag the call reads no memory and returns the version.
    let abi = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    abi.max(0)
}

/// Applies a prepared ruleset to the calling process (and every thread it starts later).
pub fn enforce(ruleset: RulesetCreated) -> Result<Enforcement, ConfineError> {
    let status = ruleset.restrict_self()?;
    match status.ruleset {
        RulesetStatus::FullyEnforced => Ok(Enforcement::Full),
        RulesetStatus::PartiallyEnforced => Ok(Enforcement::Partial(format!(
            "the kernel has Landlock ABI v{} of the v6 requested",
            kernel_abi()
        ))),
        RulesetStatus::NotEnforced => Err(ConfineError::NoLandlock),
    }
}
