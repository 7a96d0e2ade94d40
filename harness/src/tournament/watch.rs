//! `agon tournament run --watch`: the folders of the entrants' plugin files are watched while
//! the tournament runs (see `crate::swap`). A new build of an entrant's file that passes
//! validation (its bot, in process hosts, with the tournament's first parameter set) replaces
//! the entrant for every game not yet started; games in flight finish with the build they
//! started with. Every game is seated from a content-addressed copy, never from the watched
//! file, so a game always plays the build its journal line names.

use super::plan::{sandbox_config, Plan};
use crate::swap::intake::{Arrival, Intake};
use crate::swap::sparring::Sparring;
use crate::swap::validation::{Candidate, Validator};
use agon_engine::bot_spec::BotSpec;
use agon_engine::host::{HostKind, ProcessHostConfig};
use agon_engine::loader::{file_version, FileVersion, StagedPlugin};
use agon_engine::record::Budgets;
use agon_engine::seating::Hosting;
use agon_engine::seed::SeedSecret;
use crossbeam_channel::Receiver;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long a file written in place must stay unchanged before it is taken.
const SETTLE: Duration = Duration::from_millis(500);

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
    ) -> Result<Builds, String> {
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
    fn sparring(&self, plan: &Plan, candidate: usize) -> Sparring {
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
) -> Result<(PathBuf, bool), String> {
    let read = StagedPlugin::read(file);
    if let Ok(bytes) = &read {
        if agon_engine::loader::sha256_hex(bytes) == sha256 {
            return StagedPlugin::stage_bytes(file, bytes, cache)
                .map(|staged| (staged.copy, true))
                .map_err(|e| e.to_string());
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
        None => Err(format!(
            "entrant `{}`: {} {now}, and the plugin cache {} no longer holds the planned build \
             (sha256 {short}): put that build back in place, or plan the tournament again",
            crate::console::name(name),
            file.display(),
            cache.display()
        )),
    }
}

fn warn_planned_build(name: &str, file: &std::path::Path, now: &str, sha256: &str) {
    eprintln!(
        "agon: warning: entrant `{}`: {} {now}; this run plays the planned build (sha256 {}) \
         from the plugin cache to the end (`--watch` takes new builds)",
        crate::console::name(name),
        crate::console::path_name(file),
        &sha256[..12.min(sha256.len())],
    );
}

/// The folders to watch, with the entrants whose file is in each, by file name.
fn folders(plan: &Plan) -> BTreeMap<PathBuf, BTreeMap<String, Vec<usize>>> {
    let mut folders: BTreeMap<PathBuf, BTreeMap<String, Vec<usize>>> = BTreeMap::new();
    for i in 0..plan.entrants.len() {
        let file = plan.spec(i).file;
        let (Some(dir), Some(name)) = (file.parent(), file.file_name()) else {
            continue;
        };
        folders
            .entry(dir.to_path_buf())
            .or_default()
            .entry(name.to_string_lossy().into_owned())
            .or_default()
            .push(i);
    }
    folders
}

/// Watches the entrants' folders until `stop` is set, swapping builds in `builds`. Runs on the
/// calling thread (with one intake thread per folder).
pub fn watch(plan: &Plan, builds: &Builds, stop: &Arc<AtomicBool>) -> Result<(), String> {
    let validation = Hosting {
        kind: HostKind::Process,
        process: Some(ProcessHostConfig::locate(sandbox_config(&plan.settings))?),
        cache: agon_engine::loader::cache_dir(),
    };
    let folders = folders(plan);
    let (tx, rx) = crossbeam_channel::unbounded::<(PathBuf, Arrival)>();
    std::thread::scope(|scope| {
        for dir in folders.keys() {
            let (arrivals_tx, arrivals_rx) = crossbeam_channel::unbounded();
            let intake = Intake::new(dir, SETTLE);
            let intake_stop = stop.clone();
            scope.spawn(move || {
                if let Err(e) = intake.run(arrivals_tx, intake_stop) {
                    log::error!("--watch: {e}");
                }
            });
            let tx = tx.clone();
            scope.spawn(move || {
                for arrival in arrivals_rx {
                    if tx.send((dir.clone(), arrival)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        take_arrivals(plan, builds, &folders, &validation, &rx);
    });
    Ok(())
}

fn take_arrivals(
    plan: &Plan,
    builds: &Builds,
    folders: &BTreeMap<PathBuf, BTreeMap<String, Vec<usize>>>,
    validation: &Hosting,
    arrivals: &Receiver<(PathBuf, Arrival)>,
) {
    for (dir, arrival) in arrivals {
        let candidate = match arrival {
            Arrival::Candidate(candidate) => candidate,
            Arrival::Unusable { slot, reason } => {
                if folders.get(&dir).is_some_and(|f| f.contains_key(&slot)) {
                    log::warn!(
                        "{}: not taken, the entrant keeps its build: {reason}",
                        dir.join(&slot).display()
                    );
                }
                continue;
            }
            // A removed file: the entrant keeps playing its current build.
            Arrival::Removed { .. } | Arrival::FirstListingDone => continue,
        };
        let Some(entrants) = folders.get(&dir).and_then(|f| f.get(&candidate.slot)) else {
            continue; // not an entrant's file
        };
        let sha = agon_engine::loader::sha256_hex(&candidate.bytes);
        for &entrant in entrants {
            let now = builds.current(entrant);
            if now.sha256 == sha {
                continue;
            }
            take(plan, builds, entrant, &candidate, validation);
        }
    }
}

fn take(plan: &Plan, builds: &Builds, entrant: usize, candidate: &Candidate, validation: &Hosting) {
    let name = &plan.entrants[entrant].name;
    let planned = plan.spec(entrant);
    let validator = Validator {
        game: plan.settings.game.clone(),
        params: plan
            .param_sets
            .first()
            .map(|p| p.params.clone())
            .unwrap_or_default(),
        budgets: Budgets {
            start_ms: (plan.settings.start_ms > 0).then_some(plan.settings.start_ms),
            move_ms: (plan.settings.move_ms > 0).then_some(plan.settings.move_ms),
            clock: plan.settings.clock,
        },
        fault_policy: plan.settings.on_fault,
        hosting: match super::plan::hosting(&plan.settings) {
            Ok(hosting) => hosting,
            Err(e) => {
                log::warn!("entrant `{name}`: new build not validated: {e}");
                return;
            }
        },
        inspection: validation.clone(),
        configured: [(candidate.slot.clone(), planned.clone())].into(),
        seed_secret: builds.seed_secret,
        sparring: Arc::new(builds.sparring(plan, entrant)),
    };
    let validated = match validator.validate(candidate) {
        Ok(v) => v,
        Err(refusal) => {
            log::warn!(
                "entrant `{name}`: new build of {} refused, the entrant keeps its build: {}",
                candidate.path.display(),
                refusal.reason
            );
            return;
        }
    };
    let in_process = matches!(plan.settings.host, HostKind::Thread | HostKind::Inline);
    let mut current = builds.current.lock().unwrap_or_else(|p| p.into_inner());
    let slot = &mut current[entrant];
    if in_process && slot.loaded >= MAX_BUILDS_IN_PROCESS {
        log::warn!(
            "entrant `{name}`: new build refused: the {} host never unloads a library, and this \
             entrant has loaded {MAX_BUILDS_IN_PROCESS} builds in this run",
            plan.settings.host
        );
        return;
    }
    let build = validated.build;
    eprintln!(
        "agon: entrant `{}`: new build (sha256 {}) plays the games not yet started",
        crate::console::name(name),
        &build.sha256[..12.min(build.sha256.len())]
    );
    *slot = Current {
        spec: BotSpec {
            file: build.copy,
            ..planned
        },
        sha256: build.sha256,
        loaded: slot.loaded + 1,
    };
}

/// Stops the watchers when dropped.
pub struct StopOnDrop(pub Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}
