//! Which games are being played on an in-process host (thread, inline), so that a bot that
//! crashes the whole engine (a segfault in team code kills every thread) is named when the
//! tournament is resumed, and an entrant that did it twice is excluded instead of crashing every
//! resume. A process host needs none of this: a crash there ends only the bot's own process.
//!
//! Before such a game starts, `in-flight/<game id>` is written with its entrants; it is removed
//! once the game is recorded. Files left behind when the engine opens the folder again (under
//! the journal's lock, so no running writer owns them) mean the engine died with those games in
//! flight: each such death is appended to `crashes.jsonl`.

use super::journal::{self, Content, Entry, JournalFault};
use super::plan::{GameSpec, Plan};
use agon_engine::fault::FaultCause;
use agon_games::contract::{Outcome, Termination};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};

pub const FOLDER: &str = "in-flight";
pub const CRASHES: &str = "crashes.jsonl";

/// Different games of an entrant's, each alone in flight when the engine died, after which it
/// is excluded. Alone: with several games in flight a crash blames no one, so once the engine
/// has died, the folder's runs play one game at a time. Different games: a game that crashed is
/// played again and would crash again with both its entrants in it; so games that crashed are
/// played last (fewest crashes first), and the entrant common to two is the one to blame.
pub const CRASHES_TO_EXCLUDE: usize = 2;

/// One death of the engine: the games that were in flight.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Crash {
    pub games: Vec<CrashedGame>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CrashedGame {
    pub id: String,
    /// Its entrants (empty when its marker was unreadable).
    pub entrants: Vec<String>,
}

/// The marker of one game in flight.
#[derive(Debug, Serialize, Deserialize)]
struct Marker {
    entrants: Vec<String>,
}

fn marker_path(dir: &Path, id: &str) -> PathBuf {
    dir.join(FOLDER).join(id)
}

/// Marks game `game` as in flight (before its first call to a bot).
pub fn mark(dir: &Path, plan: &Plan, game: &GameSpec) -> Result<(), String> {
    let marker = Marker {
        entrants: game
            .seats
            .iter()
            .map(|&e| plan.entrants[e].name.clone())
            .collect(),
    };
    let path = marker_path(dir, &game.id);
    std::fs::create_dir_all(dir.join(FOLDER))
        .and_then(|()| {
            std::fs::write(
                &path,
                serde_json::to_vec(&marker).expect("a marker serializes"),
            )
        })
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The game is recorded (or was abandoned unrecorded): it is no longer in flight.
pub fn clear(dir: &Path, id: &str) {
    let _ = std::fs::remove_file(marker_path(dir, id));
}

/// Turns the markers a dead engine left into a line of `crashes.jsonl` (games already in the
/// journal do not count: the engine died after recording them); returns that new crash, if
/// any, and every crash so far. Call it holding the journal's lock.
pub fn collect_crashes(
    dir: &Path,
    recorded: &HashSet<&str>,
) -> Result<(Option<Crash>, Vec<Crash>), String> {
    let folder = dir.join(FOLDER);
    let mut games = Vec::new();
    if let Ok(listing) = std::fs::read_dir(&folder) {
        for file in listing.flatten() {
            let id = file.file_name().to_string_lossy().into_owned();
            if !recorded.contains(id.as_str()) {
                // A marker that does not parse still names its game; its entrants are unknown.
                let marker = std::fs::read(file.path())
                    .ok()
                    .and_then(|b| serde_json::from_slice::<Marker>(&b).ok());
                games.push(CrashedGame {
                    id,
                    entrants: marker.map(|m| m.entrants).unwrap_or_default(),
                });
            }
            let _ = std::fs::remove_file(file.path());
        }
    }
    let path = dir.join(CRASHES);
    let mut new = None;
    if !games.is_empty() {
        games.sort_by(|a, b| a.id.cmp(&b.id));
        let crash = Crash { games };
        let mut line = serde_json::to_vec(&crash).expect("a crash serializes");
        line.push(b'\n');
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(&line).and_then(|()| f.sync_all()))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        new = Some(crash);
    }
    Ok((new, read_crashes(&path)?))
}

