//! `agon tournament run --watch`: the folders of the entrants' plugin files are watched while
//! the tournament runs (see `agon_play::swap`). A new build of an entrant's file that passes
//! validation (its bot, in process hosts, with the tournament's first parameter set) replaces
//! the entrant for every game not yet started; games in flight finish with the build they
//! started with. Every game is seated from a content-addressed copy, never from the watched
//! file, so a game always plays the build its journal line names (see [`super::builds`]).

use super::builds::Builds;
use super::plan::Plan;
use agon_engine::{Hosting, LocateError};
use agon_play::stop::Stop;
use agon_play::swap::intake::{Arrival, Intake};
use agon_play::swap::validation::{Candidate, Validator};
use crossbeam_channel::Receiver;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// How long a file written in place must stay unchanged before it is taken.
const SETTLE: Duration = Duration::from_millis(500);

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
pub fn watch(plan: &Plan, builds: &Builds, stop: &Stop) -> Result<(), LocateError> {
    let validation = plan
        .settings
        .profile
        .process_hosting(&agon_engine::loader::cache_dir())?;
    let folders = folders(plan);
    let (tx, rx) = crossbeam_channel::unbounded::<(PathBuf, Arrival)>();
    std::thread::scope(|scope| {
        for dir in folders.keys() {
            let (arrivals_tx, arrivals_rx) = crossbeam_channel::unbounded();
            let intake = Intake::new(dir, SETTLE);
            scope.spawn(move || {
                if let Err(e) = intake.run(arrivals_tx, stop) {
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
            Arrival::Unusable { slot, reason, .. } => {
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
        profile: plan.settings.profile.clone(),
        hosting: match plan.settings.profile.hosting() {
            Ok(hosting) => hosting,
            Err(e) => {
                log::warn!("entrant `{name}`: new build not validated: {e}");
                return;
            }
        },
        inspection: validation.clone(),
        configured: [(candidate.slot.clone(), planned)].into(),
        seed_secret: builds.seed_secret(),
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
    let build = validated.build;
    match builds.take_new(plan, entrant, build.copy, &build.sha256) {
        Ok(()) => eprintln!(
            "agon: entrant `{}`: new build (sha256 {}) plays the games not yet started",
            agon_play::console::name(name),
            &build.sha256[..12.min(build.sha256.len())]
        ),
        Err(why) => log::warn!("entrant `{name}`: new build refused: {why}"),
    }
}
