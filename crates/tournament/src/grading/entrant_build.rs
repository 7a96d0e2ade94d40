//! What an entrant's grade is of: the plugin file, its version and the sha256 the plan recorded
//! for the build the graded games were played with (`versions.rs` gives a swapped build's).

use crate::plan::Plan;
use agon_engine::BotSpec;

/// Empty (the default) for a name the plan does not have.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EntrantBuild {
    /// The plugin file as the configuration named it.
    pub file: String,
    /// The plugin's name and version, as its manifest gives them.
    pub version: String,
    pub sha256: String,
}

/// The build of the entrant named `name`, if the plan has one of that name.
pub fn entrant_build(plan: &Plan, name: &str) -> Option<EntrantBuild> {
    let entrant = plan.entrants.iter().find(|e| e.name == name)?;
    let file = entrant
        .spec
        .parse::<BotSpec>()
        .map_or_else(|_| entrant.spec.clone(), |s| s.file.display().to_string());
    Some(EntrantBuild {
        file,
        version: format!("{} {}", entrant.plugin, entrant.version),
        sha256: entrant.sha256.clone(),
    })
}