fn read_crashes(path: &Path) -> Result<Vec<Crash>, String> {
    let mut lines = match journal::open_lines("crash log", path, journal::MAX_LINE) {
        Ok(Some(lines)) => lines,
        Ok(None) => return Ok(Vec::new()),
        Err(_) if !path.exists() => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut crashes = Vec::new();
    while let Some(line) = lines.next_line()? {
        let parsed = match line.content {
            Content::Whole(text) if text.iter().all(u8::is_ascii_whitespace) => continue,
            Content::Whole(text) => serde_json::from_slice(text).map_err(|e| e.to_string()),
            Content::TooLong { .. } => Err(journal::too_long(line.size, journal::MAX_LINE)),
        };
        crashes.push(parsed.map_err(|problem| {
            format!(
                "{} line {}: not a crash entry: {problem}",
                path.display(),
                line.number
            )
        })?);
    }
    Ok(crashes)
}

/// How often each game was in flight at a crash: such games are played last, fewest crashes
/// first, so that other games tell who crashes the engine.
pub fn crashed_games(crashes: &[Crash]) -> BTreeMap<&str, usize> {
    let mut counts = BTreeMap::new();
    for game in crashes.iter().flat_map(|c| &c.games) {
        *counts.entry(game.id.as_str()).or_default() += 1;
    }
    counts
}

/// Entrants with at least [`CRASHES_TO_EXCLUDE`] different games in flight at crashes, with
/// the reason to give.
pub fn entrants_to_exclude(crashes: &[Crash]) -> BTreeMap<String, String> {
    let mut games_of: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let alone = crashes.iter().filter(|c| c.games.len() == 1);
    for game in alone.flat_map(|c| &c.games) {
        for name in &game.entrants {
            let games = games_of.entry(name).or_default();
            if !games.contains(&game.id.as_str()) {
                games.push(&game.id);
            }
        }
    }
    games_of
        .into_iter()
        .filter(|(_, games)| games.len() >= CRASHES_TO_EXCLUDE)
        .map(|(name, games)| {
            (
                name.to_string(),
                format!(
                    "the engine died while {} different games of this entrant were each alone \
                     in flight on an in-process host ({}): it crashes the engine, so it is \
                     excluded and its remaining games are forfeits",
                    games.len(),
                    games.join(", ")
                ),
            )
        })
        .collect()
}

/// The journal entry of a game not played because entrant seat `loser` is excluded.
pub fn forfeit_entry(plan: &Plan, game: &GameSpec, loser: usize, reason: &str) -> Entry {
    let seats = game.seats.len();
    let outcome = Outcome::forfeit(seats, loser, Termination::Forfeit, reason.to_string());
    Entry {
        id: game.id.clone(),
        param_set: game.param_set,
        seed: game.seed,
        seed_secret: None,
        seats: game.seats.clone(),
        names: game
            .seats
            .iter()
            .map(|&e| plan.entrants[e].name.clone())
            .collect(),
        sha256: game
            .seats
            .iter()
            .map(|&e| plan.entrants[e].sha256.clone())
            .collect(),
        winner: outcome.winner,
        scores: outcome.scores,
        ranks: outcome.ranks,
        game_scores: vec![0.0; seats],
        termination: outcome.termination,
        reason: outcome.reason,
        moves: 0,
        faults: vec![JournalFault {
            seat: loser,
            cause: FaultCause::Crash,
            detail: reason.to_string(),
        }],
        game_ms: 0.0,
        ms_per_move: vec![0.0; seats],
        nodes: vec![None; seats],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crash(game: &str, entrants: &[&str]) -> Crash {
        Crash {
            games: vec![CrashedGame {
                id: game.into(),
                entrants: entrants.iter().map(|s| s.to_string()).collect(),
            }],
        }
    }

    #[test]
    fn crashes_in_two_different_games_of_an_entrant_exclude_it() {
        let crashes = vec![crash("g1", &["bad", "a"]), crash("g2", &["b", "bad"])];
        let excluded = entrants_to_exclude(&crashes);
        assert_eq!(excluded.keys().collect::<Vec<_>>(), ["bad"]);
        assert!(excluded["bad"].contains("g1, g2"), "{}", excluded["bad"]);
        assert!(entrants_to_exclude(&crashes[..1]).is_empty());
    }

    #[test]
    fn the_same_game_crashing_twice_blames_neither_entrant() {
        let crashes = vec![crash("g1", &["bad", "a"]), crash("g1", &["bad", "a"])];
        assert!(entrants_to_exclude(&crashes).is_empty());
        assert_eq!(crashed_games(&crashes), BTreeMap::from([("g1", 2)]));
    }

    #[test]
    fn a_crash_with_several_games_in_flight_blames_no_one() {
        let mut both = crash("g1", &["bad", "a"]);
        both.games.extend(crash("g2", &["a", "b"]).games);
        let crashes = vec![crash("g0", &["bad", "a"]), both];
        assert!(entrants_to_exclude(&crashes).is_empty());
    }

    #[test]
    fn markers_left_behind_become_one_crash_and_recorded_games_do_not_count() {
        let dir = std::env::temp_dir().join(format!("agon-in-flight-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join(FOLDER)).unwrap();
        std::fs::write(dir.join(FOLDER).join("g7"), br#"{"entrants":["bad","a"]}"#).unwrap();
        std::fs::write(dir.join(FOLDER).join("g6"), br#"{"entrants":["b","c"]}"#).unwrap();
        std::fs::write(dir.join(FOLDER).join("g8"), b"torn").unwrap();
        let recorded = HashSet::from(["g6"]);
        let (new, crashes) = collect_crashes(&dir, &recorded).unwrap();
        let expected = Crash {
            games: vec![
                CrashedGame {
                    id: "g7".into(),
                    entrants: vec!["bad".into(), "a".into()],
                },
                CrashedGame {
                    id: "g8".into(),
                    entrants: Vec::new(),
                },
            ],
        };
        assert_eq!(new.as_ref(), Some(&expected));
        assert_eq!(crashes, vec![expected]);
        assert_eq!(std::fs::read_dir(dir.join(FOLDER)).unwrap().count(), 0);
        // Nothing left behind: no new crash, the old ones are kept.
        let (new, crashes) = collect_crashes(&dir, &recorded).unwrap();
        assert!(new.is_none());
        assert_eq!(crashes.len(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
