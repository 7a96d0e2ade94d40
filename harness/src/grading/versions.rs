//! An entrant whose build was swapped during a run (`agon tournament run --watch`) played games
//! with more than one build; the journal records each seat's sha256. Before grading, the games
//! are either split by build (each build an entrant of its own, `name v1`, `name v2`, numbered
//! in the order the builds first played) or cut down to the games in which every seat played
//! its entrant's latest build (the config's `versions`).

use crate::tournament::config::SwappedBuilds;
use crate::tournament::entry::Entry;
use crate::tournament::plan::{Entrant, Plan};

/// The plan and games to grade.
pub fn apply(plan: &Plan, entries: &[Entry]) -> (Plan, Vec<Entry>) {
    // Builds per entrant, the planned one first, then in the order of the journal's games.
    let mut builds: Vec<Vec<String>> = plan
        .entrants
        .iter()
        .map(|e| vec![e.sha256.clone()])
        .collect();
    let mut ordered: Vec<&Entry> = entries.iter().collect();
    ordered.sort_by(|a, b| a.id.cmp(&b.id));
    for entry in &ordered {
        for (seat, &entrant) in entry.seats.iter().enumerate() {
            if let (Some(list), Some(sha)) = (builds.get_mut(entrant), entry.sha256.get(seat)) {
                if !list.contains(sha) {
                    list.push(sha.clone());
                }
            }
        }
    }
    if builds.iter().all(|list| list.len() == 1) {
        return (plan.clone(), entries.to_vec());
    }
    match plan.settings.versions {
        SwappedBuilds::Latest => {
            let latest = |entrant: usize, sha: &String| {
                builds.get(entrant).and_then(|l| l.last()) == Some(sha)
            };
            let kept = entries
                .iter()
                .filter(|e| {
                    e.seats
                        .iter()
                        .zip(&e.sha256)
                        .all(|(&entrant, sha)| latest(entrant, sha))
                })
                .cloned()
                .collect();
            (plan.clone(), kept)
        }
        SwappedBuilds::Separate => {
            let mut split = plan.clone();
            split.entrants.clear();
            // (entrant, build) -> index among the split entrants.
            let mut index: Vec<Vec<usize>> = Vec::new();
            for (entrant, list) in plan.entrants.iter().zip(&builds) {
                let mut indices = Vec::new();
                for (n, sha) in list.iter().enumerate() {
                    indices.push(split.entrants.len());
                    split.entrants.push(Entrant {
                        name: if list.len() == 1 {
                            entrant.name.clone()
                        } else {
                            format!("{} v{}", entrant.name, n + 1)
                        },
                        sha256: sha.clone(),
                        ..entrant.clone()
                    });
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
                            .and_then(|sha| builds.get(*entrant)?.iter().position(|b| b == sha));
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
            // The planned pairings name entrants too; a split entrant's games stay planned
            // under its first build.
            for game in &mut split.games {
                for entrant in &mut game.seats {
                    *entrant = index[*entrant][0];
                }
            }
            (split, remapped)
        }
    }
}
