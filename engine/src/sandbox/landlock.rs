//! Landlock: after the plugin is loaded the host needs no file at all, so the ruleset handles
//! every file-system right and grants none; it also handles TCP bind/connect and scopes signals
//! and abstract Unix sockets to the host's own domain (the bot cannot signal the engine).

use ::landlock::{
    Access, AccessFs, AccessNet, CompatLevel, Compatible, Ruleset, RulesetAttr, RulesetStatus,
    Scope, ABI,
};

/// How much of the requested confinement the kernel enforces.
pub enum Enforcement {
    Full,
    Partial(String),
}

/// The newest ABI whose rights are requested; older kernels enforce what they can.
const REQUESTED: ABI = ABI::V6;

pub fn restrict() -> Result<Enforcement, String> {
    let status = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(AccessFs::from_all(REQUESTED))
        .and_then(|r| r.handle_access(AccessNet::from_all(REQUESTED)))
        .and_then(|r| r.scope(Scope::from_all(REQUESTED)))
        .and_then(|r| r.create())
        .and_then(|r| r.restrict_self())
        .map_err(|e| e.to_string())?;
    match status.ruleset {
        RulesetStatus::FullyEnforced => Ok(Enforcement::Full),
        RulesetStatus::PartiallyEnforced => Ok(Enforcement::Partial(
            "the kernel supports only part of Landlock ABI v6".into(),
        )),
        RulesetStatus::NotEnforced => Err("not supported by this kernel".into()),
    }
}
