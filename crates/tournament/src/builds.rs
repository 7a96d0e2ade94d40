//! The build each entrant plays in a run: the one its plan recorded (by sha256), from the
//! plugin cache's content-addressed copy, whatever the entrant's file holds now; under
//! `--watch` ([`super::watch`]) the newest validated one. A run that is not watching says once
//! when an entrant's file changes under it.

use super::plan::Plan;
use agon_engine::BotSpec;
use agon_engine::SeedSecret;
use agon_engine::{loader::file_version, FileVersion, HostKind, LoadError, StagedPlugin};
use agon_play::swap::sparring::Sparring;
use std::path::PathBuf;
use std::sync::Mutex;

/// Why an entrant cannot play a build: its planned build is nowhere to be had any more, or it
/// cannot take another one.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error(transparent)]
    Stage(#[from] LoadError),
    #[error(
        "entrant `{entrant}`: {} {now}, and the plugin cache {} no longer holds the planned \
         build (sha256 {short}): put that build back in place, or plan the tournament again",
        file.display(),
        cache.display()
    )]
    PlannedBuildGone {
        entrant: String,
        file: PathBuf,
        /// What the file is now: another build, or unreadable.
        now: String,
        cache: PathBuf,
        short: String,
    },
    #[error(
        "the {host} host never unloads a library, and this entrant has loaded \
         {MAX_BUILDS_IN_PROCESS} builds in this run"
    )]
    InProcessFull { host: HostKind },
}

/// In-process hosts never unload a library: builds an entrant may load in one run.
pub const MAX_BUILDS_IN_PROCESS: usize = 8;

/// The build each entrant plays now.
#[derive(Debug, Clone)]
pub struct Current {
    pub spec: BotSpec,
    pub sha256: String,
    /// Builds of this entrant loaded in this run.
    loaded: usize,
}

pub struct Builds {
    current: Mutex<Vec<Current>>,
    /// The plan's seed secret, for validation games that look like the real ones.
    seed_secret: SeedSecret,
    /// Each entrant's file as the run found it (`None`: it did not hold the planned build), so
    /// that a run that is not watching says once when a file changes under it.
    files: Vec<(PathBuf, Option<FileVersion>)>,
    warned: Mutex<Vec<bool>>,
}

impl Builds {
    /// Every entrant's planned build, from its content-addressed copy: the build the plan
    /// recorded (by sha256), whatever the entrant's file holds now. A run plays the planned
    /// builds to its end; only `--watch` takes new ones.
    pub fn planned(
        plan: &Plan,
        seed_secret: SeedSecret,
        cache: &std::path::Path,
    ) -> Result<Builds, BuildError> {
        let mut current = Vec::new();
        let mut files = Vec::new();
        for (i, entrant) in plan.entrants.iter().enumerate() {
            let spec = plan.spec(i);
            let version = std::fs::metadata(&spec.file).ok().map(|m| file_version(&m));
            let (copy, from_file) =
                planned_copy(&entrant.name, &spec.file, &entrant.sha256, cache)?;
            files.push((spec.file.clone(), version.filter(|_| from_file)));
            current.push(Current {
                spec: BotSpec { file: copy, ..spec },
                sha256: entrant.sha256.clone(),
                loaded: 1,
            });
        }
        let warned = files.iter().map(|(_, version)| version.is_none()).collect();
        Ok(Builds {
            current: Mutex::new(current),
            seed_secret,
            files,
            warned: Mutex::new(warned),
        })
    }

    /// Says once per entrant that its file changed since the run started (a run that is not
    /// watching plays its planned build all the same).
    pub fn warn_if_changed(&self, plan: &Plan, entrant: usize) {
        let Some((file, Some(version))) = self.files.get(entrant) else {
            return;
        };
        let now = std::fs::metadata(file).ok().map(|m| file_version(&m));
        if now.as_ref() == Some(version) {
            return;
        }
        let mut warned = self.warned.lock().unwrap_or_else(|p| p.into_inner());
        if !std::mem::replace(&mut warned[entrant], true) {
            warn_planned_build(
                &plan.entrants[entrant].name,
                file,
                "changed",
                &plan.entrants[entrant].sha256,
            );
        }
    }

    /// Every other entrant's current build, by name: the opponents of a candidate of entrant
    /// `candidate`.
    pub fn sparring(&self, plan: &Plan, candidate: usize) -> Sparring {
        let sparring = Sparring::default();
        let current = self.current.lock().unwrap_or_else(|p| p.into_inner());
        let builds = plan.entrants.iter().zip(current.iter()).enumerate();
        for (_, (entrant, build)) in builds.filter(|(i, _)| *i != candidate) {
            sparring.set(&entrant.name, Some(build.spec.clone()));
        }
        sparring
    }

