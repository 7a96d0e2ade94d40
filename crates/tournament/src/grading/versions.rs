//! An entrant whose build was swapped during a run (`agon tournament run --watch`) played games
//! with more than one build; the journal records each seat's sha256. Before grading, the games
//! are either split by build (each build an entrant of its own, `name v1`, `name v2`, numbered
//! in the order the builds first played) or cut down to the games in which every seat played
//! its entrant's latest build (the config's `versions`). Either way each graded entrant carries
//! the sha256 and version of the build its games were played with, so that the report says
//! what its grade is of; the version of a build the plan did not record is the one its first
//! game's record names.

use crate::config::SwappedBuilds;
use crate::entry::Entry;
use crate::plan::{Entrant, Plan};

/// A build an entrant played: its sha256 and the first game (and seat) that played it, if one
/// did.
struct Build<'a> {
    sha256: String,
    first: Option<(&'a Entry, usize)>,
}

/// The plugin version a seat of a game played with, from its record.
pub type VersionOf<'a> = &'a dyn Fn(&Entry, usize) -> Option<String>;

/// What a build the plan did not record is called when its game's record is unreadable.
const UNKNOWN_VERSION: &str = "unknown";

/// Builds per entrant, the planned one first, then in the order of the journal's games.
fn builds_played<'a>(plan: &Plan, entries: &'a [Entry]) -> Vec<Vec<Build<'a>>> {
    let mut builds: Vec<Vec<Build>> = plan
        .entrants
        .iter()
        .map(|e| {
            vec![Build {
                sha256: e.sha256.clone(),
                first: None,
            }]
        })
        .collect();
    let mut ordered: Vec<&Entry> = entries.iter().collect();
    ordered.sort_by(|a, b| a.id.cmp(&b.id));
    for entry in ordered {
        for (seat, &entrant) in entry.seats.iter().enumerate() {
            if let (Some(list), Some(sha)) = (builds.get_mut(entrant), entry.sha256.get(seat)) {
                match list.iter_mut().find(|b| &b.sha256 == sha) {
                    Some(build) => {
                        build.first.get_or_insert((entry, seat));
                    }
                    None => list.push(Build {
                        sha256: sha.clone(),
                        first: Some((entry, seat)),
                    }),
                }
            }
        }
    }
    builds
}

/// `entrant` as it played `build`: the plan's entrant for its planned build, else with the
/// build's sha256 and the version its first game's record names.
fn playing(entrant: &Entrant, build: &Build, version_of: VersionOf) -> Entrant {
    if build.sha256 == entrant.sha256 {
        return entrant.clone();
    }
    let version = build
        .first
        .and_then(|(entry, seat)| version_of(entry, seat))
        .unwrap_or_else(|| UNKNOWN_VERSION.into());
    Entrant {
        sha256: build.sha256.clone(),
        version,
        ..entrant.clone()
    }
}

/// The plan and games to grade; `version_of` names the version of a build the plan did not
/// record.
pub fn apply(plan: &Plan, entries: &[Entry], version_of: VersionOf) -> (Plan, Vec<Entry>) {
    let builds = builds_played(plan, entries);
    if builds.iter().all(|list| list.len() == 1) {
        return (plan.clone(), entries.to_vec());
    }
    match plan.settings.versions {
        SwappedBuilds::Latest => latest(plan, entries, &builds, version_of),
        SwappedBuilds::Separate => separate(plan, entries, &builds, version_of),
    }
}

/// The games in which every seat played its entrant's latest build, each entrant as that build.
fn latest(
    plan: &Plan,
    entries: &[Entry],
    builds: &[Vec<Build>],
    version_of: VersionOf,
) -> (Plan, Vec<Entry>) {
    let is_latest = |entrant: usize, sha: &String| {
        builds
            .get(entrant)
            .and_then(|l| l.last())
            .map(|b| &b.sha256)
            == Some(sha)
    };
    let kept = entries
        .iter()
        .filter(|e| {
            e.seats
                .iter()
                .zip(&e.sha256)
                .all(|(&entrant, sha)| is_latest(entrant, sha))
        })
        .cloned()
        .collect();
    let mut graded = plan.clone();
    for (entrant, list) in graded.entrants.iter_mut().zip(builds) {
        if let Some(last) = list.last() {
            *entrant = playing(entrant, last, version_of);
        }
    }
    (graded, kept)
}

/// Every build an entrant of its own, its games remapped to it.
fn separate(
    plan: &Plan,
    entries: &[Entry],
    builds: &[Vec<Build>],
    version_of: VersionOf,
) -> (Plan, Vec<Entry>) {
    let mut split = plan.clone();
    split.entrants.clear();
    // (entrant, build) -> index among the split entrants.
    let mut index: Vec<Vec<usize>> = Vec::new();
    for (entrant, list) in plan.entrants.iter().zip(builds) {
        let mut indices = Vec::new();
        for (n, build) in list.iter().enumerate() {
            indices.push(split.entrants.len());
            let mut as_played = playing(entrant, build, version_of);
            if list.len() > 1 {
                as_played.name = format!("{} v{}", entrant.name, n + 1);
            }
            split.entrants.push(as_played);
        }
        index.push(indices);
    }
    let remapped = entries
        .iter()
        .map(|e| {
            let mut e = e.clone();
            for (seat, entrant) in e.seats.iter_mut().enumerate() {
                let n = e
                    .sha256
                    .get(seat)
                    .and_then(|sha| builds.get(*entrant)?.iter().position(|b| &b.sha256 == sha));
                if let Some(&new) = n.and_then(|n| index.get(*entrant)?.get(n)) {
                    *entrant = new;
                }
            }
            e.names = e
                .seats
                .iter()
                .map(|&i| split.entrants[i].name.clone())
                .collect();
            e
        })
        .collect();
    // The planned pairings name entrants too; a split entrant's games stay planned under its
    // first build.
    for game in &mut split.games {
        for entrant in &mut game.seats {
            *entrant = index[*entrant][0];
        }
    }
    (split, remapped)
}