    pub fn current(&self, entrant: usize) -> Current {
        self.current.lock().unwrap_or_else(|p| p.into_inner())[entrant].clone()
    }

    /// The plan's seed secret.
    pub fn seed_secret(&self) -> SeedSecret {
        self.seed_secret
    }

    /// Entrant `entrant` plays the validated build at `copy` from now on, unless it is on an
    /// in-process host and has loaded [`MAX_BUILDS_IN_PROCESS`] builds already (the reason).
    pub fn take_new(
        &self,
        plan: &Plan,
        entrant: usize,
        copy: PathBuf,
        sha256: &str,
    ) -> Result<(), BuildError> {
        let in_process = plan.settings.profile.host.in_process();
        let mut current = self.current.lock().unwrap_or_else(|p| p.into_inner());
        let slot = &mut current[entrant];
        if in_process && slot.loaded >= MAX_BUILDS_IN_PROCESS {
            return Err(BuildError::InProcessFull {
                host: plan.settings.profile.host,
            });
        }
        *slot = Current {
            spec: BotSpec {
                file: copy,
                ..plan.spec(entrant)
            },
            sha256: sha256.to_string(),
            loaded: slot.loaded + 1,
        };
        Ok(())
    }
}

/// The content-addressed copy of an entrant's planned build, and whether it came from the file:
/// staged from its file while the file still holds that build, else the copy the plugin cache
/// kept when the plan was made (with a warning: the file changed, and without `--watch` the
/// change is not taken).
fn planned_copy(
    name: &str,
    file: &std::path::Path,
    sha256: &str,
    cache: &std::path::Path,
) -> Result<(PathBuf, bool), BuildError> {
    let read = StagedPlugin::read(file);
    if let Ok(bytes) = &read {
        if agon_engine::loader::sha256_hex(bytes) == sha256 {
            let staged = StagedPlugin::stage_bytes(file, bytes, cache)?;
            return Ok((staged.copy, true));
        }
    }
    let now = match read {
        Ok(_) => "holds another build than the plan's".to_string(),
        Err(e) => format!("cannot be read ({e})"),
    };
    let short = &sha256[..12.min(sha256.len())];
    match agon_engine::loader::cached_copy(file, sha256, cache) {
        Some(copy) => {
            warn_planned_build(name, file, &now, sha256);
            Ok((copy, false))
        }
        None => Err(BuildError::PlannedBuildGone {
            entrant: agon_play::console::name(name).into_owned(),
            file: file.to_path_buf(),
            now,
            cache: cache.to_path_buf(),
            short: short.to_string(),
        }),
    }
}

fn warn_planned_build(name: &str, file: &std::path::Path, now: &str, sha256: &str) {
    eprintln!(
        "agon: warning: entrant `{}`: {} {now}; this run plays the planned build (sha256 {}) \
         from the plugin cache to the end (`--watch` takes new builds)",
        agon_play::console::name(name),
        agon_play::console::path_name(file),
        &sha256[..12.min(sha256.len())],
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_planned_build_neither_in_its_file_nor_in_the_cache_is_named_with_the_way_out() {
        let dir = agon_engine::output_file::fresh_scratch("builds-lost").unwrap();
        let cache = dir.join("cache");
        std::fs::create_dir_all(&cache).unwrap();
        let file = dir.join("team.so");
        std::fs::write(&file, b"another build").unwrap();
        let planned = "ab".repeat(32);
        let error = planned_copy("team", &file, &planned, &cache).unwrap_err();
        match &error {
            BuildError::PlannedBuildGone {
                entrant,
                now,
                short,
                ..
            } => {
                assert_eq!(entrant, "team");
                assert_eq!(now, "holds another build than the plan's");
                assert_eq!(short, &planned[..12]);
            }
            other => panic!("not a lost build: {other:?}"),
        }
        let text = error.to_string();
        assert!(text.contains(&cache.display().to_string()), "{text}");
        assert!(text.ends_with("or plan the tournament again"), "{text}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_in_process_entrant_full_of_builds_says_why() {
        let error = BuildError::InProcessFull {
            host: HostKind::Thread,
        };
        assert_eq!(
            error.to_string(),
            format!(
                "the thread host never unloads a library, and this entrant has loaded \
                 {MAX_BUILDS_IN_PROCESS} builds in this run"
            )
        );
    }
}
